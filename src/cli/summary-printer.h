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

G_END_DECLS
