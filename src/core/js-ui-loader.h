/* js-ui-loader.h: loads jankscope's GTK 4 UI module (src/gtk4-ui/) into GTK 4
 * apps. The core links no GTK: it looks GTK up (dlsym) and loads
 * libjankscope-gtk4.so from its own folder only when GTK 4 is there.
 *
 * - At start-up (the preload's constructor, before main () when the app is
 *   linked with GTK 4), or as soon as a poll finds GTK 4 loaded: dlopen the
 *   module and call jankscope_gtk4_ui_arm (), which adds jankscope's page to
 *   GTK's Inspector (GTK_DEBUG=interactive opens the Inspector inside
 *   gtk_init (): the page must be there before).
 * - Once GTK is initialised (checked every 250 ms; the poll function skips
 *   it in between): jankscope_gtk4_ui_attach (open) from a one-shot idle
 *   named "[jankscope] ui-start": the shortcut on the app's windows, and
 *   the window itself with JANKSCOPE_INSPECTOR=1.
 *
 * JANKSCOPE_UI=0: nothing is loaded. GTK 3 apps: nothing is loaded; with
 * JANKSCOPE_INSPECTOR=1 a warning (a GTK 4 window cannot live in a GTK 3
 * process).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ui: JANKSCOPE_UI (load the module at all); open: JANKSCOPE_INSPECTOR. */
void js_ui_loader_init (gboolean ui, gboolean open);

/* A poll observer (js-mainloop.h): checks every 250 ms; done once the UI is
 * attached, or never will be. */
gint64 js_ui_loader_poll (gint64 now_ns);

G_END_DECLS
