/* jsui-format.h: numbers and tiers as the window shows them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-tiers.h" /* src/common, through the reader: the tiers */
#include "jsr-report.h"

G_BEGIN_DECLS

/* The largest duration a snapshot keeps (the parser clamps to it, 2^46 ns,
 * about 19.5 hours): sums and doublings of a few of them cannot overflow. */
#define JSUI_MAX_NS (G_GINT64_CONSTANT (1) << 46)

/* a + b for counts and durations (>= 0) from a snapshot that may be
 * hostile: saturates instead of overflowing. */
static inline gint64
jsui_sat_add (gint64 a, gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

/* "16.7 ms", "1.25 s"; "–" when ns < 0 (unknown). */
char *jsui_format_duration (gint64 ns);
/* "2.5 %"; "–" when unknown (< 0). */
char *jsui_format_percent (double fraction);

/* A frame as the window shows it, judged by the rules the app ran with (the
 * report's or snapshot's config: JANKSCOPE_SLOW_FRAME_PCT and the tiers'
 * bounds; `config` NULL: the defaults), as the core judged it
 * (src/common/js-slow-frame.h, js-tiers.h): FALSE when it is on time; else
 * TRUE and, when `tier` is not NULL, its tier: the core's frame tier, or
 * hang for a frame as long as a hang. Budget <= 0: unknown (60 Hz). */
gboolean jsui_frame_is_slow (const JsrReport *config, gint64 duration_ns, gint64 budget_ns,
                             JsTier *tier);
/* Is a frame frozen, by the same rules? */
gboolean jsui_frame_is_frozen (const JsrReport *config, gint64 duration_ns);

/* The CSS class of a tier, also its report name ("light", "noticeable",
 * ...); JSUI_ON_TIME for anything else. */
#define JSUI_ON_TIME "ok"
const char *jsui_tier_css_name (JsTier tier);
/* The translated name, for the jank list. */
const char *jsui_tier_label (JsTier tier);

/* Report names as labels (translated; unknown names as they are; NULL: NULL):
 * an event's type, its class (compute, wait, mixed) and a wait kind. */
const char *jsui_event_type_label (const char *type);
const char *jsui_event_class_label (const char *klass);
const char *jsui_wait_kind_label (const char *wait);

/* "compute", "wait / sleep"; NULL when unknown. */
char *jsui_format_class (const char *klass, const char *wait);
/* "function (file:line)", "module" without a function; "callback →
 * function" when the culprit is not the app's own code and the report
 * names the dispatched callback (docs/report-format.md, "Culprit"); NULL
 * without a culprit. */
char *jsui_format_culprit (const JsrReportCulprit *culprit);

/* `text` (taken; may be NULL) followed by "(posted from FUNCTION)" when the
 * dispatch's posting site is known (docs/report-format.md, "Posting sites"). */
char *jsui_format_posted_from (char *text, const JsrPosting *posted_from);

/* A diagnosis's title (docs/report-format.md, "Diagnosis"), translated,
 * and its fix ("Title: the fix"), for a tooltip; NULL without one. */
char *jsui_format_diagnosis (const JsrReportDiagnosis *diagnosis);
char *jsui_format_diagnosis_fix (const JsrReportDiagnosis *diagnosis);

G_END_DECLS
