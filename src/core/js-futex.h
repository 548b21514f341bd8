/* js-futex.h: the two futex calls jankscope needs (async-signal-safe).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Waits while *word == expected, at most timeout_ns (<= 0: no wait). */
static inline void
js_futex_wait (int *word, int expected, int64_t timeout_ns)
{
  struct timespec ts;

  if (timeout_ns <= 0)
    return;
  ts.tv_sec = timeout_ns / 1000000000;
  ts.tv_nsec = timeout_ns % 1000000000;
  syscall (SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
}

static inline void
js_futex_wake (int *word)
{
  syscall (SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Clears a park word and wakes its sleeper (only if it was still set). */
static inline void
js_futex_wake_parked (int *word)
{
  if (__atomic_exchange_n (word, 0, __ATOMIC_ACQ_REL) != 0)
    js_futex_wake (word);
}
