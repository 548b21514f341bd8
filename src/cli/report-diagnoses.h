/* report-diagnoses.h: the "Diagnoses" section of "jankscope report": the
 * stall events of an aggregate grouped by the kind of mistake
 * (docs/report-format.md, "Diagnosis"), each with its fix.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"
#include "js-json-writer.h"

G_BEGIN_DECLS

/* Appends the section (nothing when no event has a diagnosis), at most
 * `top` kinds. */
void cli_report_format_diagnoses (const JsrAggregate *agg, guint top, GString *out);
/* The same as the member "diagnoses" of `report --json` (docs/cli-json.md). */
void cli_report_write_diagnoses_json (const JsrAggregate *agg, guint top, JsJsonWriter *w);

G_END_DECLS
