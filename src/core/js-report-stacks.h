/* js-report-stacks.h: the report's stack members (docs/report-format.md,
 * "Stacks and classification"): per event cpu_ns, class, culprit, stacks and
 * the sample timeline; the ongoing hang; the sampler's summary.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "js-config.h"
#include "js-stall-store.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

/* Most stacks listed per event (the rest are counted in stacks_omitted). */
#define JS_REPORT_MAX_STACKS 16
/* Most timeline entries per event. */
#define JS_REPORT_MAX_TIMELINE 256

/* Adds cpu_ns, off_cpu_ns, watched_ns, class, wait, culprit, stacks,
 * samples and watchdog to the event object being built. `stalls` may be
 * NULL (then the members are null or empty). */
void js_report_add_event_stacks (JsonBuilder *b, const JsConfig *config, JsStallStore *store,
                                 GPtrArray *stalls, gint64 start_ns, gint64 end_ns,
                                 gint64 duration_ns);

/* The stall under way as an event {"type": "hang", "ongoing": true, ...}. */
void js_report_add_ongoing_hang (JsonBuilder *b, const JsConfig *config, JsStallStore *store,
                                 gint64 now_ns);

/* A frame object: function, module, file, line, offset, build_id (and
 * inlined: true). `m`: its module, NULL if none. */
void js_report_add_frame (JsonBuilder *b, const JsFrame *f, const JsModule *m);

/* summary.sampler. */
void js_report_add_sampler_summary (JsonBuilder *b, JsStallStore *store, JsWatchdog *watchdog);

G_END_DECLS
