/* js-report-diagnosis.h: the `diagnosis` member of a part or an event
 * (docs/report-format.md, "Diagnosis"): the named anti-pattern that explains
 * its time, by common/js-diagnosis.h over its share of the event's profile.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-json-writer.h"
#include "js-attribution.h"
#include "js-stall-analysis.h"

G_BEGIN_DECLS

/* The rules each node's function matches (js_diagnosis_match), once per
 * distinct function: what every part of the event shares. g_free it. */
guint64 *js_report_diagnosis_masks (const JsProfile *profile);

/* Adds `diagnosis` (an object or null) for the time `ns` holds at each node
 * of `profile` (NULL: the profile's own), of which `attributed_ns` is the
 * total, with the blocked time of `stats` and the culprit of `cause`.
 * `frame`: a slow frame. `masks`: js_report_diagnosis_masks of `profile`. */
void js_report_add_diagnosis (JsJsonWriter *b, const JsProfile *profile, const guint64 *masks,
                              const gint64 *ns, const JsSampleStats *stats, gint64 attributed_ns,
                              const JsCause *cause, gboolean frame);

G_END_DECLS
