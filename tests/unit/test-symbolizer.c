/* Unit tests of the module registry (js-modules.c) and the libdw symbolizer
 * (js-symbolizer.c): static and inline functions with their lines, a
 * dlclosed module, a file replaced on disk, a stripped module, the vDSO, the
 * cache, and unwinding a copy of a blocked thread's stack. This program is
 * built with -g and not stripped. */
#define _GNU_SOURCE
#include "js-modules.h"
#include "js-symbolizer.h"

#include <dlfcn.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Keeps GCC from inlining or cloning (foo.constprop.0) the functions whose
 * names the tests look for; work after their calls keeps them from being
 * tail calls (whose frames would vanish). */
#if defined(__GNUC__) && !defined(__clang__)
#define TEST_NOIPA __attribute__ ((noipa))
#else
#define TEST_NOIPA __attribute__ ((noinline))
#endif

typedef struct
{
  JsModules *modules;
  JsSymbolizer *symbolizer;
  GArray *frames;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->modules = js_modules_new ();
  f->symbolizer = js_symbolizer_new (f->modules, FALSE);
  f->frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  js_symbolizer_free (f->symbolizer);
  js_modules_free (f->modules);
  g_array_unref (f->frames);
}

static const JsFrame *
lookup (Fixture *f, guint64 address, gboolean is_return, guint *n)
{
  g_array_set_size (f->frames, 0);
  *n = js_symbolizer_lookup (f->symbolizer, address, is_return, f->frames);
  g_assert_cmpuint (*n, ==, f->frames->len);
  g_assert_cmpuint (*n, >=, 1);
  return &g_array_index (f->frames, JsFrame, 0);
}

static TEST_NOIPA guint64
capture_return_address (void)
{
  return (guint64) (guintptr) __builtin_return_address (0);
}

static TEST_NOIPA guint64
named_static_function (guint *line)
{
  volatile guint64 ra; /* read after the call: no tail call */

  *line = __LINE__ + 1;
  ra = capture_return_address ();
  return ra;
}

static inline __attribute__ ((always_inline)) guint64
inlined_function (guint *line)
{
  volatile guint64 ra;

  *line = __LINE__ + 1;
  ra = capture_return_address ();
  return ra;
}

static TEST_NOIPA guint64
outer_of_inline (guint *inner_line, guint *call_line)
{
  guint64 ra;

  *call_line = __LINE__ + 1;
  ra = inlined_function (inner_line);
  return ra;
}

static void
test_modules (Fixture *f, gconstpointer data)
{
  guint64 here = (guint64) (guintptr) test_modules;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  guint id = js_modules_resolve (f->modules, here);
  const JsModule *m = js_modules_get (f->modules, id);

  g_assert_cmpuint (id, !=, 0);
  g_assert_nonnull (m);
  g_assert_cmpuint (m->id, ==, id);
  g_assert_true (m->is_main);
  g_assert_false (m->unloaded);
  g_assert_cmpstr (m->path, ==, exe);
  g_assert_cmpstr (m->name, ==, "test-symbolizer");
  g_assert_cmpuint (m->start, <=, here);
  g_assert_cmpuint (here, <, m->end);
  /* The build-id, when the linker made one (by default on most distros). */
  if (m->build_id != NULL)
    g_assert_cmpuint (strlen (m->build_id), ==, 40); /* sha1 */

  /* libc: another module, with its build-id read from memory too. */
  id = js_modules_resolve (f->modules, (guint64) (guintptr) dlsym (RTLD_DEFAULT, "getpid"));
  m = js_modules_get (f->modules, id);
  g_assert_nonnull (m);
  g_assert_false (m->is_main);
  g_assert_true (g_str_has_prefix (m->name, "libc.so"));

  g_assert_cmpuint (js_modules_resolve (f->modules, 0), ==, 0);
  g_assert_cmpuint (js_modules_resolve (f->modules, 0x1000), ==, 0);
  g_assert_null (js_modules_get (f->modules, 0));
  g_assert_null (js_modules_get (f->modules, JS_MODULES_MAX + 1));
}

static void
test_static_function (Fixture *f, gconstpointer data)
{
  guint line = 0, n;
  guint64 ra = named_static_function (&line);
  const JsFrame *frame = lookup (f, ra, TRUE, &n);
  const JsModule *m = js_modules_get (f->modules, frame->module);

  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (frame->function, ==, "named_static_function");
  g_assert_nonnull (frame->file);
  g_assert_true (g_str_has_suffix (frame->file, "test-symbolizer.c"));
  g_assert_cmpuint (frame->line, ==, line);
  g_assert_false (frame->inlined);
  g_assert_nonnull (m);
  g_assert_true (m->is_main);
  g_assert_cmpuint (frame->offset, ==, ra - m->base);
}

static void
test_inline_function (Fixture *f, gconstpointer data)
{
  guint inner_line = 0, call_line = 0, n;
  guint64 ra = outer_of_inline (&inner_line, &call_line);
  const JsFrame *frames = lookup (f, ra, TRUE, &n);

  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (frames[0].function, ==, "inlined_function");
  g_assert_true (g_str_has_suffix (frames[0].file, "test-symbolizer.c"));
  g_assert_cmpuint (frames[0].line, ==, inner_line);
  g_assert_true (frames[0].inlined);
  g_assert_cmpstr (frames[1].function, ==, "outer_of_inline");
  g_assert_true (g_str_has_suffix (frames[1].file, "test-symbolizer.c"));
  g_assert_cmpuint (frames[1].line, ==, call_line);
  g_assert_false (frames[1].inlined);
  g_assert_cmpuint (frames[0].module, ==, frames[1].module);
  g_assert_cmpuint (frames[0].offset, ==, frames[1].offset);
}

static void
test_dlclosed_module (Fixture *f, gconstpointer data)
{
  guint64 unloads = js_modules_unloads ();
  void *handle = dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_LOCAL);
  guint64 address;
  guint id, n;
  const JsModule *m;
  const JsFrame *frame;

  g_assert_nonnull (handle);
  /* A load is not an unload: samples taken across it keep their frames. */
  g_assert_cmpuint (js_modules_unloads (), ==, unloads);
  address = (guint64) (guintptr) dlsym (handle, "symbolizer_module_function");
  g_assert_cmpuint (address, !=, 0);
  id = js_modules_resolve (f->modules, address);
  g_assert_cmpuint (id, !=, 0);
  m = js_modules_get (f->modules, id);
  g_assert_cmpstr (m->path, ==, SYMBOLIZER_MODULE_PATH);
  g_assert_false (m->unloaded);

  g_assert_cmpint (dlclose (handle), ==, 0);
  handle = dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (handle != NULL)
    {
      dlclose (handle);
      g_test_skip ("the module stayed loaded after dlclose");
      return;
    }
  /* The unload moved the count: a sample taken before it and resolved after
   * it is not trusted (the watchdog drops it). */
  g_assert_cmpuint (js_modules_unloads (), >, unloads);

  /* Nothing is mapped there now: named from the file, at the old base. */
  frame = lookup (f, address, FALSE, &n);
  g_assert_cmpstr (frame[n - 1].function, ==, "symbolizer_module_function");
  g_assert_cmpuint (frame->module, ==, id);
  g_assert_cmpuint (frame->offset, ==, address - m->base);
  g_assert_true (m->unloaded);
  g_assert_cmpstr (js_modules_get (f->modules, frame->module)->path, ==, SYMBOLIZER_MODULE_PATH);
  g_assert_cmpuint (js_modules_resolve (f->modules, address), ==, 0);
}

/* A module whose file was replaced (an upgrade) or deleted after it was
 * loaded: no names rather than the new file's. */
static void
test_replaced_file (Fixture *f, gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("js-symbolizer-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "module.so", NULL);
  g_autofree char *contents = NULL, *other = NULL;
  gsize length, other_length;
  guint64 address;
  void *handle;
  guint id, n;
  const JsFrame *frame;

  g_assert_nonnull (dir);
  g_assert_true (g_file_get_contents (SYMBOLIZER_MODULE_PATH, &contents, &length, NULL));
  g_assert_true (g_file_get_contents (SYMBOLIZER_MODULE_V2_PATH, &other, &other_length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  g_assert_nonnull (handle);
  address = (guint64) (guintptr) dlsym (handle, "symbolizer_module_function");
  id = js_modules_resolve (f->modules, address);
  g_assert_cmpuint (id, !=, 0);
  dlclose (handle);
  if (js_modules_get (f->modules, id)->build_id == NULL)
    {
      g_assert_cmpint (g_unlink (path), ==, 0);
      g_assert_cmpint (g_rmdir (dir), ==, 0);
      g_test_skip ("linked without a build-id");
      return;
    }

  /* The same code under another name (and build-id) at the same path. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_true (g_file_set_contents (path, other, (gssize) other_length, NULL));
  frame = lookup (f, address, FALSE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (frame->module, ==, id);
  g_assert_null (frame->function);

  /* No file at all: the same, through another symbolizer (no cache). */
  g_assert_cmpint (g_unlink (path), ==, 0);
  js_symbolizer_free (f->symbolizer);
  f->symbolizer = js_symbolizer_new (f->modules, FALSE);
  frame = lookup (f, address, FALSE, &n);
  g_assert_cmpuint (frame->module, ==, id);
  g_assert_null (frame->function);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_no_module (Fixture *f, gconstpointer data)
{
  guint n;
  const JsFrame *frame = lookup (f, 0x1000, FALSE, &n);

  g_assert_cmpuint (n, ==, 1);
  g_assert_null (frame->function);
  g_assert_null (frame->file);
  g_assert_cmpuint (frame->line, ==, 0);
  g_assert_cmpuint (frame->module, ==, 0);
  g_assert_cmpuint (frame->offset, ==, 0x1000);

  frame = lookup (f, 0, TRUE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_null (frame->function);
  g_assert_cmpuint (frame->module, ==, 0);
}

static void
test_stripped (Fixture *f, gconstpointer data)
{
  void *handle = dlopen (SYMBOLIZER_STRIPPED_PATH, RTLD_NOW | RTLD_LOCAL);
  void *(*static_address) (void);
  guint64 exported, hidden, libc_getpid, entry = 0;
  const JsFrame *frame;
  guint n;

  g_assert_nonnull (handle);
  exported = (guint64) (guintptr) dlsym (handle, "symbolizer_stripped_exported");
  static_address = (void *(*) (void) ) dlsym (handle, "symbolizer_stripped_static_address");
  g_assert_nonnull (static_address);
  hidden = (guint64) (guintptr) static_address ();

  /* .dynsym names exported functions... */
  frame = lookup (f, exported, FALSE, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (frame->function, ==, "symbolizer_stripped_exported");
  g_assert_null (frame->file);
  frame = lookup (f, exported + 4, FALSE, &n);
  g_assert_cmpstr (frame->function, ==, "symbolizer_stripped_exported");

  /* ...and static ones are nameless, not their neighbour's; but the call
   * frame information (.eh_frame, kept by strip) says where the function
   * starts: two addresses in it have its entry (the first one's offset). */
  for (guint64 delta = 0; delta < 8; delta += 4)
    {
      frame = lookup (f, hidden + delta, FALSE, &n);
      g_assert_cmpuint (frame->module, !=, 0);
      g_assert_null (frame->function);
      if (delta == 0)
        entry = frame->offset;
      g_assert_cmpuint (frame->entry, ==, entry);
      g_assert_cmpuint (frame->offset, ==, entry + delta);
    }

  /* libc: its exported name (getpid or its global alias __getpid). */
  libc_getpid = (guint64) (guintptr) dlsym (RTLD_DEFAULT, "getpid");
  frame = lookup (f, libc_getpid, FALSE, &n);
  g_assert_nonnull (frame[n - 1].function);
  g_assert_true (g_str_has_suffix (frame[n - 1].function, "getpid"));
  dlclose (handle);
}

static void
test_vdso (Fixture *f, gconstpointer data)
{
  const JsModule *m, *vdso = NULL;
  gboolean named = FALSE;

  /* The vDSO has no file: read from memory. It holds clock_gettime. */
  js_modules_resolve (f->modules, (guint64) (guintptr) test_vdso);
  for (guint id = 1; (m = js_modules_get (f->modules, id)) != NULL; id++)
    if (g_str_has_prefix (m->name, "linux-vdso"))
      vdso = m;
  if (vdso == NULL)
    {
      g_test_skip ("no vDSO");
      return;
    }
  for (guint64 address = vdso->start; address < vdso->end && !named; address++)
    {
      guint n;
      const JsFrame *frame = lookup (f, address, FALSE, &n);

      g_assert_cmpuint (frame->module, ==, vdso->id);
      named = frame->function != NULL && strstr (frame->function, "clock_gettime") != NULL;
    }
  g_assert_true (named);
}

static void
test_warm_cache (Fixture *f, gconstpointer data)
{
  guint line, n;
  guint64 ra = named_static_function (&line);
  JsSymbolizerStats before, after;
  const char *first_name;
  const JsFrame *frame;

  frame = lookup (f, ra, TRUE, &n);
  first_name = frame->function;
  js_symbolizer_get_stats (f->symbolizer, &before);
  frame = lookup (f, ra, TRUE, &n);
  js_symbolizer_get_stats (f->symbolizer, &after);
  g_assert_cmpuint (after.lookups, ==, before.lookups + 1);
  g_assert_cmpuint (after.cache_hits, ==, before.cache_hits + 1);
  g_assert_true (frame->function == first_name); /* interned: the same string */
  g_assert_cmpuint (frame->line, ==, line);
  g_assert_cmpuint (after.modules_loaded, >=, 1);

  /* The same address as a pc is another entry. */
  lookup (f, ra, FALSE, &n);
  js_symbolizer_get_stats (f->symbolizer, &after);
  g_assert_cmpuint (after.cache_hits, ==, before.cache_hits + 1);
}

/* ---- unwinding a blocked thread ------------------------------------------- */

static gint sleeper_tid;
static gint sleeper_woke;
static gint sleeper_returned;

static void
wake_up (int sig)
{
}

#if defined(__x86_64__)
/* This program's nanosleep, which g_usleep's call reaches first, as it
 * would reach an LD_PRELOAD library's wrapper (jankscope's own, for one):
 * it saves %rbp on the stack, as a function that uses the register does.
 * g_usleep keeps a stack address there (Debian 12's GLib), which is no
 * frame pointer: an unwinder that reads the frame pointer chain because it
 * has no CFI for GLib's frame yet makes its callers up. */
__attribute__ ((visibility ("hidden"),
                used)) int (*js_test_real_nanosleep) (const struct timespec *, struct timespec *);
__asm__(".text\n"
        ".globl nanosleep\n"
        ".type nanosleep, @function\n"
        "nanosleep:\n"
        ".cfi_startproc\n"
        "  push %rbp\n"
        ".cfi_adjust_cfa_offset 8\n"
        ".cfi_rel_offset %rbp, 0\n"
        "  call *js_test_real_nanosleep(%rip)\n"
        "  pop %rbp\n"
        ".cfi_adjust_cfa_offset -8\n"
        ".cfi_restore %rbp\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size nanosleep, .-nanosleep\n");
#endif

/* How long the GLib sleeper sleeps: g_usleep sleeps on after a signal. */
#define GLIB_SLEEP_US (600 * 1000)

/* Sleeps in nanosleep (woken by a signal), or in g_usleep when `in_glib`:
 * there the unwinder steps from libc into GLib, whose g_usleep keeps a
 * stack address in its frame pointer register (Debian 12's build), then
 * into this program. */
static TEST_NOIPA void
sleeping_function (gboolean in_glib)
{
  struct timespec ts = { 5, 0 };

  g_atomic_int_set (&sleeper_tid, (gint) syscall (SYS_gettid));
  if (in_glib)
    g_usleep (GLIB_SLEEP_US);
  else
    nanosleep (&ts, NULL);
  g_atomic_int_set (&sleeper_woke, 1); /* after the call: no tail call */
}

static TEST_NOIPA void *
sleeper_thread (void *data)
{
  sleeping_function (data != NULL);
  g_atomic_int_inc (&sleeper_returned); /* after the call: no tail call */
  return NULL;
}

/* sp and pc of a thread blocked in nanosleep, from /proc: "nr a1..a6 sp pc". */
static gboolean
read_blocked_registers (int tid, guint64 *sp, guint64 *pc)
{
  g_autofree char *path = g_strdup_printf ("/proc/self/task/%d/syscall", tid);
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;
  gint64 nr;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  fields = g_strsplit_set (g_strstrip (text), " ", -1);
  if (g_strv_length (fields) != 9)
    return FALSE;
  nr = g_ascii_strtoll (fields[0], NULL, 10);
  if (nr != SYS_nanosleep && nr != SYS_clock_nanosleep)
    return FALSE;
  *sp = g_ascii_strtoull (fields[7], NULL, 16);
  *pc = g_ascii_strtoull (fields[8], NULL, 16);
  return *sp != 0 && *pc != 0;
}

/* The end of the mapping that holds `address` (the stack's top). */
static guint64
mapping_end (guint64 address)
{
  g_autofree char *maps = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start, end;

      if (sscanf (lines[i], "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start <= address
          && address < end)
        return end;
    }
  return 0;
}

static JsStackCopy *
copy_stack (guint64 sp, guint64 pc)
{
  guint64 end = mapping_end (sp);
  guint32 size = (guint32) MIN (end - sp, 64 * 1024);
  JsStackCopy *copy = g_malloc (sizeof (JsStackCopy) + size);
  struct iovec local = { copy->data, size }, remote = { (void *) (guintptr) sp, size };

  g_assert_cmpuint (end, >, sp);
  copy->sp = sp;
  copy->pc = pc;
  copy->size = size;
  /* As the watchdog does: without stopping the thread. */
  g_assert_cmpint (process_vm_readv (getpid (), &local, 1, &remote, 1, 0), ==, (ssize_t) size);
  return copy;
}

static void
test_unwind_copy (Fixture *f, gconstpointer data)
{
  struct sigaction action = { .sa_handler = wake_up }, old_action;
  pthread_t thread;
  guint64 sp = 0, pc = 0, out[64];
  g_autofree JsStackCopy *copy = NULL;
  gboolean found = FALSE;
  JsSymbolizerStats stats;
  guint n;

  g_atomic_int_set (&sleeper_tid, 0);
  g_atomic_int_set (&sleeper_woke, 0);
  sigemptyset (&action.sa_mask);
  g_assert_cmpint (sigaction (SIGUSR1, &action, &old_action), ==, 0);
  g_assert_cmpint (pthread_create (&thread, NULL, sleeper_thread, (gpointer) data), ==, 0);
  for (guint i = 0; i < 5000; i++)
    {
      int tid = g_atomic_int_get (&sleeper_tid);

      if (tid != 0 && read_blocked_registers (tid, &sp, &pc))
        break;
      g_usleep (1000);
    }
  g_assert_cmpuint (pc, !=, 0);

  copy = copy_stack (sp, pc);
  /* A fresh symbolizer: no module of this stack was reported to the
   * unwinder before. Each must be in place before the unwinder steps
   * through its frame, else it guesses by the frame pointer, and the
   * callers read from stale stack slots are anything. */
  n = js_symbolizer_unwind_copy (f->symbolizer, copy, out, G_N_ELEMENTS (out));
  g_assert_cmpuint (n, >=, 4); /* nanosleep, sleeping_function, sleeper_thread, libc */
  g_assert_cmpuint (out[0], ==, pc);
  for (guint i = 0; i < n; i++)
    {
      guint count;
      const JsFrame *frames = lookup (f, out[i], i > 0, &count);

      if (g_test_verbose ())
        g_printerr ("#%u 0x%" G_GINT64_MODIFIER "x %s\n", i, out[i],
                    frames[count - 1].function ? frames[count - 1].function : "??");
      if (found || g_strcmp0 (frames[count - 1].function, "sleeping_function") != 0)
        continue;
      found = TRUE;
      /* Its caller, then where the thread started (libc's start_thread):
       * the real chain, not frames made up. */
      g_assert_cmpuint (i + 2, <, n);
      frames = lookup (f, out[i + 1], TRUE, &count);
      g_assert_cmpstr (frames[count - 1].function, ==, "sleeper_thread");
      frames = lookup (f, out[i + 2], TRUE, &count);
      g_assert_nonnull (js_modules_get (f->modules, frames[0].module));
      g_assert_true (
          g_str_has_prefix (js_modules_get (f->modules, frames[0].module)->name, "libc.so"));
    }
  g_assert_true (found);
  js_symbolizer_get_stats (f->symbolizer, &stats);
  g_assert_cmpuint (stats.unwinds, ==, 1);
  g_assert_cmpuint (stats.unwind_frames, ==, n);

  /* A second unwind of the same copy, through the same attached session. */
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, copy, out, 64), ==, n);
  /* Bounded by `max`. */
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, copy, out, 2), ==, 2);

  pthread_kill (thread, SIGUSR1);
  pthread_join (thread, NULL);
  g_assert_cmpint (g_atomic_int_get (&sleeper_woke), ==, 1);
  g_assert_cmpint (g_atomic_int_get (&sleeper_returned), >=, 1);
  sigaction (SIGUSR1, &old_action, NULL);
}

static void
test_bad_input (Fixture *f, gconstpointer data)
{
  JsStackCopy copy = { .sp = 0x7fff0000, .pc = (guint64) (guintptr) sleeping_function, .size = 0 };
  JsStackCopy *garbage;
  guint64 out[16] = { 0 };
  guint n;

  /* No stack: just the pc. */
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, &copy, out, 16), ==, 1);
  g_assert_cmpuint (out[0], ==, copy.pc);
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, &copy, out, 0), ==, 0);
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, NULL, out, 16), ==, 0);
  copy.pc = 0;
  g_assert_cmpuint (js_symbolizer_unwind_copy (f->symbolizer, &copy, out, 16), ==, 0);

  /* A stack of garbage: some frames, no crash, bounded. */
  garbage = g_malloc (sizeof (JsStackCopy) + 4096);
  garbage->sp = 0x10000;
  garbage->pc = (guint64) (guintptr) sleeping_function + 1;
  garbage->size = 4096;
  for (guint i = 0; i < 4096; i++)
    garbage->data[i] = (guint8) (i * 37);
  n = js_symbolizer_unwind_copy (f->symbolizer, garbage, out, 16);
  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (n, <=, 16);
  g_assert_cmpuint (out[0], ==, garbage->pc);
  g_free (garbage);

  /* NULL symbolizer or output. */
  g_assert_cmpuint (js_symbolizer_lookup (NULL, 0x1000, FALSE, f->frames), ==, 0);
  g_assert_cmpuint (js_symbolizer_lookup (f->symbolizer, 0x1000, FALSE, NULL), ==, 0);
}

int
main (int argc, char **argv)
{
#if defined(__x86_64__)
  js_test_real_nanosleep = dlsym (RTLD_NEXT, "nanosleep");
  g_assert_nonnull (js_test_real_nanosleep);
#endif
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func)                                                                            \
  g_test_add ("/Symbolizer/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("modules", test_modules);
  ADD ("static-function", test_static_function);
  ADD ("inline-function", test_inline_function);
  ADD ("dlclosed-module", test_dlclosed_module);
  ADD ("replaced-file", test_replaced_file);
  ADD ("no-module", test_no_module);
  ADD ("stripped", test_stripped);
  ADD ("vdso", test_vdso);
  ADD ("warm-cache", test_warm_cache);
  ADD ("unwind-copy", test_unwind_copy);
  g_test_add ("/Symbolizer/unwind-copy-glib", Fixture, "glib", fixture_set_up, test_unwind_copy,
              fixture_tear_down);
  ADD ("bad-input", test_bad_input);
#undef ADD
  return g_test_run ();
}
