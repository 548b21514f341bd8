/* jsui-frame-details.h: the "Frames" page: what is behind the frames
 * selected in the timeline (one, or a range): their phases, the dispatches
 * that ran inside their frame time (live.frames, js-frame-metrics.c), and
 * the sampled stacks of the jank events they belong to.
 *
 * Main thread only; it aggregates a few thousand numbers at most (the
 * stacks were aggregated with the snapshot, off the main thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"
#include "jsui-stacks-view.h"
#include "jsui-timeline.h"

G_BEGIN_DECLS

#define JSUI_TYPE_FRAME_DETAILS (jsui_frame_details_get_type ())
G_DECLARE_FINAL_TYPE (JsuiFrameDetails, jsui_frame_details, JSUI, FRAME_DETAILS, GtkWidget)

GtkWidget *jsui_frame_details_new (void);
/* Follows a timeline: its ::frames-selected (a range of frames also makes
 * this page the visible child of the GtkStack it is in), and its zoom (the
 * page's zoom buttons). NULL: none. */
void jsui_frame_details_set_timeline (JsuiFrameDetails *self, JsuiTimeline *timeline);
/* Shows frames first..last of the snapshot (a reference is kept); a
 * snapshot of NULL, or first < 0: nothing selected. */
void jsui_frame_details_set_frames (JsuiFrameDetails *self, JsuiSnapshot *snapshot, int first,
                                    int last);

/* The parts, for tests: rows of JsuiTimeRow. Phases in frame order (those
 * that ran); dispatches by (source, callback), the most time first. */
GListModel *jsui_frame_details_get_phases (JsuiFrameDetails *self);
GListModel *jsui_frame_details_get_dispatches (JsuiFrameDetails *self);
JsuiStacksView *jsui_frame_details_get_stacks_view (JsuiFrameDetails *self);
const char *jsui_frame_details_get_title (JsuiFrameDetails *self);
/* The ids of the jank events of the shown frames, in order (0-terminated,
 * borrowed). */
const gint64 *jsui_frame_details_get_events (JsuiFrameDetails *self);
/* The stacks of several events are being merged (in a worker thread): the
 * stacks view shows them once done. */
gboolean jsui_frame_details_is_merging (JsuiFrameDetails *self);

G_END_DECLS
