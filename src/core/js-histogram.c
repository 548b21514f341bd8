/* js-histogram.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-histogram.h"

#include <math.h>

#define SUB (1 << JS_HISTOGRAM_SUB_BITS)

static guint
bucket_of (gint64 ns)
{
  int e;
  guint sub;

  if (ns < ((gint64) 1 << JS_HISTOGRAM_MIN_EXP))
    return 0;
  e = 63 - __builtin_clzll ((guint64) ns);
  if (e >= JS_HISTOGRAM_MAX_EXP)
    return JS_HISTOGRAM_BUCKETS - 1;
  sub = (guint) ((ns >> (e - JS_HISTOGRAM_SUB_BITS)) & (SUB - 1));
  return 1 + (guint) (e - JS_HISTOGRAM_MIN_EXP) * SUB + sub;
}

static gint64
bucket_mid (guint b)
{
  int e;
  guint sub;
  gint64 lo, width;

  if (b == 0)
    return ((gint64) 1 << JS_HISTOGRAM_MIN_EXP) / 2;
  e = (int) ((b - 1) / SUB) + JS_HISTOGRAM_MIN_EXP;
  sub = (b - 1) % SUB;
  width = (gint64) 1 << (e - JS_HISTOGRAM_SUB_BITS);
  lo = ((gint64) SUB + sub) * width;
  return lo + width / 2;
}

void
js_histogram_add (JsHistogram *h, gint64 ns)
{
  guint b = bucket_of (MAX (ns, 0));

  if (h->buckets[b] < G_MAXUINT32)
    h->buckets[b]++;
  h->min_ns = h->count == 0 ? ns : MIN (h->min_ns, ns);
  h->max_ns = MAX (h->max_ns, ns);
  h->count++;
}

gint64
js_histogram_percentile (const JsHistogram *h, double q)
{
  guint64 rank, seen = 0;

  if (h->count == 0)
    return 0;
  rank = (guint64) ceil (CLAMP (q, 0.0, 1.0) * (double) h->count);
  rank = MAX (rank, 1);
  /* The smallest and largest values are known exactly. */
  if (rank >= h->count)
    return h->max_ns;
  if (rank == 1)
    return h->min_ns;
  for (guint b = 0; b < JS_HISTOGRAM_BUCKETS; b++)
    {
      seen += h->buckets[b];
      if (seen >= rank)
        return CLAMP (bucket_mid (b), h->min_ns, h->max_ns);
    }
  return h->max_ns;
}
