/* js-watchdog.h: the thread that notices a stuck main loop and samples it.
 *
 * The main loop's heartbeat is the poll function (js-mainloop.c): the time of
 * its last return from poll, at any nesting depth, or 0 while it waits. The
 * watchdog reads it; it never wakes the main loop to learn it, and it sleeps
 * (parked on a futex the poll function releases) once the loop has been idle
 * for a second. A busy span older than the pre-trigger is a *stall*: from
 * then on the watchdog
 *
 *  - samples the main thread's stack (js-sampler.h when it runs, a copy of
 *    its stack read from /proc when it is blocked in a system call), at an
 *    interval that grows with the stall's age, with Fibonacci back-off while
 *    consecutive stacks are identical (folded into one sample with a count);
 *  - reads the main thread's CPU clock at each sample (on/off-CPU time);
 *  - notes when the stall crosses each watchdog tier (250 ms, 1 s, 3 s, 5 s);
 *  - posts one high-priority "ping" source and measures how long the loop
 *    takes to reach it.
 *
 * Everything goes to the collector through a bounded, mutex-protected outbox
 * (only jankscope threads take that mutex, never the main thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include "js-config.h"
#include "js-modules.h"
#include "js-stack-sample.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 id;
  gint64 start_ns;     /* the busy span's start (last poll return) */
  gint64 detected_ns;  /* when the watchdog saw it pass the pre-trigger */
  gint64 end_ns;       /* when the loop came back (poll entered); 0 while it lasts */
  gint64 last_seen_ns; /* the watchdog's latest look at it */
  gint64 tier_at_ns[JS_MAX_WATCHDOG_TIERS]; /* when each tier was crossed, 0 if not */
  gint64 ping_sent_ns;                      /* 0: no ping */
  gint64 ping_latency_ns;                   /* -1: not answered (yet) */
  gboolean ping_caught; /* periodic ping mode: a ping went unanswered for a whole period */
  gint64 cpu_first_ns, cpu_first_at_ns; /* first CPU clock reading in the stall (-1: none) */
  gint64 cpu_last_ns, cpu_last_at_ns;
  gint64 runnable_first_ns, runnable_last_ns; /* schedstat run delay then (-1: unknown) */
  guint32 samples;                            /* samples taken (folded ones included) */
  guint32 samples_failed; /* timeouts, signal lost, unreadable /proc, a module unloaded meanwhile */
  guint32 samples_dropped; /* past the outbox's bound (the collector fell behind) */
  guint32 post; /* posting site (js-posting.h) of the dispatch under way at the latest look */
} JsStallHeader;

/* A sample as the collector receives it. */
typedef struct
{
  guint32 stall_id;
  JsStackSample sample;
  char *detail; /* js-sample-detail.h, owned; NULL: none */
} JsStallSample;

typedef struct _JsWatchdog JsWatchdog;

/* Main thread (at start-up): `sampling` sets up the signal sampler here (it
 * must run on the main thread). Returns NULL if the watchdog cannot run. */
JsWatchdog *js_watchdog_new (const JsConfig *config, JsModules *modules, gboolean sampling);
/* Main thread, before it starts, in preload mode only (every blocking call
 * of the main thread is guarded there): a running main thread samples
 * itself on a CPU-time timer (js-sample-timer.h). */
void js_watchdog_use_sample_timer (JsWatchdog *wd);
/* Any thread: how a running main thread's stack is sampled
 * (summary.sampler.sampling_path): "cpu-timer" (it samples itself on its
 * CPU-time timer), "watchdog" (the watchdog signals it at each sample) or
 * "off" (no stacks); `*reason` why not the timer (free), NULL with
 * "cpu-timer". */
const char *js_watchdog_sampling_path (JsWatchdog *wd, char **reason);
/* Before it starts: `func` is called on the watchdog thread when a stall
 * begins and when it ends (the collector, which may be parked, wakes). */
void js_watchdog_set_on_stall (JsWatchdog *wd, void (*func) (gpointer), gpointer data);
void js_watchdog_start (JsWatchdog *wd);
/* Stops the thread (bounded wait). */
/* Ends the thread (its last stall is handed over); waits until
 * `deadline_ns` (js_now_ns () clock) at most: FALSE if it had not ended. */
gboolean js_watchdog_stop (JsWatchdog *wd, gint64 deadline_ns);

/* Collector: moves stall headers that changed (copies) and new samples
 * (JsStallSample*, owned by the caller, free with js_stall_sample_free) out. */
void js_watchdog_take (JsWatchdog *wd, GArray *headers, GPtrArray *samples);

void js_stall_sample_free (gpointer sample);

typedef struct
{
  guint64 stalls;
  guint64 wakeups;
  guint64 parks;
  guint64 samples;
  guint64 samples_running;
  guint64 samples_timer; /* of samples_running: taken on the CPU-time timer (js-sample-timer.h) */
  guint64 samples_waiting;
  guint64 samples_folded;
  guint64 samples_failed;
  guint64 samples_dropped;
  guint64 copies_inconsistent; /* the blocked thread moved while its stack was copied */
  guint64 signal_blocked;      /* the main thread blocked the signal: no stack */
  guint64 pings_sent;
  guint64 pings_caught;
  gint64 handler_ns_total; /* main-thread time spent in the signal handler */
  gint64 handler_ns_max;
  gint64 thread_cpu_ns; /* the watchdog thread's own CPU time */
} JsWatchdogStats;

void js_watchdog_get_stats (JsWatchdog *wd, JsWatchdogStats *stats);

/* In a fork child (async-signal-safe): no watchdog there. */
void js_watchdog_fork_child (void);

G_END_DECLS
