/* playground-window.h: the jank playground's window, one button per kind of stall
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PLAYGROUND_TYPE_WINDOW (playground_window_get_type ())
G_DECLARE_FINAL_TYPE (PlaygroundWindow, playground_window, PLAYGROUND, WINDOW, GtkApplicationWindow)

PlaygroundWindow *playground_window_new (GtkApplication *application);
void playground_window_run_action (PlaygroundWindow *self, const char *name);

const char *playground_window_get_action_name (guint index);
gboolean playground_window_has_action (const char *name);

G_END_DECLS
