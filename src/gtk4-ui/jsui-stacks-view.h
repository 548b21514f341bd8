/* jsui-stacks-view.h: the stacks of one jank event: an aggregated tree of
 * its profile (every sample with a stack, weighted by attributed time),
 * top-down or bottom-up (callers), in a GtkColumnView (GtkTreeListModel:
 * function, time, total and self shares), a flame graph of the same tree
 * (its root: the event's attributed time), the event's samples over time
 * (jsui-samples-strip.h), and its parts (jsui-parts-view.h): selecting one
 * shows that part's own stacks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-flame-graph.h"
#include "jsui-parts-view.h"
#include "jsui-samples-strip.h"
#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_STACKS_VIEW (jsui_stacks_view_get_type ())
G_DECLARE_FINAL_TYPE (JsuiStacksView, jsui_stacks_view, JSUI, STACKS_VIEW, GtkWidget)

GtkWidget *jsui_stacks_view_new (void);
/* Shows the stacks of `event` (of `snapshot`), with its samples over time;
 * NULL: none selected. */
void jsui_stacks_view_set_event (JsuiStacksView *self, JsuiSnapshot *snapshot,
                                 const JsrReportEvent *event);
/* Shows a tree (references are kept) without a samples strip, e.g. the
 * stacks of several events merged; bottom_up NULL: derived. top_down NULL
 * (or without samples): the empty page with `empty_message`. */
void jsui_stacks_view_set_trees (JsuiStacksView *self, JsuiStackTree *top_down,
                                 JsuiStackTree *bottom_up, const char *title,
                                 const char *empty_message);
/* Top-down (callees below callers, the default) or bottom-up (callers below
 * the frames samples ended in). The flame graph stays top-down. */
void jsui_stacks_view_set_bottom_up (JsuiStacksView *self, gboolean bottom_up);
gboolean jsui_stacks_view_get_bottom_up (JsuiStacksView *self);
/* The whole stacks, from the program's start; by default (FALSE) an
 * event's stacks start at the callback the main loop dispatched. */
void jsui_stacks_view_set_whole_stacks (JsuiStacksView *self, gboolean whole);
gboolean jsui_stacks_view_get_whole_stacks (JsuiStacksView *self);
/* Opens and selects the tree's row of the shown event's stack
 * `stack_index` (what clicking a sample does); FALSE if not found. */
gboolean jsui_stacks_view_select_stack (JsuiStacksView *self, int stack_index);
/* The same for a node of the event's profile: any stack, listed or not. */
gboolean jsui_stacks_view_select_node (JsuiStacksView *self, int node);
JsuiPartsView *jsui_stacks_view_get_parts_view (JsuiStacksView *self);
/* The selected row's position in the rows, GTK_INVALID_LIST_POSITION: none. */
guint jsui_stacks_view_get_selected_row (JsuiStacksView *self);
JsuiSamplesStrip *jsui_stacks_view_get_samples_strip (JsuiStacksView *self);
/* The rows of the tree (GtkTreeListRow of JsuiStackItem), never NULL. */
GListModel *jsui_stacks_view_get_rows (JsuiStacksView *self);
JsuiFlameGraph *jsui_stacks_view_get_flame_graph (JsuiStacksView *self);
/* The tree's share of the width beside the flame graph, until the user
 * moves the handle (jsui-pane-ratio.h). */
#define JSUI_STACKS_TREE_SHARE 0.42
/* The paned between the tree and the flame graph. */
GtkPaned *jsui_stacks_view_get_paned (JsuiStacksView *self);
/* "empty" or "stacks": the page shown. */
const char *jsui_stacks_view_get_page (JsuiStacksView *self);

G_END_DECLS
