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
void cli_summary_write_json (const JsrReport *report, GString *out);

G_END_DECLS
