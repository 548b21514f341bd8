/* jsui-shortcut.h: the keyboard shortcut that opens and closes the jankscope
 * window in any GTK 4 app: Ctrl+Shift+J unless JANKSCOPE_SHORTCUT says
 * otherwise ("off" or "none": no shortcut).
 *
 * Installed on every toplevel window (gtk_window_get_toplevels ()), from an
 * idle after the window appears, as a GtkShortcutController in the bubble
 * phase named JSUI_SHORTCUT_CONTROLLER: the app's own shortcuts (its
 * application accelerators, its widgets' and the window's bindings) come
 * first and win.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JSUI_SHORTCUT_DEFAULT "<Control><Shift>j"
#define JSUI_SHORTCUT_CONTROLLER "jankscope-shortcut"

/* Parses a JANKSCOPE_SHORTCUT value: GTK's "<Control><Shift>j" or
 * "Ctrl+Shift+J". NULL or empty: the default. "off"/"none": FALSE with
 * *keyval 0. Bad (unknown key, or a printable key without Control, Alt or
 * Super): FALSE with *error_message set, and the default in *keyval and *mods. */
gboolean jsui_shortcut_parse (const char *text, guint *keyval, GdkModifierType *mods,
                              char **error_message);

/* Installs the shortcut (from JANKSCOPE_SHORTCUT; a bad value: one
 * "jankscope:" warning on stderr and the default) on every toplevel, now and
 * later; `toggle` runs when it is pressed. Once; FALSE when off. */
gboolean jsui_shortcut_install (void (*toggle) (void));

G_END_DECLS
