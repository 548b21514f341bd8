/* js-wake-timer.h: a thread that sleeps until the app's activity calls it.
 *
 * A jankscope thread with nothing to do while the app sleeps must not wake
 * at all: a periodic tick wakes the CPU of every laptop it runs on. It
 * sleeps on two fds instead. A timerfd, which the main thread arms when it
 * leaves poll and finds the thread parked (js_mainloop_add_sleeper): one
 * system call that wakes nobody, for the moment the thread must look (the
 * watchdog: the pre-trigger, disarmed again when the main thread goes back
 * to sleep in poll first; the collector: a batch of records a few seconds
 * later). The sleeper cannot know when the main thread leaves poll, and a
 * futex wake for that alone would be one wake-up per iteration. And an
 * eventfd, for a wake-up now from any thread (a stall begins, a reader
 * asks, the app exits): a second fd so that such a wake is never replaced
 * by the main thread arming the timer for later.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  int timer_fd; /* -1: not open */
  int event_fd;
} JsWakeTimer;

/* Any thread, after main. FALSE (both -1) if the kernel refuses either. */
gboolean js_wake_timer_open (JsWakeTimer *t);

/* Any thread; async-signal-safe. Fires once, delay_ns from now (at least
 * 1 ns); 0 disarms it (and forgets an expiry not waited for yet). */
void js_wake_timer_arm (JsWakeTimer *t, gint64 delay_ns);

/* Any thread; async-signal-safe: the sleeper wakes now (or does not sleep
 * at its next wait). */
void js_wake_timer_wake_now (JsWakeTimer *t);

/* The sleeper: until the timer fires, a wake_now, or timeout_ns (< 0: no
 * timeout); a signal also ends it. What woke it is consumed. */
void js_wake_timer_wait (JsWakeTimer *t, gint64 timeout_ns);

void js_wake_timer_close (JsWakeTimer *t);

G_END_DECLS
