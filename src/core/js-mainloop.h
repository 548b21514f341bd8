/* js-mainloop.h: the main-thread hooks: poll function and dispatch timing.
 *
 * It knows nothing of the features that also run from the poll function
 * (frame-clock hooks, focus, the UI loader): they are poll observers, added
 * at start-up (js-core.c).
 *
 * Thread contract: js_mainloop_start () runs on the thread to watch (the
 * main thread); the dispatch and poll hooks run on any thread but record only
 * on that one, for the default GMainContext; the rest may be called from the
 * collector thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <pthread.h>
#include "jankscope-bridge.h"
#include "js-ring.h"
#include "js-wake-timer.h"

G_BEGIN_DECLS

/* Installs the poll function on the default context (chaining to the one in
 * place) and fills the bridge's hooks. `real_set`/`real_get` are GLib's own
 * g_main_context_set/get_poll_func (not the preload's stand-ins). */
void js_mainloop_start (JsRing *ring, JsBridge *bridge,
                        void (*real_set) (GMainContext *, GPollFunc),
                        GPollFunc (*real_get) (GMainContext *));

/* Collector thread: puts the poll function back if something replaced it
 * without going through the preload (GLib-internal callers, GTK_MODULES mode).
 * Returns TRUE when it had to. */
gboolean js_mainloop_ensure_poll_func (void);

/* At exit, on the main thread: records the dispatches still running (the
 * app called exit () from a callback) as ending now. No-op elsewhere. */
void js_mainloop_close_open_dispatches (void);

/* Stops recording; hooks keep forwarding. Safe in a fork child. */
void js_mainloop_disable (void);

guint js_mainloop_poll_reinstalls (void);

/* Main thread: the code and name of the innermost dispatch under way, and
 * how late it started after its source's ready time (each left untouched
 * when unknown). Call it while that dispatch runs. */
void js_mainloop_current_dispatch (const void **code, guint32 *name_id, gint64 *late_ns);

/* Written by the main thread only (js-mainloop.c's `depth` and `open_post`,
 * under these names): read them with the functions below. */
extern guint js_mainloop_depth;
extern guint32 js_mainloop_open_post[];

/* Main thread: the posting site (js-posting.h) of the innermost dispatch
 * under way, 0 when none or unknown. Inline, two loads: every attach on the
 * main thread asks (js_posting_posted). The depth never passes the bound
 * (a dispatch past it is not counted). */
static inline guint32
js_mainloop_current_post (void)
{
  guint d = __atomic_load_n (&js_mainloop_depth, __ATOMIC_RELAXED);

  return d != 0 ? __atomic_load_n (&js_mainloop_open_post[d - 1], __ATOMIC_RELAXED) : 0;
}

/* Any thread (the watchdog, during a stall): the posting site of the
 * innermost dispatch under way, 0 when none or unknown, and its data (an
 * address, NULL when none: js_posting_task_post finds a GTask's site by it).
 * While the main thread is stuck they stay put; otherwise they may be a
 * moment old, or of two dispatches. */
guint32 js_mainloop_hang_post (const void **data);

/* Any thread: when the iteration under way on the main thread started
 * (CLOCK_MONOTONIC ns), or 0 while it waits in its outermost poll. */
gint64 js_mainloop_busy_since (void);

/* Any thread: since when the main thread has been out of poll at any nesting
 * depth (CLOCK_MONOTONIC ns), 0 while it waits in a poll or before its first
 * one; and when it last entered a poll. The watchdog's heartbeat. */
gint64 js_mainloop_stuck_since (void);
gint64 js_mainloop_last_poll_enter (void);

#define JS_MAINLOOP_MAX_SLEEPERS 2

/* A jankscope thread that sleeps on `timer` while the app does: before it
 * sleeps it parks (js_mainloop_park) and then looks at
 * js_mainloop_stuck_since again; it stores 0 in *park once awake.
 * The poll function, on its next return from a poll, arms the timer to fire
 * delay_ns later (once per park number); with disarm_in_wait the timer never
 * fires in a wait: the poll function disarms it when it enters a poll that
 * may block, or, for a poll with a timeout, moves it to delay_ns after that
 * timeout (a poll that ends by its timeout leaves it right for the next busy
 * span: nothing to do at the return). On the main thread, before the thread
 * starts. FALSE: no room, or the timer is not open. */
gboolean js_mainloop_add_sleeper (int *park, JsWakeTimer *timer, gint64 delay_ns,
                                  gboolean disarm_in_wait);

/* How many times the poll function has set a sleeper's timer (a system call
 * each, on the main thread). Main thread. */
guint64 js_mainloop_sleeper_timer_calls (void);

/* The sleeper of `park`, before it sleeps: stores `number` (non-zero, new
 * at each park) there and tells the poll function (both sequentially
 * consistent). */
void js_mainloop_park (int *park, int number);

/* Any thread: the poll the main thread is in (or last was in) has a timeout
 * other than 0, so it may sleep. */
gboolean js_mainloop_poll_may_block (void);

pthread_t js_mainloop_thread (void);

/* Is the caller the thread js_mainloop_start ran on? Without a call where
 * the compiler can read the thread pointer (x86-64, AArch64: the thread's
 * control block, unique per live thread, and the main thread outlives the
 * others): one load and a compare. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
#define JS_MAINLOOP_THREAD_POINTER 1
extern void *js_mainloop_thread_pointer;

static inline gboolean
js_mainloop_on_thread (void)
{
  return __builtin_thread_pointer () == js_mainloop_thread_pointer;
}
#else
static inline gboolean
js_mainloop_on_thread (void)
{
  return pthread_equal (pthread_self (), js_mainloop_thread ());
}
#endif

/* Work that must run on the main thread between iterations and waits for
 * something it checks for itself (GTK loaded, initialised). The poll
 * function calls it, before its poll, with the time the main thread entered
 * it (CLOCK_MONOTONIC ns), once that time reaches the one the observer asked
 * for: its first call at the first poll, then it returns when it wants the
 * next (now_ns + its period), or JS_POLL_OBSERVER_DONE once it has nothing
 * left to do. */
typedef gint64 (*JsPollObserver) (gint64 now_ns);

#define JS_POLL_OBSERVER_DONE G_MAXINT64
#define JS_MAINLOOP_MAX_POLL_OBSERVERS 8

/* Main thread, after js_mainloop_start (): `observer` is called after those
 * added before it. FALSE (and one line on stderr) when the list is full or
 * on another thread: nothing is added. */
gboolean js_mainloop_add_poll_observer (JsPollObserver observer);

G_END_DECLS
