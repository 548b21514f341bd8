/* summary-json.h: "jankscope summary --json", the summary of a report as
 * JSON (docs/cli-json.md, "jankscope summary --json")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

/* Appends the document (pretty, ending with a line break): the numbers
 * cli_summary_format prints, as numbers (times in ns), in its order. */
/* @children (of CliChildReport, child-reports.h; may be NULL) and
 * @more_children: the run's other reports, listed as "children". */
void cli_summary_write_json (const JsrReport *report, const GPtrArray *children,
                             guint more_children, GString *out);

G_END_DECLS
