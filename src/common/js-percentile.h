/* js-percentile.h: percentiles, read the same way everywhere.
 *
 * The rank of percentile q of n values is ceil (q * n), at least 1 (the
 * nearest-rank method). From a histogram of the shared layout
 * (js-histogram-layout.h) the smallest and the largest values are known
 * exactly; any other rank reads as its bucket's midpoint, clamped to them:
 * within 1/32 (3.2%) of the exact value.
 *
 * The core reads its histograms (32-bit buckets) for the reports, the reader
 * the reports' and merged ones (64-bit buckets), the window the exact
 * values of its recent frames by the same rank. GLib only; pure, any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-histogram-layout.h"

G_BEGIN_DECLS

/* ceil (q * count) within [1, count] (q clamped to [0, 1], NaN read as 0);
 * 0 when count is 0. */
guint64 js_percentile_rank (guint64 count, double q);

/* The bucket (of JS_HISTOGRAM_BUCKETS) holding the value of `rank`
 * (1..count); JS_HISTOGRAM_BUCKETS when the buckets hold fewer values. */
guint js_percentile_bucket_of_rank32 (const guint32 *buckets, guint64 rank);
guint js_percentile_bucket_of_rank64 (const guint64 *buckets, guint64 rank);

/* Percentile q of `count` values in `buckets`, the smallest min_ns and the
 * largest max_ns: 0 when count is 0; always within [min_ns, max_ns]. A
 * rank past what the buckets hold (saturated buckets) reads as max_ns. */
gint64 js_percentile_of_buckets32 (const guint32 *buckets, guint64 count, gint64 min_ns,
                                   gint64 max_ns, double q);
gint64 js_percentile_of_buckets64 (const guint64 *buckets, guint64 count, gint64 min_ns,
                                   gint64 max_ns, double q);

G_END_DECLS
