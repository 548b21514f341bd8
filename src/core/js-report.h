/* js-report.h: the JSON report (docs/report-format.md), written with the
 * streaming writer (js-json-writer.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-callback-names.h"
#include "js-config.h"
#include "js-context.h"
#include "js-event-store.h"
#include "js-frame-metrics.h"
#include "js-loop-stats.h"
#include "js-post-sites.h"
#include "js-process-info.h"
#include "js-scrub.h"
#include "js-stall-store.h"
#include "js-watchdog.h"
#include "js-report-writer.h"
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define JS_REPORT_FORMAT "jankscope-report"
#define JS_REPORT_VERSION 1
#define JS_REPORT_MAX_SOURCES 200

typedef struct
{
  const JsConfig *config;
  const JsProcessInfo *process;
  const char *mode; /* "preload", "gtk-module" */
  gint64 start_ns;
  gint64 now_ns;
  gboolean final;
  JsLoopStats *loop_stats;
  const JsEventStore *store;
  const JsFrameMetrics *frames;
  JsCallbackNames *callback_names;
  JsPostSites *posts; /* posting sites of slow dispatches, or NULL */
  guint64 records_dropped;
  guint poll_reinstalls;
  guint sources_not_timed; /* js_source_swap_refused () */
  JsStallStore *stalls;    /* NULL without a watchdog */
  JsWatchdog *watchdog;
  JsonNode *previous_run;  /* a previous run's unfinished hang, or NULL */
  gboolean live;           /* a live snapshot: add the `live` member */
  gint64 collector_cpu_ns; /* the collector thread's CPU time */
  JsContext *context;      /* scenes, marks, system state (js-context.h) */
  const JsScrub *scrub;    /* JANKSCOPE_SCRUB: applied to the whole report; NULL: off */
  const char *journal_run; /* the report on disk: its journal's run id (js-report-writer.h) */
  guint64 journal_seq;     /* and the last journal line it holds */
  const JsReportWriterStats *writer_stats; /* what writing it has cost; NULL: no file */
} JsReportInput;

/* The report as a JSON string (never NULL): the head pretty-printed (not
 * for `live`), then the events, one per line. */
char *js_report_build (const JsReportInput *in, gsize *length);

/* One event as one line of JSON (scrubbed when asked). Keeps its text up to
 * its context with `e` for the next build (js_event_keep_body). */
GBytes *js_report_event_json (const JsReportInput *in, JsEvent *e);

/* Is a stall under way past the first watchdog tier (an ongoing "hang")? */
gboolean js_report_has_ongoing_hang (const JsReportInput *in);

/* That hang as one line of JSON; `with_process`: with {"pid", "exe"} in
 * "process" (for the journal). */
char *js_report_ongoing_hang_json (const JsReportInput *in, gboolean with_process, gsize *length);

/* How far that hang has come, as the journal's `hang_progress` line says it
 * between two whole hang lines: {"start_ns", "end_ns", "duration_ns",
 * "max_part_ns", "tier"} (docs/report-format.md, "The journal"). */
char *js_report_hang_progress_json (const JsReportInput *in, gsize *length);

/* The report's top-level members but the events and the document's
 * identity (format, version, generator, final, journal), as one JSON
 * object: a journal "set" line. */
char *js_report_members_json (const JsReportInput *in, gsize *length);

G_END_DECLS
