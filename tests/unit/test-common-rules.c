/* Unit tests of the rules the core and the reading side share (src/common/):
 * the tiers (js-tiers.h), which frames are slow or frozen (js-slow-frame.h)
 * and how percentiles are read (js-percentile.h). Linked against the common
 * library alone. */
#include "js-percentile.h"
#include "js-slow-frame.h"
#include "js-tiers.h"

#include <math.h>
#include <string.h>

#define MS G_GINT64_CONSTANT (1000000)

static void
test_tier_names (void)
{
  JsTier tier = JS_TIER_HANG;

  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    {
      g_assert_nonnull (js_tier_name (t));
      g_assert_true (js_tier_from_name (js_tier_name (t), &tier));
      g_assert_cmpint (tier, ==, t);
    }
  /* The reports' names, in the order of the bounds and events_by_tier. */
  g_assert_cmpstr (js_tier_name (JS_TIER_NOTICEABLE), ==, "noticeable");
  g_assert_cmpstr (js_tier_name (JS_TIER_SEVERE), ==, "severe");
  g_assert_cmpstr (js_tier_name (JS_TIER_FROZEN), ==, "frozen");
  g_assert_cmpstr (js_tier_name (JS_TIER_HANG), ==, "hang");
  g_assert_cmpstr (js_tier_name (JS_TIER_LIGHT), ==, "light");
  g_assert_cmpint (JS_N_TIERS, ==, 4);
  /* Anything else: no name, no tier. */
  g_assert_null (js_tier_name (JS_N_EVENT_TIERS));
  g_assert_null (js_tier_name ((JsTier) -1));
  tier = JS_TIER_SEVERE;
  g_assert_false (js_tier_from_name ("Hang", &tier));
  g_assert_false (js_tier_from_name ("", &tier));
  g_assert_false (js_tier_from_name (NULL, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_SEVERE);
}

static void
test_tier_order (void)
{
  const JsTier mildest_first[]
      = { JS_TIER_LIGHT, JS_TIER_NOTICEABLE, JS_TIER_SEVERE, JS_TIER_FROZEN, JS_TIER_HANG };

  for (guint i = 0; i < G_N_ELEMENTS (mildest_first); i++)
    g_assert_cmpint (js_tier_by_mildness (i), ==, mildest_first[i]);
  g_assert_cmpint (js_tier_by_mildness (99), ==, JS_TIER_HANG);
}

static void
test_default_bounds (void)
{
  gint64 b[JS_N_TIERS];

  js_tier_default_bounds (b);
  g_assert_cmpint (b[JS_TIER_NOTICEABLE], ==, 50 * MS);
  g_assert_cmpint (b[JS_TIER_SEVERE], ==, 200 * MS);
  g_assert_cmpint (b[JS_TIER_FROZEN], ==, 700 * MS);
  g_assert_cmpint (b[JS_TIER_HANG], ==, 3000 * MS);
}

static void
test_tier_of_stall (void)
{
  gint64 b[JS_N_TIERS];

  js_tier_default_bounds (b);
  /* Lower bounds: each one belongs to its tier. */
  g_assert_cmpint (js_tier_of_stall (b, 0), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_stall (b, 200 * MS - 1), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_stall (b, 200 * MS), ==, JS_TIER_SEVERE);
  g_assert_cmpint (js_tier_of_stall (b, 700 * MS), ==, JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_stall (b, 3000 * MS - 1), ==, JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_stall (b, 3000 * MS), ==, JS_TIER_HANG);
  g_assert_cmpint (js_tier_of_stall (b, G_MAXINT64), ==, JS_TIER_HANG);
  g_assert_cmpint (js_tier_of_stall (b, G_MININT64), ==, JS_TIER_NOTICEABLE);
  /* Other bounds (JANKSCOPE_TIERS_MS=100,150,250). */
  b[JS_TIER_SEVERE] = 100 * MS;
  b[JS_TIER_FROZEN] = 150 * MS;
  b[JS_TIER_HANG] = 250 * MS;
  g_assert_cmpint (js_tier_of_stall (b, 80 * MS), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_stall (b, 200 * MS), ==, JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_stall (b, 250 * MS), ==, JS_TIER_HANG);
  /* A threshold above the severe bound: the highest bound reached wins. */
  b[JS_TIER_NOTICEABLE] = 120 * MS;
  g_assert_cmpint (js_tier_of_stall (b, 110 * MS), ==, JS_TIER_SEVERE);
}

static void
test_tier_of_frame (void)
{
  gint64 b[JS_N_TIERS];

  js_tier_default_bounds (b);
  g_assert_cmpint (js_tier_of_frame (b, 30 * MS), ==, JS_TIER_LIGHT);
  g_assert_cmpint (js_tier_of_frame (b, 50 * MS - 1), ==, JS_TIER_LIGHT);
  g_assert_cmpint (js_tier_of_frame (b, 50 * MS), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_frame (b, 200 * MS), ==, JS_TIER_SEVERE);
  /* Frozen is over the bound, not at it (docs/report-format.md). */
  g_assert_cmpint (js_tier_of_frame (b, 700 * MS), ==, JS_TIER_SEVERE);
  g_assert_cmpint (js_tier_of_frame (b, 700 * MS + 1), ==, JS_TIER_FROZEN);
  /* Frames have no hang tier. */
  g_assert_cmpint (js_tier_of_frame (b, 3000 * MS), ==, JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_frame (b, G_MAXINT64), ==, JS_TIER_FROZEN);
  g_assert_false (js_frame_is_frozen (b, 700 * MS));
  g_assert_true (js_frame_is_frozen (b, 700 * MS + 1));
  /* The noticeable bound is the configured threshold. */
  b[JS_TIER_NOTICEABLE] = 20 * MS;
  b[JS_TIER_FROZEN] = 300 * MS;
  g_assert_cmpint (js_tier_of_frame (b, 30 * MS), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_frame (b, 400 * MS), ==, JS_TIER_FROZEN);
  g_assert_true (js_frame_is_frozen (b, 400 * MS));
}

/* An episode's tier: the worse of its longest part's and its blocked
 * time's, where blocked time alone stops one tier short of what only one
 * uninterrupted part reaches. */
static void
test_tier_of_episode (void)
{
  gint64 b[JS_N_TIERS];

  js_tier_default_bounds (b);
  g_assert_cmpuint (js_tier_mildness (JS_TIER_LIGHT), <, js_tier_mildness (JS_TIER_NOTICEABLE));
  g_assert_cmpuint (js_tier_mildness (JS_TIER_FROZEN), <, js_tier_mildness (JS_TIER_HANG));
  for (guint i = 0; i < JS_N_EVENT_TIERS; i++)
    g_assert_cmpuint (js_tier_mildness (js_tier_by_mildness (i)), ==, i);
  g_assert_cmpint (js_tier_worse (JS_TIER_LIGHT, JS_TIER_NOTICEABLE), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_worse (JS_TIER_HANG, JS_TIER_LIGHT), ==, JS_TIER_HANG);

  /* One part: its own tier. */
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_NOTICEABLE, 60 * MS), ==,
                   JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_episode (b, TRUE, JS_TIER_LIGHT, 20 * MS), ==, JS_TIER_LIGHT);
  /* Ten back-to-back 150 ms callbacks: 1.5 s blocked is a frozen window,
   * not ten noticeable stutters; 30 of them still not a hang. */
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_NOTICEABLE, 1500 * MS), ==,
                   JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_NOTICEABLE, 4500 * MS), ==,
                   JS_TIER_FROZEN);
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_SEVERE, 250 * MS), ==, JS_TIER_SEVERE);
  /* One hang part stays a hang. */
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_HANG, 3000 * MS), ==, JS_TIER_HANG);
  /* Six seconds of 40 ms frames (light each, 23 ms late each: 3.5 s behind)
   * are severe, not light; never frozen without a frozen frame. */
  g_assert_cmpint (js_tier_of_episode (b, TRUE, JS_TIER_LIGHT, 3500 * MS), ==, JS_TIER_SEVERE);
  g_assert_cmpint (js_tier_of_episode (b, TRUE, JS_TIER_LIGHT, 60 * MS), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_tier_of_episode (b, TRUE, JS_TIER_FROZEN, 800 * MS), ==, JS_TIER_FROZEN);
  /* Nothing blocked (or a nonsense negative sum): the longest part's. */
  g_assert_cmpint (js_tier_of_episode (b, TRUE, JS_TIER_LIGHT, -5), ==, JS_TIER_LIGHT);
  g_assert_cmpint (js_tier_of_episode (b, FALSE, JS_TIER_SEVERE, 0), ==, JS_TIER_SEVERE);
}

static void
test_slow_frame (void)
{
  const gint64 budget = 16666667;

  g_assert_cmpint (JS_SLOW_FRAME_DEFAULT_PCT, ==, 150);
  /* Over 150% of the budget, not at it. */
  g_assert_false (js_frame_is_slow (25000000, 16666667, 150));
  g_assert_true (js_frame_is_slow (25000001, 16666667, 150));
  g_assert_false (js_frame_is_slow (budget, budget, 150));
  /* Another rule: over three budgets. */
  g_assert_false (js_frame_is_slow (40 * MS, budget, 300));
  g_assert_true (js_frame_is_slow (51 * MS, budget, 300));
  /* An unknown budget is 60 Hz. */
  g_assert_cmpint (js_frame_budget (0), ==, JS_FALLBACK_FRAME_BUDGET_NS);
  g_assert_cmpint (js_frame_budget (-3), ==, JS_FALLBACK_FRAME_BUDGET_NS);
  g_assert_cmpint (js_frame_budget (8333333), ==, 8333333);
  g_assert_cmpint (JS_FALLBACK_FRAME_BUDGET_NS, ==, 16666667);
  g_assert_false (js_frame_is_slow (25000000, 0, 150));
  g_assert_true (js_frame_is_slow (25000001, -1, 150));
  /* Hostile numbers: no overflow, still the right answer. */
  g_assert_false (js_frame_is_slow (0, 1, 0));
  g_assert_false (js_frame_is_slow (G_MININT64, 1, 150));
  g_assert_true (js_frame_is_slow (G_MAXINT64, 1, 150));
  g_assert_true (js_frame_is_slow (G_MAXINT64, G_MAXINT64 / 2, 150));
  g_assert_false (js_frame_is_slow (G_MAXINT64, G_MAXINT64, 150));
  g_assert_false (js_frame_is_slow (G_MAXINT64, G_MAXINT64 / 2, G_MAXUINT));
  g_assert_false (js_frame_is_slow (G_MAXINT64 / 100, G_MAXINT64 / 100, 101));
  g_assert_true (js_frame_is_slow (G_MAXINT64 / 100, G_MAXINT64 / 200, 101));
  g_assert_true (js_frame_is_slow (1, 1, 0));
}

static void
test_percentile_rank (void)
{
  g_assert_cmpuint (js_percentile_rank (0, 0.5), ==, 0);
  g_assert_cmpuint (js_percentile_rank (100, 0.5), ==, 50);
  g_assert_cmpuint (js_percentile_rank (100, 0.95), ==, 95);
  g_assert_cmpuint (js_percentile_rank (100, 0.951), ==, 96);
  g_assert_cmpuint (js_percentile_rank (10, 0.0), ==, 1);
  g_assert_cmpuint (js_percentile_rank (10, -1.0), ==, 1);
  g_assert_cmpuint (js_percentile_rank (10, NAN), ==, 1);
  g_assert_cmpuint (js_percentile_rank (10, 1.0), ==, 10);
  g_assert_cmpuint (js_percentile_rank (10, 7.0), ==, 10);
  g_assert_cmpuint (js_percentile_rank (10, INFINITY), ==, 10);
  /* Counts a double cannot hold: the rank stays within them. */
  g_assert_cmpuint (js_percentile_rank (G_MAXUINT64, 1 - 1e-16), >, G_MAXUINT64 - 4096);
  g_assert_cmpuint (js_percentile_rank (G_MAXUINT64, 0.5), ==, G_GUINT64_CONSTANT (1) << 63);
  g_assert_cmpuint (js_percentile_rank ((G_GUINT64_CONSTANT (1) << 53) + 1, 1 - 1e-16), <=,
                    (G_GUINT64_CONSTANT (1) << 53) + 1);
}

/* The same values in 32- and 64-bit buckets read the same percentiles. */
static void
test_percentile_of_buckets (void)
{
  g_autofree guint32 *b32 = g_new0 (guint32, JS_HISTOGRAM_BUCKETS);
  g_autofree guint64 *b64 = g_new0 (guint64, JS_HISTOGRAM_BUCKETS);
  const double qs[] = { 0.0, 0.01, 0.5, 0.9, 0.95, 0.99, 1.0 };
  guint64 count = 0;

  for (gint64 us = 1; us <= 10000; us++)
    {
      guint b = js_histogram_bucket_of (us * 1000);

      b32[b]++;
      b64[b]++;
      count++;
    }
  for (guint i = 0; i < G_N_ELEMENTS (qs); i++)
    {
      gint64 v32 = js_percentile_of_buckets32 (b32, count, 1000, 10000000, qs[i]);
      gint64 v64 = js_percentile_of_buckets64 (b64, count, 1000, 10000000, qs[i]);
      double exact = MAX (qs[i], 1.0 / 10000) * 10000 * 1000;

      g_assert_cmpint (v32, ==, v64);
      g_assert_cmpfloat (fabs ((double) v32 - exact) / exact, <=, 1.0 / 32 + 1e-9);
    }
  /* The extremes are exact; the middle is a bucket's midpoint. */
  g_assert_cmpint (js_percentile_of_buckets64 (b64, count, 1000, 10000000, 0.0), ==, 1000);
  g_assert_cmpint (js_percentile_of_buckets64 (b64, count, 1000, 10000000, 1.0), ==, 10000000);
  g_assert_cmpint (js_percentile_of_buckets64 (b64, count, 1000, 10000000, 0.5), ==,
                   js_histogram_bucket_mid (js_histogram_bucket_of (5000 * 1000)));
  /* Empty: 0. */
  g_assert_cmpint (js_percentile_of_buckets32 (b32, 0, 5, 9, 0.5), ==, 0);
  /* Buckets holding fewer values than the count (saturated): the largest. */
  g_assert_cmpint (js_percentile_of_buckets32 (b32, count * 2, 1000, 10000000, 0.9), ==, 10000000);
  g_assert_cmpuint (js_percentile_bucket_of_rank32 (b32, count + 1), ==, JS_HISTOGRAM_BUCKETS);
  /* 64-bit buckets near saturation: no overflow in the running sum. */
  memset (b64, 0, JS_HISTOGRAM_BUCKETS * sizeof *b64);
  b64[10] = G_MAXUINT64 - 1;
  b64[20] = G_MAXUINT64 - 1;
  g_assert_cmpuint (js_percentile_bucket_of_rank64 (b64, G_MAXUINT64), ==, 20);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/CommonRules/tier-names", test_tier_names);
  g_test_add_func ("/CommonRules/tier-order", test_tier_order);
  g_test_add_func ("/CommonRules/default-bounds", test_default_bounds);
  g_test_add_func ("/CommonRules/tier-of-stall", test_tier_of_stall);
  g_test_add_func ("/CommonRules/tier-of-frame", test_tier_of_frame);
  g_test_add_func ("/CommonRules/tier-of-episode", test_tier_of_episode);
  g_test_add_func ("/CommonRules/slow-frame", test_slow_frame);
  g_test_add_func ("/CommonRules/percentile-rank", test_percentile_rank);
  g_test_add_func ("/CommonRules/percentile-of-buckets", test_percentile_of_buckets);
  return g_test_run ();
}
