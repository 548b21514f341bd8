/* js-collector.h: the jankscope thread that drains the hooks' ring.
 *
 * Owns the statistics, the event store and the report file. The app's main
 * thread never waits on it: records reach it through a lock-free ring, and
 * the only time anyone waits for it is at exit, bounded by a deadline, for
 * the final report.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-config.h"
#include "js-modules.h"
#include "js-ring.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

typedef struct _JsCollector JsCollector;

/* `report_template` (JANKSCOPE_REPORT) may be NULL (no report); the thread
 * resolves it (js-report-path.h) with `report_owner`, the value of
 * JANKSCOPE_REPORT_OWNER read at start-up (or NULL). Takes nothing over:
 * config and ring must outlive the collector (they live as long as the
 * process). */
JsCollector *js_collector_new (const JsConfig *config, JsRing *ring, const char *report_template,
                               const char *report_owner, const char *mode, gint64 start_ns);

/* Before js_collector_start: take stalls and samples from `watchdog`. */
void js_collector_set_watchdog (JsCollector *c, JsWatchdog *watchdog, JsModules *modules);

/* Starts the thread. */
void js_collector_start (JsCollector *c);

/* Any thread: ends the thread after a last drain and a final report; waits
 * until `deadline_ns` (js_now_ns () clock) at most. FALSE when the report
 * was not finished by then (the journal holds what was written). */
gboolean js_collector_finish (JsCollector *c, gint64 deadline_ns);

/* The report's path, or NULL. */
const char *js_collector_report_path (JsCollector *c);

/* Wake the thread early (ring half full). Lock-free; callable from the main
 * thread's hot path. */
void js_collector_wake (gpointer collector);

G_END_DECLS
