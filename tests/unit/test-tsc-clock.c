/* Unit tests of the main thread's TSC clock (js-tsc-clock.c): when it may be
 * used, its calibration from anchors, its fallbacks to CLOCK_MONOTONIC (no
 * line, a line too old, a line being rewritten, a fork child), its
 * monotonic readings, and its readings against clock_gettime over time.
 * Never a speed assertion. */
#include "js-clock.h"
#include "js-tsc-clock.h"

#include <sys/wait.h>
#include <unistd.h>

#define MS JS_NS_PER_MS

static void
test_usable (void)
{
  const char *good = "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                     "flags\t\t: fpu tsc constant_tsc rep_good nopl nonstop_tsc cpuid\n"
                     "bugs\t\t: sysret_ss_attrs\n\nprocessor\t: 1\nflags\t\t: fpu\n";
  const char *no_nonstop = "processor\t: 0\nflags\t\t: fpu tsc constant_tsc rep_good\n";
  const char *prefix_only = "flags\t\t: constant_tsc_x nonstop_tsc\n";
  const char *elsewhere = "flags\t\t: fpu\nbugs\t\t: constant_tsc nonstop_tsc\n";

  g_assert_true (js_tsc_clock_usable (good, "tsc\n", FALSE));
  g_assert_true (js_tsc_clock_usable (good, "tsc", FALSE));
  g_assert_false (js_tsc_clock_usable (good, "kvm-clock\n", FALSE));
  /* KVM's clock, read by the vDSO with an rdtsc: the TSC is what it reads. */
  g_assert_true (js_tsc_clock_usable (good, "kvm-clock\n", TRUE));
  g_assert_true (js_tsc_clock_usable (good, "kvm-clock", TRUE));
  g_assert_false (js_tsc_clock_usable (no_nonstop, "kvm-clock\n", TRUE));
  g_assert_false (js_tsc_clock_usable (good, "kvm-clock-x\n", TRUE));
  g_assert_false (js_tsc_clock_usable (good, "hpet\n", TRUE));
  g_assert_true (js_tsc_clock_usable (good, "tsc\n", TRUE));
  /* The vDSO's read against a system call's, in TSC ticks. */
  g_assert_true (js_tsc_clock_vdso_is_direct (60, 2000));
  g_assert_true (js_tsc_clock_vdso_is_direct (60, 100));
  g_assert_false (js_tsc_clock_vdso_is_direct (2100, 2000));
  g_assert_false (js_tsc_clock_vdso_is_direct (1900, 2000));
  g_assert_false (js_tsc_clock_vdso_is_direct (0, 2000));
  g_assert_false (js_tsc_clock_vdso_is_direct (60, 0));
  g_assert_false (js_tsc_clock_usable (good, "tsc-early\n", FALSE));
  g_assert_false (js_tsc_clock_usable (good, "", FALSE));
  g_assert_false (js_tsc_clock_usable (good, NULL, FALSE));
  g_assert_false (js_tsc_clock_usable (NULL, "tsc\n", FALSE));
  g_assert_false (js_tsc_clock_usable ("", "tsc\n", FALSE));
  g_assert_false (js_tsc_clock_usable (no_nonstop, "tsc\n", FALSE));
  g_assert_false (js_tsc_clock_usable (prefix_only, "tsc\n", FALSE));
  /* Only the first CPU's flags line counts. */
  g_assert_false (js_tsc_clock_usable (elsewhere, "tsc\n", FALSE));
}

/* mult/shift: 2.5 GHz is 0.4 ns a tick; half a second of ticks is exact to
 * a nanosecond, from any base, with no overflow. */
static void
test_line_math (void)
{
#ifdef JS_TSC_LINE
  guint64 mult = (guint64) (((unsigned __int128) 400 << JS_TSC_SHIFT) / 1000);
  guint64 base = G_GUINT64_CONSTANT (0xfff0000000000000);

  g_assert_cmpint (js_tsc_line_ns (base, 7, mult, base), ==, 7);
  g_assert_cmpint (ABS (js_tsc_line_ns (base, 7, mult, base + 1250000000) - (7 + 500000000)), <=,
                   1);
  g_assert_cmpint (ABS (js_tsc_line_ns (base, G_GINT64_CONSTANT (1) << 50, mult, base + 2500)
                        - ((G_GINT64_CONSTANT (1) << 50) + 1000)),
                   <=, 1);
#else
  g_test_skip ("no 128-bit integers: no line");
#endif
}

/* Synthetic anchors of a 2 GHz TSC (2 ticks a ns) that matches the clock. */
static void
anchor (guint64 tsc0, gint64 ns)
{
  js_tsc_clock_anchor_at (tsc0 + 2 * (guint64) ns, ns, 40);
}

static void
test_calibration (void)
{
#ifndef JS_TSC_LINE
  g_test_skip ("no 128-bit integers: no line");
  return;
#endif
  const guint64 t0 = 1000;
  JsTscLine line;

  js_tsc_clock_reset (TRUE);
  anchor (t0, 1000 * MS);
  g_assert_false (js_tsc_clock_active ());
  /* A first window under 100 ms gives no rate yet. */
  anchor (t0, 1050 * MS);
  g_assert_false (js_tsc_clock_active ());
  anchor (t0, 1100 * MS);
  g_assert_true (js_tsc_clock_active ());
  line = js_tsc_line;
  g_assert_cmpuint (line.base_tsc, ==, t0 + 2 * 1100 * (guint64) MS);
  g_assert_cmpint (line.base_ns, ==, 1100 * MS);
  g_assert_cmpuint (line.mult, ==, G_GUINT64_CONSTANT (1) << (JS_TSC_SHIFT - 1));
  /* Used for 1.25 s of ticks after its anchor. */
  g_assert_cmpuint (line.max_delta, ==, 2 * 1250 * (guint64) MS);
  g_assert_cmpint ((gint) (line.seq & 1), ==, 0);

  /* A bracket wider than 1 µs (preempted) is no anchor. */
  js_tsc_clock_anchor_at (t0 + 2 * 1200 * (guint64) MS, 1200 * MS, 5000);
  g_assert_cmpint (js_tsc_line.base_ns, ==, 1100 * MS);
  /* Within 2 µs + 1000 ppm of its age: re-based. */
  js_tsc_clock_anchor_at (t0 + 2 * 1300 * (guint64) MS, 1300 * MS + 100000, 40);
  g_assert_true (js_tsc_clock_active ());
  g_assert_cmpint (js_tsc_line.base_ns, ==, 1300 * MS + 100000);

  /* Suspended: the TSC ran 5 s on, the clock 1 s. Dropped, calibrated again. */
  js_tsc_clock_anchor_at (t0 + 2 * 6300 * (guint64) MS, 2300 * MS, 40);
  g_assert_false (js_tsc_clock_active ());
  js_tsc_clock_anchor_at (t0 + 2 * 6400 * (guint64) MS, 2400 * MS, 40);
  g_assert_true (js_tsc_clock_active ());
  g_assert_cmpint (js_tsc_line.base_ns, ==, 2400 * MS);
  js_tsc_clock_reset (FALSE);
}

/* A TSC that keeps disagreeing with the kernel's clock: off for good after
 * three misses in a row. */
static void
test_misses (void)
{
#ifndef JS_TSC_LINE
  g_test_skip ("no 128-bit integers: no line");
  return;
#endif
  gint64 ns = 1000 * MS;
  guint64 tsc = 0;

  js_tsc_clock_reset (TRUE);
  for (int i = 0; i < 20; i++)
    {
      /* Each 200 ms of clock is 400 ms of ticks, then 800 ms: no rate holds. */
      js_tsc_clock_anchor_at (tsc, ns, 40);
      ns += 200 * MS;
      tsc += (guint64) (i % 2 ? 2 : 4) * 200 * MS;
    }
  g_assert_false (js_tsc_clock_active ());
  /* Now a steady TSC: still off. */
  for (int i = 0; i < 5; i++)
    {
      js_tsc_clock_anchor_at (tsc, ns, 40);
      ns += 200 * MS;
      tsc += 2 * 200 * MS;
    }
  g_assert_false (js_tsc_clock_active ());
  js_tsc_clock_reset (FALSE);
}

static G_GNUC_UNUSED void
assert_reads_kernel_clock (void)
{
  gint64 before = js_now_ns ();
  gint64 t = js_tsc_clock_now ();
  gint64 after = js_now_ns ();

  g_assert_cmpint (t, >=, before);
  g_assert_cmpint (t, <=, after);
}

/* The reading falls back to CLOCK_MONOTONIC with no line, with a line too
 * old, with one being rewritten; a line far off (1000 s ahead) shows whether
 * it was read. */
static void
test_fallbacks (void)
{
#ifdef JS_TSC_CLOCK_POSSIBLE
  gint64 far = 1000000 * MS;
  guint64 mult = G_GUINT64_CONSTANT (1) << (JS_TSC_SHIFT - 1);
  guint64 window = 1000 * MS;

  js_tsc_clock_reset (FALSE);
  assert_reads_kernel_clock ();

  /* Fresh: read. */
  js_tsc_line = (JsTscLine){ 0, __rdtsc (), js_now_ns () + far, mult, window };
  g_assert_cmpint (js_tsc_clock_now (), >=, far);
  js_tsc_last_ns = 0;

  /* Too old: not read. */
  js_tsc_line = (JsTscLine){ 0, __rdtsc () - 2 * window, js_now_ns () + far, mult, window };
  assert_reads_kernel_clock ();

  /* The TSC behind the anchor (another CPU's, a reset): not read. */
  js_tsc_line = (JsTscLine){ 0, __rdtsc () + window / 2, js_now_ns () + far, mult, window };
  assert_reads_kernel_clock ();

  /* Being rewritten (odd sequence): not read. */
  js_tsc_line = (JsTscLine){ 1, __rdtsc (), js_now_ns () + far, mult, window };
  assert_reads_kernel_clock ();
  js_tsc_clock_reset (FALSE);
#else
  g_test_skip ("no TSC on this architecture");
#endif
}

/* A reading never goes back, though the line it came from was ahead. */
static void
test_monotonic (void)
{
#ifdef JS_TSC_CLOCK_POSSIBLE
  guint64 mult = G_GUINT64_CONSTANT (1) << (JS_TSC_SHIFT - 1);
  gint64 ahead;

  js_tsc_clock_reset (FALSE);
  js_tsc_line = (JsTscLine){ 0, __rdtsc (), js_now_ns () + 10 * MS, mult, 1000 * MS };
  ahead = js_tsc_clock_now ();
  js_tsc_clock_reset (FALSE);
  js_tsc_last_ns = ahead;
  g_assert_cmpint (js_tsc_clock_now (), ==, ahead);
  js_tsc_clock_reset (FALSE);
#else
  g_test_skip ("no TSC on this architecture");
#endif
}

/* The real clock started as the collector starts it, then `anchors`
 * anchors `gap_us` apart; FALSE (the test skipped) where the kernel's clock
 * is not an invariant TSC. */
static gboolean
start_real_clock (int anchors, gulong gap_us)
{
  js_tsc_clock_reset (FALSE);
  if (!js_tsc_clock_start ())
    {
      g_test_skip ("the kernel's clocksource is not an invariant TSC here");
      return FALSE;
    }
  for (int i = 0; i < anchors; i++)
    {
      g_usleep (gap_us);
      js_tsc_clock_anchor ();
    }
  return TRUE;
}

/* Calibrated as the collector does it (anchors when it wakes), then read
 * for 3 s against clock_gettime, re-anchored every second (the collector's
 * slowest tick while the app is busy). Tolerance: the anchor's half-bracket
 * (<= 0.5 µs) + the rate's error over the line's age: <= 10 ppm from a
 * first window of >= 100 ms with such anchors, and room for the kernel's
 * rate to change meanwhile (NTP: a few ppm an update): 10 µs + 100 ppm of
 * the age. A wrong scale, base or rate, or a line used too long, misses by
 * milliseconds. */
static void
test_against_clock_gettime (void)
{
  gint64 end, last = 0, worst = 0;
  guint reads = 0, tsc_reads = 0;

  if (!start_real_clock (4, 50000))
    return;
  end = js_now_ns () + 3000 * MS;
  while (js_now_ns () < end)
    {
      gint64 tick_end = js_now_ns () + 1000 * MS;

      js_tsc_clock_anchor ();
      while (js_now_ns () < tick_end)
        {
          gint64 before = js_now_ns ();
          gint64 t = js_tsc_clock_now ();
          gint64 after = js_now_ns ();
          gint64 age = t - js_tsc_line.base_ns;
          gint64 tol = 10000 + age / 10000;
          gboolean from_tsc = js_tsc_clock_active ();

          if (from_tsc)
            {
              g_assert_cmpint (t, >=, before - tol);
              g_assert_cmpint (t, <=, after + tol);
              worst = MAX (worst, MAX (before - t, t - after));
              tsc_reads++;
            }
          g_assert_cmpint (t, >=, last);
          last = t;
          reads++;
          g_usleep (500);
        }
    }
  g_test_message ("%u reads, %u with a line; worst distance outside the clock_gettime bracket "
                  "%" G_GINT64_FORMAT " ns",
                  reads, tsc_reads, worst);
  /* Under heavy load a tick may find every anchor preempted: most reads. */
  g_assert_cmpuint (tsc_reads, >, reads / 2);
  js_tsc_clock_reset (FALSE);
}

/* A fork child never reads the line its parent's collector keeps. */
static void
test_fork_child (void)
{
  pid_t pid;
  int status;

  if (!start_real_clock (3, 60000))
    return;
  g_assert_true (js_tsc_clock_active ());
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      js_tsc_clock_fork_child ();
      js_tsc_clock_anchor ();
      _exit (js_tsc_clock_active () ? 1 : 0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  js_tsc_clock_reset (FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tsc-clock/usable", test_usable);
  g_test_add_func ("/tsc-clock/line-math", test_line_math);
  g_test_add_func ("/tsc-clock/calibration", test_calibration);
  g_test_add_func ("/tsc-clock/misses", test_misses);
  g_test_add_func ("/tsc-clock/fallbacks", test_fallbacks);
  g_test_add_func ("/tsc-clock/monotonic", test_monotonic);
  g_test_add_func ("/tsc-clock/against-clock-gettime", test_against_clock_gettime);
  g_test_add_func ("/tsc-clock/fork-child", test_fork_child);
  return g_test_run ();
}
