/* jsui-timeline.h: the frame timeline, one bar per recent frame (its
 * height the frame time), the budget line, tier colours. Put it in a
 * GtkScrolledWindow: its natural width grows with the frames and the zoom.
 *
 * Zoom: Ctrl+scroll or a pinch (anchored at the pointer), the +/- keys,
 * jsui_timeline_zoom_in/out (anchored at the selection, else the newest
 * frame). Selection: a click selects a frame (and its jank event), a drag
 * a range of frames. Keys (widget actions "timeline.*", bound when it has
 * the focus): Left/Right (previous, next) move it, with Shift
 * (extend-previous, extend-next) extend it, Home/End (first, last,
 * extend-first, extend-last) jump, +/- (zoom-in, zoom-out), Return
 * (activate) selects the frame's event.
 *
 * Geometry is plain arithmetic on the zoom (pixels per frame): frame i
 * spans [i * zoom, (i + 1) * zoom). Frames are not evenly spaced in time (an
 * idle app draws none), so the time axis marks the frames where a round
 * number of seconds before the snapshot's time falls: jsui_timeline_axis.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_TIMELINE (jsui_timeline_get_type ())
G_DECLARE_FINAL_TYPE (JsuiTimeline, jsui_timeline, JSUI, TIMELINE, GtkWidget)

/* One mark of the time axis: frame `frame` is the first to end after the
 * time `before_ns` before now (a multiple of the axis's step). */
typedef struct
{
  guint frame;
  gint64 before_ns;
} JsuiAxisTick;

/* The time axis over frames [first, last) of `end_ns` (frame end times,
 * oldest first), drawn at `px_per_frame`: the step is the smallest of 0.1,
 * 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120 or 300 s whose marks come at least
 * `min_px` apart on average; a mark where a multiple of the step before
 * `now_ns` falls between a frame and the one before it (over an idle gap,
 * the latest). Ticks are at least `min_px` apart: a mark too close to the
 * previous one is left out. Pure. *step_ns: the step. */
GArray *jsui_timeline_axis (const gint64 *end_ns, guint first, guint last, gint64 now_ns,
                            double px_per_frame, double min_px, gint64 *step_ns);

/* Width of one bar and the gap after it, in pixels, at the default zoom. */
#define JSUI_TIMELINE_BAR 5
#define JSUI_TIMELINE_STEP (JSUI_TIMELINE_BAR + 1)
/* Zoom bounds (pixels per frame). */
#define JSUI_TIMELINE_MIN_ZOOM 1.0
#define JSUI_TIMELINE_MAX_ZOOM 32.0

GtkWidget *jsui_timeline_new (void);
/* The frames of a snapshot (a reference is kept), NULL: none. A selected
 * range of frames stays selected (found again by their end times) while
 * its frames are in the snapshot. */
void jsui_timeline_set_snapshot (JsuiTimeline *self, JsuiSnapshot *snapshot);
/* Borrowed, NULL: none. */
JsuiSnapshot *jsui_timeline_get_snapshot (JsuiTimeline *self);
guint jsui_timeline_get_n_frames (JsuiTimeline *self);
/* Highlights the frames of this event (0: none). */
void jsui_timeline_set_selected_event (JsuiTimeline *self, gint64 event_id);
/* The frame index at x (widget coordinates), -1 if none. */
int jsui_timeline_frame_at (JsuiTimeline *self, double x);
/* Where frame i starts (widget coordinates). */
double jsui_timeline_x_for_frame (JsuiTimeline *self, guint i);
/* Selects the frame at x: emits ::frames-selected, and ::event-activated
 * when it belongs to a jank event (what a click does). Returns the event
 * id, 0 if none. */
gint64 jsui_timeline_activate_at (JsuiTimeline *self, double x);

/* Selects frames first..last (any order; clamped; -1: none) and emits
 * ::frames-selected (first <= last, or -1, -1). */
void jsui_timeline_select_range (JsuiTimeline *self, int first, int last);
/* What a drag from x0 to x1 selects (widget coordinates). */
void jsui_timeline_select_between (JsuiTimeline *self, double x0, double x1);
/* The selected frames; FALSE: none. */
gboolean jsui_timeline_get_selection (JsuiTimeline *self, guint *first, guint *last);

/* Pixels per frame, clamped to [JSUI_TIMELINE_MIN_ZOOM, _MAX_ZOOM]. */
double jsui_timeline_get_zoom (JsuiTimeline *self);
void jsui_timeline_set_zoom (JsuiTimeline *self, double zoom);
void jsui_timeline_zoom_in (JsuiTimeline *self);
void jsui_timeline_zoom_out (JsuiTimeline *self);

/* Pure: the scroll value that keeps what is at x (widget coordinates, the
 * viewport scrolled to `value`) under the same point of the viewport when
 * the zoom goes from old_zoom to new_zoom. */
double jsui_timeline_zoom_anchor (double old_zoom, double new_zoom, double x, double value);

G_END_DECLS
