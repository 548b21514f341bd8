/* Unit tests of the percentile histogram. */
#include "js-histogram.h"

static void
test_empty (void)
{
  JsHistogram h = { 0 };

  g_assert_cmpint (js_histogram_percentile (&h, 0.95), ==, 0);
}

static void
test_single_value_is_exact (void)
{
  JsHistogram h = { 0 };

  js_histogram_add (&h, 200000000);
  g_assert_cmpint (js_histogram_percentile (&h, 0.5), ==, 200000000);
  g_assert_cmpint (js_histogram_percentile (&h, 0.95), ==, 200000000);
  g_assert_cmpint (h.count, ==, 1);
}

static void
test_precision (void)
{
  /* 1..10000 µs uniformly: the exact p50/p95/p99 are known. */
  JsHistogram h = { 0 };
  const double qs[] = { 0.5, 0.9, 0.95, 0.99 };

  for (gint64 us = 1; us <= 10000; us++)
    js_histogram_add (&h, us * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (qs); i++)
    {
      double exact = qs[i] * 10000 * 1000;
      double got = (double) js_histogram_percentile (&h, qs[i]);

      g_assert_cmpfloat (ABS (got - exact) / exact, <=, 1.0 / 32 + 1e-9);
    }
  g_assert_cmpint (h.max_ns, ==, 10000 * 1000);
  g_assert_cmpint (h.min_ns, ==, 1000);
}

static void
test_extremes (void)
{
  JsHistogram h = { 0 };

  js_histogram_add (&h, 0);
  js_histogram_add (&h, -5); /* a clock that went backwards must not crash */
  js_histogram_add (&h, G_MAXINT64);
  g_assert_cmpint (js_histogram_percentile (&h, 1.0), ==, G_MAXINT64);
  g_assert_cmpint (js_histogram_percentile (&h, 0.0), <=, 0);
  g_assert_cmpint (js_histogram_percentile (&h, 7.0), ==, G_MAXINT64); /* q clamped */
}

/* The bucket of a value, worked out in one expression (the layout header),
 * against each bucket's bounds, worked out apart: the first and last value of
 * every bucket, and what lies below and beyond the layout. */
static void
test_bucket_of_matches_bounds (void)
{
  g_assert_cmpuint (js_histogram_bucket_of (G_MININT64), ==, 0);
  g_assert_cmpuint (js_histogram_bucket_of (-1), ==, 0);
  g_assert_cmpuint (js_histogram_bucket_of (0), ==, 0);
  g_assert_cmpuint (js_histogram_bucket_of ((1 << JS_HISTOGRAM_MIN_EXP) - 1), ==, 0);
  for (guint b = 1; b < JS_HISTOGRAM_BUCKETS; b++)
    {
      gint64 low = js_histogram_bucket_low (b);

      g_assert_cmpuint (js_histogram_bucket_of (low), ==, b);
      g_assert_cmpuint (js_histogram_bucket_of (low - 1), ==, b - 1);
      g_assert_cmpuint (js_histogram_bucket_of (js_histogram_bucket_mid (b)), ==, b);
      if (b < JS_HISTOGRAM_BUCKETS - 1)
        g_assert_cmpuint (js_histogram_bucket_of (js_histogram_bucket_high (b) - 1), ==, b);
    }
  for (int e = JS_HISTOGRAM_MAX_EXP; e < 63; e++)
    {
      g_assert_cmpuint (js_histogram_bucket_of ((gint64) 1 << e), ==, JS_HISTOGRAM_BUCKETS - 1);
      /* 2^(e+1) - 1, written so that e = 62 does not overflow. */
      g_assert_cmpuint (js_histogram_bucket_of (((gint64) 1 << e) - 1 + ((gint64) 1 << e)), ==,
                        JS_HISTOGRAM_BUCKETS - 1);
    }
  g_assert_cmpuint (js_histogram_bucket_of (G_MAXINT64), ==, JS_HISTOGRAM_BUCKETS - 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Histogram/empty", test_empty);
  g_test_add_func ("/Histogram/bucket-of-matches-bounds", test_bucket_of_matches_bounds);
  g_test_add_func ("/Histogram/single-value", test_single_value_is_exact);
  g_test_add_func ("/Histogram/precision", test_precision);
  g_test_add_func ("/Histogram/extremes", test_extremes);
  return g_test_run ();
}
