/* jsr-histogram.h: the core's log-linear histogram, on the CLI side, for merging
 *
 * The layout of src/core/js-histogram.c and of the reports' "histogram"
 * members (docs/report-format.md, "Histograms"): bucket 0 below 64 ns, then
 * 16 linear sub-buckets per power of two up to 2^43 ns, the last bucket
 * holding everything above. Counts are 64-bit here (a merge of many runs
 * overflows the core's 32), and adding two histograms is adding their
 * buckets: the histogram of many runs is exactly the one a single run with
 * all their values would have had.
 *
 * Reports without a histogram (older ones) can still be folded in: their
 * percentiles are turned into a histogram that reads back the same
 * percentiles (jsr_histogram_add_percentiles), and those values are counted
 * in `approximate` so that every percentile read from it can say so.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-histogram-layout.h" /* src/common: the layout, shared with the core */
#include "jsr-json-read.h"
#include "jsr-report.h"

G_BEGIN_DECLS

#define JSR_HISTOGRAM_SUB_BITS JS_HISTOGRAM_SUB_BITS
#define JSR_HISTOGRAM_MIN_EXP JS_HISTOGRAM_MIN_EXP
#define JSR_HISTOGRAM_MAX_EXP JS_HISTOGRAM_MAX_EXP
#define JSR_HISTOGRAM_BUCKETS JS_HISTOGRAM_BUCKETS

typedef struct
{
  guint64 count;       /* values (saturates at G_MAXINT64, as every bucket) */
  guint64 approximate; /* of them, values made up from percentiles */
  gint64 min_ns;       /* meaningful when count > 0 */
  gint64 max_ns;
  guint64 buckets[JSR_HISTOGRAM_BUCKETS];
} JsrHistogram;

/* Buckets: js_histogram_bucket_of/_low/_high/_mid (js-histogram-layout.h). */

void jsr_histogram_add_values (JsrHistogram *h, gint64 ns, guint64 count);
void jsr_histogram_add_report (JsrHistogram *h, const JsrReportHistogram *report);
/* `count` values whose percentiles (qs[i], increasing) are values[i]
 * (JSR_UNKNOWN entries skipped); `max_ns` the largest (JSR_UNKNOWN: the
 * last percentile). Counted as approximate. */
void jsr_histogram_add_percentiles (JsrHistogram *h, guint64 count, const double *qs,
                                    const gint64 *values, guint n, gint64 max_ns);
void jsr_histogram_merge (JsrHistogram *h, const JsrHistogram *other);

/* The core's reading (src/common/js-percentile.h): the rank's bucket
 * midpoint, clamped to [min, max]; the smallest and largest values exactly.
 * 0 when empty. Identical to what one report holding all the values would
 * say. */
gint64 jsr_histogram_percentile (const JsrHistogram *h, double q);
/* The bucket holding the value of rank `rank` (1..count). */
guint jsr_histogram_bucket_of_rank (const JsrHistogram *h, guint64 rank);
/* The value at a (fractional) rank, interpolated linearly inside its bucket
 * and clamped to [min, max]: it follows small shifts of a distribution that
 * the midpoint would hide or exaggerate (jankscope diff). */
double jsr_histogram_value_at_rank (const JsrHistogram *h, double rank);

/* The member "histogram" of `parent` (a report's summary.iteration_busy or
 * summary.frames, or an aggregate's): *out stays NULL when it is absent or
 * of another layout (the percentiles are still there); FALSE with
 * JSR_REPORT_ERROR_INVALID or JSR_JSON_ERROR_INVALID when it is malformed. */
gboolean jsr_histogram_read_member (const JsrJsonNode *parent, const JsrJsonPath *parent_path,
                                    JsrReportHistogram **out, GError **error);
void jsr_report_histogram_free (JsrReportHistogram *histogram);

G_END_DECLS
