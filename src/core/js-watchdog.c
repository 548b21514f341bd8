/* js-watchdog.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-watchdog.h"
#include "js-clock.h"
#include "js-futex.h"
#include "js-log.h"
#include "js-mainloop.h"
#include "js-posting.h"
#include "js-dbus-calls.h"
#include "js-sample-detail.h"
#include "js-sample-timer.h"
#include "js-sampler.h"
#include "js-source-swap.h"
#include "js-thread-probe.h"
#include "js-wake-timer.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* While the main thread waits in a poll that may sleep (and no stall, no
 * ping is under way) the watchdog parks on its wake timer, without a
 * timeout: the main thread arms it for the pre-trigger when it leaves that
 * poll and disarms it when it enters the next one (js-mainloop.c), so a busy
 * span shorter than the pre-trigger wakes nobody, and an idle app not at all.
 * A span that reaches it is seen at the pre-trigger exactly. While the loop
 * spins on polls that do not sleep (timeout 0) the watchdog looks every
 * IDLE_TICK instead: arming a timer per such iteration would cost a tight
 * loop two system calls each. Each wake-up costs ~40 µs of CPU on a VM
 * (measured: README), so the tick is not shorter. */
#define IDLE_TICK_NS (25 * JS_NS_PER_MS)
#define SAMPLE_TIMEOUT_NS (20 * JS_NS_PER_MS)
#define STACK_COPY_BYTES (64 * 1024)
/* Bounds: samples waiting for the collector, finished stalls waiting for
 * it. There is no bound per stall: every sample of a long stall counts, and
 * the collector keeps a long stall's older samples aggregated
 * (js-attribution.h), so its memory does not grow with the stall. */
#define MAX_OUTBOX_SAMPLES 2048
#define MAX_HEADERS 64
/* Fibonacci back-off on identical stacks: at most this many intervals. */
#define MAX_BACKOFF 34
/* A sample that keeps folding identical ones is handed over at least this
 * often: during a hang the collector (and the report on disk) must get the
 * stack, not only after the stall ends. */
#define HANDOVER_NS (1000 * JS_NS_PER_MS)
/* While the main thread samples itself on its CPU-time timer
 * (js-sample-timer.h), the watchdog drains the samples this often; it wakes
 * sooner only for a tier, a ring half full, the end of the stall or the
 * dead man's switch (no sample in time: the thread blocked). */
#define TIMER_LOOK_NS (250 * JS_NS_PER_MS)
/* Looks again at a thread found inside a guarded blocking call. */
#define MAX_IN_CALL_RETRIES 3

typedef struct
{
  gboolean active;
  JsStallHeader h;
  JsStackSample last; /* the previous sample (frames, state) for folding */
  gboolean have_last;
  guint64 last_nvcsw;   /* context switches at the last sample (blocked) */
  JsStallSample *open;  /* the sample identical ones fold into, still in our hands */
  guint32 fib_a, fib_b; /* back-off factors */
  gint64 next_sample_ns;
  gboolean timer_mode; /* the main thread samples itself (js-sample-timer.h) */
  /* The time of the newest sample taken into the stall: its samples are
   * kept in time order (each covers the time up to the next one), though
   * the handler's and this thread's come from two threads. */
  gint64 newest_ns;
  /* Since the previous CPU reading: the share of the time the main thread
   * ran or waited for a CPU (schedstat run delay); -1 unknown. */
  double busy_share;
} Stall;

struct _JsWatchdog
{
  const JsConfig *config;
  JsModules *modules;
  gboolean sampling;
  JsThreadProbe probe;
  gboolean have_probe;
  GThread *thread;
  pthread_t self;
  gint64 final_cpu_ns; /* its CPU time when it ended, -1 before */
  int quit;            /* futex word: the thread sleeps on it */
  int stopped;         /* futex word: set when the thread is done */
  int park;            /* non-zero while parked on `timer` (js_mainloop_add_sleeper) */
  int parks;           /* park numbers */
  JsWakeTimer timer;   /* fds -1: none, the watchdog never parks */
  gboolean can_park;
  gboolean use_timer;          /* js-sample-timer.h is set up (preload mode) */
  guint64 timer_unloads;       /* js_modules_unloads () before the ring's unread samples */
  gint64 timer_slack_ns;       /* js_sample_timer_set_slack_ns */
  void (*on_stall) (gpointer); /* a stall began or ended: the collector */
  gpointer on_stall_data;
  /* Why no stacks are taken, why a running main thread does not sample
   * itself on its CPU-time timer (NULL: it does, unless a system call of
   * the timer failed: js_sample_timer_failure): summary.sampler's
   * sampling_path_reason. Set on the main thread before the thread starts. */
  const char *no_stacks;
  const char *no_timer;

  Stall stall;
  JsStallHeader last_finished;
  guint32 next_id;
  gint64 last_enter_seen;

  /* Ping: one outstanding at a time. */
  gint64 ping_sent_ns;
  guint32 ping_stall_id;
  gint64 next_ping_ns;
  gint64 ping_served_ns; /* written by the main thread */

  /* Outbox, under lock (the watchdog and the collector only). */
  GMutex lock;
  GArray *headers;    /* JsStallHeader, changed since the last take */
  GPtrArray *samples; /* JsStallSample* */
  JsWatchdogStats stats;
};

static JsWatchdog *the_watchdog; /* for the ping's dispatch and fork */

void
js_stall_sample_free (gpointer data)
{
  JsStallSample *s = data;

  if (s == NULL)
    return;
  g_free (s->sample.copy);
  g_free (s->detail);
  g_free (s);
}

/* --- ping ------------------------------------------------------------- */

static gboolean
ping_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  JsWatchdog *wd = user_data ? user_data : the_watchdog;

  __atomic_store_n (&wd->ping_served_ns, js_now_ns (), __ATOMIC_RELEASE);
  return G_SOURCE_REMOVE;
}

/* Not timed and never counted: the source swap leaves these funcs alone. */
static GSourceFuncs ping_funcs = { NULL, NULL, ping_dispatch, NULL, NULL, NULL };

static void
post_ping (JsWatchdog *wd, gint64 now)
{
  GSource *source = g_source_new (&ping_funcs, sizeof (GSource));

  g_source_set_priority (source, G_PRIORITY_HIGH);
  g_source_set_ready_time (source, 0);
  g_source_set_static_name (source, "[jankscope] ping");
  __atomic_store_n (&wd->ping_served_ns, 0, __ATOMIC_RELEASE);
  wd->ping_sent_ns = now;
  g_source_attach (source, g_main_context_default ());
  g_source_unref (source);
  wd->stats.pings_sent++;
}

/* --- outbox ----------------------------------------------------------- */

static void
publish_header (JsWatchdog *wd, const JsStallHeader *h)
{
  g_mutex_lock (&wd->lock);
  for (guint i = 0; i < wd->headers->len; i++)
    if (g_array_index (wd->headers, JsStallHeader, i).id == h->id)
      {
        g_array_index (wd->headers, JsStallHeader, i) = *h;
        g_mutex_unlock (&wd->lock);
        return;
      }
  if (wd->headers->len >= MAX_HEADERS)
    g_array_remove_index (wd->headers, 0); /* the collector is stuck: keep the newest */
  g_array_append_val (wd->headers, *h);
  g_mutex_unlock (&wd->lock);
}

/* Hands the open (folding) sample over. */
static void
flush_open_sample (JsWatchdog *wd, Stall *st)
{
  JsStallSample *s = st->open;

  if (s == NULL)
    return;
  st->open = NULL;
  g_mutex_lock (&wd->lock);
  if (wd->samples->len >= MAX_OUTBOX_SAMPLES)
    {
      wd->stats.samples_dropped += s->sample.count;
      st->h.samples_dropped += s->sample.count;
      g_mutex_unlock (&wd->lock);
      js_stall_sample_free (s);
      return;
    }
  g_ptr_array_add (wd->samples, s);
  g_mutex_unlock (&wd->lock);
}

void
js_watchdog_take (JsWatchdog *wd, GArray *headers, GPtrArray *samples)
{
  g_mutex_lock (&wd->lock);
  if (wd->headers->len > 0)
    {
      g_array_append_vals (headers, wd->headers->data, wd->headers->len);
      g_array_set_size (wd->headers, 0);
    }
  for (guint i = 0; i < wd->samples->len; i++)
    g_ptr_array_add (samples, g_ptr_array_index (wd->samples, i));
  g_ptr_array_set_size (wd->samples, 0);
  g_mutex_unlock (&wd->lock);
}

/* --- sampling ---------------------------------------------------------- */

static gboolean
same_stack (const JsStackSample *a, const JsStackSample *b)
{
  return a->state == b->state && a->n_frames == b->n_frames && a->syscall == b->syscall
         && (a->flags & JS_STACK_SAMPLE_NO_STACK) == (b->flags & JS_STACK_SAMPLE_NO_STACK)
         && memcmp (a->frames, b->frames, a->n_frames * sizeof a->frames[0]) == 0;
}

static gint64
stage_interval (const JsWatchdog *wd, gint64 age)
{
  const JsConfig *c = wd->config;

  if (age < JS_SAMPLE_STAGE_LONG_NS)
    return c->sample_interval_ns[0];
  if (age < JS_SAMPLE_STAGE_HANG_NS)
    return c->sample_interval_ns[1];
  return c->sample_interval_ns[2];
}

/* Takes one sample into `s` (frames or a stack copy). FALSE if it failed.
 * `snap` is read again when the thread turns out to be entering a blocking
 * call. */
static gboolean
take_sample (JsWatchdog *wd, JsStackSample *s, JsThreadSnapshot *snap)
{
  for (guint attempt = 0;; attempt++)
    {
      guint n = 0;
      gboolean truncated = FALSE;
      gint64 cost = 0;
      JsSamplerStatus status;

      if (snap->blocked)
        {
          JsThreadSnapshot after;

          /* Blocked in a system call: read its stack, never interrupt it. The
           * copy is good if the thread did not move meanwhile: same call, same
           * stack pointer, no context switch. */
          s->state = JS_THREAD_WAITING;
          s->syscall = (gint16) CLAMP (snap->syscall_nr, -1, G_MAXINT16);
          s->wait = js_thread_probe_wait_kind (snap);
          s->frames[0] = snap->pc;
          s->n_frames = 1;
          s->copy = js_thread_probe_copy_stack (&wd->probe, snap, STACK_COPY_BYTES);
          if (s->copy != NULL
              && (!js_thread_probe_read (&wd->probe, &after) || !after.blocked
                  || after.sp != snap->sp || after.pc != snap->pc || after.nvcsw != snap->nvcsw))
            {
              g_clear_pointer (&s->copy, g_free);
              wd->stats.copies_inconsistent++;
            }
          if (s->copy == NULL)
            s->flags |= JS_STACK_SAMPLE_NO_STACK;
          else
            s->flags |= JS_STACK_SAMPLE_FROM_COPY;
          return TRUE;
        }

      s->state = JS_THREAD_RUNNING;
      s->wait = JS_WAIT_NONE;
      s->syscall = -1;
      if (!wd->sampling)
        {
          s->flags |= JS_STACK_SAMPLE_NO_STACK;
          return TRUE;
        }
      if (snap->sig_blocked & (G_GUINT64_CONSTANT (1) << (js_sampler_signal () - 1)))
        {
          /* A signal the thread blocks would stay queued and arrive later, maybe
           * in the middle of a sleep: never send it. */
          wd->stats.signal_blocked++;
          s->flags |= JS_STACK_SAMPLE_NO_STACK;
          return TRUE;
        }
      status = js_sampler_take (s->frames, JS_STACK_SAMPLE_MAX_FRAMES, &n, &truncated,
                                SAMPLE_TIMEOUT_NS, &cost);
      if (status == JS_SAMPLER_IN_CALL)
        {
          /* It was running a moment ago and is now inside poll, nanosleep &
           * co. (js-call-guard.h): no signal. Look again after letting it
           * run: it is most likely blocked in the call by now (its stack
           * gets copied), or back out of it (woken, it was waiting for a
           * CPU), and the signal can go. Bounded: then this sample has no
           * stack. */
          if (attempt < MAX_IN_CALL_RETRIES)
            {
              sched_yield ();
              if (js_thread_probe_read (&wd->probe, snap))
                continue;
            }
          s->flags |= JS_STACK_SAMPLE_NO_STACK;
          return TRUE;
        }
      if (status != JS_SAMPLER_OK)
        {
          if (status == JS_SAMPLER_SIGNAL_LOST)
            wd->sampling = FALSE;
          return FALSE;
        }
      s->n_frames = (guint16) n;
      if (truncated)
        s->flags |= JS_STACK_SAMPLE_TRUNCATED;
      wd->stats.handler_ns_total += cost;
      wd->stats.handler_ns_max = MAX (wd->stats.handler_ns_max, cost);
      return TRUE;
    }
}

/* A fresh sample: it starts a new entry, or (the same stack and detail as
 * the open entry) it is dropped and FALSE returned: the caller folds it. */
static gboolean
open_or_fold (JsWatchdog *wd, Stall *st, JsStallSample *fresh, guint64 nvcsw)
{
  JsStackSample *s = &fresh->sample;

  if (st->open != NULL && st->have_last && same_stack (&st->last, s) && s->copy == NULL
      && g_strcmp0 (st->open->detail, fresh->detail) == 0)
    {
      js_stall_sample_free (fresh);
      return FALSE;
    }
  flush_open_sample (wd, st);
  fresh->stall_id = st->h.id;
  st->open = fresh;
  /* Remember the stack to fold identical ones (the copy stays with
   * the sample). */
  /* The back-off starts over only when the stack changed (not when
   * an unchanged one was merely handed over). */
  if (!st->have_last || !same_stack (&st->last, s))
    {
      st->fib_a = 0;
      st->fib_b = 1;
    }
  st->last = *s;
  st->last.copy = NULL;
  st->last_nvcsw = nvcsw;
  st->have_last = TRUE;
  return TRUE;
}

/* One more sample like the open entry's, taken at `now`. */
static void
fold_into_open (JsWatchdog *wd, Stall *st, gint64 now)
{
  st->open->sample.count++;
  st->open->sample.last_ns = now;
  wd->stats.samples_folded++;
  /* The next sample starts a new entry (with the same stack, if nothing
   * changed) once this one is handed over. */
  if (now - st->open->sample.time_ns >= HANDOVER_NS)
    flush_open_sample (wd, st);
  /* Fibonacci back-off: 1, 1, 2, 3, 5, ... intervals while nothing changes. */
  if (st->fib_b < MAX_BACKOFF)
    {
      guint32 next = st->fib_a + st->fib_b;

      st->fib_a = st->fib_b;
      st->fib_b = next;
    }
}

/* The main thread's CPU clock (and run delay) into the stall's header. */
static gint64
note_cpu (JsWatchdog *wd, Stall *st, gint64 now)
{
  gint64 runnable;
  gint64 cpu = js_thread_probe_cpu_ns (&wd->probe, &runnable);

  st->busy_share = -1;
  if (cpu >= 0)
    {
      if (st->h.cpu_first_ns < 0)
        {
          st->h.cpu_first_ns = cpu;
          st->h.cpu_first_at_ns = now;
          st->h.runnable_first_ns = runnable;
        }
      else if (now > st->h.cpu_last_at_ns)
        st->busy_share = (double) (cpu - st->h.cpu_last_ns
                                   + (runnable >= 0 && st->h.runnable_last_ns >= 0
                                          ? runnable - st->h.runnable_last_ns
                                          : 0))
                         / (double) (now - st->h.cpu_last_at_ns);
      st->h.cpu_last_ns = cpu;
      st->h.cpu_last_at_ns = now;
      st->h.runnable_last_ns = runnable;
    }
  return cpu;
}

static void
sample_step (JsWatchdog *wd, Stall *st, gint64 now)
{
  JsThreadSnapshot snap;
  JsStackSample *s;
  gint64 cpu;
  gboolean folded = FALSE;

  /* After a sample the handler took later than this look began. */
  now = MAX (now, st->newest_ns + 1);
  st->newest_ns = now;
  st->h.samples++;
  wd->stats.samples++;
  if (!wd->have_probe || !js_thread_probe_read (&wd->probe, &snap))
    {
      st->h.samples_failed++;
      wd->stats.samples_failed++;
      return;
    }
  cpu = note_cpu (wd, st, now);

  /* Still blocked in the very same call since the last sample (no context
   * switch): the same stack, nothing to read. */
  if (st->open != NULL && snap.blocked && st->last.state == JS_THREAD_WAITING
      && st->last.frames[0] == snap.pc && st->last_nvcsw == snap.nvcsw
      && st->last.syscall == (gint16) CLAMP (snap.syscall_nr, -1, G_MAXINT16))
    {
      folded = TRUE;
      wd->stats.samples_waiting++;
    }
  else
    {
      JsStallSample *fresh = g_new0 (JsStallSample, 1);

      s = &fresh->sample;
      s->time_ns = s->last_ns = now;
      s->count = 1;
      s->cpu_ns = cpu;
      s->unloads = js_modules_unloads ();
      if (!take_sample (wd, s, &snap))
        {
          st->h.samples_failed++;
          wd->stats.samples_failed++;
          js_stall_sample_free (fresh);
          return;
        }
      /* Know each frame's module while it is loaded: it may be dlclosed
       * before the collector symbolizes the sample. If a module was
       * unloaded since the sample was taken (this thread can be late on a
       * loaded machine), another may now sit where it was: the frames
       * cannot be told apart, and the sample counts as failed. */
      for (guint i = 0; i < s->n_frames && !(s->flags & JS_STACK_SAMPLE_FROM_COPY); i++)
        s->modules[i]
            = (guint16) js_modules_resolve (wd->modules, i > 0 ? s->frames[i] - 1 : s->frames[i]);
      if (!(s->flags & JS_STACK_SAMPLE_FROM_COPY) && js_modules_unloads () != s->unloads)
        {
          st->h.samples_failed++;
          wd->stats.samples_failed++;
          js_stall_sample_free (fresh);
          return;
        }
      if (s->state == JS_THREAD_WAITING)
        wd->stats.samples_waiting++;
      else
        wd->stats.samples_running++;
      /* The file or D-Bus call it is at (the diagnosis's evidence). */
      fresh->detail = js_sample_detail_take (&snap);
      folded = !open_or_fold (wd, st, fresh, snap.nvcsw);
    }
  if (folded)
    fold_into_open (wd, st, now);
}

/* --- samples the main thread takes itself (js-sample-timer.h) ------------ */

/* The samples the handler wrote since the last look, folded in as the
 * watchdog's own are. */
static void
drain_timer_samples (JsWatchdog *wd, Stall *st)
{
  JsTimerSample ts;
  guint64 unloads_now = js_modules_unloads ();

  while (js_sample_timer_next (&ts))
    {
      JsStallSample *fresh;
      JsStackSample *s;

      st->h.samples++;
      wd->stats.samples++;
      wd->stats.handler_ns_total += ts.cost_ns;
      wd->stats.handler_ns_max = MAX (wd->stats.handler_ns_max, ts.cost_ns);
      if (!st->active)
        continue;
      if (ts.time_ns <= st->newest_ns)
        {
          /* Taken before a sample of this thread's that is in already (the
           * handler ran while this thread switched to sampling itself, and
           * its slot was published after the look): out of order, it would
           * count a stretch of time twice. */
          st->h.samples_failed++;
          wd->stats.samples_failed++;
          continue;
        }
      st->newest_ns = ts.time_ns;
      fresh = g_new0 (JsStallSample, 1);
      s = &fresh->sample;
      s->time_ns = s->last_ns = ts.time_ns;
      s->count = 1;
      s->cpu_ns = ts.cpu_ns;
      s->state = JS_THREAD_RUNNING;
      s->wait = JS_WAIT_NONE;
      s->syscall = -1;
      s->n_frames = ts.n_frames;
      if (ts.truncated)
        s->flags |= JS_STACK_SAMPLE_TRUNCATED;
      memcpy (s->frames, ts.frames, ts.n_frames * sizeof ts.frames[0]);
      /* Taken after the previous look's count of unloads: if a module was
       * unloaded since, another may sit where its frames were. */
      s->unloads = wd->timer_unloads;
      for (guint i = 0; i < s->n_frames; i++)
        s->modules[i]
            = (guint16) js_modules_resolve (wd->modules, i > 0 ? s->frames[i] - 1 : s->frames[i]);
      if (js_modules_unloads () != s->unloads)
        {
          st->h.samples_failed++;
          wd->stats.samples_failed++;
          js_stall_sample_free (fresh);
          continue;
        }
      wd->stats.samples_running++;
      wd->stats.samples_timer++;
      /* The D-Bus call it was in, if that call is still the one under way. */
      if (ts.dbus != 0 && js_dbus_calls_generation () == ts.dbus)
        {
          fresh->detail = js_dbus_calls_current ();
          if (js_dbus_calls_generation () != ts.dbus)
            g_clear_pointer (&fresh->detail, g_free);
        }
      if (!open_or_fold (wd, st, fresh, st->last_nvcsw))
        fold_into_open (wd, st, ts.time_ns);
    }
  wd->timer_unloads = unloads_now;
}

/* Stops the timer and gives its token back as soon as no signal of it is
 * pending (js-sample-timer.h); a later look finishes what cannot be now. */
static void
stop_timer (JsWatchdog *wd)
{
  JsThreadSnapshot snap;
  gboolean pending;
  int sig = js_sampler_signal ();

  if (!js_sample_timer_disarm ())
    return;
  /* Read after the disarm: what is not pending now never will be. */
  pending = !wd->have_probe || !js_thread_probe_read (&wd->probe, &snap) || sig <= 0
            || (snap.sig_pending & (G_GUINT64_CONSTANT (1) << (sig - 1))) != 0;
  if (js_sample_timer_settle (pending))
    js_wake_timer_arm (&wd->timer, 0); /* no stale dead man's switch */
}

/* The dead man's switch's allowance: 4 ms (a tick at 250 Hz), doubled each
 * time it fires for a thread that was only waiting for a CPU (a loaded
 * machine), up to this; back to 4 ms when it finds the thread blocked. */
#define MIN_SLACK_NS (4 * JS_NS_PER_MS)
/* The timer samples only CPU time: it runs while the main thread was on a
 * CPU (or waiting for one) at least this share of the time since the
 * watchdog's previous look, and the watchdog samples by the clock again
 * when it was less (it blocked, in waits the timer does not see). */
#define MIN_BUSY_SHARE 0.9
/* The first look after arming comes after this many intervals (at most
 * TIMER_LOOK_NS): a loop that mostly sleeps goes back to the clock soon. */
#define FIRST_LOOK_INTERVALS 5
#define MAX_SLACK_NS (64 * JS_NS_PER_MS)

static gint64
timer_slack (gint64 interval)
{
  return js_sample_timer_slack_ns (interval);
}

/* After a sample of its own found the thread running: from now on the
 * thread samples itself, if it can. */
static void
maybe_arm_timer (JsWatchdog *wd, Stall *st, gint64 now)
{
  gint64 interval;

  if (!wd->use_timer || !wd->sampling || !st->have_last || st->last.state != JS_THREAD_RUNNING
      || (st->last.flags & JS_STACK_SAMPLE_NO_STACK))
    return;
  interval = stage_interval (wd, now - st->h.start_ns) * MAX (st->fib_b, 1);
  wd->timer_unloads = js_modules_unloads ();
  switch (js_sample_timer_arm (st->h.start_ns, interval, st->fib_a, st->fib_b, &st->last,
                               st->open != NULL ? st->open->sample.time_ns : 0))
    {
    case JS_SAMPLE_TIMER_ARMED:
      st->timer_mode = TRUE;
      st->next_sample_ns = now + MIN (FIRST_LOOK_INTERVALS * interval, TIMER_LOOK_NS);
      js_wake_timer_arm (&wd->timer, interval + timer_slack (interval));
      break;
    case JS_SAMPLE_TIMER_IN_CALL:
      break; /* inside a blocking call: the next sample of its own tries again */
    case JS_SAMPLE_TIMER_FAILED:
      wd->use_timer = FALSE;
      break;
    }
}

/* A look while the thread samples itself: drain; if no sample came in
 * time, the thread stopped burning CPU: look at it the old way. */
static void
timer_look (JsWatchdog *wd, Stall *st, gint64 now)
{
  gint64 last, interval;
  JsThreadSnapshot snap;

  drain_timer_samples (wd, st);
  if (!js_sample_timer_armed () || !js_sampler_check_handler ())
    {
      /* The app took the signal over (sampling is off), or the timer
       * could not be re-armed. */
      if (js_sampler_signal () == 0)
        wd->sampling = FALSE;
      stop_timer (wd);
      st->timer_mode = FALSE;
      st->next_sample_ns = now;
      return;
    }
  note_cpu (wd, st, now);
  last = js_sample_timer_last_ns ();
  interval = js_sample_timer_interval_ns ();
  if (st->busy_share >= 0 && st->busy_share < MIN_BUSY_SHARE)
    {
      /* It blocked for a good part of the time since the last look, in
       * waits too short for the dead man's switch: the timer sees none of
       * them. Sample by the clock again, its own way. */
      stop_timer (wd);
      st->timer_mode = FALSE;
      sample_step (wd, st, now);
      st->next_sample_ns = now + stage_interval (wd, now - st->h.start_ns) * MAX (st->fib_b, 1);
      return;
    }
  if (now < last + interval + timer_slack (interval))
    {
      /* Samples come: the next look drains them, unless the handler's
       * dead man's switch (or a ring half full) wakes this thread first. */
      st->next_sample_ns = now + TIMER_LOOK_NS;
      return;
    }
  /* No sample in time. Running (or waiting for a CPU): the timer samples
   * it when it has run; look again later. Blocked, or blocking the
   * signal: its own way from now on. */
  if (wd->have_probe && js_thread_probe_read (&wd->probe, &snap) && !snap.blocked
      && !(snap.sig_blocked & (G_GUINT64_CONSTANT (1) << (js_sampler_signal () - 1))))
    {
      wd->timer_slack_ns = MIN (wd->timer_slack_ns * 2, MAX_SLACK_NS);
      js_sample_timer_set_slack_ns (wd->timer_slack_ns);
      st->next_sample_ns = now + TIMER_LOOK_NS;
      return;
    }
  wd->timer_slack_ns = MIN_SLACK_NS;
  js_sample_timer_set_slack_ns (wd->timer_slack_ns);
  stop_timer (wd);
  st->timer_mode = FALSE;
  sample_step (wd, st, now);
  st->next_sample_ns = now + stage_interval (wd, now - st->h.start_ns) * MAX (st->fib_b, 1);
}

/* --- stalls ------------------------------------------------------------ */

static void
begin_stall (JsWatchdog *wd, gint64 start, gint64 now)
{
  Stall *st = &wd->stall;

  memset (st, 0, sizeof *st);
  st->active = TRUE;
  st->h.id = ++wd->next_id;
  st->h.start_ns = start;
  st->h.detected_ns = now;
  st->h.ping_latency_ns = -1;
  st->h.cpu_first_ns = st->h.cpu_last_ns = -1;
  st->h.runnable_first_ns = st->h.runnable_last_ns = -1;
  st->fib_a = 0;
  st->fib_b = 1;
  st->next_sample_ns = now;
  st->busy_share = -1;
  wd->stats.stalls++;
  js_posting_set_stall (TRUE);
  if (wd->config->ping_period_ns == 0 && wd->ping_sent_ns == 0)
    {
      post_ping (wd, now);
      wd->ping_stall_id = st->h.id;
      st->h.ping_sent_ns = now;
    }
}

static void
end_stall (JsWatchdog *wd, gint64 now)
{
  Stall *st = &wd->stall;
  gint64 enter = js_mainloop_last_poll_enter ();

  /* Ended by the main thread's next poll, if it entered one. Not the poll
   * the stall began at: a poll with timeout 0 returns at the time it was
   * entered (js-mainloop.c), so that one's enter is the stall's start. */
  st->h.end_ns = enter > st->h.start_ns ? enter : now;
  st->h.last_seen_ns = now;
  if (st->timer_mode || js_sample_timer_settling ())
    {
      /* What the thread sampled before the stall ended is the stall's. */
      drain_timer_samples (wd, st);
      stop_timer (wd);
      st->timer_mode = FALSE;
    }
  flush_open_sample (wd, st);
  publish_header (wd, &st->h);
  wd->last_finished = st->h;
  st->active = FALSE;
  js_posting_set_stall (FALSE);
  /* Published above: the collector finds the stall's end. */
  if (wd->on_stall != NULL)
    wd->on_stall (wd->on_stall_data);
  js_log_debug ("stall %u ended after %.1f ms (%u samples)", st->h.id,
                (st->h.end_ns - st->h.start_ns) / 1e6, st->h.samples);
}

static void
check_ping (JsWatchdog *wd, gint64 now)
{
  gint64 served = __atomic_load_n (&wd->ping_served_ns, __ATOMIC_ACQUIRE);

  if (wd->ping_sent_ns == 0)
    return;
  if (served != 0)
    {
      /* Answered: its latency goes to the stall it was sent for. */
      if (wd->stall.active && wd->stall.h.id == wd->ping_stall_id)
        wd->stall.h.ping_latency_ns = served - wd->ping_sent_ns;
      else if (wd->ping_stall_id != 0)
        {
          /* The stall has ended: update its header (the collector merges). */
          JsStallHeader h = { 0 };
          gboolean found = FALSE;

          g_mutex_lock (&wd->lock);
          for (guint i = 0; i < wd->headers->len; i++)
            if (g_array_index (wd->headers, JsStallHeader, i).id == wd->ping_stall_id)
              {
                g_array_index (wd->headers, JsStallHeader, i).ping_latency_ns
                    = served - wd->ping_sent_ns;
                found = TRUE;
              }
          g_mutex_unlock (&wd->lock);
          if (!found && wd->last_finished.id == wd->ping_stall_id)
            {
              h = wd->last_finished;
              h.ping_latency_ns = served - wd->ping_sent_ns;
              publish_header (wd, &h);
            }
        }
      wd->ping_sent_ns = 0;
      wd->ping_stall_id = 0;
    }
  else if (wd->config->ping_period_ns > 0 && now - wd->ping_sent_ns >= wd->config->ping_period_ns)
    {
      /* Periodic mode: a ping unanswered for a whole period is a stall the
       * classic ping watchdog catches (docs/background.md, "Watchdogs"). */
      if (wd->stall.active && !wd->stall.h.ping_caught)
        {
          wd->stall.h.ping_caught = TRUE;
          wd->stats.pings_caught++;
        }
    }
}

static void
check_tiers (JsWatchdog *wd, gint64 now)
{
  Stall *st = &wd->stall;
  gint64 age = now - st->h.start_ns;

  for (guint i = 0; i < wd->config->n_watchdog_tiers; i++)
    if (st->h.tier_at_ns[i] == 0 && age >= wd->config->watchdog_tier_ns[i])
      {
        st->h.tier_at_ns[i] = now;
        js_log_debug ("main loop stuck for %" G_GINT64_FORMAT " ms (stall %u)",
                      wd->config->watchdog_tier_ns[i] / JS_NS_PER_MS, st->h.id);
      }
}

static gint64
next_tier_ns (JsWatchdog *wd)
{
  for (guint i = 0; i < wd->config->n_watchdog_tiers; i++)
    if (wd->stall.h.tier_at_ns[i] == 0)
      return wd->stall.h.start_ns + wd->config->watchdog_tier_ns[i];
  return G_MAXINT64;
}

/* One look at the main loop; returns when to look next. */
static gint64
step (JsWatchdog *wd, gint64 now)
{
  Stall *st = &wd->stall;
  gint64 stuck = js_mainloop_stuck_since ();
  gint64 enter = js_mainloop_last_poll_enter ();
  gint64 wake;

  if (st->active && stuck != st->h.start_ns)
    end_stall (wd, now);
  else if (!st->timer_mode && js_sample_timer_settling ())
    stop_timer (wd);
  wd->last_enter_seen = enter;

  if (wd->config->ping_period_ns > 0 && wd->ping_sent_ns == 0 && now >= wd->next_ping_ns)
    {
      post_ping (wd, now);
      wd->ping_stall_id = 0;
      wd->next_ping_ns = MAX (wd->next_ping_ns + wd->config->ping_period_ns, now);
    }

  if (stuck != 0 && now - stuck >= wd->config->pretrigger_ns)
    {
      gboolean began = !st->active;

      if (began)
        begin_stall (wd, stuck, now);
      if (st->h.ping_sent_ns == 0 && wd->ping_stall_id == 0 && wd->ping_sent_ns != 0
          && wd->config->ping_period_ns > 0)
        {
          st->h.ping_sent_ns = wd->ping_sent_ns; /* the periodic ping in flight */
          wd->ping_stall_id = st->h.id;
        }
      check_tiers (wd, now);
      check_ping (wd, now);
      if (st->timer_mode)
        timer_look (wd, st, now);
      else if (now >= st->next_sample_ns)
        {
          sample_step (wd, st, now);
          st->next_sample_ns = now + stage_interval (wd, now - st->h.start_ns) * MAX (st->fib_b, 1);
          maybe_arm_timer (wd, st, now);
        }
      st->h.last_seen_ns = now;
      /* Still stuck: the dispatch under way is the hang's (its record is
       * pushed only when it returns). A GTask's completion is named by the
       * task's own site, as at its end (js-post-sites.c): its data is the
       * task, looked up by address only. */
      if (js_mainloop_stuck_since () == st->h.start_ns)
        {
          const void *data;
          guint32 post = js_mainloop_hang_post (&data);
          guint32 task = js_posting_task_post (data);

          st->h.post = task != 0 ? task : post;
        }
      publish_header (wd, &st->h);
      /* Once its header (and first sample) is there to take. */
      if (began && wd->on_stall != NULL)
        wd->on_stall (wd->on_stall_data);
      wake = MIN (st->next_sample_ns, next_tier_ns (wd));
    }
  else
    {
      check_ping (wd, now);
      if (stuck != 0)
        wake = stuck + wd->config->pretrigger_ns;
      else
        wake = now + IDLE_TICK_NS;
    }
  if (wd->config->ping_period_ns > 0)
    {
      if (wd->ping_sent_ns != 0)
        wake = MIN (wake, wd->ping_sent_ns + wd->config->ping_period_ns);
      else
        wake = MIN (wake, wd->next_ping_ns);
    }
  else if (wd->ping_sent_ns != 0 && !st->active)
    wake = MIN (wake, now + IDLE_TICK_NS); /* see the ping answered */
  return wake;
}

static gboolean
may_park (JsWatchdog *wd)
{
  return wd->can_park && !wd->stall.active && wd->config->ping_period_ns == 0
         && wd->ping_sent_ns == 0;
}

static gboolean
main_thread_waits (void)
{
  return js_mainloop_stuck_since () == 0 && js_mainloop_poll_may_block ();
}

static gpointer
watchdog_thread (gpointer data)
{
  JsWatchdog *wd = data;

  wd->self = pthread_self ();
  wd->next_ping_ns = js_now_ns () + wd->config->ping_period_ns;
  while (!__atomic_load_n (&wd->quit, __ATOMIC_ACQUIRE))
    {
      gint64 now = js_now_ns ();
      gint64 wake = step (wd, now);

      wd->stats.wakeups++;
      now = js_now_ns ();
      if (may_park (wd) && main_thread_waits ())
        {
          /* Sleep until the main thread has been out of its poll for the
           * pre-trigger. The look again after raising the flag (both
           * sequentially consistent, as the poll function's return) closes
           * the race with that return: it sees the flag and arms the timer,
           * or this sees it out of poll. */
          wd->parks = wd->parks == G_MAXINT ? 1 : wd->parks + 1;
          js_mainloop_park (&wd->park, wd->parks);
          if (main_thread_waits () && !__atomic_load_n (&wd->quit, __ATOMIC_SEQ_CST))
            {
              wd->stats.parks++;
              js_wake_timer_wait (&wd->timer, -1);
            }
          __atomic_store_n (&wd->park, 0, __ATOMIC_SEQ_CST);
          continue;
        }
      if (wd->stall.timer_mode)
        js_wake_timer_wait (&wd->timer, MAX (wake - now, 0)); /* the dead man's switch too */
      else
        js_futex_wait (&wd->quit, 0, wake - now);
    }
  if (wd->stall.active)
    end_stall (wd, js_now_ns ());
  {
    struct timespec ts;

    if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
      __atomic_store_n (&wd->final_cpu_ns, ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec,
                        __ATOMIC_RELEASE);
  }
  __atomic_store_n (&wd->stopped, 1, __ATOMIC_RELEASE);
  js_futex_wake (&wd->stopped);
  return NULL;
}

static void
main_stack_bounds (guint64 *lo, guint64 *hi)
{
  pthread_attr_t attr;
  void *addr = NULL;
  size_t size = 0;

  *lo = *hi = 0;
  if (pthread_getattr_np (pthread_self (), &attr) != 0)
    return;
  if (pthread_attr_getstack (&attr, &addr, &size) == 0)
    {
      *lo = (guint64) (guintptr) addr;
      *hi = *lo + size;
    }
  pthread_attr_destroy (&attr);
}

JsWatchdog *
js_watchdog_new (const JsConfig *config, JsModules *modules, gboolean sampling)
{
  JsWatchdog *wd = g_new0 (JsWatchdog, 1);
  pid_t tid = (pid_t) syscall (SYS_gettid);
  guint64 lo, hi;

  wd->config = config;
  wd->modules = modules;
  wd->final_cpu_ns = -1;
  if (!js_wake_timer_open (&wd->timer))
    js_log_debug ("no timerfd: the watchdog looks every %d ms instead of sleeping while the "
                  "app waits",
                  (int) (IDLE_TICK_NS / JS_NS_PER_MS));
  main_stack_bounds (&lo, &hi);
  wd->have_probe = js_thread_probe_open (&wd->probe, tid, pthread_self (), lo, hi);
  if (!wd->have_probe)
    js_log_warning ("cannot read /proc/self/task/%d: stalls are timed but not sampled", (int) tid);
  wd->sampling = sampling && wd->have_probe && js_sampler_init (tid, config->sample_signal);
  wd->no_stacks = !sampling         ? "JANKSCOPE_SAMPLING=0"
                  : !wd->have_probe ? "no-proc"
                  : !wd->sampling   ? "no-sampler"
                                    : NULL;
  /* js_watchdog_use_sample_timer is for preload mode only. */
  wd->no_timer = "gtk-module";
  g_mutex_init (&wd->lock);
  wd->headers = g_array_new (FALSE, FALSE, sizeof (JsStallHeader));
  wd->samples = g_ptr_array_new ();
  js_source_swap_exclude (&ping_funcs);
  the_watchdog = wd;
  return wd;
}

void
js_watchdog_use_sample_timer (JsWatchdog *wd)
{
  /* JANKSCOPE_SAMPLE_TIMER=0: every sample the watchdog's own way, as in
   * GTK module mode. */
  if (!wd->config->sample_timer)
    wd->no_timer = "JANKSCOPE_SAMPLE_TIMER=0";
  else if (wd->timer.timer_fd < 0)
    wd->no_timer = "no-timerfd"; /* no dead man's switch */
  else
    {
      wd->no_timer = NULL;
      if (wd->sampling)
        wd->use_timer = js_sample_timer_init (wd->probe.tid, js_sampler_signal (), &wd->timer,
                                              wd->config->sample_interval_ns);
    }
  wd->timer_slack_ns = MIN_SLACK_NS;
  js_sample_timer_set_slack_ns (wd->timer_slack_ns);
}

const char *
js_watchdog_sampling_path (JsWatchdog *wd, char **reason)
{
  JsSamplerCounters sc;

  js_sampler_get_counters (&sc);
  if (wd->no_stacks != NULL || sc.lost)
    {
      *reason = g_strdup (wd->no_stacks != NULL ? wd->no_stacks : "signal-lost");
      return "off";
    }
  if (wd->no_timer != NULL)
    {
      *reason = g_strdup (wd->no_timer);
      return "watchdog";
    }
  /* Failed at the start (timer_create) or later (timer_settime): no timer
   * from then on. */
  *reason = js_sample_timer_failure ();
  return *reason != NULL ? "watchdog" : "cpu-timer";
}

void
js_watchdog_set_on_stall (JsWatchdog *wd, void (*func) (gpointer), gpointer data)
{
  wd->on_stall = func;
  wd->on_stall_data = data;
}

void
js_watchdog_start (JsWatchdog *wd)
{
  wd->can_park = js_mainloop_add_sleeper (&wd->park, &wd->timer, wd->config->pretrigger_ns, TRUE);
  wd->thread = g_thread_new ("jankscope-watch", watchdog_thread, wd);
}

gboolean
js_watchdog_stop (JsWatchdog *wd, gint64 deadline_ns)
{
  if (wd == NULL || wd->thread == NULL)
    return TRUE;
  __atomic_store_n (&wd->quit, 1, __ATOMIC_SEQ_CST);
  js_futex_wake (&wd->quit);
  /* The thread wakes at once; a sample in flight times out in 20 ms. Still,
   * this runs at the app's exit: wait for it until the deadline, not for
   * a join that could wait for ever. */
  js_wake_timer_wake_now (&wd->timer);
  while (!__atomic_load_n (&wd->stopped, __ATOMIC_ACQUIRE))
    {
      gint64 left = deadline_ns - js_now_ns ();

      if (left <= 0)
        return FALSE;
      js_futex_wait (&wd->stopped, 0, left);
    }
  g_thread_join (wd->thread); /* it has returned: this does not wait */
  wd->thread = NULL;
  return TRUE;
}

void
js_watchdog_get_stats (JsWatchdog *wd, JsWatchdogStats *stats)
{
  struct timespec ts;
  clockid_t clock;

  g_mutex_lock (&wd->lock);
  *stats = wd->stats;
  g_mutex_unlock (&wd->lock);
  stats->thread_cpu_ns = __atomic_load_n (&wd->final_cpu_ns, __ATOMIC_ACQUIRE);
  if (stats->thread_cpu_ns < 0 && wd->thread != NULL
      && pthread_getcpuclockid (wd->self, &clock) == 0 && clock_gettime (clock, &ts) == 0)
    stats->thread_cpu_ns = ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

void
js_watchdog_fork_child (void)
{
  /* No watchdog here to wake, and the poll function only forwards. */
  if (the_watchdog != NULL)
    js_wake_timer_close (&the_watchdog->timer);
  js_sample_timer_fork_child ();
  js_sampler_fork_child ();
}
