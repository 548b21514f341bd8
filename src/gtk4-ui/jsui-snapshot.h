/* jsui-snapshot.h: one parsed live snapshot (src/core/js-live.h): the report
 * document (src/cli/report-reader.h) plus its `live` member.
 *
 * Parsed off the main thread (jsui_snapshot_parse may run in any thread);
 * immutable afterwards and shared by reference between the models.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "report-reader.h"

G_BEGIN_DECLS

/* One recent frame of live.frames. */
typedef struct
{
  gint64 end_ns;
  gint64 duration_ns;
  gint64 budget_ns; /* <= 0: unknown */
  gint64 event_id;  /* the jank event a slow frame overlaps, 0: none */
  guint window;
} JsuiFrame;

typedef struct
{
  CliReport *report; /* the report members, with every event's detail */
  GArray *frames;    /* of JsuiFrame, oldest first (empty without `live`) */
  gboolean has_live;
  gint64 now_ns; /* live.now_ns, 0: unknown */
  /* live.overhead: jankscope's own CPU time (collector, watchdog, signal
   * handler), and as a % of the monitored time; < 0 when unknown */
  double overhead_cpu_pct;
  gint64 overhead_cpu_ns;
  gint64 stall_ns; /* live.stuck_ns: the main loop out of poll this long */
} JsuiSnapshot;

JsuiSnapshot *jsui_snapshot_parse (const char *data, gsize length, GError **error);
JsuiSnapshot *jsui_snapshot_ref (JsuiSnapshot *snapshot);
void jsui_snapshot_unref (JsuiSnapshot *snapshot);

/* The event with this id, NULL if none. */
const CliReportEvent *jsui_snapshot_find_event (const JsuiSnapshot *snapshot, gint64 id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsuiSnapshot, jsui_snapshot_unref)

G_END_DECLS
