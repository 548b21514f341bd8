/* js-histogram.h: a log-linear histogram of durations for percentiles.
 *
 * 16 linear sub-buckets per power of two from 64 ns to ~2.4 h: a percentile
 * read back as its bucket's midpoint (clamped to the smallest and largest
 * value seen) is within 1/32 (3.2%) of the exact value. Fixed size, no
 * allocation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-histogram-layout.h" /* src/common: the layout, shared with the CLI */

G_BEGIN_DECLS

typedef struct
{
  guint64 count;
  gint64 min_ns;
  gint64 max_ns;
  guint32 buckets[JS_HISTOGRAM_BUCKETS];
} JsHistogram;

/* Inline: it runs twice per main-loop iteration on the collector. */
static inline void
js_histogram_add (JsHistogram *h, gint64 ns)
{
  guint b = js_histogram_bucket_of (ns);

  if (h->buckets[b] < G_MAXUINT32)
    h->buckets[b]++;
  h->min_ns = h->count == 0 ? ns : MIN (h->min_ns, ns);
  h->max_ns = MAX (h->max_ns, ns);
  h->count++;
}

/* q in [0, 1]; 0 when empty. Always within [min, max] of the values added.
 * Read as everywhere else (src/common/js-percentile.h). */
gint64 js_histogram_percentile (const JsHistogram *h, double q);

G_END_DECLS
