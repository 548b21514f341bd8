/* report-json.h: "jankscope report --json", the report of an aggregate as
 * JSON (docs/cli-json.md, "jankscope report --json")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"

G_BEGIN_DECLS

/* Appends the document (pretty, ending with a line break): the numbers the
 * text report prints, `top` rows a table, signatures in `sort`'s order. */
void cli_report_write_json (const JsrAggregate *agg, JsrAggSort sort, guint top, GString *out);

G_END_DECLS
