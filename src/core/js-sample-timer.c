/* js-sample-timer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-sample-timer.h"
#include "jankscope-config.h"
#include "js-clock.h"
#include "js-config.h"
#include "js-dbus-calls.h"
#include "js-log.h"
#include "js-mainloop.h"
#include "js-sampler.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* The timer's sigev_value: with its id, tells our signals from an app's
 * timer on the same number. */
#define COOKIE 0x6a73746d

enum
{
  IDLE,      /* no token */
  ARMED,     /* token held, the timer runs */
  DISARMING, /* token held, the timer still runs: the handler must not re-arm it */
  DISARMED,  /* token held, the timer stopped, maybe one signal still pending */
};

typedef struct
{
  gint64 time_ns, cpu_ns, cost_ns;
  guint dbus;
  guint16 n;
  gboolean truncated;
  void *frames[JS_STACK_SAMPLE_MAX_FRAMES + JS_SAMPLER_EXTRA_FRAMES];
} Slot;

/* Read-only after init. */
static gboolean available;
static int kernel_timer; /* the kernel's timer id (raw system calls: no libc state) */
static int the_signal;
static JsWakeTimer *kick;
static gint64 stage_ns[JS_N_SAMPLE_STAGES];

/* Why there is no timer: the system call that failed (NULL: none did) and
 * its errno; written once (init on the main thread, or the watchdog's arm),
 * read by the report (js_sample_timer_failure). */
static const char *failed_call;
static int failed_errno;

/* Shared. */
static int state;
static int rearming; /* the handler is between its look at `state` and its timer_settime */
static Slot ring[JS_SAMPLE_TIMER_RING];
static guint32 head; /* next slot the handler writes (release) */
static guint32 tail; /* next slot the watchdog reads (release) */
static gint64 last_ns;
static gint64 armed_interval_ns;
static guint64 n_samples, n_dropped, n_rearms, n_stale;

/* The schedule the watchdog hands over when it arms, under a sequence
 * count (the handler may run meanwhile): read by the handler at its next
 * sample. */
static struct
{
  guint seq;
  gint64 stall_start_ns;
  guint32 fib_a, fib_b;
  gint64 open_since_ns;
} setup;

/* The handler's own (main thread, inside the handler only). */
static guint setup_seen;
static gint64 h_stall_start_ns;
static guint32 h_fib_a, h_fib_b;
static gint64 h_open_since_ns; /* the run of identical samples still folding, 0: none */
static gboolean h_have_prev;
static int h_backoff_reset_seen;
static guint16 h_prev_n;
static void *h_prev[JS_STACK_SAMPLE_MAX_FRAMES];

static int backoff_reset; /* bumped by the watchdog */
static gint64 slack_ns;   /* the dead man's switch's allowance, set by the watchdog */

/* --- raw system calls: async-signal-safe, no libc timer_t translation ------- */

char *
js_sample_timer_failure (void)
{
  const char *call = __atomic_load_n (&failed_call, __ATOMIC_ACQUIRE);
  int err = __atomic_load_n (&failed_errno, __ATOMIC_RELAXED);
  const char *name = NULL;

  if (call == NULL)
    return NULL;
#ifdef HAVE_STRERRORNAME_NP
  name = strerrorname_np (err);
#endif
  return name != NULL ? g_strdup_printf ("%s: %s", call, name)
                      : g_strdup_printf ("%s: errno %d", call, err);
}

/* System call `call` failed with `err`: no timer from now on; said in the
 * debug log (at start, or when it was to be armed) and by the report. */
static void
note_failure (const char *call, int err, gboolean at_arm)
{
  g_autofree char *why = NULL;

  __atomic_store_n (&failed_errno, err, __ATOMIC_RELAXED);
  __atomic_store_n (&failed_call, call, __ATOMIC_RELEASE);
  why = js_sample_timer_failure ();
  if (at_arm)
    js_log_debug ("the CPU-time timer cannot be armed (%s): the watchdog samples as before", why);
  else
    js_log_debug ("no CPU-time timer (%s): the watchdog signals the main thread at each sample",
                  why);
}

static int
settime (gint64 interval_ns)
{
  struct itimerspec its;

  its.it_value.tv_sec = interval_ns / G_GINT64_CONSTANT (1000000000);
  its.it_value.tv_nsec = interval_ns % G_GINT64_CONSTANT (1000000000);
  its.it_interval = its.it_value;
  return (int) syscall (SYS_timer_settime, kernel_timer, 0, &its, NULL);
}

gboolean
js_sample_timer_init (pid_t main_tid, int signal, JsWakeTimer *the_kick, const gint64 *intervals)
{
  struct sigevent sev;
  clockid_t clock;
  int id = -1;
  int err;

  if (available)
    return TRUE;
  if (signal <= 0 || the_kick == NULL || the_kick->timer_fd < 0)
    return FALSE;
  if ((err = pthread_getcpuclockid (pthread_self (), &clock)) != 0)
    {
      note_failure ("pthread_getcpuclockid", err, FALSE);
      return FALSE;
    }
  memset (&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = signal;
  sev.sigev_value.sival_int = COOKIE;
  sev.sigev_notify_thread_id = main_tid;
  if (syscall (SYS_timer_create, clock, &sev, &id) != 0)
    {
      note_failure ("timer_create", errno, FALSE);
      return FALSE;
    }
  kernel_timer = id;
  the_signal = signal;
  kick = the_kick;
  for (guint i = 0; i < JS_N_SAMPLE_STAGES; i++)
    stage_ns[i] = intervals[i];
  available = TRUE;
  return TRUE;
}

gboolean
js_sample_timer_available (void)
{
  return available;
}

static gint64
stage_interval (gint64 age)
{
  if (age < JS_SAMPLE_STAGE_LONG_NS)
    return stage_ns[0];
  if (age < JS_SAMPLE_STAGE_HANG_NS)
    return stage_ns[1];
  return stage_ns[2];
}

/* --- the watchdog's side --------------------------------------------------- */

JsSampleTimerArm
js_sample_timer_arm (gint64 stall_start_ns, gint64 first_interval_ns, guint32 fib_a, guint32 fib_b,
                     const JsStackSample *last, gint64 open_since_ns)
{
  int s = __atomic_load_n (&state, __ATOMIC_SEQ_CST);
  guint seq;

  if (!available || first_interval_ns <= 0)
    return JS_SAMPLE_TIMER_FAILED;
  if (s == DISARMING && !js_sample_timer_disarm ())
    return JS_SAMPLE_TIMER_IN_CALL; /* finish that first: the next look arms it */

  /* The schedule first: the handler reads it only while the state is ARMED. */
  seq = __atomic_load_n (&setup.seq, __ATOMIC_RELAXED);
  __atomic_store_n (&setup.seq, seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&setup.stall_start_ns, stall_start_ns, __ATOMIC_RELAXED);
  __atomic_store_n (&setup.fib_a, fib_a, __ATOMIC_RELAXED);
  __atomic_store_n (&setup.fib_b, fib_b, __ATOMIC_RELAXED);
  __atomic_store_n (&setup.open_since_ns, last != NULL ? open_since_ns : 0, __ATOMIC_RELAXED);
  __atomic_store_n (&setup.seq, seq + 2, __ATOMIC_RELEASE);

  /* The token: a disarmed timer's is taken over if its last signal's
   * handler has not given it back yet; else a new one, with the handshake
   * of js-call-guard.h. */
  s = __atomic_load_n (&state, __ATOMIC_SEQ_CST);
  if (s == IDLE
      || (s == DISARMED
          && !__atomic_compare_exchange_n (&state, &s, ARMED, FALSE, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST)))
    {
      __atomic_add_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&js_sampler_guard.depth, __ATOMIC_SEQ_CST) != 0)
        {
          __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
          return JS_SAMPLE_TIMER_IN_CALL;
        }
    }

  __atomic_store_n (&last_ns, js_now_ns (), __ATOMIC_RELAXED);
  __atomic_store_n (&armed_interval_ns, first_interval_ns, __ATOMIC_RELAXED);
  __atomic_store_n (&state, ARMED, __ATOMIC_SEQ_CST);
  if (settime (first_interval_ns) != 0)
    {
      note_failure ("timer_settime", errno, TRUE);
      available = FALSE;
      js_sample_timer_disarm ();
      return JS_SAMPLE_TIMER_FAILED;
    }
  return JS_SAMPLE_TIMER_ARMED;
}

gboolean
js_sample_timer_armed (void)
{
  return __atomic_load_n (&state, __ATOMIC_SEQ_CST) == ARMED;
}

gboolean
js_sample_timer_disarm (void)
{
  int s = ARMED;

  if (!__atomic_compare_exchange_n (&state, &s, DISARMING, FALSE, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)
      && s != DISARMING)
    return TRUE; /* IDLE or DISARMED already */
  /* The handler re-arms the timer when its schedule changes; it looks at
   * the state after raising `rearming` (both sequentially consistent): it
   * either sees DISARMING and leaves the timer alone, or this waits here
   * until its timer_settime is done, then stops the timer after it. A few
   * instructions and one system call on the main thread: bounded, and if
   * it takes longer (the thread preempted right there) the next look
   * finishes. */
  for (int i = 0; __atomic_load_n (&rearming, __ATOMIC_SEQ_CST); i++)
    {
      if (i == 100)
        return FALSE;
      sched_yield ();
    }
  settime (0);
  /* From here no signal is sent: at most one is still queued. */
  __atomic_store_n (&state, DISARMED, __ATOMIC_SEQ_CST);
  __atomic_store_n (&last_ns, 0, __ATOMIC_RELAXED);
  return TRUE;
}

gboolean
js_sample_timer_settle (gboolean pending)
{
  int s = DISARMED;

  if (!pending
      && __atomic_compare_exchange_n (&state, &s, IDLE, FALSE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n (&state, __ATOMIC_SEQ_CST) == IDLE;
}

gboolean
js_sample_timer_settling (void)
{
  int s = __atomic_load_n (&state, __ATOMIC_SEQ_CST);

  return s == DISARMING || s == DISARMED;
}

gboolean
js_sample_timer_next (JsTimerSample *out)
{
  guint32 t = __atomic_load_n (&tail, __ATOMIC_RELAXED);
  const Slot *slot;

  if (t == __atomic_load_n (&head, __ATOMIC_ACQUIRE))
    return FALSE;
  slot = &ring[t % JS_SAMPLE_TIMER_RING];
  out->time_ns = slot->time_ns;
  out->cpu_ns = slot->cpu_ns;
  out->cost_ns = slot->cost_ns;
  out->dbus = slot->dbus;
  out->n_frames = slot->n;
  out->truncated = slot->truncated;
  for (guint i = 0; i < slot->n; i++)
    out->frames[i] = (guint64) (guintptr) slot->frames[i];
  __atomic_store_n (&tail, t + 1, __ATOMIC_RELEASE);
  return TRUE;
}

void
js_sample_timer_reset_backoff (void)
{
  __atomic_add_fetch (&backoff_reset, 1, __ATOMIC_RELEASE);
}

gint64
js_sample_timer_interval_ns (void)
{
  return __atomic_load_n (&armed_interval_ns, __ATOMIC_RELAXED);
}

gint64
js_sample_timer_slack_ns (gint64 interval)
{
  return MAX (interval / 2, __atomic_load_n (&slack_ns, __ATOMIC_RELAXED));
}

void
js_sample_timer_set_slack_ns (gint64 slack)
{
  __atomic_store_n (&slack_ns, slack, __ATOMIC_RELAXED);
}

gint64
js_sample_timer_last_ns (void)
{
  return __atomic_load_n (&last_ns, __ATOMIC_RELAXED);
}

void
js_sample_timer_get_counters (JsSampleTimerCounters *c)
{
  c->samples = __atomic_load_n (&n_samples, __ATOMIC_RELAXED);
  c->dropped = __atomic_load_n (&n_dropped, __ATOMIC_RELAXED);
  c->rearms = __atomic_load_n (&n_rearms, __ATOMIC_RELAXED);
  c->stale = __atomic_load_n (&n_stale, __ATOMIC_RELAXED);
}

/* --- the handler's side (async-signal-safe) --------------------------------- */

static void
bump (guint64 *counter)
{
  __atomic_store_n (counter, __atomic_load_n (counter, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* The watchdog's latest setup, if a whole one can be read. */
static void
read_setup (void)
{
  guint before = __atomic_load_n (&setup.seq, __ATOMIC_ACQUIRE);
  gint64 start, open_since;
  guint32 a, b;

  if (before == setup_seen || (before & 1))
    return;
  start = __atomic_load_n (&setup.stall_start_ns, __ATOMIC_RELAXED);
  a = __atomic_load_n (&setup.fib_a, __ATOMIC_RELAXED);
  b = __atomic_load_n (&setup.fib_b, __ATOMIC_RELAXED);
  open_since = __atomic_load_n (&setup.open_since_ns, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  if (__atomic_load_n (&setup.seq, __ATOMIC_RELAXED) != before)
    return;
  setup_seen = before;
  h_stall_start_ns = start;
  h_fib_a = a;
  h_fib_b = b;
  h_open_since_ns = open_since;
  /* The stack to compare with is the watchdog's, not known here: the first
   * sample neither steps nor resets the back-off. */
  h_have_prev = FALSE;
}

/* The last signal of a disarmed timer gives the token back, if no other is
 * queued behind it (there is at most one: see the header). */
static void
settle_from_handler (void)
{
  sigset_t pending;
  int s = DISARMED;

  if (sigpending (&pending) != 0 || sigismember (&pending, the_signal) == 1)
    return;
  if (__atomic_compare_exchange_n (&state, &s, IDLE, FALSE, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
}

/* The schedule after a sample: the watchdog's rules (js-watchdog.c), run
 * here so that nobody wakes to apply them. */
static gint64
next_interval (gint64 now, void *const *frames, guint16 n)
{
  int reset = __atomic_load_n (&backoff_reset, __ATOMIC_ACQUIRE);
  gboolean same = h_have_prev && reset == h_backoff_reset_seen && n == h_prev_n
                  && memcmp (frames, h_prev, n * sizeof frames[0]) == 0;

  if (reset != h_backoff_reset_seen)
    {
      /* The watchdog took a sample meanwhile: the stack changed. */
      h_backoff_reset_seen = reset;
      h_fib_a = 0;
      h_fib_b = 1;
      h_open_since_ns = now;
    }
  else if (!h_have_prev)
    {
      if (h_open_since_ns == 0)
        h_open_since_ns = now;
    }
  else if (!same)
    {
      h_fib_a = 0;
      h_fib_b = 1;
      h_open_since_ns = now;
    }
  else if (h_open_since_ns != 0)
    {
      /* Folded into the open entry: one Fibonacci step; handed over once
       * the entry is a second old (the next one starts a new entry). */
      if (h_fib_b < JS_SAMPLE_TIMER_MAX_BACKOFF)
        {
          guint32 next = h_fib_a + h_fib_b;

          h_fib_a = h_fib_b;
          h_fib_b = next;
        }
      if (now - h_open_since_ns >= JS_SAMPLE_TIMER_HANDOVER_NS)
        h_open_since_ns = 0;
    }
  else
    h_open_since_ns = now; /* a new entry with the same stack: no step */
  memcpy (h_prev, frames, n * sizeof frames[0]);
  h_prev_n = n;
  h_have_prev = TRUE;
  return stage_interval (now - h_stall_start_ns) * MAX (h_fib_b, 1);
}

void
js_sample_timer_on_signal (const siginfo_t *info, void *context)
{
  Slot *slot;
  guint32 h;
  gint64 start, interval;
  struct timespec ts;
  gboolean truncated = FALSE;
  int s;

  if (!available || info->si_timerid != kernel_timer || info->si_value.sival_int != COOKIE)
    return;
  s = __atomic_load_n (&state, __ATOMIC_SEQ_CST);
  if (s == DISARMED)
    {
      settle_from_handler ();
      return;
    }
  if (s != ARMED && s != DISARMING)
    return;
  start = js_now_ns ();
  read_setup ();
  if (js_mainloop_stuck_since () != h_stall_start_ns)
    {
      /* The stall is over (the loop polled since): no sample of it; the
       * watchdog disarms the timer as soon as it looks. */
      bump (&n_stale);
      js_wake_timer_wake_now (kick);
      return;
    }
  h = __atomic_load_n (&head, __ATOMIC_RELAXED);
  if (h - __atomic_load_n (&tail, __ATOMIC_ACQUIRE) >= JS_SAMPLE_TIMER_RING)
    {
      bump (&n_dropped);
      js_wake_timer_wake_now (kick);
      return;
    }
  slot = &ring[h % JS_SAMPLE_TIMER_RING];
  slot->n = (guint16) js_sampler_unwind (slot->frames, G_N_ELEMENTS (slot->frames), context,
                                         &truncated);
  slot->truncated = truncated;
  slot->time_ns = start;
  slot->cpu_ns = clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0
                     ? ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec
                     : -1;
  slot->dbus = js_dbus_calls_generation ();
  interval = next_interval (start, slot->frames, slot->n);
  if (interval != __atomic_load_n (&armed_interval_ns, __ATOMIC_RELAXED))
    {
      /* Dekker with js_sample_timer_disarm: never re-arm a timer the
       * watchdog is stopping. */
      __atomic_store_n (&rearming, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&state, __ATOMIC_SEQ_CST) == ARMED && settime (interval) == 0)
        {
          __atomic_store_n (&armed_interval_ns, interval, __ATOMIC_RELAXED);
          bump (&n_rearms);
        }
      __atomic_store_n (&rearming, 0, __ATOMIC_SEQ_CST);
    }
  slot->cost_ns = js_now_ns () - start;
  __atomic_store_n (&head, h + 1, __ATOMIC_RELEASE);
  __atomic_store_n (&last_ns, start, __ATOMIC_RELAXED);
  bump (&n_samples);
  /* The dead man's switch: the watchdog wakes if no sample follows this
   * one in time (the thread blocked). The kernel looks at CPU timers at its
   * tick: a sample can be a few ms late. */
  js_wake_timer_arm (kick, interval + js_sample_timer_slack_ns (interval));
  if (h + 1 - __atomic_load_n (&tail, __ATOMIC_ACQUIRE) >= JS_SAMPLE_TIMER_RING / 2)
    js_wake_timer_wake_now (kick);
}

void
js_sample_timer_fork_child (void)
{
  /* No timer and no pending signal in the child; its guard is off. */
  available = FALSE;
  __atomic_store_n (&state, IDLE, __ATOMIC_RELAXED);
}
