/* Unit tests of where the symbolizer finds debug information
 * (js-debug-files.c, js-debuginfod.c, js-symbolizer.c): the test module
 * tests/apps/debuginfo-module.c, split by tests/apps/split-debug.sh the ways
 * distributions ship it, symbolized through an offline module registry
 * (js_modules_new_offline: the module is never loaded, only its file and
 * build-id are known, as an offline `symbolize` would have them). Each
 * route must name the module's static functions; the stripped control must
 * not; non-regular files and wrong build-ids are refused; a debuginfod
 * download comes on its own thread (file:// URLs, no server) and one that
 * never answers gives up when told to.
 *
 * DEBUGINFO_MODULE_PATH: the module as built (-g, not stripped);
 * DEBUGINFO_VARIANTS_DIR: split-debug.sh's output. */
#define _GNU_SOURCE
#include "js-clock.h"
#include "js-debug-files.h"
#include "js-modules.h"
#include "js-symbolizer.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODULE_NAME "libdebuginfo-module.so"
#define MODULE_BASE G_GUINT64_CONSTANT (0x7f0000000000)

static guint64 spin_offset, callback_offset;
static char *build_id;

/* A static function's offset, from the unstripped module's .symtab. */
static guint64
symbol_offset (const char *path, const char *wanted)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  Elf_Scn *scn = NULL;
  guint64 found = 0;

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  while ((scn = elf_nextscn (elf, scn)) != NULL && found == 0)
    {
      GElf_Shdr shdr;
      Elf_Data *data;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_SYMTAB)
        continue;
      data = elf_getdata (scn, NULL);
      for (gsize i = 0; data != NULL && i < shdr.sh_size / shdr.sh_entsize; i++)
        {
          GElf_Sym sym;
          const char *name;

          if (gelf_getsym (data, (int) i, &sym) == NULL)
            continue;
          name = elf_strptr (elf, shdr.sh_link, sym.st_name);
          if (name != NULL && strcmp (name, wanted) == 0)
            found = sym.st_value;
        }
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (found, !=, 0);
  return found;
}

static char *
variant (const char *sub)
{
  return g_build_filename (DEBUGINFO_VARIANTS_DIR, sub, NULL);
}

typedef struct
{
  JsModules *modules;
  JsSymbolizer *symbolizer;
  GArray *frames;
  guint id;
} Lookup;

/* A symbolizer for the module at `path` (never loaded), with these debug
 * roots. */
static void
lookup_init (Lookup *l, const char *path, const char *const *dirs, gboolean debuginfod)
{
  l->modules = js_modules_new_offline ();
  l->id = js_modules_add (l->modules, path, build_id, MODULE_BASE, 0x100000);
  g_assert_cmpuint (l->id, !=, 0);
  l->symbolizer = js_symbolizer_new (l->modules, debuginfod);
  js_symbolizer_set_debug_dirs (l->symbolizer, dirs);
  l->frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
}

static void
lookup_clear (Lookup *l)
{
  js_symbolizer_free (l->symbolizer);
  js_modules_free (l->modules);
  g_array_unref (l->frames);
}

/* The outermost frame (the function itself) at `offset` in the module. */
static const JsFrame *
frame_at (Lookup *l, guint64 offset)
{
  g_array_set_size (l->frames, 0);
  g_assert_cmpuint (
      js_symbolizer_lookup_in (l->symbolizer, l->id, MODULE_BASE + offset, FALSE, l->frames), >=,
      1);
  return &g_array_index (l->frames, JsFrame, l->frames->len - 1);
}

/* What a route must give: both static functions by name, with or without
 * file:line. */
static void
check_named (const char *path, const char *const *dirs, gboolean with_lines)
{
  Lookup l;
  const JsFrame *f;

  lookup_init (&l, path, dirs, FALSE);
  f = frame_at (&l, spin_offset + 4);
  g_assert_cmpstr (f->function, ==, "debuginfo_static_spin");
  g_assert_cmpuint (f->module, ==, l.id);
  g_assert_cmpuint (f->offset, ==, spin_offset + 4);
  g_assert_false (f->provisional);
  if (with_lines)
    {
      g_assert_nonnull (f->file);
      g_assert_true (g_str_has_suffix (f->file, "debuginfo-module.c"));
      g_assert_cmpuint (f->line, >, 0);
    }
  else
    {
      g_assert_null (f->file);
      g_assert_cmpuint (f->line, ==, 0);
    }
  f = frame_at (&l, callback_offset);
  g_assert_cmpstr (f->function, ==, "debuginfo_static_callback");
  g_assert_true (with_lines == (f->file != NULL));
  lookup_clear (&l);
}

/* No name for the static functions (and none borrowed from a neighbour);
 * the exported one has its name from .dynsym when the file is there. */
static void
check_unnamed (const char *path, const char *const *dirs)
{
  Lookup l;
  guint64 exported = symbol_offset (DEBUGINFO_MODULE_PATH, "js_test_debuginfo_callback");

  lookup_init (&l, path, dirs, FALSE);
  g_assert_null (frame_at (&l, spin_offset + 4)->function);
  g_assert_null (frame_at (&l, callback_offset)->function);
  g_assert_null (frame_at (&l, callback_offset)->file);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    g_assert_cmpstr (frame_at (&l, exported)->function, ==, "js_test_debuginfo_callback");
  lookup_clear (&l);
}

static void
test_stripped (void)
{
  g_autofree char *path = variant ("stripped/" MODULE_NAME);

  check_unnamed (path, NULL);
}

static void
test_not_stripped (void)
{
  check_named (DEBUGINFO_MODULE_PATH, NULL, TRUE);
}

static void
test_build_id (void)
{
  g_autofree char *path = variant ("build-id/" MODULE_NAME);
  g_autofree char *root = variant ("build-id-root");
  const char *dirs[] = { "/nonexistent/debug", root, NULL };

  check_named (path, dirs, TRUE);
  /* Not without the root: /usr/lib/debug does not have it. */
  check_unnamed (path, NULL);
}

static void
test_debuglink_beside (void)
{
  g_autofree char *path = variant ("debuglink/" MODULE_NAME);

  check_named (path, NULL, TRUE);
}

static void
test_debuglink_dot_debug (void)
{
  g_autofree char *path = variant ("debuglink-dot/" MODULE_NAME);

  check_named (path, NULL, TRUE);
}

static void
test_debuglink_root (void)
{
  g_autofree char *path = variant ("debuglink-root-module/" MODULE_NAME);
  g_autofree char *root = variant ("debuglink-root");
  const char *dirs[] = { root, NULL };

  check_named (path, dirs, TRUE);
  check_unnamed (path, NULL);
}

static void
test_minidebuginfo (void)
{
  g_autofree char *path = variant ("minidebuginfo/" MODULE_NAME);

  /* Names of the static functions, no lines. */
  check_named (path, NULL, FALSE);
}

static void
test_precedence (void)
{
  g_autofree char *path = variant ("minidebuginfo/" MODULE_NAME);
  g_autofree char *root = variant ("build-id-root");
  const char *dirs[] = { root, NULL };

  /* A debug file wins over MiniDebugInfo: lines too. */
  check_named (path, dirs, TRUE);
}

/* Past the deadline (the app's exit, whose wait is bounded) no
 * MiniDebugInfo is decompressed; .dynsym is still read. */
static void
test_minidebuginfo_deadline (void)
{
  g_autofree char *mini = variant ("minidebuginfo/" MODULE_NAME);
  g_autofree char *stripped = variant ("stripped/" MODULE_NAME);
  guint64 exported = symbol_offset (DEBUGINFO_MODULE_PATH, "js_test_debuginfo_callback");
  JsSymbolizerStats stats;
  Lookup l;

  lookup_init (&l, mini, NULL, FALSE);
  js_symbolizer_set_deadline (l.symbolizer, js_now_ns ());
  g_assert_null (frame_at (&l, spin_offset + 4)->function);
  js_symbolizer_get_stats (l.symbolizer, &stats);
  g_assert_cmpuint (stats.deadline_skips, >=, 1);
  /* Not cached: without the deadline it is named. */
  js_symbolizer_set_deadline (l.symbolizer, 0);
  g_assert_cmpstr (frame_at (&l, spin_offset + 4)->function, ==, "debuginfo_static_spin");
  lookup_clear (&l);

  lookup_init (&l, stripped, NULL, FALSE);
  js_symbolizer_set_deadline (l.symbolizer, js_now_ns ());
  g_assert_cmpstr (frame_at (&l, exported)->function, ==, "js_test_debuginfo_callback");
  lookup_clear (&l);
}

/* A root made for one test, removed after it. */
static char *
make_root (void)
{
  GError *error = NULL;
  char *root = g_dir_make_tmp ("jankscope-debug-root-XXXXXX", &error);

  g_assert_no_error (error);
  return root;
}

static void
remove_tree (const char *path)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", path);

  g_assert_cmpint (system (command), ==, 0);
}

static char *
build_id_path (const char *root, const char *suffix)
{
  g_autofree char *dir = g_strndup (build_id, 2);
  g_autofree char *file = g_strconcat (build_id + 2, suffix, NULL);

  return g_build_filename (root, ".build-id", dir, file, NULL);
}

static void
copy_file (const char *from, const char *to)
{
  g_autofree char *contents = NULL;
  gsize length;
  g_autofree char *dir = g_path_get_dirname (to);

  g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (to, contents, (gssize) length, NULL));
}

/* A FIFO where the debug file would be: refused at once (opening it for
 * reading would wait for a writer for ever); so is a directory. */
static void
test_not_regular (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *fifo = build_id_path (root, ".debug");
  g_autofree char *dir = g_path_get_dirname (fifo);
  g_autofree char *path = variant ("build-id/" MODULE_NAME);
  const char *dirs[] = { root, NULL };
  gint64 start;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  start = js_now_ns ();
  check_unnamed (path, dirs);
  /* Not a speed check: a blocking open would never have returned. */
  g_assert_cmpint (js_now_ns () - start, <, 60 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpint (g_unlink (fifo), ==, 0);
  g_assert_cmpint (g_mkdir (fifo, 0700), ==, 0);
  check_unnamed (path, dirs);
  g_assert_cmpint (js_debug_files_open_checked (dir, NULL, 0), ==, -1);
  remove_tree (root);
}

/* A debug file of another build at the build-id's path is refused. */
static void
test_wrong_build_id (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *at = build_id_path (root, ".debug");
  g_autofree char *path = variant ("build-id/" MODULE_NAME);
  const char *dirs[] = { root, NULL };

  /* This test program: an ELF file with debug information and another id. */
  copy_file ("/proc/self/exe", at);
  check_unnamed (path, dirs);
  remove_tree (root);
}

/* A module whose file is gone: its original by build-id
 * (ROOT/.build-id/xx/rest, no .debug), as for an upgraded library. */
static void
test_file_gone (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *original = build_id_path (root, "");
  const char *dirs[] = { root, NULL };

  copy_file (DEBUGINFO_MODULE_PATH, original);
  check_named ("/nonexistent/" MODULE_NAME, dirs, TRUE);
  check_unnamed ("/nonexistent/" MODULE_NAME, NULL);
  remove_tree (root);
}

static void
test_bad_dirs (void)
{
  const char *dirs[] = { "relative/dir", "", "/nonexistent", NULL };
  JsDebugFiles *files = js_debug_files_new (dirs);

  /* Only absolute roots, then the system's. */
  g_assert_cmpstr (js_debug_files_search_path (files), ==, "/nonexistent:/usr/lib/debug");
  js_debug_files_free (files);
  files = js_debug_files_new (NULL);
  g_assert_cmpstr (js_debug_files_search_path (files), ==, "/usr/lib/debug");
  g_assert_cmpint (js_debug_files_open_debuginfo (files, "/x", NULL, 0, "x.debug", NULL), ==, -1);
  js_debug_files_free (files);
}

/* --- debuginfod -------------------------------------------------------- */

static gboolean
have_libdebuginfod (void)
{
  void *lib = dlopen ("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);

  if (lib == NULL)
    return FALSE;
  dlclose (lib);
  return TRUE;
}

/* Waits (bounded) until the symbolizer's generation moves from `from`. */
static gboolean
wait_generation (JsSymbolizer *s, guint from)
{
  for (int i = 0; i < 3000; i++)
    {
      if (js_symbolizer_generation (s) != from)
        return TRUE;
      g_usleep (10000);
    }
  return FALSE;
}

/* A debuginfod "server" that is a directory (file:// URLs: the client's
 * own; no network): the first lookup is provisional (MiniDebugInfo names),
 * the file comes on the fetch thread, the next lookup has the lines. */
static void
test_debuginfod_fetch_body (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *served = g_build_filename (root, "buildid", build_id, "debuginfo", NULL);
  g_autofree char *debug = variant ("debuginfod/" MODULE_NAME ".debug");
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *urls = g_strconcat ("file://", root, NULL);
  g_autofree char *path = variant ("minidebuginfo/" MODULE_NAME);
  JsSymbolizerStats stats;
  const JsFrame *f;
  guint generation;
  Lookup l;

  if (!have_libdebuginfod ())
    {
      g_test_skip ("no libdebuginfod.so.1");
      return;
    }
  copy_file (debug, served);
  g_setenv ("DEBUGINFOD_URLS", urls, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  lookup_init (&l, path, NULL, TRUE);
  generation = js_symbolizer_generation (l.symbolizer);
  f = frame_at (&l, spin_offset + 4);
  /* Asked for, not there yet (or there already: the thread is quick). */
  g_test_message ("first lookup %s", f->provisional ? "provisional" : "final");
  if (f->provisional)
    {
      /* MiniDebugInfo meanwhile (or the file already, if it came between
       * libdwfl's two requests for it: symbols, then DWARF). */
      g_assert_cmpstr (f->function, ==, "debuginfo_static_spin");
      g_assert_true (wait_generation (l.symbolizer, generation));
    }
  f = frame_at (&l, spin_offset + 4);
  g_assert_false (f->provisional);
  g_assert_cmpstr (f->function, ==, "debuginfo_static_spin");
  g_assert_nonnull (f->file);
  g_assert_true (g_str_has_suffix (f->file, "debuginfo-module.c"));
  js_symbolizer_get_stats (l.symbolizer, &stats);
  g_assert_true (stats.debuginfod_on);
  g_assert_cmpuint (stats.debuginfod.requested, ==, 1);
  g_assert_cmpuint (stats.debuginfod.found, ==, 1);
  g_assert_cmpuint (stats.debuginfod.pending, ==, 0);
  /* In the client's cache now. */
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_DIR));
  lookup_clear (&l);
  remove_tree (root);
}

/* A server that accepts and never answers: the lookup never waits, the
 * download stays pending until the deadline (the app's exit) stops it;
 * then it gives up at the client's next progress call. */
static void
test_debuginfod_silent_body (void)
{
  g_autofree char *root = make_root ();
  g_autofree char *cache = g_build_filename (root, "cache", NULL);
  g_autofree char *urls = NULL;
  g_autofree char *path = variant ("stripped/" MODULE_NAME);
  struct sockaddr_in addr = { .sin_family = AF_INET };
  socklen_t len = sizeof addr;
  JsSymbolizerStats stats;
  guint generation;
  gint64 start;
  Lookup l;
  int listener;

  if (!have_libdebuginfod ())
    {
      g_test_skip ("no libdebuginfod.so.1");
      return;
    }
  /* The kernel completes connections into the backlog: no accept, no
   * answer. */
  listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (listener, >=, 0);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (listener, 16), ==, 0);
  g_assert_cmpint (getsockname (listener, (struct sockaddr *) &addr, &len), ==, 0);
  urls = g_strdup_printf ("http://127.0.0.1:%u", ntohs (addr.sin_port));
  g_setenv ("DEBUGINFOD_URLS", urls, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);

  lookup_init (&l, path, NULL, TRUE);
  generation = js_symbolizer_generation (l.symbolizer);
  start = js_now_ns ();
  g_assert_true (frame_at (&l, spin_offset + 4)->provisional);
  g_assert_true (frame_at (&l, callback_offset)->provisional);
  /* Never waited for (not a speed check: a wait would take the client's
   * 90 s). */
  g_assert_cmpint (js_now_ns () - start, <, 30 * G_GINT64_CONSTANT (1000000000));
  g_usleep (1200 * 1000); /* the request is under way */
  js_symbolizer_get_stats (l.symbolizer, &stats);
  g_assert_cmpuint (stats.debuginfod.pending, ==, 1);
  g_assert_cmpuint (js_symbolizer_generation (l.symbolizer), ==, generation);

  /* The exit: gives up (at the next progress call, about a second). */
  js_symbolizer_set_deadline (l.symbolizer, js_now_ns ());
  g_assert_true (wait_generation (l.symbolizer, generation));
  js_symbolizer_get_stats (l.symbolizer, &stats);
  g_assert_cmpuint (stats.debuginfod.pending, ==, 0);
  g_assert_cmpuint (stats.debuginfod.given_up, ==, 1);
  g_assert_cmpuint (stats.debuginfod.found, ==, 0);
  lookup_clear (&l);
  close (listener);
  remove_tree (root);
}

/* Each in a process of its own: the environment (DEBUGINFOD_URLS) is set
 * before any thread exists, as in an app. */
static void
test_debuginfod_fetch (void)
{
  if (g_test_subprocess ())
    {
      test_debuginfod_fetch_body ();
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_debuginfod_silent (void)
{
  if (g_test_subprocess ())
    {
      test_debuginfod_silent_body ();
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_autofree char *id_file = g_build_filename (DEBUGINFO_VARIANTS_DIR, "build-id.txt", NULL);
  g_autofree char *contents = NULL;

  g_test_init (&argc, &argv, NULL);
  g_assert_true (g_file_get_contents (id_file, &contents, NULL, NULL));
  build_id = g_strstrip (g_steal_pointer (&contents));
  spin_offset = symbol_offset (DEBUGINFO_MODULE_PATH, "debuginfo_static_spin");
  callback_offset = symbol_offset (DEBUGINFO_MODULE_PATH, "debuginfo_static_callback");
  g_test_add_func ("/DebugRoutes/stripped", test_stripped);
  g_test_add_func ("/DebugRoutes/not-stripped", test_not_stripped);
  g_test_add_func ("/DebugRoutes/build-id", test_build_id);
  g_test_add_func ("/DebugRoutes/debuglink-beside", test_debuglink_beside);
  g_test_add_func ("/DebugRoutes/debuglink-dot-debug", test_debuglink_dot_debug);
  g_test_add_func ("/DebugRoutes/debuglink-root", test_debuglink_root);
  g_test_add_func ("/DebugRoutes/minidebuginfo", test_minidebuginfo);
  g_test_add_func ("/DebugRoutes/precedence", test_precedence);
  g_test_add_func ("/DebugRoutes/minidebuginfo-deadline", test_minidebuginfo_deadline);
  g_test_add_func ("/DebugRoutes/not-regular", test_not_regular);
  g_test_add_func ("/DebugRoutes/wrong-build-id", test_wrong_build_id);
  g_test_add_func ("/DebugRoutes/file-gone", test_file_gone);
  g_test_add_func ("/DebugRoutes/bad-dirs", test_bad_dirs);
  g_test_add_func ("/DebugRoutes/debuginfod-fetch", test_debuginfod_fetch);
  g_test_add_func ("/DebugRoutes/debuginfod-silent", test_debuginfod_silent);
  return g_test_run ();
}
