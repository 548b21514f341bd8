/* context-gtk4.c - a GTK4 application whose stalls carry context
 * (tests/check_context.py):
 *
 * - before its window is presented, an idle spins 120 ms: start-up (no frame
 *   yet), in scene "inbox";
 * - 1500 ms after the window is mapped, a timeout spins 120 ms while the
 *   window, titled "jankscope context: inbox", has the focus;
 * - the title becomes "jankscope context: settings", and 1200 ms later
 *   another timeout spins 120 ms; the application quits 700 ms after that.
 *
 * The pauses are well over jankscope's merge gap (500 ms): slow parts closer
 * than that form one event, and on a loaded machine the first frames are slow
 * parts of their own.
 *
 * Prints stall.NAME=START_NS,END_NS for each stall, mapped=1, active=0|1
 * (whether GTK saw the window focused) and the GTK version.
 */
#include <jankscope.h>

#include <gtk/gtk.h>
#include <stdio.h>
#include <unistd.h>

static GtkApplication *app;
static GtkWindow *window;

static void
stall (const char *name, guint ms)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + (gint64) ms * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall.%s=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", name, start * 1000, now * 1000);
}

static gboolean
quit_cb (gpointer data)
{
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

gboolean ctx_settings_stall_cb (gpointer data);
gboolean ctx_inbox_stall_cb (gpointer data);
gboolean ctx_before_present_cb (gpointer data);

gboolean
ctx_settings_stall_cb (gpointer data)
{
  stall ("settings", 120);
  g_source_set_name_by_id (g_timeout_add (700, quit_cb, NULL), "ctx-quit");
  return G_SOURCE_REMOVE;
}

gboolean
ctx_inbox_stall_cb (gpointer data)
{
  printf ("active=%d\n", gtk_window_is_active (window));
  stall ("inbox", 120);
  gtk_window_set_title (window, "jankscope context: settings");
  jankscope_scene_pop ();
  jankscope_scene_push ("settings");
  g_source_set_name_by_id (g_timeout_add (1200, ctx_settings_stall_cb, NULL), "ctx-settings");
  return G_SOURCE_REMOVE;
}

static void
window_mapped_cb (GtkWidget *widget, gpointer data)
{
  printf ("mapped=1\n");
  g_source_set_name_by_id (g_timeout_add (1500, ctx_inbox_stall_cb, NULL), "ctx-inbox");
}

gboolean
ctx_before_present_cb (gpointer data)
{
  stall ("startup", 120);
  gtk_window_present (window);
  return G_SOURCE_REMOVE;
}

static void
activate_cb (GApplication *application, gpointer data)
{
  window = GTK_WINDOW (gtk_application_window_new (GTK_APPLICATION (application)));
  gtk_window_set_title (window, "jankscope context: inbox");
  gtk_window_set_child (window, gtk_label_new ("jankscope context test"));
  g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), NULL);
  jankscope_scene_push ("inbox");
  g_source_set_name_by_id (g_idle_add (ctx_before_present_cb, NULL), "ctx-before-present");
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: context-gtk4 did not end within 30 s\n");
  _exit (99);
  return NULL;
}

int
main (int argc, char **argv)
{
  int status;

  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  printf ("api_active=%d\n", jankscope_is_active ());
  app = gtk_application_new ("org.jankscope.tests.ContextGtk4", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), argc, argv);
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  g_object_unref (app);
  return status;
}
