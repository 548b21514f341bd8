/* stacks-app.c - a plain GLib program whose stalls the stack sampler must
 * explain (tests/check_stacks.py)
 *
 *   stacks-app SCENARIO [ARG]
 *
 * Each scenario runs its stall inside a timeout callback of a real GMainLoop,
 * started 50 ms after the loop (the watchdog only watches a loop that has
 * polled at least once), then quits the loop 200 ms later (so the loop polls
 * again and the stall ends there) and exits 0. Facts are printed on stdout as
 * "key=value" lines (stall=START_NS,END_NS for each stall window, on
 * CLOCK_MONOTONIC like the report).
 *
 * The functions the checks look for in the stacks (js_test_*) are non-static
 * and noinline/noclone, and the macros below keep helpers out of them, so
 * that the innermost frame of the app in a sample is the js_test_* function
 * itself and never an inlined helper. Built with -g at the project's default
 * optimisation.
 *
 * Scenarios: busy, recursion, usleep, nanosleep-loop, lock, io, ipc,
 * malloc [SECONDS], fork, hang [cpu|sleep], dlclose MODULE_PATH,
 * dlclose-reuse MODULE_PATH MODULE2_PATH, debuginfo MODULE_PATH [LINGER_MS|stdin],
 * signal-takeover, signal-blocked, idle,
 * sleep-loop CALL [MS] (CALL: poll, select, pselect, ppoll, epoll_wait,
 * epoll_pwait, nanosleep, clock_nanosleep, usleep, mixed), pollfunc-loop
 * [MS], app-signals,
 * cpu-stall [CPU_MS [TAIL_MS]], cpu-stall-no-timer [CPU_MS [TAIL_MS]] (the
 * same, with timer_create made to fail with EAGAIN at the top of main, before
 * jankscope starts: deny-syscall.c; prints deny=ok, or deny=WHY and exits 0
 * without a stall where the kernel takes no seccomp filter).
 */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "deny-syscall.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define NS_PER_SEC G_GINT64_CONSTANT (1000000000)
#define STALL_START_MS 50
#define QUIT_AFTER_STALL_MS 200
#define SAFETY_EXIT_S 120

/* CLOCK_MONOTONIC in ns, as a macro: no helper frame in the js_test_*
 * functions. */
#define MONO_NS(ts)                                                                                \
  (clock_gettime (CLOCK_MONOTONIC, &(ts)), (gint64) (ts).tv_sec * NS_PER_SEC + (ts).tv_nsec)

/* Spins on the CPU until CLOCK_MONOTONIC reaches end_ns; arithmetic on a
 * volatile the compiler cannot drop. */
#define SPIN_UNTIL(end_ns)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    struct timespec spin_ts_;                                                                      \
    guint64 spin_acc_ = js_test_sink;                                                              \
    while (MONO_NS (spin_ts_) < (end_ns))                                                          \
      {                                                                                            \
        for (int spin_i_ = 0; spin_i_ < 2000; spin_i_++)                                           \
          spin_acc_ = spin_acc_ * G_GUINT64_CONSTANT (2862933555777941757)                         \
                      + G_GUINT64_CONSTANT (3037000493) + (guint64) spin_i_;                       \
        js_test_sink = spin_acc_;                                                                  \
      }                                                                                            \
  }                                                                                                \
  G_STMT_END

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

volatile guint64 js_test_sink;
volatile int js_test_depth_sink; /* also defeats tail calls */

static GMainLoop *loop;
static const char *scenario_arg;  /* argv[2] or NULL */
static const char *scenario_arg2; /* argv[3] or NULL */

static gint64
now_ns (void)
{
  struct timespec ts;

  return MONO_NS (ts);
}

static void
print_stall (gint64 start, gint64 end)
{
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, end);
  fflush (stdout);
}

static G_GNUC_NORETURN G_GNUC_PRINTF (1, 2) void fail (const char *format, ...)
{
  va_list args;

  fputs ("FAIL: ", stderr);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  exit (2);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
quit_soon (void)
{
  g_source_set_name_by_id (g_timeout_add (QUIT_AFTER_STALL_MS, quit_cb, NULL), "stacks-quit");
}

/* --- the functions the checks look for ------------------------------------ */

/* busy: 300 ms on the CPU. */
JS_TEST_FUNC void
js_test_busy_loop (guint ms)
{
  struct timespec ts;
  gint64 end = MONO_NS (ts) + ms * NS_PER_MS;

  SPIN_UNTIL (end);
}

/* A plain CPU stall for the scenarios that do not look at its frames. */
JS_TEST_FUNC void
js_test_spin (guint ms)
{
  struct timespec ts;
  gint64 end = MONO_NS (ts) + ms * NS_PER_MS;

  SPIN_UNTIL (end);
}

/* recursion: `depth` frames of itself, the leaf spins for `ms`. The volatile
 * store after the call keeps it from being a tail call (or a loop). */
JS_TEST_FUNC void
js_test_recurse (int depth, guint ms)
{
  if (depth > 1)
    js_test_recurse (depth - 1, ms);
  else
    {
      struct timespec ts;
      gint64 end = MONO_NS (ts) + ms * NS_PER_MS;

      SPIN_UNTIL (end);
    }
  js_test_depth_sink = depth;
}

/* usleep: sleeps, returns usleep's result and errno. */
JS_TEST_FUNC int
js_test_sleeper (guint usec, int *error)
{
  int ret = usleep (usec);

  *error = ret == 0 ? 0 : errno;
  return ret;
}

/* nanosleep-loop: for `total_ms`, alternate 2 ms of CPU and a 2 ms
 * nanosleep; counts the sleeps cut short by a signal (EINTR). */
JS_TEST_FUNC void
js_test_nanosleep_loop (guint total_ms, guint *sleeps, guint *eintr, guint *other_errors)
{
  struct timespec ts;
  gint64 end = MONO_NS (ts) + total_ms * NS_PER_MS;

  while (MONO_NS (ts) < end)
    {
      struct timespec req = { 0, 2 * NS_PER_MS }, rem;
      gint64 spin_end = MONO_NS (ts) + 2 * NS_PER_MS;

      SPIN_UNTIL (spin_end);
      (*sleeps)++;
      if (nanosleep (&req, &rem) != 0)
        {
          if (errno == EINTR)
            (*eintr)++;
          else
            (*other_errors)++;
        }
    }
}

/* The voluntary context switches of this process's thread named `comm`
 * (/proc/self/task/TID/status), -1 if there is none. */
static gint64
thread_switches (const char *comm)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  gint64 found = -1;

  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *comm_path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
      g_autofree char *status_path = g_strdup_printf ("/proc/self/task/%s/status", tid);
      g_autofree char *name = NULL, *status = NULL;
      const char *line;

      if (!g_file_get_contents (comm_path, &name, NULL, NULL)
          || strcmp (g_strstrip (name), comm) != 0
          || !g_file_get_contents (status_path, &status, NULL, NULL)
          || (line = strstr (status, "\nvoluntary_ctxt_switches:")) == NULL)
        continue;
      found = g_ascii_strtoll (line + strlen ("\nvoluntary_ctxt_switches:"), NULL, 10);
    }
  if (dir != NULL)
    g_dir_close (dir);
  return found;
}

/* cpu-stall's work: three leaves, so that consecutive samples see different
 * stacks (no folding, no back-off: a sample every interval). */
#define CPU_CHUNK(name, mul)                                                                       \
  JS_TEST_FUNC guint64 name (guint64 acc)                                                          \
  {                                                                                                \
    for (int i = 0; i < 5000; i++)                                                                 \
      acc = acc * G_GUINT64_CONSTANT (mul) + G_GUINT64_CONSTANT (3037000493) + (guint64) i;        \
    return acc;                                                                                    \
  }
CPU_CHUNK (js_test_chunk_a, 2862933555777941757)
CPU_CHUNK (js_test_chunk_b, 6364136223846793005)
CPU_CHUNK (js_test_chunk_c, 3202034522624059733)

/* cpu-stall: CPU_MS (default 2000) of the main thread's CPU time in one
 * dispatch, then TAIL_MS (default 300) of 2 ms sleeps in poll and usleep
 * in turn, each after a little CPU, in the same dispatch. Prints the
 * watchdog thread's voluntary context switches over the CPU part (each of
 * its wake-ups is one) and the sleeps cut short (EINTR). */
JS_TEST_FUNC void
js_test_cpu_stall (guint cpu_ms, guint tail_ms, guint *calls, guint *eintr, guint *other_errors)
{
  struct timespec ts;
  gint64 cpu_end, tail_end, switches_before, switches_after;
  guint64 acc = js_test_sink;

  switches_before = thread_switches ("jankscope-watch");
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  cpu_end = (gint64) ts.tv_sec * NS_PER_SEC + ts.tv_nsec + cpu_ms * NS_PER_MS;
  for (guint round = 0;; round++)
    {
      acc = round % 3 == 0   ? js_test_chunk_a (acc)
            : round % 3 == 1 ? js_test_chunk_b (acc)
                             : js_test_chunk_c (acc);
      js_test_sink = acc;
      /* The CPU clock is a system call (1.6 µs on a VM, against ~6 µs a
       * chunk): read at every round, a good share of the samples would
       * land in it, all with one stack, and fold (back-off). */
      if (round % 64 != 63)
        continue;
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
      if ((gint64) ts.tv_sec * NS_PER_SEC + ts.tv_nsec >= cpu_end)
        break;
    }
  switches_after = thread_switches ("jankscope-watch");
  printf ("watch_switches=%" G_GINT64_FORMAT "\n",
          switches_before >= 0 && switches_after >= 0 ? switches_after - switches_before : -1);
  tail_end = MONO_NS (ts) + tail_ms * NS_PER_MS;
  for (guint i = 0; MONO_NS (ts) < tail_end; i++)
    {
      int ret;

      js_test_spin (1);
      ret = i % 2 == 0 ? poll (NULL, 0, 2) : usleep (2000);
      ++*calls;
      if (ret < 0 && errno == EINTR)
        ++*eintr;
      else if (ret < 0)
        ++*other_errors;
    }
}

/* sleep-loop: the same with each blocking call a program may make inside a
 * dispatch; every call is 2 ms long and cannot end early but for a signal.
 * `which` indexes sleep_calls[]; -1 takes them in turn ("mixed"). */
static const char *const sleep_calls[]
    = { "poll",        "select",    "pselect",         "ppoll", "epoll_wait",
        "epoll_pwait", "nanosleep", "clock_nanosleep", "usleep" };

JS_TEST_FUNC void
js_test_sleep_loop (int which, guint total_ms, int epfd, guint *calls, guint *eintr,
                    guint *other_errors)
{
  struct timespec ts;
  gint64 end = MONO_NS (ts) + total_ms * NS_PER_MS;
  guint turn = 0;

  while (MONO_NS (ts) < end)
    {
      gint64 spin_end = MONO_NS (ts) + 2 * NS_PER_MS;
      struct timespec req = { 0, 2 * NS_PER_MS };
      struct timeval tv = { 0, 2000 };
      struct epoll_event ev;
      int call = which >= 0 ? which : (int) (turn++ % G_N_ELEMENTS (sleep_calls));
      int ret, err;

      SPIN_UNTIL (spin_end);
      (*calls)++;
      errno = 0;
      switch (call)
        {
        case 0:
          ret = poll (NULL, 0, 2);
          break;
        case 1:
          ret = select (0, NULL, NULL, NULL, &tv);
          break;
        case 2:
          ret = pselect (0, NULL, NULL, NULL, &req, NULL);
          break;
        case 3:
          ret = ppoll (NULL, 0, &req, NULL);
          break;
        case 4:
          ret = epoll_wait (epfd, &ev, 1, 2);
          break;
        case 5:
          ret = epoll_pwait (epfd, &ev, 1, 2, NULL);
          break;
        case 6:
          ret = nanosleep (&req, &req);
          break;
        case 7:
          /* Returns the error number instead of setting errno. */
          err = clock_nanosleep (CLOCK_MONOTONIC, 0, &req, &req);
          ret = err == 0 ? 0 : -1;
          errno = err;
          break;
        default:
          ret = usleep (2000);
          break;
        }
      err = errno;
      if (ret < 0 && err == EINTR)
        (*eintr)++;
      else if (ret != 0)
        (*other_errors)++;
    }
}

/* lock: waits for a mutex a worker holds. */
JS_TEST_FUNC void
js_test_wait_lock (GMutex *mutex)
{
  g_mutex_lock (mutex);
  g_mutex_unlock (mutex);
}

/* io: opens a FIFO for reading: blocks in openat until a writer opens it.
 * (The volatile store after the call keeps it from being a tail call, which
 * would leave no frame of this function.) */
JS_TEST_FUNC int
js_test_open_fifo (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  js_test_depth_sink = fd;
  return fd;
}

/* ipc: reads one byte from a socket (no tail call either). */
JS_TEST_FUNC gssize
js_test_read_socket (int fd, char *byte)
{
  gssize n = read (fd, byte, 1);

  js_test_depth_sink = (int) n;
  return n;
}

/* malloc: malloc/free of random sizes for `seconds`. */
JS_TEST_FUNC guint64
js_test_malloc_loop (guint seconds)
{
  void *live[64] = { NULL };
  guint64 rng = 88172645463325252ULL, allocations = 0;
  struct timespec ts;
  gint64 end = MONO_NS (ts) + seconds * NS_PER_SEC;

  while (MONO_NS (ts) < end)
    for (int i = 0; i < 256; i++)
      {
        guint slot;
        gsize size;

        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        slot = (guint) (rng % G_N_ELEMENTS (live));
        /* Mostly small, some large enough to be mmapped. */
        size = (rng >> 8) % 8 == 0 ? 128 * 1024 + (rng >> 16) % (512 * 1024)
                                   : 1 + (rng >> 16) % 4096;
        free (live[slot]);
        live[slot] = malloc (size);
        if (live[slot] == NULL)
          fail ("malloc (%zu) failed", size);
        ((volatile char *) live[slot])[0] = (char) i;
        ((volatile char *) live[slot])[size - 1] = (char) i;
        allocations++;
      }
  for (guint i = 0; i < G_N_ELEMENTS (live); i++)
    free (live[i]);
  return allocations;
}

/* fork: a 600 ms CPU stall during which the main thread forks twice: a
 * child that spins 200 ms and _exits, one that execs /bin/true. */
JS_TEST_FUNC void
js_test_fork_stall (pid_t *spinner, pid_t *execer)
{
  struct timespec ts;
  gint64 start = MONO_NS (ts);
  gint64 at = start + 200 * NS_PER_MS;

  SPIN_UNTIL (at);
  *spinner = fork ();
  if (*spinner == 0)
    {
      gint64 child_end = MONO_NS (ts) + 200 * NS_PER_MS;

      SPIN_UNTIL (child_end);
      _exit (0);
    }
  *execer = fork ();
  if (*execer == 0)
    {
      execl ("/bin/true", "true", (char *) NULL);
      _exit (127);
    }
  at = start + 600 * NS_PER_MS;
  SPIN_UNTIL (at);
}

/* hang: `ms` on the CPU or asleep. */
JS_TEST_FUNC void
js_test_hang (guint ms, gboolean sleep)
{
  struct timespec ts;
  gint64 end = MONO_NS (ts) + ms * NS_PER_MS;

  if (!sleep)
    SPIN_UNTIL (end);
  else
    while (MONO_NS (ts) < end)
      {
        struct timespec req = { 0, 100 * NS_PER_MS };

        nanosleep (&req, NULL);
      }
}

/* --- scenarios -------------------------------------------------------------- */

typedef void (*StallFunc) (void);

static void dlclose_reuse (void);
static void debuginfo_module (void);

static gboolean
stall_cb (gpointer data)
{
  StallFunc func = (StallFunc) data;

  func ();
  /* Those quit after their own stall. */
  if (func != dlclose_reuse && func != debuginfo_module)
    quit_soon ();
  return G_SOURCE_REMOVE;
}

static void
busy (void)
{
  gint64 start = now_ns ();

  js_test_busy_loop (300);
  print_stall (start, now_ns ());
}

static void
recursion (void)
{
  gint64 start = now_ns ();

  js_test_recurse (40, 300);
  print_stall (start, now_ns ());
}

static void
sleeper (void)
{
  gint64 start = now_ns ();
  int error = 0;
  int ret = js_test_sleeper (300000, &error);
  gint64 end = now_ns ();

  print_stall (start, end);
  printf ("elapsed_ns=%" G_GINT64_FORMAT "\n", end - start);
  printf ("usleep_ret=%d\nusleep_errno=%d\n", ret, error);
}

static void
nanosleep_loop (void)
{
  gint64 start = now_ns ();
  guint sleeps = 0, eintr = 0, other = 0;

  js_test_nanosleep_loop (1000, &sleeps, &eintr, &other);
  print_stall (start, now_ns ());
  printf ("nanosleeps=%u\neintr=%u\nother_errors=%u\n", sleeps, eintr, other);
}

static void
cpu_stall (void)
{
  guint cpu_ms = scenario_arg != NULL ? (guint) atoi (scenario_arg) : 2000;
  guint tail_ms = scenario_arg2 != NULL ? (guint) atoi (scenario_arg2) : 300;
  guint calls = 0, eintr = 0, other = 0;
  gint64 start = now_ns ();

  js_test_cpu_stall (cpu_ms, tail_ms, &calls, &eintr, &other);
  print_stall (start, now_ns ());
  printf ("calls=%u\neintr=%u\nother_errors=%u\n", calls, eintr, other);
}

static void
sleep_loop (void)
{
  guint ms = scenario_arg2 != NULL ? (guint) atoi (scenario_arg2) : 4000;
  guint calls = 0, eintr = 0, other = 0;
  int which = -2;
  int epfd;
  gint64 start;

  if (scenario_arg == NULL)
    fail ("sleep-loop: the call is argv[2]");
  if (strcmp (scenario_arg, "mixed") == 0)
    which = -1;
  for (gsize i = 0; i < G_N_ELEMENTS (sleep_calls); i++)
    if (strcmp (scenario_arg, sleep_calls[i]) == 0)
      which = (int) i;
  if (which == -2)
    fail ("sleep-loop: unknown call %s", scenario_arg);
  epfd = epoll_create1 (EPOLL_CLOEXEC);
  if (epfd < 0)
    fail ("epoll_create1: %s", g_strerror (errno));
  start = now_ns ();
  js_test_sleep_loop (which, ms, epfd, &calls, &eintr, &other);
  print_stall (start, now_ns ());
  close (epfd);
  printf ("calls=%u\neintr=%u\nother_errors=%u\n", calls, eintr, other);
}

/* pollfunc-loop [MS]: for MS (default 4000), a nested main loop on the
 * default context whose poll function is the app's own, which polls with
 * the ppoll system call itself (no libc wrapper, so no wrapper of the
 * preload sees it either) and counts the polls cut short (EINTR); its only
 * source, every 2 ms, spins 25 ms: a stall each time (sampled), ended by a
 * poll. The sampling signal of the stall must never cut that poll short:
 * only jankscope's poll function can guard it. Also counts the polls made
 * with a signal blocked that the loop does not block (`held`): the guard
 * blocks the sampling signal around a poll that starts while one may come
 * (the CPU-time timer still armed at the stall's end). */
static guint pollfunc_calls, pollfunc_eintr, pollfunc_other, pollfunc_held;
static sigset_t pollfunc_mask; /* the loop's own */

static gint
app_ppoll_func (GPollFD *fds, guint n_fds, gint timeout)
{
  struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };
  sigset_t mask;
  long ret;

  pthread_sigmask (SIG_BLOCK, NULL, &mask);
  for (int sig = 1; sig < _NSIG; sig++)
    if (sigismember (&mask, sig) == 1 && sigismember (&pollfunc_mask, sig) != 1)
      {
        pollfunc_held++;
        break;
      }
  ret = syscall (SYS_ppoll, fds, (unsigned long) n_fds, timeout >= 0 ? &ts : NULL, NULL,
                 (size_t) (_NSIG / 8));
  pollfunc_calls++;
  if (ret < 0 && errno == EINTR)
    pollfunc_eintr++;
  else if (ret < 0)
    pollfunc_other++;
  return (gint) ret;
}

static gboolean
pollfunc_spin_cb (gpointer data)
{
  js_test_spin (25);
  return G_SOURCE_CONTINUE;
}

static void
pollfunc_loop (void)
{
  guint ms = scenario_arg != NULL ? (guint) atoi (scenario_arg) : 4000;
  GPollFunc before = g_main_context_get_poll_func (NULL);
  gint64 start = now_ns ();
  guint id;

  pthread_sigmask (SIG_BLOCK, NULL, &pollfunc_mask);
  g_main_context_set_poll_func (NULL, app_ppoll_func);
  id = g_timeout_add (2, pollfunc_spin_cb, NULL);
  while (now_ns () - start < ms * NS_PER_MS)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
  g_main_context_set_poll_func (NULL, before);
  print_stall (start, now_ns ());
  printf ("calls=%u\neintr=%u\nother_errors=%u\nheld=%u\n", pollfunc_calls, pollfunc_eintr,
          pollfunc_other, pollfunc_held);
}

static GMutex lock_mutex;
static gint lock_held;

static gpointer
lock_holder (gpointer data)
{
  g_mutex_lock (&lock_mutex);
  g_atomic_int_set (&lock_held, 1);
  g_usleep (300 * 1000);
  g_mutex_unlock (&lock_mutex);
  return NULL;
}

static void
lock (void)
{
  GThread *worker = g_thread_new ("stacks-lock-holder", lock_holder, NULL);
  gint64 start;

  while (!g_atomic_int_get (&lock_held))
    ;
  start = now_ns ();
  js_test_wait_lock (&lock_mutex);
  print_stall (start, now_ns ());
  g_thread_join (worker);
}

static char *fifo_path;

static gpointer
fifo_writer (gpointer data)
{
  int fd;

  g_usleep (300 * 1000);
  fd = open (fifo_path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    fail ("open (%s, O_WRONLY): %s", fifo_path, g_strerror (errno));
  if (write (fd, "x", 1) != 1)
    fail ("write to the FIFO: %s", g_strerror (errno));
  close (fd);
  return NULL;
}

static void
io (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stacks-app-XXXXXX", NULL);
  GThread *worker;
  gint64 start, end;
  char byte = 0;
  int fd;

  if (dir == NULL)
    fail ("g_dir_make_tmp failed");
  fifo_path = g_build_filename (dir, "fifo", NULL);
  if (mkfifo (fifo_path, 0600) != 0)
    fail ("mkfifo (%s): %s", fifo_path, g_strerror (errno));
  worker = g_thread_new ("stacks-fifo-writer", fifo_writer, NULL);
  start = now_ns ();
  fd = js_test_open_fifo (fifo_path);
  end = now_ns ();
  if (fd < 0)
    fail ("open (%s, O_RDONLY): %s", fifo_path, g_strerror (errno));
  print_stall (start, end);
  if (read (fd, &byte, 1) != 1 || byte != 'x')
    fail ("read from the FIFO");
  close (fd);
  g_thread_join (worker);
  g_unlink (fifo_path);
  g_rmdir (dir);
  g_clear_pointer (&fifo_path, g_free);
}

static int socket_fds[2];

static gpointer
socket_writer (gpointer data)
{
  g_usleep (300 * 1000);
  if (write (socket_fds[1], "y", 1) != 1)
    fail ("write to the socket: %s", g_strerror (errno));
  return NULL;
}

static void
ipc (void)
{
  GThread *worker;
  gint64 start;
  char byte = 0;
  gssize n;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socket_fds) != 0)
    fail ("socketpair: %s", g_strerror (errno));
  worker = g_thread_new ("stacks-socket-writer", socket_writer, NULL);
  start = now_ns ();
  n = js_test_read_socket (socket_fds[0], &byte);
  print_stall (start, now_ns ());
  if (n != 1 || byte != 'y')
    fail ("read from the socket returned %zd (%s)", n, n < 0 ? g_strerror (errno) : "");
  g_thread_join (worker);
  close (socket_fds[0]);
  close (socket_fds[1]);
}

static void
malloc_loop (void)
{
  guint seconds = scenario_arg != NULL ? (guint) atoi (scenario_arg) : 10;
  gint64 start = now_ns ();
  guint64 allocations = js_test_malloc_loop (seconds);

  print_stall (start, now_ns ());
  printf ("allocations=%" G_GUINT64_FORMAT "\n", allocations);
}

static int
exit_code_of (int status)
{
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return -1;
}

static void
fork_stall (void)
{
  pid_t spinner = -1, execer = -1;
  int status1 = -1, status2 = -1;
  gint64 start = now_ns ();

  js_test_fork_stall (&spinner, &execer);
  print_stall (start, now_ns ());
  if (spinner < 0 || execer < 0)
    fail ("fork: %s", g_strerror (errno));
  if (waitpid (spinner, &status1, 0) != spinner)
    fail ("waitpid (spinner): %s", g_strerror (errno));
  if (waitpid (execer, &status2, 0) != execer)
    fail ("waitpid (execer): %s", g_strerror (errno));
  printf ("spinner_pid=%d\nexecer_pid=%d\n", (int) spinner, (int) execer);
  printf ("spinner_exit=%d\nexecer_exit=%d\n", exit_code_of (status1), exit_code_of (status2));
}

static void
hang (void)
{
  gboolean sleep = scenario_arg != NULL && strcmp (scenario_arg, "sleep") == 0;
  gint64 start = now_ns ();

  if (scenario_arg != NULL && !sleep && strcmp (scenario_arg, "cpu") != 0)
    fail ("hang: cpu or sleep, not %s", scenario_arg);
  printf ("hang-started=%" G_GINT64_FORMAT "\n", start);
  fflush (stdout);
  js_test_hang (5000, sleep);
  print_stall (start, now_ns ());
}

static void
dlclose_module (void)
{
  const char *path
      = scenario_arg != NULL ? scenario_arg : g_getenv ("JANKSCOPE_TEST_STACKS_MODULE");
  void (*busy_func) (guint);
  void *handle;
  gint64 start;

  if (path == NULL)
    fail ("dlclose: the module's path is argv[2]");
  handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    fail ("dlopen (%s): %s", path, dlerror ());
  busy_func = (void (*) (guint)) dlsym (handle, "js_test_module_busy");
  if (busy_func == NULL)
    fail ("dlsym (js_test_module_busy): %s", dlerror ());
  start = now_ns ();
  busy_func (300);
  print_stall (start, now_ns ());
  if (dlclose (handle) != 0)
    fail ("dlclose: %s", dlerror ());
  handle = dlopen (path, RTLD_NOW | RTLD_NOLOAD);
  printf ("module_unloaded=%d\n", handle == NULL);
  if (handle != NULL)
    dlclose (handle);
}

/* dlclose-reuse: module A runs 300 ms and is dlclosed; module B (another
 * file, the same layout) is dlopened right away, most likely where A was,
 * and runs 300 ms in a second stall 800 ms later (a separate event). */
static void (*reuse_busy_b) (guint);

static guint64
module_base (void *func)
{
  Dl_info dl;

  return dladdr (func, &dl) != 0 ? (guint64) (guintptr) dl.dli_fbase : 0;
}

static gboolean
reuse_second_cb (gpointer data)
{
  gint64 start = now_ns ();

  reuse_busy_b (300);
  print_stall (start, now_ns ());
  quit_soon ();
  return G_SOURCE_REMOVE;
}

static void
dlclose_reuse (void)
{
  const char *path_a = scenario_arg;
  const char *path_b = scenario_arg2;
  void (*busy_a) (guint);
  void *a, *b;
  gint64 start;

  if (path_a == NULL || path_b == NULL)
    fail ("dlclose-reuse: the two modules' paths are argv[2] and argv[3]");
  a = dlopen (path_a, RTLD_NOW | RTLD_LOCAL);
  if (a == NULL)
    fail ("dlopen (%s): %s", path_a, dlerror ());
  busy_a = (void (*) (guint)) dlsym (a, "js_test_module_busy");
  if (busy_a == NULL)
    fail ("dlsym (js_test_module_busy): %s", dlerror ());
  printf ("module_a_base=0x%" G_GINT64_MODIFIER "x\n", module_base ((void *) busy_a));
  start = now_ns ();
  busy_a (300);
  print_stall (start, now_ns ());
  if (dlclose (a) != 0)
    fail ("dlclose: %s", dlerror ());
  b = dlopen (path_b, RTLD_NOW | RTLD_LOCAL);
  if (b == NULL)
    fail ("dlopen (%s): %s", path_b, dlerror ());
  reuse_busy_b = (void (*) (guint)) dlsym (b, "js_test_module2_busy");
  if (reuse_busy_b == NULL)
    fail ("dlsym (js_test_module2_busy): %s", dlerror ());
  printf ("module_b_base=0x%" G_GINT64_MODIFIER "x\n", module_base ((void *) reuse_busy_b));
  fflush (stdout);
  g_source_set_name_by_id (g_timeout_add (800, reuse_second_cb, NULL), "stacks-stall-2");
}

/* debuginfo: the stall is the dispatch of a static callback of the module
 * (tests/apps/debuginfo-module.c), spinning 300 ms in another static
 * function; the program quits LINGER_MS (default 200) after it, time for a
 * debug file to come from debuginfod, or with "stdin" when its standard
 * input ends: the check closes it once the journal shows the stall named as
 * it expects (on a loaded machine the collector may not have named it 200 ms
 * after the stall, and at exit it loads no debug information). */
typedef struct
{
  unsigned int ms;
  long long start_ns, end_ns;
} DebuginfoStall; /* JsTestDebuginfoStall */

static DebuginfoStall debuginfo_stall = { 300, 0, 0 };

static gboolean
stdin_cb (int fd, GIOCondition condition, gpointer data)
{
  char buf[64];
  ssize_t n = read (fd, buf, sizeof buf);

  if (n > 0 || (n < 0 && errno == EINTR))
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
debuginfo_stall_done (gpointer data)
{
  guint linger_ms;

  print_stall (debuginfo_stall.start_ns, debuginfo_stall.end_ns);
  if (g_strcmp0 (scenario_arg2, "stdin") == 0)
    {
      g_source_set_name_by_id (
          g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_cb, NULL),
          "stacks-stdin");
      return;
    }
  linger_ms = scenario_arg2 != NULL ? (guint) atoi (scenario_arg2) : QUIT_AFTER_STALL_MS;
  g_source_set_name_by_id (g_timeout_add (linger_ms, quit_cb, NULL), "stacks-quit");
}

static void
debuginfo_module (void)
{
  void *(*get_callback) (void);
  void *handle;

  if (scenario_arg == NULL)
    fail ("debuginfo: the module's path is argv[2]");
  handle = dlopen (scenario_arg, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    fail ("dlopen (%s): %s", scenario_arg, dlerror ());
  get_callback = (void *(*) (void) ) dlsym (handle, "js_test_debuginfo_callback");
  if (get_callback == NULL)
    fail ("dlsym (js_test_debuginfo_callback): %s", dlerror ());
  /* The module's static function is the source's own callback. */
  g_source_set_name_by_id (g_timeout_add_full (G_PRIORITY_DEFAULT, 10,
                                               (GSourceFunc) get_callback (), &debuginfo_stall,
                                               debuginfo_stall_done),
                           "debuginfo-stall");
}

static volatile sig_atomic_t app_handler_calls;

static void
app_handler (int sig)
{
  app_handler_calls++;
}

static void
signal_takeover (void)
{
  struct sigaction action;
  int taken = 0;
  gint64 start;

  /* After start-up: jankscope's handler is in place and gets replaced. */
  memset (&action, 0, sizeof action);
  action.sa_handler = app_handler;
  sigemptyset (&action.sa_mask);
  for (int sig = SIGRTMIN + 3; sig <= SIGRTMAX - 1; sig++)
    if (sigaction (sig, &action, NULL) == 0)
      taken++;
  printf ("signals_taken=%d\n", taken);
  start = now_ns ();
  js_test_spin (300);
  print_stall (start, now_ns ());
  printf ("handler_calls_after_stall=%d\n", (int) app_handler_calls);
}

static void
signal_blocked (void)
{
  sigset_t set, pending;
  int n_pending = 0;
  gint64 start;

  sigemptyset (&set);
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
    sigaddset (&set, sig);
  if (pthread_sigmask (SIG_BLOCK, &set, NULL) != 0)
    fail ("pthread_sigmask");
  start = now_ns ();
  js_test_spin (300);
  print_stall (start, now_ns ());
  /* A signal sent while it was blocked would be pending now (and delivered,
   * maybe in the middle of a sleep, at the unblock). */
  sigemptyset (&pending);
  sigpending (&pending);
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
    if (sigismember (&pending, sig))
      n_pending++;
  printf ("rt_pending=%d\n", n_pending);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
}

/* app-signals: the app's own signals (handlers without SA_RESTART) cut its
 * blocking calls short, and masks it passes keep their meaning, with or
 * without jankscope sampling. One stall; each case: a helper thread waits
 * until the main thread sleeps in the call (/proc/self/task/TID/syscall),
 * then sends SIGUSR1 (or arms a 1 ms ITIMER_REAL: SIGALRM to the process,
 * taken by the main thread, the one thread waiting for it). Prints
 * "case=NAME ret=R errno=E usr1=N alrm=N" (handlers run when the call
 * returned), the same lines without and with jankscope. */
static volatile sig_atomic_t usr1_calls, alrm_calls;
static pid_t main_tid;
static pthread_t main_pthread;

static void
on_usr1 (int sig)
{
  usr1_calls++;
}

static void
on_alrm (int sig)
{
  alrm_calls++;
}

static gboolean
main_thread_waits (void)
{
  char path[64], buf[128] = "";
  FILE *f;

  g_snprintf (path, sizeof path, "/proc/self/task/%d/syscall", (int) main_tid);
  f = fopen (path, "re");
  if (f == NULL)
    return FALSE;
  if (fgets (buf, sizeof buf, f) == NULL)
    buf[0] = '\0';
  fclose (f);
  /* A system call number (not "running", not -1: a page fault). */
  return g_ascii_isdigit (buf[0]) && atoi (buf) != SYS_write && atoi (buf) != SYS_futex;
}

static gpointer
app_signal_sender (gpointer data)
{
  gboolean alarm = GPOINTER_TO_INT (data);

  for (int i = 0; i < 100000 && !main_thread_waits (); i++)
    g_usleep (100);
  if (alarm)
    {
      struct itimerval it = { { 0, 0 }, { 0, 1000 } };

      setitimer (ITIMER_REAL, &it, NULL);
    }
  else
    pthread_kill (main_pthread, SIGUSR1);
  return NULL;
}

typedef enum
{
  APP_NANOSLEEP,
  APP_CLOCK_NANOSLEEP,
  APP_USLEEP,
  APP_POLL,
  APP_PPOLL,
  APP_SELECT,
  APP_PSELECT,
  APP_EPOLL_WAIT,
  APP_EPOLL_PWAIT,
  APP_SIGTIMEDWAIT,
  APP_PAUSE,
  APP_SIGSUSPEND,
} AppCall;

/* One call: `timeout_ms` where it has one; `mask` for the calls that take
 * one (ppoll, pselect, epoll_pwait, sigsuspend). */
static int
app_call (AppCall call, int timeout_ms, const sigset_t *mask, int epfd, int *error)
{
  struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * NS_PER_MS }, rem;
  struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
  struct epoll_event ev;
  sigset_t set;
  int ret;

  sigemptyset (&set);
  sigaddset (&set, SIGUSR2);
  errno = 0;
  switch (call)
    {
    case APP_NANOSLEEP:
      ret = nanosleep (&ts, &rem);
      break;
    case APP_CLOCK_NANOSLEEP:
      ret = clock_nanosleep (CLOCK_MONOTONIC, 0, &ts, &rem);
      errno = ret;
      ret = ret == 0 ? 0 : -1;
      break;
    case APP_USLEEP:
      ret = usleep ((useconds_t) timeout_ms * 1000);
      break;
    case APP_POLL:
      ret = poll (NULL, 0, timeout_ms);
      break;
    case APP_PPOLL:
      ret = ppoll (NULL, 0, &ts, mask);
      break;
    case APP_SELECT:
      ret = select (0, NULL, NULL, NULL, &tv);
      break;
    case APP_PSELECT:
      ret = pselect (0, NULL, NULL, NULL, &ts, mask);
      break;
    case APP_EPOLL_WAIT:
      ret = epoll_wait (epfd, &ev, 1, timeout_ms);
      break;
    case APP_EPOLL_PWAIT:
      ret = epoll_pwait (epfd, &ev, 1, timeout_ms, mask);
      break;
    case APP_SIGTIMEDWAIT:
      ret = sigtimedwait (&set, NULL, &ts);
      break;
    case APP_PAUSE:
      ret = pause ();
      break;
    default:
      ret = sigsuspend (mask);
      break;
    }
  *error = errno;
  return ret;
}

static void
app_case (const char *name, AppCall call, int timeout_ms, const sigset_t *mask, gboolean alarm,
          int epfd)
{
  GThread *sender;
  int ret, error;
  int usr1, alrm;

  usr1_calls = alrm_calls = 0;
  sender = g_thread_new ("stacks-sender", app_signal_sender, GINT_TO_POINTER (alarm));
  ret = app_call (call, timeout_ms, mask, epfd, &error);
  usr1 = usr1_calls;
  alrm = alrm_calls;
  g_thread_join (sender);
  printf ("case=%s ret=%d errno=%d usr1=%d alrm=%d\n", name, ret, error, usr1, alrm);
}

static void
app_signals (void)
{
  static const struct
  {
    const char *name;
    AppCall call;
  } interrupted[] = {
    { "nanosleep", APP_NANOSLEEP },
    { "clock_nanosleep", APP_CLOCK_NANOSLEEP },
    { "usleep", APP_USLEEP },
    { "poll", APP_POLL },
    { "ppoll", APP_PPOLL },
    { "select", APP_SELECT },
    { "pselect", APP_PSELECT },
    { "epoll_wait", APP_EPOLL_WAIT },
    { "epoll_pwait", APP_EPOLL_PWAIT },
    { "sigtimedwait", APP_SIGTIMEDWAIT },
    { "pause", APP_PAUSE },
  };
  struct sigaction sa;
  sigset_t usr1, empty, old;
  gint64 start = now_ns ();
  int epfd = epoll_create1 (EPOLL_CLOEXEC);

  if (epfd < 0)
    fail ("epoll_create1: %s", g_strerror (errno));
  main_tid = (pid_t) syscall (SYS_gettid);
  main_pthread = pthread_self ();
  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_handler = on_usr1; /* no SA_RESTART */
  sigaction (SIGUSR1, &sa, NULL);
  sa.sa_handler = on_alrm;
  sigaction (SIGALRM, &sa, NULL);
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  sigemptyset (&empty);

  /* Cut short by the app's signal: 2 s unless interrupted. */
  for (gsize i = 0; i < G_N_ELEMENTS (interrupted); i++)
    app_case (interrupted[i].name, interrupted[i].call, 2000, NULL, FALSE, epfd);
  app_case ("alarm-nanosleep", APP_NANOSLEEP, 2000, NULL, TRUE, epfd);
  app_case ("alarm-poll", APP_POLL, 2000, NULL, TRUE, epfd);
  /* The app's mask blocks SIGUSR1: the call times out (100 ms), SIGUSR1
   * is handled as it returns. */
  app_case ("ppoll-mask-blocks", APP_PPOLL, 100, &usr1, FALSE, epfd);
  app_case ("pselect-mask-blocks", APP_PSELECT, 100, &usr1, FALSE, epfd);
  app_case ("epoll_pwait-mask-blocks", APP_EPOLL_PWAIT, 100, &usr1, FALSE, epfd);
  /* The thread blocks SIGUSR1, the app's mask lets it in during the call. */
  pthread_sigmask (SIG_BLOCK, &usr1, &old);
  app_case ("ppoll-mask-unblocks", APP_PPOLL, 2000, &empty, FALSE, epfd);
  app_case ("pselect-mask-unblocks", APP_PSELECT, 2000, &empty, FALSE, epfd);
  app_case ("epoll_pwait-mask-unblocks", APP_EPOLL_PWAIT, 2000, &empty, FALSE, epfd);
  app_case ("sigsuspend", APP_SIGSUSPEND, 0, &empty, FALSE, epfd);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  /* Some CPU at the end, so that the stall is sampled while it runs too. */
  js_test_spin (100);
  close (epfd);
  print_stall (start, now_ns ());
}

static gboolean
idle_tick_cb (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

/* cpu-stall-no-timer: from here on timer_create fails with EAGAIN (as when
 * the process has too many timers or signals queued), in this thread and
 * in those started later: jankscope's CPU-time timer cannot be created
 * (its core starts at the first use of the main loop, after this). Checks
 * that the call really fails. FALSE (after deny=WHY) when the kernel takes
 * no filter. */
static gboolean
deny_timer_create (void)
{
  int err = deny_syscall (SYS_timer_create, EAGAIN);
  int id = -1;

  if (err != 0)
    {
      printf ("deny=%s\n", g_strerror (err));
      return FALSE;
    }
  if (syscall (SYS_timer_create, CLOCK_MONOTONIC, NULL, &id) == 0)
    fail ("timer_create succeeded (timer %d) under the filter that denies it", id);
  if (errno != EAGAIN)
    fail ("timer_create under the filter: %s, not EAGAIN", g_strerror (errno));
  printf ("deny=ok\n");
  return TRUE;
}

/* --- main ------------------------------------------------------------------- */

static gpointer
safety_thread (gpointer data)
{
  g_usleep ((gulong) SAFETY_EXIT_S * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: stacks-app did not end within %d s\n", SAFETY_EXIT_S);
  _exit (99);
  return NULL;
}

static const struct
{
  const char *name;
  StallFunc func;
} scenarios[] = {
  { "busy", busy },
  { "recursion", recursion },
  { "usleep", sleeper },
  { "nanosleep-loop", nanosleep_loop },
  { "sleep-loop", sleep_loop },
  { "pollfunc-loop", pollfunc_loop },
  { "cpu-stall", cpu_stall },
  { "cpu-stall-no-timer", cpu_stall },
  { "lock", lock },
  { "io", io },
  { "ipc", ipc },
  { "malloc", malloc_loop },
  { "fork", fork_stall },
  { "hang", hang },
  { "dlclose", dlclose_module },
  { "dlclose-reuse", dlclose_reuse },
  { "debuginfo", debuginfo_module },
  { "signal-takeover", signal_takeover },
  { "signal-blocked", signal_blocked },
  { "app-signals", app_signals },
  { "idle", NULL },
};

int
main (int argc, char **argv)
{
  StallFunc func = NULL;
  gboolean found = FALSE;
  guint ticks = 0;

  if (argc < 2 || argc > 4)
    {
      fprintf (stderr, "usage: stacks-app SCENARIO [ARG [ARG2]]\nscenarios:");
      for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
        fprintf (stderr, " %s", scenarios[i].name);
      fputc ('\n', stderr);
      return 64;
    }
  scenario_arg = argc >= 3 ? argv[2] : NULL;
  scenario_arg2 = argc >= 4 ? argv[3] : NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (strcmp (argv[1], scenarios[i].name) == 0)
      {
        func = scenarios[i].func;
        found = TRUE;
      }
  if (!found)
    {
      fprintf (stderr, "stacks-app: unknown scenario %s\n", argv[1]);
      return 64;
    }
  if (strcmp (argv[1], "cpu-stall-no-timer") == 0 && !deny_timer_create ())
    return 0;

  printf ("glib_version=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
  printf ("pid=%d\n", (int) getpid ());
  fflush (stdout);
  g_thread_unref (g_thread_new ("stacks-safety", safety_thread, NULL));

  loop = g_main_loop_new (NULL, FALSE);
  if (func != NULL)
    g_source_set_name_by_id (g_timeout_add (STALL_START_MS, stall_cb, (gpointer) func),
                             "stacks-stall");
  else
    {
      /* idle: a timeout every 100 ms that does nothing, for 2 s. */
      g_source_set_name_by_id (g_timeout_add (100, idle_tick_cb, &ticks), "stacks-tick");
      g_source_set_name_by_id (g_timeout_add (2000, quit_cb, NULL), "stacks-quit");
    }
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  if (func == NULL)
    printf ("ticks=%u\n", ticks);
  if (func == signal_takeover)
    printf ("handler_calls=%d\n", (int) app_handler_calls);
  printf ("done=1\n");
  fflush (stdout);
  return 0;
}
