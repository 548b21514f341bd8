/* report-diagnoses.h: the "Diagnoses" section of "jankscope report": the
 * stall events of an aggregate grouped by the kind of mistake
 * (docs/report-format.md, "Diagnosis"), each with its fix.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"

G_BEGIN_DECLS

/* Appends the section (nothing when no event has a diagnosis), at most
 * `top` kinds. */
void cli_report_format_diagnoses (const JsrAggregate *agg, guint top, GString *out);

G_END_DECLS
