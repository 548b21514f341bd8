/* clock-cost.c: what one clock read costs, per call in a loop of many.
 *
 * CLOCK_MONOTONIC through the vDSO (js_now_ns, js-clock.h),
 * g_get_monotonic_time, a bare rdtsc, lfence + rdtsc and rdtscp (the
 * vDSO's ordered reads), and the main thread's TSC clock (js-tsc-clock.h,
 * calibrated here first). The cases alternate round by round, so that a
 * machine that drifts slower or faster does not favour one; each round
 * times 1,000,000 calls with CLOCK_MONOTONIC. Prints the median and the
 * fastest round per case; never judges them.
 *
 *   clock-cost [ROUNDS]
 */
#include "js-clock.h"
#include "js-tsc-clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CALLS 1000000

static volatile gint64 sink;

static gint64
loop_now_ns (void)
{
  gint64 s = 0;

  for (int i = 0; i < CALLS; i++)
    s += js_now_ns ();
  return s;
}

static gint64
loop_glib (void)
{
  gint64 s = 0;

  for (int i = 0; i < CALLS; i++)
    s += g_get_monotonic_time ();
  return s;
}

static gint64
loop_tsc_clock (void)
{
  gint64 s = 0;

  for (int i = 0; i < CALLS; i++)
    s += js_tsc_clock_now ();
  return s;
}

#ifdef JS_TSC_CLOCK_POSSIBLE
static gint64
loop_rdtsc (void)
{
  gint64 s = 0;

  for (int i = 0; i < CALLS; i++)
    s += (gint64) __rdtsc ();
  return s;
}

static gint64
loop_lfence_rdtsc (void)
{
  gint64 s = 0;

  for (int i = 0; i < CALLS; i++)
    {
      _mm_lfence ();
      s += (gint64) __rdtsc ();
    }
  return s;
}

static gint64
loop_rdtscp (void)
{
  gint64 s = 0;
  unsigned aux;

  for (int i = 0; i < CALLS; i++)
    s += (gint64) __rdtscp (&aux);
  return s;
}
#endif

typedef struct
{
  const char *name;
  gint64 (*loop) (void);
  double ns[256];
} Case;

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  Case cases[] = {
    { "CLOCK_MONOTONIC (vDSO, js_now_ns)", loop_now_ns, { 0 } },
    { "g_get_monotonic_time", loop_glib, { 0 } },
    { "js_tsc_clock_now", loop_tsc_clock, { 0 } },
#ifdef JS_TSC_CLOCK_POSSIBLE
    { "rdtsc", loop_rdtsc, { 0 } },
    { "lfence; rdtsc", loop_lfence_rdtsc, { 0 } },
    { "rdtscp", loop_rdtscp, { 0 } },
#endif
  };
  int n_cases = G_N_ELEMENTS (cases);
  int rounds = argc > 1 ? CLAMP (atoi (argv[1]), 1, 256) : 15;
  gboolean tsc = js_tsc_clock_start ();
  int tsc_active_rounds = 0;

  /* Calibrated as the collector does: anchors >= 100 ms apart. */
  if (tsc)
    for (int i = 0; i < 3; i++)
      {
        g_usleep (60000);
        js_tsc_clock_anchor ();
      }
  for (int r = 0; r < rounds; r++)
    for (int c = 0; c < n_cases; c++)
      {
        gint64 t0;

        if (cases[c].loop == loop_tsc_clock)
          {
            js_tsc_clock_anchor (); /* as the collector does when it wakes */
            tsc_active_rounds += js_tsc_clock_active ();
          }
        t0 = js_now_ns ();
        sink = cases[c].loop ();
        cases[c].ns[r] = (double) (js_now_ns () - t0) / CALLS;
      }
  printf ("%-36s %10s %10s   (%d rounds of %d calls)\n", "clock", "median ns", "fastest ns", rounds,
          CALLS);
  for (int c = 0; c < n_cases; c++)
    {
      qsort (cases[c].ns, rounds, sizeof (double), cmp_double);
      printf ("%-36s %10.1f %10.1f\n", cases[c].name, cases[c].ns[rounds / 2], cases[c].ns[0]);
    }
  printf ("js_tsc_clock_now read the TSC in %d of %d rounds (%s)\n", tsc_active_rounds, rounds,
          tsc ? "the kernel's clocksource is an invariant TSC" : "no TSC: CLOCK_MONOTONIC");
  return 0;
}
