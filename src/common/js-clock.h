/* js-clock.h: the one clock of jankscope.
 *
 * CLOCK_MONOTONIC in nanoseconds: the clock of g_get_monotonic_time (), read
 * through the vDSO (35-46 ns a call on a shared 2-vCPU KVM guest,
 * bench/clock-cost.c; docs/background.md, "Clocks"). Safe in a signal
 * handler. The main thread's poll function and dispatch hook read the same
 * scale from the TSC where they may (js-tsc-clock.h in the core).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>
#include <time.h>

static inline int64_t
js_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define JS_NS_PER_MS ((int64_t) 1000000)
