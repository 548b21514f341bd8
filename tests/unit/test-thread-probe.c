/* Unit tests of js-thread-probe: what the watchdog reads about the main
 * thread without touching it (parsers on fixed text, then a live thread). */
#define _GNU_SOURCE
#include "js-thread-probe.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void
test_parse_status (void)
{
  JsThreadSnapshot s = { 0 };
  const char *text = "Name:\tapp\nState:\tS (sleeping)\nTgid:\t1\n"
                     "SigPnd:\t0000004000000000\nShdPnd:\t0000000000000000\n"
                     "SigBlk:\t0000000000010000\nvoluntary_ctxt_switches:\t42\n"
                     "nonvoluntary_ctxt_switches:\t7\n";

  g_assert_true (js_thread_probe_parse_status (text, &s));
  g_assert_cmpint (s.state, ==, 'S');
  g_assert_cmpuint (s.sig_blocked, ==, 0x10000);
  g_assert_cmpuint (s.nvcsw, ==, 42);
  g_assert_cmpuint (s.sig_pending, ==, 0x4000000000);
  /* Without SigPnd (the disarmed sampling timer's token is given back
   * only when its signal is known not to be pending): all pending. */
  g_assert_true (js_thread_probe_parse_status ("State:\tR (running)\nSigBlk:\t0\n"
                                               "voluntary_ctxt_switches:\t1\n",
                                               &s));
  g_assert_cmpuint (s.sig_pending, ==, G_MAXUINT64);
  /* Truncated or garbage: refused, not half-parsed. */
  g_assert_false (js_thread_probe_parse_status ("Name:\tapp\nState:\tR\n", &s));
  g_assert_false (js_thread_probe_parse_status ("", &s));
  g_assert_false (js_thread_probe_parse_status ("State:\t? x\nSigBlk:\t0\n"
                                                "voluntary_ctxt_switches:\t1\n",
                                                &s));
}

static void
test_parse_syscall (void)
{
  JsThreadSnapshot s = { 0 };

  g_assert_true (js_thread_probe_parse_syscall ("running\n", &s));
  g_assert_false (s.blocked);
  g_assert_true (js_thread_probe_parse_syscall (
      "230 0x1 0x0 0x7ffd1a2b3c40 0x0 0x0 0x0 0x7ffd1a2b3c28 0x7f0011223344\n", &s));
  g_assert_true (s.blocked);
  g_assert_cmpint (s.syscall_nr, ==, 230);
  g_assert_cmpuint (s.args[2], ==, 0x7ffd1a2b3c40);
  g_assert_cmpuint (s.sp, ==, 0x7ffd1a2b3c28);
  g_assert_cmpuint (s.pc, ==, 0x7f0011223344);
  g_assert_true (js_thread_probe_parse_syscall ("-1 0x7ffd00 0x401000\n", &s));
  g_assert_true (s.blocked);
  g_assert_cmpint (s.syscall_nr, ==, -1);
  g_assert_cmpuint (s.pc, ==, 0x401000);
  /* Bad input. */
  g_assert_false (js_thread_probe_parse_syscall ("", &s));
  g_assert_false (js_thread_probe_parse_syscall ("7 0x1 0x2\n", &s));
  g_assert_false (js_thread_probe_parse_syscall ("99999 0x1 0x2 0x3 0x4 0x5 0x6 0x7 0x8\n", &s));
  g_assert_false (js_thread_probe_parse_syscall ("1 zz 0x2 0x3 0x4 0x5 0x6 0x7 0x8\n", &s));
}

/* The file of a blocked call: an fd's path, a path argument copied from
 * memory (relative ones joined to their directory), nothing for sockets,
 * pipes, bad addresses or other calls. */
static void
test_file_path (void)
{
  g_autofree char *dir = g_dir_make_tmp ("probe-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *relative = NULL;
  JsThreadSnapshot s = { 0 };
  char out[JS_THREAD_PROBE_MAX_PATH];
  int fd, pipes[2];
  int dirfd;

  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  fd = open (file, O_RDONLY | O_CLOEXEC);
  dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pipe (pipes), ==, 0);
  s.blocked = TRUE;
  s.syscall_nr = SYS_read;
  s.args[0] = (guint64) fd;
  g_assert_true (js_thread_probe_file_path (&s, out, sizeof out));
  g_assert_cmpstr (out, ==, file);
  s.args[0] = (guint64) pipes[0]; /* "pipe:[N]": not a file */
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  s.args[0] = 99999;
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  /* openat (AT_FDCWD, "/abs"), (dirfd, "rel"), (AT_FDCWD, "rel"). */
  s.syscall_nr = SYS_openat;
  s.args[0] = (guint64) (guint32) AT_FDCWD;
  s.args[1] = (guint64) (guintptr) file;
  g_assert_true (js_thread_probe_file_path (&s, out, sizeof out));
  g_assert_cmpstr (out, ==, file);
  s.args[0] = (guint64) dirfd;
  s.args[1] = (guint64) (guintptr) "notes.txt";
  g_assert_true (js_thread_probe_file_path (&s, out, sizeof out));
  g_assert_cmpstr (out, ==, file);
  s.args[0] = (guint64) (guint32) AT_FDCWD;
  relative = g_build_filename (cwd, "notes.txt", NULL);
  g_assert_true (js_thread_probe_file_path (&s, out, sizeof out));
  g_assert_cmpstr (out, ==, relative);
  /* A bad pointer is an error of process_vm_readv, never a fault. */
  s.args[1] = 16;
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  s.args[1] = 0;
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  /* Not blocked, or another call. */
  s.args[1] = (guint64) (guintptr) file;
  s.blocked = FALSE;
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  s.blocked = TRUE;
  s.syscall_nr = SYS_futex;
  g_assert_false (js_thread_probe_file_path (&s, out, sizeof out));
  close (fd);
  close (dirfd);
  close (pipes[0]);
  close (pipes[1]);
  g_unlink (file);
  g_rmdir (dir);
}

typedef struct
{
  pid_t tid;
  gint ready;
  gint stop;
  int mode; /* 0 sleep, 1 spin, 2 futex */
  GMutex *mutex;
} Worker;

static gpointer
worker (gpointer data)
{
  Worker *w = data;

  w->tid = (pid_t) syscall (SYS_gettid);
  g_atomic_int_set (&w->ready, 1);
  if (w->mode == 0)
    {
      struct timespec ts = { 2, 0 };

      nanosleep (&ts, NULL);
    }
  else if (w->mode == 1)
    {
      while (!g_atomic_int_get (&w->stop))
        ;
    }
  else
    {
      g_mutex_lock (w->mutex);
      g_mutex_unlock (w->mutex);
    }
  return NULL;
}

static gboolean
wait_blocked (JsThreadProbe *probe, JsThreadSnapshot *snap)
{
  for (int i = 0; i < 500; i++)
    {
      if (js_thread_probe_read (probe, snap) && snap->blocked)
        return TRUE;
      g_usleep (2000);
    }
  return FALSE;
}

static void
test_live_sleeping (void)
{
  Worker w = { .mode = 0 };
  GThread *t = g_thread_new ("sleeper", worker, &w);
  JsThreadProbe probe;
  JsThreadSnapshot snap, again;
  JsStackCopy *copy;

  while (!g_atomic_int_get (&w.ready))
    g_usleep (1000);
  g_assert_true (js_thread_probe_open (&probe, w.tid, pthread_self (), 0, 0));
  g_assert_true (wait_blocked (&probe, &snap));
  g_assert_cmpint (js_thread_probe_wait_kind (&snap), ==, JS_WAIT_SLEEP);
  g_assert_cmpint (snap.state, ==, 'S');
  /* Reading it twice changes nothing: it keeps sleeping (no signal). */
  g_assert_true (js_thread_probe_read (&probe, &again));
  g_assert_cmpuint (again.nvcsw, ==, snap.nvcsw);
  g_assert_cmpuint (again.sp, ==, snap.sp);
  copy = js_thread_probe_copy_stack (&probe, &snap, 4096);
  g_assert_nonnull (copy);
  g_assert_cmpuint (copy->sp, ==, snap.sp);
  g_assert_cmpuint (copy->size, >, 0);
  g_free (copy);
  js_thread_probe_close (&probe);
  g_thread_join (t);
}

static void
test_live_futex_and_running (void)
{
  GMutex mutex;
  Worker w = { .mode = 2, .mutex = &mutex };
  Worker spin = { .mode = 1 };
  JsThreadProbe probe;
  JsThreadSnapshot snap;
  GThread *t;

  g_mutex_init (&mutex);
  g_mutex_lock (&mutex);
  t = g_thread_new ("waiter", worker, &w);
  while (!g_atomic_int_get (&w.ready))
    g_usleep (1000);
  g_assert_true (js_thread_probe_open (&probe, w.tid, pthread_self (), 0, 0));
  g_assert_true (wait_blocked (&probe, &snap));
  g_assert_cmpint (js_thread_probe_wait_kind (&snap), ==, JS_WAIT_LOCK);
  js_thread_probe_close (&probe);
  g_mutex_unlock (&mutex);
  g_thread_join (t);
  g_mutex_clear (&mutex);

  t = g_thread_new ("spinner", worker, &spin);
  while (!g_atomic_int_get (&spin.ready))
    g_usleep (1000);
  g_assert_true (js_thread_probe_open (&probe, spin.tid, pthread_self (), 0, 0));
  g_usleep (20000);
  g_assert_true (js_thread_probe_read (&probe, &snap));
  g_assert_false (snap.blocked);
  g_assert_cmpint (js_thread_probe_wait_kind (&snap), ==, JS_WAIT_NONE);
  g_assert_null (js_thread_probe_copy_stack (&probe, &snap, 4096));
  js_thread_probe_close (&probe);
  g_atomic_int_set (&spin.stop, 1);
  g_thread_join (t);
}

static void
test_bad_thread (void)
{
  JsThreadProbe probe;

  /* No such thread: a clean FALSE. */
  g_assert_false (js_thread_probe_open (&probe, 0x7ffffff0, pthread_self (), 0, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ThreadProbe/parse-status", test_parse_status);
  g_test_add_func ("/ThreadProbe/parse-syscall", test_parse_syscall);
  g_test_add_func ("/ThreadProbe/file-path", test_file_path);
  g_test_add_func ("/ThreadProbe/live-sleeping", test_live_sleeping);
  g_test_add_func ("/ThreadProbe/live-futex-running", test_live_futex_and_running);
  g_test_add_func ("/ThreadProbe/bad-thread", test_bad_thread);
  return g_test_run ();
}
