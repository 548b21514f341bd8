/* jsui-window.h: the jankscope window, in the app's own process: a title bar
 * (the title, and a line saying that it stops while the app hangs, with
 * "jankscope view" for that) and a JsuiPanel (jsui-panel.h), which shows
 * everything. The jsui_window_*
 * functions below the panel's getter are the panel's, kept for callers.
 *
 * Main thread only. Its surface and frame clock carry the object data
 * JSUI_EXCLUDE_KEY: the core leaves them out of its frame statistics.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-panel.h"

G_BEGIN_DECLS

/* Object data (any non-NULL value) on the window, its GdkSurface and its
 * GdkFrameClock: "jankscope's own, leave it out". */
#define JSUI_EXCLUDE_KEY "jankscope-exclude"
/* The window's widget name. */
#define JSUI_WINDOW_NAME "jankscope-inspector"

#define JSUI_TYPE_WINDOW (jsui_window_get_type ())
G_DECLARE_FINAL_TYPE (JsuiWindow, jsui_window, JSUI, WINDOW, GtkWindow)

JsuiWindow *jsui_window_new (void);
JsuiPanel *jsui_window_get_panel (JsuiWindow *self);
/* The line under the title: the window is drawn by the app's main loop, so
 * a hang is for the out-of-process viewer ("jankscope view") to show. */
const char *jsui_window_get_hang_note (JsuiWindow *self);

/* The panel's (jsui_panel_*), for callers of the window. */
void jsui_window_set_snapshot (JsuiWindow *self, JsuiSnapshot *snapshot);
gboolean jsui_window_select_event (JsuiWindow *self, gint64 id);
gint64 jsui_window_get_selected_event (JsuiWindow *self);
GListModel *jsui_window_get_events (JsuiWindow *self);
JsuiTimeline *jsui_window_get_timeline (JsuiWindow *self);
JsuiStacksView *jsui_window_get_stacks_view (JsuiWindow *self);
const char *jsui_window_get_metric (JsuiWindow *self, const char *name);

/* Marks a realized native's surface and frame clock as jankscope's own
 * (JSUI_EXCLUDE_KEY). */
void jsui_mark_excluded (GtkNative *native);

G_END_DECLS
