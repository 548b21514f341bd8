/* js-report-context.h: the report's context members (docs/report-format.md,
 * "Context, scenes and marks"): per event `scene`, `marks`, `context`; at
 * the top level `install_id`, `install_share`, `scrubbed`, `startup`,
 * `marks` and `annotations`.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-json-writer.h"
#include "js-context.h"

G_BEGIN_DECLS

/* Adds scene, marks, marks_omitted and context to the event object being
 * built. */
void js_report_add_event_context (JsJsonWriter *b, JsContext *c, const JsEvent *e);

/* Adds the top-level members. */
void js_report_add_context (JsJsonWriter *b, JsContext *c);

G_END_DECLS
