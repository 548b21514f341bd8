/* js-wake-timer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-wake-timer.h"

#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

gboolean
js_wake_timer_open (JsWakeTimer *t)
{
  /* Close-on-exec: an exec'd program never sees them. Non-blocking: the
   * sleeper waits in ppoll and then only drains them. */
  t->timer_fd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  t->event_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (t->timer_fd >= 0 && t->event_fd >= 0)
    return TRUE;
  js_wake_timer_close (t);
  return FALSE;
}

void
js_wake_timer_arm (JsWakeTimer *t, gint64 delay_ns)
{
  struct itimerspec its = { { 0, 0 }, { 0, 0 } };

  if (t->timer_fd < 0)
    return;
  if (delay_ns > 0)
    {
      its.it_value.tv_sec = delay_ns / G_GINT64_CONSTANT (1000000000);
      its.it_value.tv_nsec = delay_ns % G_GINT64_CONSTANT (1000000000);
    }
  /* Setting the timer also drops an expiry nobody read yet: a disarmed
   * timer leaves no stale wake-up behind. */
  timerfd_settime (t->timer_fd, 0, &its, NULL);
}

void
js_wake_timer_wake_now (JsWakeTimer *t)
{
  uint64_t one = 1;

  if (t->event_fd >= 0 && write (t->event_fd, &one, sizeof one) < 0)
    return; /* the counter is full: a wake-up is pending anyway */
}

void
js_wake_timer_wait (JsWakeTimer *t, gint64 timeout_ns)
{
  struct pollfd fds[2] = { { t->timer_fd, POLLIN, 0 }, { t->event_fd, POLLIN, 0 } };
  struct timespec ts, *tsp = NULL;
  uint64_t count;

  if (t->timer_fd < 0)
    return;
  if (timeout_ns >= 0)
    {
      ts.tv_sec = timeout_ns / G_GINT64_CONSTANT (1000000000);
      ts.tv_nsec = timeout_ns % G_GINT64_CONSTANT (1000000000);
      tsp = &ts;
    }
  /* The system call itself, not libc's ppoll: the preload wraps that one for
   * the main thread's sake, and this is never the main thread. */
  if (syscall (SYS_ppoll, fds, (nfds_t) 2, tsp, NULL, (size_t) 8) <= 0)
    return;
  if ((fds[0].revents & POLLIN) && read (t->timer_fd, &count, sizeof count) < 0)
    count = 0;
  if ((fds[1].revents & POLLIN) && read (t->event_fd, &count, sizeof count) < 0)
    count = 0;
}

void
js_wake_timer_close (JsWakeTimer *t)
{
  if (t->timer_fd >= 0)
    close (t->timer_fd);
  if (t->event_fd >= 0)
    close (t->event_fd);
  t->timer_fd = t->event_fd = -1;
}
