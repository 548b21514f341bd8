/* js-histogram.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-histogram.h"
#include "js-percentile.h"

gint64
js_histogram_percentile (const JsHistogram *h, double q)
{
  return js_percentile_of_buckets32 (h->buckets, h->count, h->min_ns, h->max_ns, q);
}
