/* report-groups.h: the tables of "jankscope report" by tier, class, source
 * and scene: an aggregate's groups summed into rows, sorted as shown. The
 * text (cmd-report.c) and the JSON (report-json.c) print the same rows.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"

G_BEGIN_DECLS

typedef struct
{
  char *label;    /* the first column: a tier, a class ("wait (lock)"), a source, a scene */
  char *callback; /* sources: the callback; else NULL */
  JsrAggStats stats;
} CliReportRow;

typedef struct
{
  GPtrArray *tiers; /* of CliReportRow, each array owning its rows */
  GPtrArray *classes;
  GPtrArray *sources;
  GPtrArray *scenes;
  GPtrArray *ordered_tiers; /* the tiers' rows mildest first (does not own them) */
  gboolean any_scene;       /* an app labelled scenes: the scene table is shown */
} CliReportGroups;

/* Tiers mildest first; classes, sources and scenes by blocked time. */
void cli_report_groups_build (const JsrAggregate *agg, CliReportGroups *groups);
void cli_report_groups_clear (CliReportGroups *groups);

G_END_DECLS
