/* jsui-pane-ratio.h: a GtkPaned that splits its room by a ratio rather than
 * at a fixed pixel position, until the user moves the handle.
 *
 * GtkPaned's position is in pixels, and a .ui file's position is right for
 * one window size only: the window's first size (its default, a maximized
 * window, the viewer's or the app's) decides which child gets the room.
 * Here the position is ratio × max-position each time the paned gets a new
 * size (its max-position changes), as long as the handle is where this code
 * put it; a drag ends that, and the user's split stays (GtkPaned scales it
 * when both children resize).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* ratio in (0, 1): the start child's share. */
void jsui_pane_keep_ratio (GtkPaned *paned, double ratio);

/* Pure: the position for a paned whose max-position is max_position. */
int jsui_pane_ratio_position (int max_position, double ratio);

/* TRUE while the position still follows the ratio (for tests). */
gboolean jsui_pane_ratio_is_following (GtkPaned *paned);

G_END_DECLS
