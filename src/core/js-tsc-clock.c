/* js-tsc-clock.c: the TSC line's calibration, on the collector's thread.
 *
 * An anchor is a pair (TSC, CLOCK_MONOTONIC) taken together: an rdtsc
 * between two clock_gettime calls, the narrowest of a few tries, at the
 * middle of its bracket. Two anchors >= 100 ms apart give the first rate
 * (ns per tick); later anchors re-base the line, and the rate is measured
 * again over each window of >= 1 s. Each new anchor first checks the line
 * it replaces: its prediction must be within 2 µs + 1000 ppm of its age of
 * the kernel's clock, else the line is dropped (the main thread reads the
 * kernel's clock) and calibrated again from this anchor.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-tsc-clock.h"
#include "js-hot.h"
#include "js-log.h"
#include "js-small-file.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FIRST_WINDOW_NS (100 * JS_NS_PER_MS)
#define WINDOW_NS (1000 * JS_NS_PER_MS)
/* An anchor's clock_gettime bracket: wider (preempted every try), skipped. */
#define MAX_BRACKET_NS 1000
#define ANCHOR_TRIES 5
#define MISS_FIXED_NS 2000
#define MISS_PPM 1000
/* Misses in a row (no line that held in between) before giving up. */
#define MAX_MISSES 3
/* Calls of each kind timed to see whether the vDSO makes a system call:
 * at the start, and at each anchor under kvm-clock. */
#define VDSO_TRIES 8
#define VDSO_ANCHOR_TRIES 2

#ifdef JS_TSC_CLOCK_POSSIBLE
static gboolean vdso_reads_directly (int tries);
#endif

JsTscLine js_tsc_line JS_HOT_DATA;
gint64 js_tsc_last_ns JS_HOT_DATA;

/* The collector's thread only, but `state` (set once to OFF by a fork child). */
typedef enum
{
  STATE_NOT_STARTED,
  STATE_RUNNING,
  STATE_OFF,
} State;

static State state;
static gboolean have_ref;
/* The line stands on kvm-clock being read by the vDSO without a system
 * call: checked again at every anchor (a host may stop declaring the TSC
 * stable, after a migration, and the vDSO then calls the kernel). */
static gboolean vdso_checked;
#ifdef JS_TSC_LINE
static guint64 ref_tsc; /* the rate's window starts here */
static gint64 ref_ns;
#endif
static guint64 mult;   /* 0: no rate yet */
static JsTscLine line; /* what is published, as the writer knows it */
static guint misses;

static void
publish (const JsTscLine *l)
{
  guint seq = js_tsc_line.seq;

  /* The sequence lock's writer: odd, the fields, even again. */
  __atomic_store_n (&js_tsc_line.seq, seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&js_tsc_line.base_tsc, l->base_tsc, __ATOMIC_RELAXED);
  __atomic_store_n (&js_tsc_line.base_ns, l->base_ns, __ATOMIC_RELAXED);
  __atomic_store_n (&js_tsc_line.mult, l->mult, __ATOMIC_RELAXED);
  __atomic_store_n (&js_tsc_line.max_delta, l->max_delta, __ATOMIC_RELAXED);
  __atomic_store_n (&js_tsc_line.seq, seq + 2, __ATOMIC_RELEASE);
}

static void
drop_line (void)
{
  line = (JsTscLine){ 0 };
  publish (&line);
}

void
js_tsc_clock_anchor_at (guint64 tsc, gint64 ns, gint64 bracket_ns)
{
#ifdef JS_TSC_LINE
  gint64 window;

  if (__atomic_load_n (&state, __ATOMIC_RELAXED) != STATE_RUNNING || bracket_ns > MAX_BRACKET_NS)
    return;
  if (line.max_delta != 0)
    {
      gint64 age = ns - line.base_ns;
      gint64 err = tsc >= line.base_tsc
                       ? js_tsc_line_ns (line.base_tsc, line.base_ns, line.mult, tsc) - ns
                       : G_MAXINT64;

      if (age < 0 || err > MISS_FIXED_NS + age / (1000000 / MISS_PPM)
          || -err > MISS_FIXED_NS + age / (1000000 / MISS_PPM))
        {
          /* Suspended (the TSC ran on, the clock did not), slewed faster
           * than NTP does, or a TSC the kernel stopped trusting. */
          drop_line ();
          mult = 0;
          have_ref = FALSE;
          if (++misses >= MAX_MISSES)
            {
              __atomic_store_n (&state, STATE_OFF, __ATOMIC_RELAXED);
              js_log_debug ("the TSC clock missed CLOCK_MONOTONIC %u times in a row; "
                            "the main thread reads CLOCK_MONOTONIC",
                            misses);
              return;
            }
        }
      else
        misses = 0;
    }
  if (!have_ref || tsc <= ref_tsc || ns <= ref_ns)
    {
      ref_tsc = tsc;
      ref_ns = ns;
      have_ref = TRUE;
      if (line.max_delta == 0)
        return;
    }
  window = ns - ref_ns;
  if (window >= (mult == 0 ? FIRST_WINDOW_NS : WINDOW_NS))
    {
      mult = (guint64) (((unsigned __int128) window << JS_TSC_SHIFT) / (tsc - ref_tsc));
      ref_tsc = tsc;
      ref_ns = ns;
    }
  if (mult == 0)
    return;
  line.base_tsc = tsc;
  line.base_ns = ns;
  line.mult = mult;
  line.max_delta = MAX (((unsigned __int128) JS_TSC_MAX_AGE_NS << JS_TSC_SHIFT) / mult, 1);
  publish (&line);
#else
  (void) tsc;
  (void) ns;
  (void) bracket_ns;
#endif
}

void
js_tsc_clock_anchor (void)
{
#ifdef JS_TSC_CLOCK_POSSIBLE
  guint64 best_tsc = 0;
  gint64 best_ns = 0, best_bracket = G_MAXINT64;

  if (__atomic_load_n (&state, __ATOMIC_RELAXED) != STATE_RUNNING)
    return;
  if (vdso_checked && !vdso_reads_directly (VDSO_ANCHOR_TRIES))
    {
      /* Off for good: nothing else of the calibration is used again. */
      drop_line ();
      __atomic_store_n (&state, STATE_OFF, __ATOMIC_RELAXED);
      js_log_debug ("kvm-clock is no longer read without a system call: "
                    "the main thread reads CLOCK_MONOTONIC");
      return;
    }
  for (int i = 0; i < ANCHOR_TRIES; i++)
    {
      gint64 before = js_now_ns ();
      guint64 tsc;
      gint64 after;

      /* Fenced: the rdtsc runs between the two clock reads. */
      _mm_lfence ();
      tsc = __rdtsc ();
      _mm_lfence ();
      after = js_now_ns ();
      if (after - before < best_bracket)
        {
          best_bracket = after - before;
          best_tsc = tsc;
          best_ns = before + (after - before) / 2;
        }
    }
  js_tsc_clock_anchor_at (best_tsc, best_ns, best_bracket);
#endif
}

/* Is `flag` a whole word of `flags`? */
static gboolean
has_word (const char *flags, gsize len, const char *word)
{
  gsize wlen = strlen (word);

  for (gsize i = 0; i + wlen <= len; i++)
    if ((i == 0 || flags[i - 1] == ' ' || flags[i - 1] == '\t')
        && memcmp (flags + i, word, wlen) == 0
        && (i + wlen == len || flags[i + wlen] == ' ' || flags[i + wlen] == '\n'))
      return TRUE;
  return FALSE;
}

/* Is the kernel's clocksource (as sysfs gives it: a line) `name`? */
static gboolean
source_is (const char *clocksource, const char *name)
{
  gsize len = strlen (name);

  return strncmp (clocksource, name, len) == 0
         && (clocksource[len] == '\0' || strcmp (clocksource + len, "\n") == 0);
}

gboolean
js_tsc_clock_usable (const char *cpuinfo, const char *clocksource, gboolean vdso_direct)
{
  const char *flags = NULL;
  gsize len;

  if (cpuinfo == NULL || clocksource == NULL)
    return FALSE;
  /* The first CPU's "flags\t\t: ..." line (all CPUs have the same). */
  for (const char *p = cpuinfo; p != NULL && *p != '\0'; p = strchr (p, '\n'), p = p ? p + 1 : NULL)
    if (g_str_has_prefix (p, "flags") && (p[5] == '\t' || p[5] == ' ' || p[5] == ':'))
      {
        flags = strchr (p, ':');
        break;
      }
  if (flags == NULL)
    return FALSE;
  len = strcspn (flags, "\n");
  if (!has_word (flags, len, "constant_tsc") || !has_word (flags, len, "nonstop_tsc"))
    return FALSE;
  if (source_is (clocksource, "tsc"))
    return TRUE;
  /* KVM's paravirtual clock: the vDSO reads it with an rdtsc and the
   * host's scale only when the host declares the TSC stable (the same and
   * synchronized on every vCPU), and makes a system call otherwise. */
  return vdso_direct && source_is (clocksource, "kvm-clock");
}

gboolean
js_tsc_clock_vdso_is_direct (guint64 vdso_ticks, guint64 syscall_ticks)
{
  /* A vDSO that falls back to the system call costs at least the call. */
  return vdso_ticks != 0 && syscall_ticks != 0 && vdso_ticks * 3 < syscall_ticks * 2;
}

#ifdef JS_TSC_CLOCK_POSSIBLE
/* Does clock_gettime read CLOCK_MONOTONIC in user space? The fastest of a
 * few calls through the vDSO against the fastest of a few system calls,
 * timed in TSC ticks (~10 µs once, on the collector's thread). */
static gboolean
vdso_reads_directly (int tries)
{
  guint64 best_vdso = G_MAXUINT64, best_syscall = G_MAXUINT64;
  struct timespec ts;

  for (int i = 0; i < tries; i++)
    {
      guint64 t0, t1;

      t0 = __rdtsc ();
      clock_gettime (CLOCK_MONOTONIC, &ts);
      t1 = __rdtsc ();
      best_vdso = MIN (best_vdso, t1 - t0);
      t0 = __rdtsc ();
      syscall (SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
      t1 = __rdtsc ();
      best_syscall = MIN (best_syscall, t1 - t0);
    }
  return js_tsc_clock_vdso_is_direct (best_vdso, best_syscall);
}
#endif

gboolean
js_tsc_clock_start (void)
{
#ifdef JS_TSC_CLOCK_POSSIBLE
  /* The first CPU's flags are in the first few KiB. */
  char cpuinfo[16384];
  char clocksource[64];
  gboolean have_cpuinfo, have_clocksource;

  if (__atomic_load_n (&state, __ATOMIC_RELAXED) != STATE_NOT_STARTED)
    return __atomic_load_n (&state, __ATOMIC_RELAXED) == STATE_RUNNING;
  have_cpuinfo = js_small_file_read ("/proc/cpuinfo", cpuinfo, sizeof cpuinfo);
  have_clocksource
      = js_small_file_read ("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                            clocksource, sizeof clocksource);
  vdso_checked = have_clocksource && source_is (clocksource, "kvm-clock")
                 && vdso_reads_directly (VDSO_TRIES);
  if (!js_tsc_clock_usable (have_cpuinfo ? cpuinfo : NULL, have_clocksource ? clocksource : NULL,
                            vdso_checked))
    {
      __atomic_store_n (&state, STATE_OFF, __ATOMIC_RELAXED);
      js_log_debug ("the kernel's clock is not an invariant TSC (clocksource %s): "
                    "the main thread reads CLOCK_MONOTONIC",
                    have_clocksource ? g_strstrip (clocksource) : "unknown");
      return FALSE;
    }
  __atomic_store_n (&state, STATE_RUNNING, __ATOMIC_RELAXED);
  js_tsc_clock_anchor ();
  return TRUE;
#else
  state = STATE_OFF;
  return FALSE;
#endif
}

void
js_tsc_clock_fork_child (void)
{
  /* Single-threaded now. A fork in the middle of a rewrite leaves the
   * sequence odd: the line is not used either way. */
  __atomic_store_n (&state, STATE_OFF, __ATOMIC_RELAXED);
  __atomic_store_n (&js_tsc_line.max_delta, 0, __ATOMIC_RELAXED);
}

gboolean
js_tsc_clock_active (void)
{
  return __atomic_load_n (&js_tsc_line.max_delta, __ATOMIC_RELAXED) != 0;
}

void
js_tsc_clock_reset (gboolean running)
{
  drop_line ();
  state = running ? STATE_RUNNING : STATE_NOT_STARTED;
  have_ref = FALSE;
  mult = 0;
  misses = 0;
  vdso_checked = FALSE;
  js_tsc_last_ns = 0;
}
