/* jsui-items.h: the list items of the window's models.
 *
 * JsuiEvent: one jank event of a snapshot (the jank list);
 * JsuiStackItem: one node of an aggregated stack tree (the stacks tree).
 * Both keep what they point into alive by reference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "jsui-snapshot.h"
#include "jsui-stack-tree.h"

G_BEGIN_DECLS

#define JSUI_TYPE_EVENT (jsui_event_get_type ())
G_DECLARE_FINAL_TYPE (JsuiEvent, jsui_event, JSUI, EVENT, GObject)

JsuiEvent *jsui_event_new (JsuiSnapshot *snapshot, const CliReportEvent *event);
const CliReportEvent *jsui_event_get_event (JsuiEvent *self);
JsuiSnapshot *jsui_event_get_snapshot (JsuiEvent *self);
gint64 jsui_event_get_id (JsuiEvent *self);

#define JSUI_TYPE_STACK_ITEM (jsui_stack_item_get_type ())
G_DECLARE_FINAL_TYPE (JsuiStackItem, jsui_stack_item, JSUI, STACK_ITEM, GObject)

JsuiStackItem *jsui_stack_item_new (JsuiStackTree *tree, const JsuiStackNode *node);
const JsuiStackNode *jsui_stack_item_get_node (JsuiStackItem *self);
/* The share of the tree's samples through this node, 0..1. */
double jsui_stack_item_get_fraction (JsuiStackItem *self);
/* A GListModel of the node's children (NULL for a leaf): for
 * GtkTreeListModel's create function. */
GListModel *jsui_stack_item_children (JsuiStackItem *self);

G_END_DECLS
