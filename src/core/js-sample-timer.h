/* js-sample-timer.h: a running main thread samples itself on a CPU-time
 * timer, without waking the watchdog.
 *
 * The watchdog's own way (js-sampler.h) costs it two thread wake-ups and
 * two /proc reads per sample, ~110 µs of CPU: at 10 ms, more than the
 * sample costs the main thread. So while a stall lasts and the main thread
 * runs, a POSIX timer on the main thread's CPU clock (timer_create on
 * pthread_getcpuclockid, SIGEV_THREAD_ID to the main thread) sends it the
 * sampling signal each time it has burnt the interval of CPU; the handler
 * (js-sampler.c's, for si_code SI_TIMER and our timer's id) writes its
 * stack, time, CPU clock and D-Bus call into a preallocated ring, and keeps
 * the schedule itself: the interval of the stall's age (the stages) times
 * the Fibonacci back-off while its stacks stay identical, re-arming the
 * timer when that changes. The watchdog drains the ring a few times a
 * second and folds the samples as it folds its own.
 *
 * A thread that blocks burns no CPU and the timer stays silent, so each
 * sample also pushes back a dead man's switch: the watchdog's wake timer
 * (js-wake-timer.h), armed for a little more than the interval. It fires
 * only when no sample came: the watchdog then reads /proc and samples the
 * blocked thread its own way.
 *
 * The kernel sends this signal whenever the thread runs, so the handshake
 * with the main thread's blocking calls (js-call-guard.h) counts the armed
 * timer as one signal in flight, a *token*:
 *
 *   watchdog, arm                          watchdog, disarm
 *   in_flight += 1          (seq_cst)      timer_settime (0): none is sent
 *   depth != 0 ?            (seq_cst)        after it returns
 *     yes: in_flight -= 1, not armed       state = DISARMED
 *     no:  timer_settime (interval)        none pending (/proc SigPnd)?
 *                                            yes: in_flight -= 1
 *                                            no:  the handler of that last
 *                                                 one does it
 *
 * A guarded call that starts while the token is held sees in_flight != 0
 * and runs with the signal blocked, so a timer signal waits until it has
 * returned; one that started before the token was taken had returned before
 * the watchdog read depth == 0 (Dekker, as for a single signal); one that
 * starts after the token is given back finds no timer signal pending and
 * none can come. A POSIX timer has at most one signal queued at a time
 * (its expiries meanwhile are overruns), so the handler that runs for a
 * timer signal with the state DISARMED and nothing more pending
 * (sigpending) was the last one. Exactly one side gives the token back (a
 * compare-and-swap of the state).
 *
 * Only in preload mode: there every blocking call the app makes on the main
 * thread is guarded. In GTK module mode only the context's poll is, so the
 * watchdog signals the main thread itself, as before, right after reading
 * that it runs. If timer_create fails, or with JANKSCOPE_SAMPLE_TIMER=0, the
 * same.
 *
 * Thread contract: js_sample_timer_init on the main thread (start-up); arm,
 * disarm, settle and the ring's reading on the watchdog thread;
 * js_sample_timer_on_signal in the signal handler on the main thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <signal.h>
#include <sys/types.h>
#include "js-stack-sample.h"
#include "js-wake-timer.h"

G_BEGIN_DECLS

/* Samples the ring holds; the handler wakes the watchdog when it is half
 * full (a sample that finds it full is dropped and counted). */
#define JS_SAMPLE_TIMER_RING 64
/* A Fibonacci back-off step is at most this many intervals (the watchdog's). */
#define JS_SAMPLE_TIMER_MAX_BACKOFF 34
/* A run of identical samples is handed over at least this often (the
 * watchdog's): the back-off does not step at the first sample after that. */
#define JS_SAMPLE_TIMER_HANDOVER_NS (1000 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  gint64 time_ns; /* js_now_ns () when taken */
  gint64 cpu_ns;  /* the main thread's CPU clock then */
  gint64 cost_ns; /* the handler's time */
  guint dbus;     /* js_dbus_calls_generation () then */
  guint16 n_frames;
  gboolean truncated;
  guint64 frames[JS_STACK_SAMPLE_MAX_FRAMES];
} JsTimerSample;

typedef enum
{
  JS_SAMPLE_TIMER_ARMED,
  JS_SAMPLE_TIMER_IN_CALL, /* the thread is in a guarded call: not armed, sample it the old way */
  JS_SAMPLE_TIMER_FAILED,  /* not available (never was, or timer_settime failed) */
} JsSampleTimerArm;

/* Main thread, after js_sampler_init succeeded. `kick` is the watchdog's
 * wake timer; `intervals` the stages' intervals (JsConfig). FALSE (debug
 * line) when the timer cannot be created: the watchdog samples as before. */
gboolean js_sample_timer_init (pid_t main_tid, int signal, JsWakeTimer *kick,
                               const gint64 *intervals);
gboolean js_sample_timer_available (void);
/* Any thread: why the timer is not available, if a system call failed
 * ("timer_create: EAGAIN", the call and its errno's name; free), else
 * NULL. */
char *js_sample_timer_failure (void);

/* Watchdog. Arms the timer for the stall that began at `stall_start_ns`
 * (the heartbeat's stuck_since): the first sample comes after
 * `first_interval_ns` of CPU; `fib_a`, `fib_b` the back-off so far;
 * `last`, if not NULL, the stack of the stall's latest running sample and
 * `open_since_ns` the time of the entry still folding identical ones (0:
 * none). With the timer already armed, only the stall and the schedule are
 * set anew. */
JsSampleTimerArm js_sample_timer_arm (gint64 stall_start_ns, gint64 first_interval_ns,
                                      guint32 fib_a, guint32 fib_b, const JsStackSample *last,
                                      gint64 open_since_ns);
gboolean js_sample_timer_armed (void);
/* Watchdog: stops the timer (none is sent once this returns TRUE). The
 * token is still held until js_sample_timer_settle says otherwise. FALSE:
 * the handler was re-arming it right then; call again at the next look. */
gboolean js_sample_timer_disarm (void);
/* Watchdog, after a disarm: `pending` is whether /proc's SigPnd of the main
 * thread, read after the disarm, holds the signal (TRUE when unknown).
 * TRUE once the token is given back (by this call or the handler). */
gboolean js_sample_timer_settle (gboolean pending);
/* TRUE while a disarmed timer's token is still held. */
gboolean js_sample_timer_settling (void);

/* Watchdog: the next sample of the ring (oldest first), FALSE when empty. */
gboolean js_sample_timer_next (JsTimerSample *out);
/* Watchdog: the watchdog took a sample of its own: the handler's back-off
 * starts over at its next sample (the stack it compares with is gone). */
void js_sample_timer_reset_backoff (void);
/* Watchdog: the interval the timer is armed with, and when the handler last
 * wrote a sample (or the arming, 0 when not armed). */
gint64 js_sample_timer_interval_ns (void);
gint64 js_sample_timer_last_ns (void);
/* How late after `interval` a sample may come before the dead man's switch
 * fires: the kernel looks at CPU timers at its tick, so a sample can be a
 * few ms late, and a thread that waits for a CPU burns none. Any thread
 * (async-signal-safe); the watchdog sets the allowance (at least half the
 * interval is always allowed). */
gint64 js_sample_timer_slack_ns (gint64 interval);
void js_sample_timer_set_slack_ns (gint64 slack);

typedef struct
{
  guint64 samples; /* written by the handler */
  guint64 dropped; /* the ring was full */
  guint64 rearms;  /* timer_settime calls by the handler (the schedule changed) */
  guint64 stale;   /* signals after the stall had ended: no sample */
} JsSampleTimerCounters;

void js_sample_timer_get_counters (JsSampleTimerCounters *c);

/* The sampling handler (js-sampler.c), for si_code SI_TIMER: samples if it
 * is our timer's signal. Async-signal-safe; `context` is the ucontext. */
void js_sample_timer_on_signal (const siginfo_t *info, void *context);

/* In a fork child (async-signal-safe): the child has no timer (timers and
 * pending signals are not inherited), nothing is armed. */
void js_sample_timer_fork_child (void);

G_END_DECLS
