/* Unit tests of the preload's guarded blocking calls
 * (src/preload/preload-blocking.c, src/bridge/js-call-guard.h), without
 * the core.
 *
 * This program is linked with preload-blocking.c, so its own calls to poll,
 * nanosleep & co. go through the wrappers, and it plays the core's part: a
 * guard for the main thread with a "sampling" signal whose handler does
 * what the core's does for the handshake (handled += 1, in_flight -= 1).
 * A helper thread waits until the main thread is blocked in the call
 * (/proc/self/task/TID/syscall names a system call) and then sends signals.
 *
 * The watchdog never sends while a call is under way (test-sampler.c checks
 * that side); what a wrapper must get right is the slow path, a signal
 * already in flight when the call starts (in_flight = 1 here): that signal
 * must not cut the call short, the app's own signals must, masks the app
 * passes must keep their meaning, and every result (return value, errno,
 * time left) must be the call's own. A control case per call shows that the
 * same signal, not held back, does interrupt it: the checks are not
 * vacuous. No check here depends on how long anything takes.
 */
#define _GNU_SOURCE
#include "preload-private.h"
#include "js-call-guard.h"

#include <glib.h>

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The preload's: read by the wrappers. */
JsBridge js_preload_bridge;

/* glibc's fortified entry points (preload-blocking.c wraps them). */
int __poll_chk (struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen);
int __ppoll_chk (struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
                 const sigset_t *ss, size_t fdslen);

#define TIMEOUT_MS 100

static JsCallGuard guard;
static int ours; /* the "sampling" signal */
static pid_t main_tid;
static int epfd;
static volatile sig_atomic_t ours_count, usr1_count;

static void
on_ours (int sig, siginfo_t *info, void *context)
{
  ours_count++;
  __atomic_store_n (&guard.handled, guard.handled + 1, __ATOMIC_RELAXED);
  __atomic_sub_fetch (&guard.in_flight, 1, __ATOMIC_SEQ_CST);
}

static void
on_usr1 (int sig)
{
  usr1_count++;
}

/* --- the helper thread ------------------------------------------------------ */

typedef enum
{
  SEND_OURS,
  SEND_USR1,
  SEND_OURS_THEN_USR1, /* for calls that only a signal ends */
} Plan;

typedef struct
{
  Plan plan;
  pthread_t target;
  pid_t target_tid;
  gboolean blocked_seen;
} Sender;

/* The thread sleeps in one of the waits the wrappers lead to (not in a
 * page fault or some other system call). */
static gboolean
blocked_in_wait (pid_t tid)
{
  static const long waits[] = {
    SYS_poll,          SYS_ppoll,        SYS_select,    SYS_pselect6,        SYS_epoll_wait,
    SYS_epoll_pwait,   SYS_epoll_pwait2, SYS_nanosleep, SYS_clock_nanosleep, SYS_rt_sigtimedwait,
    SYS_rt_sigsuspend, SYS_pause
  };
  char path[64], buf[256];
  FILE *f;
  gboolean blocked = FALSE;

  g_snprintf (path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
  f = fopen (path, "re");
  if (f == NULL)
    return FALSE;
  if (fgets (buf, sizeof buf, f) != NULL && g_ascii_isdigit (buf[0]))
    {
      long nr = strtol (buf, NULL, 10);

      for (gsize i = 0; i < G_N_ELEMENTS (waits); i++)
        blocked |= nr == waits[i];
    }
  fclose (f);
  return blocked;
}

static gpointer
sender_thread (gpointer data)
{
  Sender *s = data;

  /* Until the target sleeps in its call (bounded: 10 s). */
  for (int i = 0; i < 100000 && !blocked_in_wait (s->target_tid); i++)
    g_usleep (100);
  s->blocked_seen = blocked_in_wait (s->target_tid);
  if (s->plan == SEND_USR1)
    pthread_kill (s->target, SIGUSR1);
  else
    {
      union sigval value = { 0 };

      pthread_sigqueue (s->target, ours, value);
      if (s->plan == SEND_OURS_THEN_USR1)
        {
          /* If our signal ended the call, it has returned by now, before
           * SIGUSR1 was sent: the main thread checks which ran first. */
          g_usleep (20 * 1000);
          pthread_kill (s->target, SIGUSR1);
        }
    }
  return NULL;
}

/* --- one call ------------------------------------------------------------- */

typedef enum
{
  C_POLL,
  C_POLL_CHK,
  C_PPOLL,
  C_PPOLL_CHK,
  C_SELECT,
  C_PSELECT,
  C_EPOLL_WAIT,
  C_EPOLL_PWAIT,
  C_EPOLL_PWAIT2,
  C_NANOSLEEP,
  C_CLOCK_NANOSLEEP,
  C_USLEEP,
  C_SIGTIMEDWAIT,
  C_N_TIMED,
  /* Only a signal ends these. */
  C_PAUSE = C_N_TIMED,
  C_SIGSUSPEND,
  C_SIGWAITINFO,
  C_N,
} Call;

static const char *const call_names[] = {
  "poll",         "__poll_chk",  "ppoll",        "__ppoll_chk", "select",          "pselect",
  "epoll_wait",   "epoll_pwait", "epoll_pwait2", "nanosleep",   "clock_nanosleep", "usleep",
  "sigtimedwait", "pause",       "sigsuspend",   "sigwaitinfo",
};

typedef struct
{
  int ret;
  int error;          /* errno after the call (clock_nanosleep: its return value) */
  int usr1_at_return; /* SIGUSR1 handlers run when the call returned */
  int ours_at_return;
  gint64 left_us; /* select's timeval, nanosleep's rem after the call; -1 if none */
} Result;

/* The call with a TIMEOUT_MS timeout where it has one; `mask`: the mask
 * argument of the calls that take one (NULL: none). */
static Result
make_call (Call call, const sigset_t *mask)
{
  struct pollfd pfd = { .fd = -1 };
  struct timespec ts = { 0, TIMEOUT_MS * 1000 * 1000 };
  struct timespec rem = { -1, -1 };
  struct timeval tv = { 0, TIMEOUT_MS * 1000 };
  struct epoll_event ev;
  sigset_t set, empty;
  Result r = { 0 };

  sigemptyset (&set);
  sigaddset (&set, SIGUSR2);
  sigemptyset (&empty);
  r.left_us = -1;
  errno = 0;
  switch (call)
    {
    case C_POLL:
      r.ret = poll (&pfd, 1, TIMEOUT_MS);
      break;
    case C_POLL_CHK:
      r.ret = __poll_chk (&pfd, 1, TIMEOUT_MS, sizeof pfd);
      break;
    case C_PPOLL:
      r.ret = ppoll (&pfd, 1, &ts, mask);
      break;
    case C_PPOLL_CHK:
      r.ret = __ppoll_chk (&pfd, 1, &ts, mask, sizeof pfd);
      break;
    case C_SELECT:
      r.ret = select (0, NULL, NULL, NULL, &tv);
      r.left_us = tv.tv_sec * G_USEC_PER_SEC + tv.tv_usec;
      break;
    case C_PSELECT:
      r.ret = pselect (0, NULL, NULL, NULL, &ts, mask);
      break;
    case C_EPOLL_WAIT:
      r.ret = epoll_wait (epfd, &ev, 1, TIMEOUT_MS);
      break;
    case C_EPOLL_PWAIT:
      r.ret = epoll_pwait (epfd, &ev, 1, TIMEOUT_MS, mask);
      break;
    case C_EPOLL_PWAIT2:
      r.ret = epoll_pwait2 (epfd, &ev, 1, &ts, mask);
      break;
    case C_NANOSLEEP:
      r.ret = nanosleep (&ts, &rem);
      if (r.ret != 0)
        r.left_us = rem.tv_sec * G_USEC_PER_SEC + rem.tv_nsec / 1000;
      break;
    case C_CLOCK_NANOSLEEP:
      r.ret = clock_nanosleep (CLOCK_MONOTONIC, 0, &ts, &rem);
      errno = r.ret;
      r.ret = r.ret == 0 ? 0 : -1;
      break;
    case C_USLEEP:
      r.ret = usleep (TIMEOUT_MS * 1000);
      break;
    case C_SIGTIMEDWAIT:
      r.ret = sigtimedwait (&set, NULL, &ts);
      break;
    case C_PAUSE:
      r.ret = pause ();
      break;
    case C_SIGSUSPEND:
      r.ret = sigsuspend (mask != NULL ? mask : &empty);
      break;
    case C_SIGWAITINFO:
      r.ret = sigwaitinfo (&set, NULL);
      break;
    default:
      g_assert_not_reached ();
    }
  r.error = errno;
  r.usr1_at_return = usr1_count;
  r.ours_at_return = ours_count;
  return r;
}

/* The timeout result of each timed call. */
static void
assert_timed_out (Call call, const Result *r)
{
  if (call == C_SIGTIMEDWAIT)
    {
      g_assert_cmpint (r->ret, ==, -1);
      g_assert_cmpint (r->error, ==, EAGAIN);
    }
  else
    {
      g_assert_cmpint (r->ret, ==, 0);
      if (call == C_SELECT)
        g_assert_cmpint (r->left_us, ==, 0);
    }
}

static void
assert_interrupted (Call call, const Result *r)
{
  g_assert_cmpint (r->ret, ==, -1);
  g_assert_cmpint (r->error, ==, EINTR);
  /* What is left of the time: written back, as without a wrapper. (For
   * nanosleep the kernel counts the timer slack in: `rem` can exceed the
   * request by up to 50 µs when the signal came at once.) */
  if (call == C_SELECT || call == C_NANOSLEEP)
    g_assert_cmpint (r->left_us, >, 0);
  if (call == C_SELECT)
    g_assert_cmpint (r->left_us, <=, TIMEOUT_MS * 1000);
}

/* Runs `call` on this thread with `in_flight` signals in flight while a
 * helper sends per `plan`. */
static Result
run (Call call, int in_flight, Plan plan, const sigset_t *mask, const char *what)
{
  Sender s = { .plan = plan, .target = pthread_self (), .target_tid = main_tid };
  GThread *t;
  Result r;

  usr1_count = 0;
  ours_count = 0;
  guard.in_flight = in_flight;
  guard.depth = 0;
  t = g_thread_new ("sender", sender_thread, &s);
  r = make_call (call, mask);
  g_thread_join (t);
  /* Whatever was sent has been handled by now (signals held back came in
   * at the end of the call). */
  g_assert_cmpint (guard.depth, ==, 0);
  g_test_message ("%s %s: ret %d, errno %d, ours %d/%d, usr1 %d/%d, left %" G_GINT64_FORMAT " us",
                  call_names[call], what, r.ret, r.error, r.ours_at_return, (int) ours_count,
                  r.usr1_at_return, (int) usr1_count, r.left_us);
  g_assert_true (s.blocked_seen);
  return r;
}

static void
setup (void)
{
  struct sigaction sa;
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  main_tid = (pid_t) syscall (SYS_gettid);
  epfd = epoll_create1 (EPOLL_CLOEXEC);
  g_assert_cmpint (epfd, >=, 0);
  ours = SIGRTMIN + 5;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_ours;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset (&sa.sa_mask);
  g_assert_cmpint (sigaction (ours, &sa, NULL), ==, 0);
  /* The app's: no SA_RESTART. */
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigemptyset (&sa.sa_mask);
  g_assert_cmpint (sigaction (SIGUSR1, &sa, NULL), ==, 0);
  js_call_guard_set_thread (&guard);
  guard.signal = ours;
  js_preload_bridge.call_guard = &guard;
}

/* A sampling signal in flight when the call starts does not cut it short:
 * it is handled when the call has returned. */
static void
test_held_back (gconstpointer data)
{
  Call call = GPOINTER_TO_INT (data);
  unsigned long deferred, eintr;
  Result r;

  setup ();
  deferred = guard.deferred;
  eintr = guard.eintr;
  if (call < C_N_TIMED)
    {
      r = run (call, 1, SEND_OURS, NULL, "held back");
      assert_timed_out (call, &r);
    }
  else
    {
      r = run (call, 1, SEND_OURS_THEN_USR1, NULL, "held back");
      /* It was the app's SIGUSR1 that ended it, not ours. */
      g_assert_cmpint (r.ret, ==, -1);
      g_assert_cmpint (r.error, ==, EINTR);
      g_assert_cmpint (r.usr1_at_return, ==, 1);
      g_assert_cmpuint (guard.eintr, ==, eintr + 1);
    }
  g_assert_cmpint (r.ours_at_return, ==, 1);
  g_assert_cmpint (guard.in_flight, ==, 0);
  g_assert_cmpuint (guard.deferred, ==, deferred + 1);
  if (call < C_N_TIMED)
    g_assert_cmpuint (guard.eintr, ==, eintr);
}

/* The control: the same signal, not held back (nothing in flight when the
 * call began, a handshake the watchdog would have kept by sending nothing)
 * does interrupt the call. */
static void
test_control (gconstpointer data)
{
  Call call = GPOINTER_TO_INT (data);
  Result r;

  setup ();
  r = run (call, 0, SEND_OURS, NULL, "not held back");
  assert_interrupted (call, &r);
  g_assert_cmpint (r.ours_at_return, ==, 1);
}

/* The app's own signal interrupts the call as before, also while the call
 * holds the sampling signal back. */
static void
test_app_signal (gconstpointer data)
{
  Call call = GPOINTER_TO_INT (data);
  unsigned long eintr;
  Result r;

  setup ();
  for (int in_flight = 0; in_flight <= 1; in_flight++)
    {
      eintr = guard.eintr;
      r = run (call, in_flight, SEND_USR1, NULL, in_flight ? "app signal, held" : "app signal");
      assert_interrupted (call, &r);
      g_assert_cmpint (r.usr1_at_return, ==, 1);
      g_assert_cmpuint (guard.eintr, ==, eintr + 1);
      /* The held-back slot was never used: in_flight stays as it was. */
      g_assert_cmpint (guard.in_flight, ==, in_flight);
    }
}

/* Masks the app passes keep their meaning: one that blocks SIGUSR1 keeps it
 * from interrupting (it arrives after the call), one that unblocks it (the
 * thread blocks it) lets it in. Both with and without a signal held back. */
static void
test_app_mask (gconstpointer data)
{
  Call call = GPOINTER_TO_INT (data);
  sigset_t usr1, empty, old;

  setup ();
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  sigemptyset (&empty);
  for (int in_flight = 0; in_flight <= 1; in_flight++)
    {
      Result r;

      if (call != C_SIGSUSPEND)
        {
          r = run (call, in_flight, SEND_USR1, &usr1, "mask blocks SIGUSR1");
          assert_timed_out (call, &r);
          g_assert_cmpint (r.usr1_at_return, ==, 1); /* delivered as the call returned */
        }
      pthread_sigmask (SIG_BLOCK, &usr1, &old);
      r = run (call, in_flight, SEND_USR1, &empty, "mask lets SIGUSR1 in");
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      assert_interrupted (call, &r);
      g_assert_cmpint (r.usr1_at_return, ==, 1);
      g_assert_cmpint (guard.in_flight, ==, in_flight);
    }
}

/* Errors are the call's own, errno included, on both paths. */
static void
test_errors (void)
{
  struct timespec bad = { 0, -1 }, rem;
  struct epoll_event ev;
  /* poll () fails with EINVAL for more fds than RLIMIT_NOFILE: the limit is
   * lowered for the call and the array holds them all (ASan's poll ()
   * interceptor reads every entry, rightly, before the call). */
  struct rlimit nofile, low;
  struct pollfd pfd[65];
  int ret;

  for (guint i = 0; i < G_N_ELEMENTS (pfd); i++)
    pfd[i] = (struct pollfd){ .fd = -1 };
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &nofile), ==, 0);
  low = (struct rlimit){ .rlim_cur = G_N_ELEMENTS (pfd) - 1, .rlim_max = nofile.rlim_max };
  setup ();
  for (int in_flight = 0; in_flight <= 1; in_flight++)
    {
      guard.in_flight = in_flight;
      errno = 0;
      g_assert_cmpint (nanosleep (&bad, &rem), ==, -1);
      g_assert_cmpint (errno, ==, EINVAL);
      errno = 0;
      g_assert_cmpint (clock_nanosleep (CLOCK_MONOTONIC, 0, &bad, NULL), ==, EINVAL);
      g_assert_cmpint (errno, ==, 0);
      errno = 0;
      g_assert_cmpint (clock_nanosleep ((clockid_t) 12345, 0, &bad, NULL), ==, EINVAL);
      g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0);
      errno = 0;
      ret = poll (pfd, G_N_ELEMENTS (pfd), 0);
      g_assert_cmpint (errno, ==, EINVAL);
      g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &nofile), ==, 0);
      g_assert_cmpint (ret, ==, -1);
      errno = 0;
      g_assert_cmpint (epoll_wait (-1, &ev, 1, 0), ==, -1);
      g_assert_cmpint (errno, ==, EBADF);
      errno = 0;
      g_assert_cmpint (select (-1, NULL, NULL, NULL, NULL), ==, -1);
      g_assert_cmpint (errno, ==, EINVAL);
      /* No call left anything behind. */
      g_assert_cmpint (guard.depth, ==, 0);
      g_assert_cmpint (guard.in_flight, ==, in_flight);
    }
  guard.in_flight = 0;
}

/* Another thread's calls, and all calls once the guard is off, are the
 * app's alone: the sampling signal interrupts them like any other. */
typedef struct
{
  pid_t tid;
  Result r;
} Worker;

static gpointer
worker_thread (gpointer data)
{
  Worker *w = data;
  Sender s = { .plan = SEND_OURS, .target = pthread_self () };
  GThread *t;

  w->tid = (pid_t) syscall (SYS_gettid);
  s.target_tid = w->tid;
  t = g_thread_new ("sender", sender_thread, &s);
  w->r = make_call (C_POLL, NULL);
  g_thread_join (t);
  return NULL;
}

static void
test_other_thread (void)
{
  Worker w = { 0 };
  Result r;

  setup ();
  guard.in_flight = 1;
  g_thread_join (g_thread_new ("worker", worker_thread, &w));
  assert_interrupted (C_POLL, &w.r);
  /* Off: forwarded on the main thread too. */
  guard.signal = 0;
  r = run (C_NANOSLEEP, 1, SEND_OURS, NULL, "guard off");
  guard.signal = ours;
  assert_interrupted (C_NANOSLEEP, &r);
  guard.in_flight = 0;
}

/* sleep () counts whole seconds: one case, held back. */
static void
test_sleep (void)
{
  Sender s = { .plan = SEND_OURS, .target = pthread_self () };
  GThread *t;
  unsigned left;

  setup ();
  s.target_tid = main_tid;
  guard.in_flight = 1;
  ours_count = 0;
  t = g_thread_new ("sender", sender_thread, &s);
  left = sleep (1);
  g_thread_join (t);
  g_assert_true (s.blocked_seen);
  g_assert_cmpuint (left, ==, 0);
  g_assert_cmpint (ours_count, ==, 1);
  g_assert_cmpint (guard.in_flight, ==, 0);
}

/* This program defines poll (the wrappers are linked into it) and the
 * executable comes first in the global scope: the name binds to the
 * wrapper, as under LD_PRELOAD, and the preload tells the core so
 * (JsBridge.poll_wrapped). Its own poll is what GLib calls. */
static void
test_poll_wrapped (void)
{
  g_assert_true (js_preload_poll_wrapped ());
  g_assert_true (dlsym (RTLD_DEFAULT, "poll") == (void *) poll);
}

int
main (int argc, char **argv)
{
  static const Call mask_calls[]
      = { C_PPOLL, C_PPOLL_CHK, C_PSELECT, C_EPOLL_PWAIT, C_EPOLL_PWAIT2, C_SIGSUSPEND };

  g_test_init (&argc, &argv, NULL);
  for (Call c = 0; c < C_N; c++)
    {
      g_autofree char *held = g_strdup_printf ("/blocking/held-back/%s", call_names[c]);
      g_autofree char *control = g_strdup_printf ("/blocking/control/%s", call_names[c]);
      g_autofree char *app = g_strdup_printf ("/blocking/app-signal/%s", call_names[c]);

      g_test_add_data_func (held, GINT_TO_POINTER (c), test_held_back);
      if (c < C_N_TIMED)
        {
          g_test_add_data_func (control, GINT_TO_POINTER (c), test_control);
          g_test_add_data_func (app, GINT_TO_POINTER (c), test_app_signal);
        }
    }
  for (gsize i = 0; i < G_N_ELEMENTS (mask_calls); i++)
    {
      g_autofree char *path = g_strdup_printf ("/blocking/app-mask/%s", call_names[mask_calls[i]]);

      g_test_add_data_func (path, GINT_TO_POINTER (mask_calls[i]), test_app_mask);
    }
  g_test_add_func ("/blocking/poll-wrapped", test_poll_wrapped);
  g_test_add_func ("/blocking/errors", test_errors);
  g_test_add_func ("/blocking/other-thread", test_other_thread);
  g_test_add_func ("/blocking/sleep", test_sleep);
  return g_test_run ();
}
