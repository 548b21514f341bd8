/* jsui-timeline.h: the frame timeline, one bar per recent frame (its
 * height the frame time), the budget line, tier colours. Put it in a
 * GtkScrolledWindow: its natural width grows with the frames.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_TIMELINE (jsui_timeline_get_type ())
G_DECLARE_FINAL_TYPE (JsuiTimeline, jsui_timeline, JSUI, TIMELINE, GtkWidget)

/* Width of one bar and the gap after it, in pixels. */
#define JSUI_TIMELINE_BAR 5
#define JSUI_TIMELINE_STEP (JSUI_TIMELINE_BAR + 1)

GtkWidget *jsui_timeline_new (void);
/* The frames of a snapshot (a reference is kept), NULL: none. */
void jsui_timeline_set_snapshot (JsuiTimeline *self, JsuiSnapshot *snapshot);
guint jsui_timeline_get_n_frames (JsuiTimeline *self);
/* Highlights the frames of this event (0: none). */
void jsui_timeline_set_selected_event (JsuiTimeline *self, gint64 event_id);
/* The frame index at x (widget coordinates), -1 if none. */
int jsui_timeline_frame_at (JsuiTimeline *self, double x);
/* Selects the frame at x: emits ::event-activated when it belongs to a
 * jank event (what a click does). Returns the event id, 0 if none. */
gint64 jsui_timeline_activate_at (JsuiTimeline *self, double x);

G_END_DECLS
