/* jsui-stacks-view.h: the stacks of one jank event: an aggregated top-down
 * tree (GtkTreeListModel in a GtkColumnView: function, samples, total and
 * self shares) and a flame graph of the same tree.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-flame-graph.h"
#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_STACKS_VIEW (jsui_stacks_view_get_type ())
G_DECLARE_FINAL_TYPE (JsuiStacksView, jsui_stacks_view, JSUI, STACKS_VIEW, GtkWidget)

GtkWidget *jsui_stacks_view_new (void);
/* Shows the stacks of `event` (of `snapshot`); NULL: none selected. */
void jsui_stacks_view_set_event (JsuiStacksView *self, JsuiSnapshot *snapshot,
                                 const CliReportEvent *event);
/* The rows of the tree (GtkTreeListRow of JsuiStackItem), never NULL. */
GListModel *jsui_stacks_view_get_rows (JsuiStacksView *self);
JsuiFlameGraph *jsui_stacks_view_get_flame_graph (JsuiStacksView *self);
/* "empty" or "stacks": the page shown. */
const char *jsui_stacks_view_get_page (JsuiStacksView *self);

G_END_DECLS
