/* js-percentile.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-percentile.h"

#include <math.h>

guint64
js_percentile_rank (guint64 count, double q)
{
  double r;

  if (count == 0)
    return 0;
  if (!(q > 0)) /* also NaN */
    return 1;
  if (q >= 1)
    return count;
  r = ceil (q * (double) count);
  /* (double) count may round up past count: the cast stays in range. */
  if (r >= (double) count)
    return count;
  return MAX ((guint64) r, 1);
}

/* Buckets' sums saturate: ranks never exceed G_MAXUINT64. */
static guint64
add_saturated (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

guint
js_percentile_bucket_of_rank32 (const guint32 *buckets, guint64 rank)
{
  guint64 seen = 0;

  for (guint b = 0; b < JS_HISTOGRAM_BUCKETS; b++)
    {
      seen += buckets[b]; /* at most 689 * 2^32: no overflow */
      if (seen >= rank)
        return b;
    }
  return JS_HISTOGRAM_BUCKETS;
}

guint
js_percentile_bucket_of_rank64 (const guint64 *buckets, guint64 rank)
{
  guint64 seen = 0;

  for (guint b = 0; b < JS_HISTOGRAM_BUCKETS; b++)
    {
      seen = add_saturated (seen, buckets[b]);
      if (seen >= rank)
        return b;
    }
  return JS_HISTOGRAM_BUCKETS;
}

/* The reading of a rank in a bucket (JS_HISTOGRAM_BUCKETS: in none). */
static gint64
read_bucket (gint64 min_ns, gint64 max_ns, guint bucket)
{
  if (bucket >= JS_HISTOGRAM_BUCKETS)
    return max_ns;
  return CLAMP (js_histogram_bucket_mid (bucket), min_ns, max_ns);
}

/* The ranks whose value is known exactly, without a bucket: TRUE and *out. */
static gboolean
read_extreme (guint64 count, gint64 min_ns, gint64 max_ns, guint64 rank, gint64 *out)
{
  if (count == 0)
    *out = 0;
  else if (rank >= count)
    *out = max_ns;
  else if (rank == 1)
    *out = min_ns;
  else
    return FALSE;
  return TRUE;
}

gint64
js_percentile_of_buckets32 (const guint32 *buckets, guint64 count, gint64 min_ns, gint64 max_ns,
                            double q)
{
  guint64 rank = js_percentile_rank (count, q);
  gint64 v;

  if (read_extreme (count, min_ns, max_ns, rank, &v))
    return v;
  return read_bucket (min_ns, max_ns, js_percentile_bucket_of_rank32 (buckets, rank));
}

gint64
js_percentile_of_buckets64 (const guint64 *buckets, guint64 count, gint64 min_ns, gint64 max_ns,
                            double q)
{
  guint64 rank = js_percentile_rank (count, q);
  gint64 v;

  if (read_extreme (count, min_ns, max_ns, rank, &v))
    return v;
  return read_bucket (min_ns, max_ns, js_percentile_bucket_of_rank64 (buckets, rank));
}
