/* jsui-window.h: the jankscope window: frame metrics, the frame timeline,
 * the jank list and the stacks of the selected event.
 *
 * Main thread only. Its surface and frame clock carry the object data
 * JSUI_EXCLUDE_KEY: the core leaves them out of its frame statistics.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"
#include "jsui-stacks-view.h"
#include "jsui-timeline.h"

G_BEGIN_DECLS

/* Object data (any non-NULL value) on the window, its GdkSurface and its
 * GdkFrameClock: "jankscope's own, leave it out". */
#define JSUI_EXCLUDE_KEY "jankscope-exclude"
/* The window's widget name. */
#define JSUI_WINDOW_NAME "jankscope-inspector"

#define JSUI_TYPE_WINDOW (jsui_window_get_type ())
G_DECLARE_FINAL_TYPE (JsuiWindow, jsui_window, JSUI, WINDOW, GtkWindow)

JsuiWindow *jsui_window_new (void);
/* Shows a snapshot (a reference is kept); NULL: "waiting for data". The
 * selected event stays selected while it is in the snapshots. */
void jsui_window_set_snapshot (JsuiWindow *self, JsuiSnapshot *snapshot);
/* Selects the event with this id (0: none); FALSE if there is none. */
gboolean jsui_window_select_event (JsuiWindow *self, gint64 id);
gint64 jsui_window_get_selected_event (JsuiWindow *self);

/* For tests: the parts. */
GListModel *jsui_window_get_events (JsuiWindow *self);
JsuiTimeline *jsui_window_get_timeline (JsuiWindow *self);
JsuiStacksView *jsui_window_get_stacks_view (JsuiWindow *self);
/* The text of a header metric: "p50", "p95", "p99", "slow", "frozen",
 * "hangs", "overhead", or "status". */
const char *jsui_window_get_metric (JsuiWindow *self, const char *name);

/* Adds the window's style sheet to a display, once. */
void jsui_install_css (GdkDisplay *display);

G_END_DECLS
