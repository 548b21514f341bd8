/* js-tsc-clock.h: CLOCK_MONOTONIC read from the TSC, for the main thread's
 * hot path (the poll function and the dispatch hook: four reads an
 * iteration).
 *
 * The kernel's vDSO reads CLOCK_MONOTONIC as base_ns + (tsc - base_tsc) *
 * mult >> shift, with a serialized rdtsc (rdtscp) and its own sequence
 * lock, then the C library splits it into seconds and nanoseconds, which
 * js_now_ns joins again. Done here the same way with a plain rdtsc, on a
 * line the collector thread measures against clock_gettime off the main
 * thread: the same scale, so the times it gives may be compared with other
 * threads' js_now_ns and with GLib's g_get_monotonic_time.
 *
 * Only where the TSC is what the kernel's clock reads anyway: the CPU has
 * constant_tsc and nonstop_tsc, and the current clocksource is `tsc`, or
 * KVM's `kvm-clock` read by the vDSO without a system call (which the
 * kernel allows only when the host declares the TSC stable: synchronized
 * on every vCPU, the vDSO reading it on whichever one it runs). There a
 * hypervisor that traps rdtsc traps the vDSO's read as well. Elsewhere,
 * and until the line is calibrated, it reads js_now_ns () (js-clock.h).
 *
 * Exactness: the collector re-anchors the line whenever it wakes (every
 * 250 ms while the app is busy with work under way, every second while it
 * only animates). Its error is the anchor's (half of a clock_gettime
 * bracket of at most 1 µs, ~30 ns typically) plus the rate's over the
 * line's age: the rate is measured over >= 1 s (>= 100 ms for the first
 * one), ~0.1 ppm, plus any change of the kernel's rate since (NTP: usually
 * well under 1 ppm, at most 500 ppm). A line older than 1.25 s is not used
 * (js_now_ns instead), so the error stays within ~1 µs usually and 625 µs
 * in the worst case; a re-anchor that finds more than that
 * (suspend, a TSC the kernel stopped trusting) drops the line and
 * calibrates again, and after three such misses in a row it stays off.
 * Readings are kept monotonic on the reading thread. The plain rdtsc may
 * run a few tens of cycles early (it does not wait for earlier
 * instructions): nanoseconds on spans this hot path times.
 *
 * A CPU migration needs nothing: the kernel uses the TSC as its clocksource
 * only when all CPUs' TSCs agree, which is what the vDSO relies on too. A
 * fork child does not use it (js_tsc_clock_fork_child).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-clock.h"

#if defined(__x86_64__) && defined(__SIZEOF_INT128__)
#include <x86intrin.h>
#define JS_TSC_CLOCK_POSSIBLE 1
#endif

G_BEGIN_DECLS

/* The line, under a sequence lock: `seq` odd while the collector rewrites
 * it. max_delta 0: no line. */
typedef struct
{
  guint seq;
  guint64 base_tsc;
  gint64 base_ns;
  guint64 mult;      /* ns per tick << JS_TSC_SHIFT */
  guint64 max_delta; /* ticks past base_tsc the line may be used for */
} JsTscLine;

#define JS_TSC_SHIFT 32

/* A line is used this long after its anchor at most: the collector's
 * slowest tick while the app is busy (STREAM_TICK_MS, js-collector.c, which
 * asserts it) and a margin for the work it does when it wakes. */
#define JS_TSC_MAX_AGE_NS (1250 * JS_NS_PER_MS)

extern JsTscLine js_tsc_line;
/* The reading thread's last reading (js_tsc_clock_now). */
extern gint64 js_tsc_last_ns;

#ifdef __SIZEOF_INT128__
/* The line at `tsc` (0 <= tsc - base_tsc < max_delta). Where the compiler
 * has no 128-bit integers (32-bit targets) there is no line: no rdtsc to
 * read either. */
#define JS_TSC_LINE 1
static inline gint64
js_tsc_line_ns (guint64 base_tsc, gint64 base_ns, guint64 mult, guint64 tsc)
{
  return base_ns + (gint64) (((unsigned __int128) (tsc - base_tsc) * mult) >> JS_TSC_SHIFT);
}
#endif

/* One thread only (the main thread; a test's). js_now_ns (), from the TSC
 * when a line is there: a few loads, an rdtsc, a multiply, no call. Not in
 * a signal handler (js_tsc_last_ns is the thread's). */
static inline gint64
js_tsc_clock_now (void)
{
  gint64 ns;
#ifdef JS_TSC_CLOCK_POSSIBLE
  guint seq = __atomic_load_n (&js_tsc_line.seq, __ATOMIC_ACQUIRE);
  guint64 base_tsc = __atomic_load_n (&js_tsc_line.base_tsc, __ATOMIC_RELAXED);
  gint64 base_ns = __atomic_load_n (&js_tsc_line.base_ns, __ATOMIC_RELAXED);
  guint64 mult = __atomic_load_n (&js_tsc_line.mult, __ATOMIC_RELAXED);
  guint64 max_delta = __atomic_load_n (&js_tsc_line.max_delta, __ATOMIC_RELAXED);
  guint64 tsc;

  /* The sequence lock's reader: the fields above belong to one line if the
   * sequence is even and unchanged after them. A line being rewritten, too
   * old (the collector has not been back) or none: the kernel's clock.
   * Without a line (a TSC the kernel does not use), not even the rdtsc:
   * its ~10 ns are a third of the kernel's clock read on a VM's kvm-clock. */
  if (max_delta != 0)
    {
      tsc = __rdtsc ();
      __atomic_thread_fence (__ATOMIC_ACQUIRE);
      if (G_LIKELY (tsc - base_tsc < max_delta && (seq & 1) == 0
                    && __atomic_load_n (&js_tsc_line.seq, __ATOMIC_RELAXED) == seq))
        ns = js_tsc_line_ns (base_tsc, base_ns, mult, tsc);
      else
        ns = js_now_ns ();
    }
  else
#endif
    ns = js_now_ns ();
  /* Monotonic on this thread across re-anchors and fallbacks, which may
   * step the reading back by the line's error. */
  if (G_UNLIKELY (ns < js_tsc_last_ns))
    ns = js_tsc_last_ns;
  js_tsc_last_ns = ns;
  return ns;
}

/* The collector's thread (one thread), after main: looks once whether the
 * TSC may be used (CPU flags, the kernel's clocksource) and takes the first
 * anchor. FALSE: it may not, js_tsc_clock_now reads js_now_ns for good. */
gboolean js_tsc_clock_start (void);

/* The same thread, whenever it wakes: a new anchor (a few clock reads,
 * ~0.2 µs; under kvm-clock two vDSO reads and two system calls more, to
 * see that the vDSO still makes none, ~2 µs on a VM), the rate measured
 * again when the last measure is >= 1 s old. */
void js_tsc_clock_anchor (void);

/* For tests: anchor with this pair (the TSC at clock_gettime's `ns`,
 * measured within `bracket_ns`). */
void js_tsc_clock_anchor_at (guint64 tsc, gint64 ns, gint64 bracket_ns);

/* The fork child (single-threaded): no line, ever. */
void js_tsc_clock_fork_child (void);

/* Any thread: is a line there now (js_tsc_clock_now reads the TSC unless
 * the line aged)? */
gboolean js_tsc_clock_active (void);

/* For tests: the start's decision without reading the system's files;
 * `vdso_direct`: the vDSO reads the clock without a system call (asked only
 * of a kvm-clock). */
gboolean js_tsc_clock_usable (const char *cpuinfo, const char *clocksource, gboolean vdso_direct);

/* For tests: the vDSO reads the clock directly when its fastest call took
 * clearly less (2/3) than the fastest system call; 0: not measured. */
gboolean js_tsc_clock_vdso_is_direct (guint64 vdso_ticks, guint64 syscall_ticks);

/* For tests: forget everything, as before js_tsc_clock_start (), then
 * take anchors (js_tsc_clock_anchor_at) if `running`, as after it. */
void js_tsc_clock_reset (gboolean running);

G_END_DECLS
