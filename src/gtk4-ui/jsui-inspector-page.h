/* jsui-inspector-page.h: jankscope's page in GTK's own Inspector
 * (Ctrl+Shift+D, GTK_DEBUG=interactive): a JsuiPanel, refreshed only while
 * the page is mapped (the Inspector shows one page at a time).
 *
 * GTK builds every page of the "gtk-inspector-page" GIO extension point when
 * its Inspector window is created (once per display), so the page must be
 * registered before: the module does it when the core loads it (before
 * gtk_init () in an app linked with GTK 4). A page registered after the
 * Inspector window exists is missing (docs/background.md, "GTK modules and
 * the Inspector").
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-panel.h"
#include "jsui-refresher.h"

G_BEGIN_DECLS

/* The extension's name in the Inspector (its page's name in the stack). */
#define JSUI_INSPECTOR_PAGE_NAME "jankscope"

#define JSUI_TYPE_INSPECTOR_PAGE (jsui_inspector_page_get_type ())
G_DECLARE_FINAL_TYPE (JsuiInspectorPage, jsui_inspector_page, JSUI, INSPECTOR_PAGE, GtkWidget)

/* Adds the page to the "gtk-inspector-page" extension point (registering
 * the point first when GTK has not yet), once. Any time before the
 * Inspector opens; needs no display. `source`: where pages get snapshots. */
void jsui_inspector_page_register (JsuiSnapshotSource source, gpointer user_data);

JsuiPanel *jsui_inspector_page_get_panel (JsuiInspectorPage *self);
/* TRUE while its refresher runs (the page is mapped). */
gboolean jsui_inspector_page_is_refreshing (JsuiInspectorPage *self);

G_END_DECLS
