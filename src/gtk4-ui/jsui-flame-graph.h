/* jsui-flame-graph.h: a flame graph of an aggregated stack tree, drawn
 * with GtkSnapshot from jsui_flame_layout () (the root on top, callees
 * below: the same direction as the top-down tree beside it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-flame-layout.h"

G_BEGIN_DECLS

#define JSUI_TYPE_FLAME_GRAPH (jsui_flame_graph_get_type ())
G_DECLARE_FINAL_TYPE (JsuiFlameGraph, jsui_flame_graph, JSUI, FLAME_GRAPH, GtkWidget)

#define JSUI_FLAME_ROW 18

GtkWidget *jsui_flame_graph_new (void);
/* A reference is kept; NULL: empty. */
void jsui_flame_graph_set_tree (JsuiFlameGraph *self, JsuiStackTree *tree);
/* A box's colour below the root (whose box is the foreground, pale): a warm
 * colour from its function's name, the same in every event and refresh. */
void jsui_flame_graph_color (const JsuiStackNode *node, GdkRGBA *color);

/* The boxes of the last layout (for tests), never NULL. */
GArray *jsui_flame_graph_get_rects (JsuiFlameGraph *self);

G_END_DECLS
