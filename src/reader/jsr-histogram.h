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
 * percentiles (cli_histogram_add_percentiles), and those values are counted
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

#define CLI_HISTOGRAM_SUB_BITS JS_HISTOGRAM_SUB_BITS
#define CLI_HISTOGRAM_MIN_EXP JS_HISTOGRAM_MIN_EXP
#define CLI_HISTOGRAM_MAX_EXP JS_HISTOGRAM_MAX_EXP
#define CLI_HISTOGRAM_BUCKETS JS_HISTOGRAM_BUCKETS

typedef struct
{
  guint64 count;       /* values (saturates at G_MAXINT64, as every bucket) */
  guint64 approximate; /* of them, values made up from percentiles */
  gint64 min_ns;       /* meaningful when count > 0 */
  gint64 max_ns;
  guint64 buckets[CLI_HISTOGRAM_BUCKETS];
} CliHistogram;

/* Buckets: js_histogram_bucket_of/_low/_high/_mid (js-histogram-layout.h). */

void     cli_histogram_add_values      (CliHistogram       *h,
                                        gint64              ns,
                                        guint64             count);
void     cli_histogram_add_report      (CliHistogram       *h,
                                        const CliReportHistogram *report);
/* `count` values whose percentiles (qs[i], increasing) are values[i]
 * (CLI_UNKNOWN entries skipped); `max_ns` the largest (CLI_UNKNOWN: the
 * last percentile). Counted as approximate. */
void     cli_histogram_add_percentiles (CliHistogram       *h,
                                        guint64             count,
                                        const double       *qs,
                                        const gint64       *values,
                                        guint               n,
                                        gint64              max_ns);
void     cli_histogram_merge           (CliHistogram       *h,
                                        const CliHistogram *other);

/* The core's reading (js_histogram_percentile): the rank's bucket midpoint,
 * clamped to [min, max]; the smallest and largest values exactly. 0 when
 * empty. Identical to what one report holding all the values would say. */
gint64   cli_histogram_percentile      (const CliHistogram *h,
                                        double              q);
/* The bucket holding the value of rank `rank` (1..count). */
guint    cli_histogram_bucket_of_rank  (const CliHistogram *h,
                                        guint64             rank);
/* The value at a (fractional) rank, interpolated linearly inside its bucket
 * and clamped to [min, max]: it follows small shifts of a distribution that
 * the midpoint would hide or exaggerate (jankscope diff). */
double   cli_histogram_value_at_rank   (const CliHistogram *h,
                                        double              rank);

/* The member "histogram" of `parent` (a report's summary.iteration_busy or
 * summary.frames, or an aggregate's): *out stays NULL when it is absent or
 * of another layout (the percentiles are still there); FALSE with
 * CLI_REPORT_ERROR_INVALID when it is malformed. */
gboolean cli_histogram_read_member     (const CliJsonNode   *parent,
                                        const CliJsonPath   *parent_path,
                                        CliReportHistogram **out,
                                        GError             **error);
void     cli_report_histogram_free     (CliReportHistogram  *histogram);

G_END_DECLS
