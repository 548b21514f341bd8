/* js-histogram.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-histogram.h"

#include <math.h>

void
js_histogram_add (JsHistogram *h, gint64 ns)
{
  guint b = js_histogram_bucket_of (MAX (ns, 0));

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
        return CLAMP (js_histogram_bucket_mid (b), h->min_ns, h->max_ns);
    }
  return h->max_ns;
}
