/* js-report-writer.h: the report on disk, kept current at a cost that does
 * not grow with the run.
 *
 * Two files (docs/report-format.md, "The report on disk"):
 *  - PATH, the whole report, rewritten atomically (js-report-file.h): at
 *    the start, at exit (`final`), and when the journal has grown as large
 *    as the report itself (so the bytes rewritten stay proportional to the
 *    bytes journaled: a constant cost per event, not one that grows with
 *    the number of events kept);
 *  - PATH.journal, JSON lines appended while the app runs: an event that
 *    changed, the hang under way, the summary. Each line carries the run id
 *    and a sequence number; the report says up to which number it holds
 *    everything, so a reader folds in the newer lines of the same run
 *    (`jankscope` does; the format says how). A clean exit writes the final
 *    report and removes the journal.
 * After a kill, PATH and PATH.journal together hold what the app's
 * jankscope knew up to its last tick.
 *
 * A run killed during a hang leaves that hang as the last "hang" line of
 * its journal; the next run on the same path reads only the journal's tail
 * (bounded) to find it, never the old report.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define JS_JOURNAL_SUFFIX ".journal"
/* The previous run's hang is searched in this much of its journal's end. */
#define JS_JOURNAL_TAIL_MAX (2 * 1024 * 1024)
/* The journal is folded into a new report when it reaches the report's
 * size, or this, whichever is larger. */
#define JS_JOURNAL_MIN_COMPACT (1024 * 1024)

typedef struct _JsReportWriter JsReportWriter;

/* NULL, after one warning, when `path` cannot hold a report (a device, a
 * FIFO, a directory, a symbolic link...). `run_id` names this run in the
 * report and its journal lines. */
JsReportWriter *js_report_writer_new (const char *path, const char *run_id);
void js_report_writer_free (JsReportWriter *writer);

const char *js_report_writer_path (JsReportWriter *writer);
const char *js_report_writer_run_id (JsReportWriter *writer);

/* The unfinished hang a previous run on this path was killed in, as
 * {"pid", "exe", "hang": event}, or NULL. Reads at most
 * JS_JOURNAL_TAIL_MAX bytes of the old journal. Call before the first
 * snapshot (which starts a new journal). */
JsonNode *js_report_writer_find_previous_hang (JsReportWriter *writer);

/* The sequence number a report written now holds everything up to. */
guint64 js_report_writer_seq (JsReportWriter *writer);

/* Journal lines, buffered until js_report_writer_flush. `json` is one JSON
 * value without a newline; NULL for `hang` means the hang ended. */
void js_report_writer_add_event (JsReportWriter *writer, GBytes *json);
void js_report_writer_add_hang (JsReportWriter *writer, const char *json, gsize length);
void js_report_writer_add_hang_progress (JsReportWriter *writer, const char *json, gsize length);
void js_report_writer_add_members (JsReportWriter *writer, const char *json, gsize length);
void js_report_writer_add_final (JsReportWriter *writer);

/* Appends the buffered lines to the journal in one write. */
gboolean js_report_writer_flush (JsReportWriter *writer);

/* Time to write the whole report again (the journal is as large as it). */
gboolean js_report_writer_wants_snapshot (JsReportWriter *writer);

/* Writes the whole report (made with js_report_writer_seq ()), then starts
 * the journal afresh; `final`: synced, and the journal removed. */
gboolean js_report_writer_snapshot (JsReportWriter *writer, const char *json, gsize length,
                                    gboolean final);

typedef struct
{
  guint64 snapshots;     /* whole reports written */
  guint64 journal_lines; /* lines appended */
  guint64 bytes_written; /* both */
} JsReportWriterStats;

/* What writing the report has cost so far (reported in the report itself). */
void js_report_writer_get_stats (JsReportWriter *writer, JsReportWriterStats *stats);

G_END_DECLS
