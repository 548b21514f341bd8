/* jsui-shortcuts.h: what a jankscope window has in common with every GNOME
 * window: a primary menu (Keyboard Shortcuts, About), the shortcuts window
 * (Ctrl+?) and Ctrl+W. For the in-process window (jsui-window.c) and the
 * viewer's (src/viewer/jsv-window.c) alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Installs the actions "jankscope.shortcuts" and "jankscope.about" on a
 * window class, and the bindings Ctrl+? (shortcuts) and Ctrl+W (the
 * window's own "window.close"). */
void jsui_shortcuts_install (GtkWidgetClass *window_class);

/* The header bar's primary menu button. */
GtkWidget *jsui_primary_menu_button_new (void);

/* The shortcuts window over @parent (shown), as "jankscope.shortcuts" does. */
GtkWindow *jsui_shortcuts_window_show (GtkWindow *parent);

G_END_DECLS
