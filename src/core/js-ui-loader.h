/* js-ui-loader.h: opens jankscope's window (src/gtk4-ui/) in GTK4 apps.
 *
 * With JANKSCOPE_INSPECTOR=1, the poll function checks (every 250 ms, a
 * pointer test otherwise) whether GTK 4 is loaded and initialised; then it
 * dlopens libjankscope-gtk4.so from the core's own folder and starts the
 * window from a one-shot idle named "[jankscope] ui-start" (jankscope's own
 * sources are left out of the statistics). GTK3 apps get a warning instead:
 * an in-process GTK4 window cannot live in a GTK3 process.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void js_ui_loader_init (gboolean wanted);
void js_ui_loader_poll (gint64 now_ns);

G_END_DECLS
