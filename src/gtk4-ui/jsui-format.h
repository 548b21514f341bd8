/* jsui-format.h: numbers and tiers as the window shows them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

/* The tiers of frames and events, mildest first (docs/report-format.md). */
typedef enum
{
  JSUI_TIER_OK,         /* a frame on time */
  JSUI_TIER_LIGHT,      /* a slow frame under 50 ms */
  JSUI_TIER_NOTICEABLE, /* 50-200 ms */
  JSUI_TIER_SEVERE,     /* 200-700 ms */
  JSUI_TIER_FROZEN,     /* over 700 ms */
  JSUI_TIER_HANG,       /* 3 s and more, or a stall under way */
  JSUI_N_TIERS,
} JsuiTier;

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

/* A frame's tier: OK within 1.5 budgets (budget <= 0: 16.67 ms). */
JsuiTier jsui_frame_tier (gint64 duration_ns, gint64 budget_ns);
/* The tier of a report's tier name ("light", "noticeable", ...). */
JsuiTier jsui_tier_from_name (const char *name);
/* "ok", "light", ... : the CSS class of the tier (also its report name). */
const char *jsui_tier_css_name (JsuiTier tier);
/* The translated name, for the jank list. */
const char *jsui_tier_label (JsuiTier tier);

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

G_END_DECLS
