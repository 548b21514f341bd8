/* jsui-snapshot.h: one parsed live snapshot (src/core/js-live.h): the report
 * document (src/reader/jsr-report.h) plus its `live` member.
 *
 * Parsed off the main thread (jsui_snapshot_parse may run in any thread);
 * immutable afterwards and shared by reference between the models.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"
#include "jsui-stack-tree.h"

G_BEGIN_DECLS

/* Frame phases, as live.frames lists them. */
typedef enum
{
  JSUI_PHASE_FLUSH_EVENTS,
  JSUI_PHASE_BEFORE_PAINT,
  JSUI_PHASE_UPDATE,
  JSUI_PHASE_LAYOUT,
  JSUI_PHASE_PAINT,
  JSUI_PHASE_AFTER_PAINT,
  JSUI_N_PHASES
} JsuiPhase;

/* live.frames flags */
enum
{
  JSUI_FRAME_SLOW = 1 << 0,
  JSUI_FRAME_FROZEN = 1 << 1,
  JSUI_FRAME_ANIMATING = 1 << 2,
};

#define JSUI_FRAME_MAX_DISPATCHES 3

/* A dispatch inside a frame's frame time (live.frames[i][6]). */
typedef struct
{
  const char *source;   /* owned by the snapshot (strings); NULL: unnamed */
  const char *callback; /* the same; NULL: unknown */
  gint64 duration_ns;   /* its own time inside the frame time */
  gint64 offset_ns;     /* from the frame time's start */
} JsuiFrameDispatch;

/* One recent frame of live.frames. */
typedef struct
{
  gint64 end_ns;
  gint64 duration_ns;
  gint64 budget_ns; /* <= 0: unknown */
  gint64 event_id;  /* the jank event a slow frame overlaps, 0: none */
  guint window;
  guint flags;                    /* JSUI_FRAME_* */
  gint64 phase_ns[JSUI_N_PHASES]; /* 0: did not run */
  guint n_dispatches;
  JsuiFrameDispatch dispatches[JSUI_FRAME_MAX_DISPATCHES]; /* longest first */
} JsuiFrame;

typedef struct
{
  JsrReport *report; /* the report members, with every event's detail */
  GArray *frames;    /* of JsuiFrame, oldest first (empty without `live`) */
  gboolean has_live;
  gint64 now_ns; /* live.now_ns, 0: unknown */
  /* live.overhead: jankscope's own CPU time (collector, watchdog, signal
   * handler), and as a % of the monitored time; < 0 when unknown */
  double overhead_cpu_pct;
  gint64 overhead_cpu_ns;
  gint64 stall_ns;    /* live.stuck_ns: the main loop out of poll this long */
  GPtrArray *strings; /* live.strings (the frames' dispatches point into them) */
  /* Each event's aggregated stacks, built with the snapshot (off the main
   * thread), parallel to report->events; NULL for an event without stacks. */
  GPtrArray *trees_top_down;  /* of JsuiStackTree */
  GPtrArray *trees_bottom_up; /* of JsuiStackTree */
} JsuiSnapshot;

JsuiSnapshot *jsui_snapshot_parse (const char *data, gsize length, GError **error);
JsuiSnapshot *jsui_snapshot_ref (JsuiSnapshot *snapshot);
void jsui_snapshot_unref (JsuiSnapshot *snapshot);

/* The frame time's start of a frame. */
static inline gint64
jsui_frame_start_ns (const JsuiFrame *frame)
{
  return frame->end_ns - frame->duration_ns;
}

/* The name of a phase as the core spells it ("flush-events", ...). */
const char *jsui_phase_name (JsuiPhase phase);

/* The aggregated stacks of an event of this snapshot (top-down, or
 * bottom-up: callers), NULL without stacks. Borrowed. */
JsuiStackTree *jsui_snapshot_get_tree (const JsuiSnapshot *snapshot, const JsrReportEvent *event,
                                       gboolean bottom_up);

/* The frames whose frame time ends within [from_ns, to_ns]: their indices,
 * *first..*last; FALSE when none. Frames are ordered by end. */
gboolean jsui_snapshot_frames_between (const JsuiSnapshot *snapshot, gint64 from_ns, gint64 to_ns,
                                       guint *first, guint *last);

/* The event with this id, NULL if none. */
const JsrReportEvent *jsui_snapshot_find_event (const JsuiSnapshot *snapshot, gint64 id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsuiSnapshot, jsui_snapshot_unref)

G_END_DECLS
