/* jsv-window.h: the viewer's window: this user's monitored processes on the
 * left, and for the one selected the inspector's panel (JsuiPanel, shared
 * with the in-process window) fed by its live stream, with the hang banner
 * on top.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-panel.h"
#include "jsv-hang-banner.h"
#include "jsv-live-client.h"

G_BEGIN_DECLS

#define JSV_PROCESS_REFRESH_MS 2000

#define JSV_TYPE_WINDOW (jsv_window_get_type ())
G_DECLARE_FINAL_TYPE (JsvWindow, jsv_window, JSV, WINDOW, GtkApplicationWindow)

JsvWindow *jsv_window_new (GtkApplication *app);
/* Follows process `pid` (0: none). */
void jsv_window_connect (JsvWindow *self, int pid);
/* Follows the first monitored process whose parent is `ppid` (`jankscope
 * run --view`: the app is the CLI's child), looking every 250 ms until it
 * comes. */
void jsv_window_follow_child_of (JsvWindow *self, int ppid);

JsuiPanel *jsv_window_get_panel (JsvWindow *self);
JsvHangBanner *jsv_window_get_banner (JsvWindow *self);
/* The client of the process followed, NULL: none. */
JsvLiveClient *jsv_window_get_client (JsvWindow *self);
/* The hint shown while no process is listed, NULL while one is. */
const char *jsv_window_get_hint (JsvWindow *self);

G_END_DECLS
