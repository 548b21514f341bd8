/* diagnosis-app.c - a GLib program that makes each named anti-pattern of
 * docs/report-format.md ("Diagnosis") on its main thread, for
 * tests/check_diagnosis.py
 *
 *   diagnosis-app SCENARIO
 *
 * Each scenario prepares what it needs before the main loop (files, a D-Bus
 * service, a big JSON text: that time is no part of any event), then does
 * the thing inside a timeout callback 50 ms into the loop for about 300 ms,
 * quits the loop 200 ms later and exits 0. It prints "stall=START_NS,END_NS"
 * for each callback's window (CLOCK_MONOTONIC) and "skip=REASON" when this
 * machine cannot run the scenario.
 *
 * Scenarios:
 *   file-io          g_file_get_contents of a 16 MiB file, again and again
 *                    (the page cache holds it: the time is the read() copies
 *                    inside g_file_get_contents, not a disk wait; a non-root
 *                    test cannot drop the cache)
 *   file-open        g_file_get_contents of a FIFO that a worker opens for
 *                    writing after 300 ms: the main thread is blocked in
 *                    openat, whose path argument names the file (printed
 *                    as "path=PATH")
 *   dbus             g_dbus_connection_call_sync to a method that answers
 *                    after 300 ms (a service on a thread of this process, on
 *                    the session bus: run under dbus-run-session)
 *   spawn            g_spawn_command_line_sync ("sleep 0.3")
 *   image            gdk_pixbuf_new_from_file of a 2000x2000 noise PNG made
 *                    at start-up, again and again
 *   json             json_parser_load_from_data of a 4 MiB document, again
 *   regex            a backtracking GRegex ("^(a|aa)+$" on "aaa...b")
 *   font             FcConfigAppFontAddFile of a font file fontconfig lists,
 *                    again and again (skip= without fontconfig or fonts)
 *   sleep            g_usleep (300 ms)
 *   lock             g_mutex_lock of a mutex a worker holds for 300 ms
 *   busy             a computation in the app's own js_test_spin (no pattern)
 *   worker           file-io's, regex's and sleep's work in a worker thread
 *                    while the main thread computes in js_test_spin
 *   mixed            a 250 ms sleep, then 150 ms later a 250 ms JSON parse:
 *                    one episode, two parts
 */
#define _GNU_SOURCE
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#ifdef HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define WORK_MS 300
#define START_MS 50
#define QUIT_AFTER_MS 200

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

static GMainLoop *loop;
static char *tmp_dir;
static char *big_file;
static char *fifo_file;
static char *png_file;
static char *json_text;
static char *font_file;
static GDBusConnection *bus;
static GMutex held_lock;
volatile guint64 js_test_sink;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static void
fail (const char *what, GError *error)
{
  fprintf (stderr, "FAIL %s: %s\n", what, error != NULL ? error->message : "");
  exit (1);
}

/* --- the work, each in a function of its own -------------------------- */

JS_TEST_FUNC void js_test_read_files (gint64 until);
void
js_test_read_files (gint64 until)
{
  while (mono_ns () < until)
    {
      g_autofree char *data = NULL;
      gsize len;
      g_autoptr (GError) error = NULL;

      if (!g_file_get_contents (big_file, &data, &len, &error))
        fail ("g_file_get_contents", error);
      js_test_sink += (guint64) data[len / 2];
    }
}

JS_TEST_FUNC void js_test_read_fifo (void);
void
js_test_read_fifo (void)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) error = NULL;

  /* open () of a FIFO waits for a writer: the worker, 300 ms later. */
  if (!g_file_get_contents (fifo_file, &data, NULL, &error))
    fail ("g_file_get_contents of the FIFO", error);
  js_test_sink += (guint64) data[0];
}

JS_TEST_FUNC void js_test_call_dbus (void);
void
js_test_call_dbus (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_connection_call_sync (
      bus, "org.jankscope.DiagnosisTest", "/org/jankscope/Test", "org.jankscope.DiagnosisTest",
      "Slow", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);

  if (reply == NULL)
    fail ("g_dbus_connection_call_sync", error);
}

JS_TEST_FUNC void js_test_spawn (void);
void
js_test_spawn (void)
{
  g_autoptr (GError) error = NULL;
  int status;

  if (!g_spawn_command_line_sync ("sleep 0.3", NULL, NULL, &status, &error))
    fail ("g_spawn_command_line_sync", error);
}

JS_TEST_FUNC void js_test_decode_images (gint64 until);
void
js_test_decode_images (gint64 until)
{
  while (mono_ns () < until)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GdkPixbuf) p = gdk_pixbuf_new_from_file (png_file, &error);

      if (p == NULL)
        fail ("gdk_pixbuf_new_from_file", error);
      js_test_sink += (guint64) gdk_pixbuf_get_width (p);
    }
}

JS_TEST_FUNC void js_test_parse_json (gint64 until);
void
js_test_parse_json (gint64 until)
{
  while (mono_ns () < until)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;

      if (!json_parser_load_from_data (parser, json_text, -1, &error))
        fail ("json_parser_load_from_data", error);
      js_test_sink += 1;
    }
}

JS_TEST_FUNC void js_test_match_regex (gint64 until);
void
js_test_match_regex (gint64 until)
{
  g_autoptr (GRegex) re = g_regex_new ("^(a|aa)+$", G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, NULL);
  g_autofree char *text = g_strnfill (26, 'a');

  text[25] = 'b';
  while (mono_ns () < until)
    js_test_sink += g_regex_match (re, text, G_REGEX_MATCH_DEFAULT, NULL);
}

JS_TEST_FUNC void js_test_load_fonts (gint64 until);
void
js_test_load_fonts (gint64 until)
{
#ifdef HAVE_FONTCONFIG
  FcConfig *config = FcConfigCreate ();

  while (mono_ns () < until)
    {
      FcConfigAppFontAddFile (config, (const FcChar8 *) font_file);
      FcConfigAppFontClear (config);
    }
  FcConfigDestroy (config);
#endif
}

JS_TEST_FUNC void js_test_sleep (void);
void
js_test_sleep (void)
{
  g_usleep (WORK_MS * 1000);
  __asm__ volatile("" ::: "memory"); /* after the call: no tail call, its caller is this */
}

JS_TEST_FUNC void js_test_lock (void);
void
js_test_lock (void)
{
  g_mutex_lock (&held_lock);
  g_mutex_unlock (&held_lock);
}

JS_TEST_FUNC void js_test_spin (gint64 until);
void
js_test_spin (gint64 until)
{
  guint64 acc = js_test_sink;

  while (mono_ns () < until)
    for (int i = 0; i < 2000; i++)
      acc = acc * G_GUINT64_CONSTANT (2862933555777941757) + G_GUINT64_CONSTANT (3037000493);
  js_test_sink = acc;
}

/* --- preparation, before the loop ------------------------------------- */

static void
make_big_file (void)
{
  gsize size = 16 * 1024 * 1024;
  g_autofree char *data = g_malloc (size);
  g_autoptr (GError) error = NULL;

  for (gsize i = 0; i < size; i++)
    data[i] = (char) ('a' + i % 26);
  big_file = g_build_filename (tmp_dir, "big.txt", NULL);
  if (!g_file_set_contents (big_file, data, (gssize) size, &error))
    fail ("writing the big file", error);
}

static void
make_png (void)
{
  g_autoptr (GdkPixbuf) p = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 2000, 2000);
  g_autoptr (GError) error = NULL;
  guchar *pixels = gdk_pixbuf_get_pixels (p);
  gsize n = (gsize) gdk_pixbuf_get_rowstride (p) * 2000;
  guint32 x = 12345;

  /* Noise: a PNG that does not compress to nothing decodes slowly. */
  for (gsize i = 0; i < n; i++)
    {
      x = x * 1103515245u + 12345u;
      pixels[i] = (guchar) (x >> 16);
    }
  png_file = g_build_filename (tmp_dir, "noise.png", NULL);
  if (!gdk_pixbuf_save (p, png_file, "png", &error, "compression", "1", NULL))
    fail ("gdk_pixbuf_save", error);
}

static void
make_json (void)
{
  GString *s = g_string_new ("[");

  for (int i = 0; i < 40000; i++)
    g_string_append_printf (s,
                            "%s{\"id\": %d, \"name\": \"item %d\", \"tags\": [\"a\", \"b\"], "
                            "\"value\": %d.5, \"ok\": true}",
                            i > 0 ? ", " : "", i, i, i * 7);
  g_string_append (s, "]");
  json_text = g_string_free (s, FALSE);
}

static gboolean
find_font (void)
{
#ifdef HAVE_FONTCONFIG
  FcPattern *pat = FcPatternCreate ();
  FcObjectSet *os = FcObjectSetBuild (FC_FILE, NULL);
  FcFontSet *fs = FcFontList (NULL, pat, os);

  for (int i = 0; fs != NULL && i < fs->nfont && font_file == NULL; i++)
    {
      FcChar8 *file;

      if (FcPatternGetString (fs->fonts[i], FC_FILE, 0, &file) == FcResultMatch)
        font_file = g_strdup ((const char *) file);
    }
  if (fs != NULL)
    FcFontSetDestroy (fs);
  FcObjectSetDestroy (os);
  FcPatternDestroy (pat);
#endif
  return font_file != NULL;
}

/* The D-Bus service: a thread with its own context and connection; Slow
 * answers 300 ms after it is called (a timeout, not a sleep). */
static GMutex service_lock;
static GCond service_cond;
static gboolean service_ready;

static gboolean
answer_later (gpointer invocation)
{
  g_dbus_method_invocation_return_value (invocation, NULL);
  return G_SOURCE_REMOVE;
}

static void
method_call (GDBusConnection *c, const char *sender, const char *path, const char *iface,
             const char *method, GVariant *params, GDBusMethodInvocation *invocation, gpointer data)
{
  GSource *t = g_timeout_source_new (WORK_MS);

  g_source_set_callback (t, answer_later, invocation, NULL);
  g_source_attach (t, g_main_context_get_thread_default ());
  g_source_unref (t);
}

static gpointer
service_thread (gpointer data)
{
  static const char xml[] = "<node><interface name='org.jankscope.DiagnosisTest'>"
                            "<method name='Slow'/></interface></node>";
  static const GDBusInterfaceVTable vtable = { method_call, NULL, NULL, { 0 } };
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (GMainLoop) service_loop = g_main_loop_new (context, FALSE);
  g_autoptr (GDBusNodeInfo) info = NULL;
  g_autoptr (GDBusConnection) c = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *address = NULL;
  g_autoptr (GVariant) owned = NULL;

  g_main_context_push_thread_default (context);
  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (address == NULL)
    fail ("the session bus's address", error);
  c = g_dbus_connection_new_for_address_sync (address,
                                              G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                                  | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                              NULL, NULL, &error);
  if (c == NULL)
    fail ("the service's connection", error);
  info = g_dbus_node_info_new_for_xml (xml, &error);
  if (info == NULL
      || !g_dbus_connection_register_object (c, "/org/jankscope/Test", info->interfaces[0], &vtable,
                                             NULL, NULL, &error))
    fail ("registering the object", error);
  owned = g_dbus_connection_call_sync (
      c, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
      g_variant_new ("(su)", "org.jankscope.DiagnosisTest", 4), G_VARIANT_TYPE ("(u)"),
      G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  if (owned == NULL)
    fail ("owning the name", error);
  g_mutex_lock (&service_lock);
  service_ready = TRUE;
  g_cond_signal (&service_cond);
  g_mutex_unlock (&service_lock);
  g_main_loop_run (service_loop);
  return NULL;
}

static void
start_service (void)
{
  g_autoptr (GError) error = NULL;

  g_thread_unref (g_thread_new ("dbus-service", service_thread, NULL));
  g_mutex_lock (&service_lock);
  while (!service_ready)
    g_cond_wait (&service_cond, &service_lock);
  g_mutex_unlock (&service_lock);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    fail ("the session bus", error);
}

/* --- worker threads ----------------------------------------------------- */

static gpointer
lock_holder (gpointer data)
{
  g_mutex_lock (&held_lock);
  /* The main thread's callback starts at START_MS; hold the lock past it. */
  g_usleep ((START_MS + WORK_MS) * 1000);
  g_mutex_unlock (&held_lock);
  return NULL;
}

static gpointer
fifo_writer (gpointer data)
{
  int fd;

  g_usleep ((START_MS + WORK_MS) * 1000);
  fd = open (fifo_file, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, "{}\n", 3) != 3)
    fail ("writing the FIFO", NULL);
  close (fd);
  return NULL;
}

static void
make_fifo (void)
{
  fifo_file = g_build_filename (tmp_dir, "settings.fifo", NULL);
  if (mkfifo (fifo_file, 0600) != 0)
    fail ("mkfifo", NULL);
  printf ("path=%s\n", fifo_file);
  fflush (stdout);
  g_thread_unref (g_thread_new ("fifo-writer", fifo_writer, NULL));
}

static gpointer
worker (gpointer data)
{
  gint64 until = mono_ns () + (START_MS + WORK_MS + 100) * NS_PER_MS;

  while (mono_ns () < until)
    {
      js_test_read_files (mono_ns () + 20 * NS_PER_MS);
      js_test_match_regex (mono_ns () + 20 * NS_PER_MS);
      g_usleep (10 * 1000);
    }
  return NULL;
}

/* --- the callbacks ------------------------------------------------------- */

static const char *scenario;

static gboolean
quit (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
do_work (const char *what)
{
  gint64 until = mono_ns () + WORK_MS * NS_PER_MS;

  if (strcmp (what, "file-io") == 0)
    js_test_read_files (until);
  else if (strcmp (what, "file-open") == 0)
    js_test_read_fifo ();
  else if (strcmp (what, "dbus") == 0)
    js_test_call_dbus ();
  else if (strcmp (what, "spawn") == 0)
    js_test_spawn ();
  else if (strcmp (what, "image") == 0)
    js_test_decode_images (until);
  else if (strcmp (what, "json") == 0)
    js_test_parse_json (until);
  else if (strcmp (what, "regex") == 0)
    js_test_match_regex (until);
  else if (strcmp (what, "font") == 0)
    js_test_load_fonts (until);
  else if (strcmp (what, "sleep") == 0)
    js_test_sleep ();
  else if (strcmp (what, "lock") == 0)
    js_test_lock ();
  else
    js_test_spin (until);
}

static gboolean
work (gpointer what)
{
  gint64 start = mono_ns ();

  do_work (what);
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, mono_ns ());
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static gboolean
second_work (gpointer what)
{
  work (what);
  g_timeout_add (QUIT_AFTER_MS, quit, NULL);
  return G_SOURCE_REMOVE;
}

static gboolean
first_work (gpointer what)
{
  work (what);
  if (strcmp (scenario, "mixed") == 0)
    g_timeout_add (150, second_work, (gpointer) "json");
  else
    g_timeout_add (QUIT_AFTER_MS, quit, NULL);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  const char *what;

  if (argc != 2)
    {
      fprintf (stderr, "usage: diagnosis-app SCENARIO\n");
      return 2;
    }
  scenario = argv[1];
  tmp_dir = g_dir_make_tmp ("diagnosis-app-XXXXXX", NULL);
  if (tmp_dir == NULL)
    fail ("a temporary folder", NULL);
  what = scenario;
  if (strcmp (scenario, "file-io") == 0 || strcmp (scenario, "worker") == 0)
    make_big_file ();
  if (strcmp (scenario, "file-open") == 0)
    make_fifo ();
  if (strcmp (scenario, "image") == 0)
    make_png ();
  if (strcmp (scenario, "json") == 0 || strcmp (scenario, "mixed") == 0)
    make_json ();
  if (strcmp (scenario, "dbus") == 0)
    start_service ();
  if (strcmp (scenario, "font") == 0 && !find_font ())
    {
      printf ("skip=no fontconfig, or no font it lists\n");
      return 0;
    }
  if (strcmp (scenario, "lock") == 0)
    g_thread_unref (g_thread_new ("lock-holder", lock_holder, NULL));
  if (strcmp (scenario, "worker") == 0)
    {
      g_thread_unref (g_thread_new ("worker", worker, NULL));
      what = "busy";
    }
  if (strcmp (scenario, "mixed") == 0)
    what = "sleep";
  loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (START_MS, first_work, (gpointer) what);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  if (big_file != NULL)
    g_unlink (big_file);
  if (png_file != NULL)
    g_unlink (png_file);
  if (fifo_file != NULL)
    g_unlink (fifo_file);
  g_rmdir (tmp_dir);
  return 0;
}
