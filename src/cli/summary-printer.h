/* summary-printer.h: the human-readable summary of a report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

/* How many rows each "top" table shows. */
#define CLI_SUMMARY_TOP_N 5

void cli_summary_format (const JsrReport *report, GString *out);
char *cli_summary_format_duration (gint64 ns);

/* The orders of the summary's tables, shared with its JSON (summary-json.c);
 * the arrays do not own their elements. The sources by total time (or by
 * longest dispatch); the events but the one under way, longest first. */
GPtrArray *cli_summary_sorted_sources (const JsrReport *report, gboolean by_longest);
GPtrArray *cli_summary_sorted_events (const JsrReport *report);

G_END_DECLS
