/* js-histogram.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-histogram.h"
#include "js-percentile.h"

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
  return js_percentile_of_buckets32 (h->buckets, h->count, h->min_ns, h->max_ns, q);
}
