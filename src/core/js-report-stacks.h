/* js-report-stacks.h: the report's stack members (docs/report-format.md,
 * "Stacks and classification"): per event its profile, class, culprit,
 * stacks and sample timeline, per part its own cause; the ongoing hang;
 * the sampler's summary.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-json-writer.h"
#include "js-config.h"
#include "js-post-sites.h"
#include "js-stall-store.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

/* Most stacks listed per event (the rest are counted in stacks_omitted). */
#define JS_REPORT_MAX_STACKS 16
/* Most stacks listed per part. */
#define JS_REPORT_MAX_PART_STACKS 3

/* An event's attribution as of now: what was folded in, plus the stalls
 * it still holds (folded into a copy). */
typedef struct _JsReportStacks JsReportStacks;

/* `store` may be NULL (no watchdog): then the members are null or empty. */
JsReportStacks *js_report_stacks_new (JsStallStore *store, const JsEvent *e);
void js_report_stacks_free (JsReportStacks *rs);

/* Adds cpu_ns, off_cpu_ns, watched_ns, class, wait, culprit, diagnosis,
 * profile, stacks, samples, watchdog... to the event object being built.
 * `frame`: a frame event (its generic diagnosis is a slow frame). */
void js_report_stacks_add_event (JsJsonWriter *b, const JsConfig *config, JsReportStacks *rs,
                                 gint64 duration_ns, gboolean frame);

/* Adds part `index`'s own cause to the part object being built. */
void js_report_stacks_add_part (JsJsonWriter *b, JsReportStacks *rs, guint index,
                                gint64 duration_ns, gboolean frame);

/* The stall under way: its end so far (*end_ns), duration (*duration_ns)
 * and tier (negative: below the first), as its hang event and the
 * journal's progress line give them. */
JsTier js_report_ongoing_hang_span (const JsConfig *config, const JsStall *s, gint64 *end_ns,
                                    gint64 *duration_ns);

/* The stall under way as an event {"type": "hang", "ongoing": true, ...},
 * with the posting site (in `sites`, or NULL) of the dispatch it is stuck in:
 * its members, in the object the caller opened (and may add to). */
void js_report_add_ongoing_hang_members (JsJsonWriter *b, const JsConfig *config,
                                         JsStallStore *store, JsPostSites *sites, gint64 now_ns);

/* A frame object: function, module, file, line, offset, build_id (and
 * inlined: true). `m`: its module, NULL if none. */
void js_report_add_frame (JsJsonWriter *b, const JsFrame *f, const JsModule *m);

/* The report's `modules` member: each module an address was resolved in
 * (those the frames and callbacks name), by path and build-id, with where its
 * code is (text_vaddr, text_offset), in the order they were first loaded; one
 * entry per (path, build-id). */
void js_report_add_modules (JsJsonWriter *b, JsModules *modules);

/* The stall's attribution, over its whole span as if it were one part
 * (the ongoing hang, the live view's hang digest). */
JsAttribution *js_report_stall_attribution (JsStallStore *store, const JsStall *stall);

/* summary.sampler. */
void js_report_add_sampler_summary (JsJsonWriter *b, JsStallStore *store, JsWatchdog *watchdog);

G_END_DECLS
