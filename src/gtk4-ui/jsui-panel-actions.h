/* jsui-panel-actions.h: the panel's actions (GtkWidget class actions, so
 * every button or menu inside the panel reaches them as "panel.NAME"):
 *
 *   panel.pause       (stateful, the "paused" property) stop applying new
 *                     snapshots; the status says so
 *   panel.clear       a baseline at the newest snapshot: events and frames
 *                     before it are left out, the header counts frames after it
 *   panel.show-all    no baseline
 *   panel.save-report the shown snapshot's report document (JSON), to a file
 *   panel.export("chrome"|"folded")  `jankscope export`'s formats of it, to a file
 *
 * Files are picked with GtkFileChooserNative and written by jsui-export.c in
 * a worker thread; the result is shown in the action bar.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jsui-export.h"
#include "jsui-panel.h"

G_BEGIN_DECLS

/* From jsui_panel_class_init (). */
void jsui_panel_actions_install (GtkWidgetClass *widget_class);

/* Writes the panel's document as `format` to `dest` (worker thread); the
 * outcome goes to jsui_panel_show_message (). No document: a message. */
void jsui_panel_actions_write (JsuiPanel *panel, JsuiExportFormat format, GFile *dest);

G_END_DECLS
