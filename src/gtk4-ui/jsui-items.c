/* jsui-items.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsui-items.h"

struct _JsuiEvent
{
  GObject parent_instance;
  JsuiSnapshot *snapshot;
  const CliReportEvent *event; /* owned by snapshot */
};

G_DEFINE_FINAL_TYPE (JsuiEvent, jsui_event, G_TYPE_OBJECT)

static void
jsui_event_finalize (GObject *object)
{
  JsuiEvent *self = JSUI_EVENT (object);

  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  G_OBJECT_CLASS (jsui_event_parent_class)->finalize (object);
}

static void
jsui_event_class_init (JsuiEventClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jsui_event_finalize;
}

static void
jsui_event_init (JsuiEvent *self)
{
}

JsuiEvent *
jsui_event_new (JsuiSnapshot *snapshot, const CliReportEvent *event)
{
  JsuiEvent *self = g_object_new (JSUI_TYPE_EVENT, NULL);

  self->snapshot = jsui_snapshot_ref (snapshot);
  self->event = event;
  return self;
}

const CliReportEvent *
jsui_event_get_event (JsuiEvent *self)
{
  g_return_val_if_fail (JSUI_IS_EVENT (self), NULL);
  return self->event;
}

JsuiSnapshot *
jsui_event_get_snapshot (JsuiEvent *self)
{
  g_return_val_if_fail (JSUI_IS_EVENT (self), NULL);
  return self->snapshot;
}

gint64
jsui_event_get_id (JsuiEvent *self)
{
  g_return_val_if_fail (JSUI_IS_EVENT (self), 0);
  return self->event->id;
}

struct _JsuiStackItem
{
  GObject parent_instance;
  JsuiStackTree *tree;
  const JsuiStackNode *node; /* owned by tree */
};

G_DEFINE_FINAL_TYPE (JsuiStackItem, jsui_stack_item, G_TYPE_OBJECT)

static void
jsui_stack_item_finalize (GObject *object)
{
  JsuiStackItem *self = JSUI_STACK_ITEM (object);

  g_clear_pointer (&self->tree, jsui_stack_tree_unref);
  G_OBJECT_CLASS (jsui_stack_item_parent_class)->finalize (object);
}

static void
jsui_stack_item_class_init (JsuiStackItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jsui_stack_item_finalize;
}

static void
jsui_stack_item_init (JsuiStackItem *self)
{
}

JsuiStackItem *
jsui_stack_item_new (JsuiStackTree *tree, const JsuiStackNode *node)
{
  JsuiStackItem *self = g_object_new (JSUI_TYPE_STACK_ITEM, NULL);

  self->tree = jsui_stack_tree_ref (tree);
  self->node = node;
  return self;
}

const JsuiStackNode *
jsui_stack_item_get_node (JsuiStackItem *self)
{
  g_return_val_if_fail (JSUI_IS_STACK_ITEM (self), NULL);
  return self->node;
}

double
jsui_stack_item_get_fraction (JsuiStackItem *self)
{
  gint64 all = self->tree->root->total;

  return all > 0 ? (double)self->node->total / (double)all : 0.0;
}

GListModel *
jsui_stack_item_children (JsuiStackItem *self)
{
  GListStore *store;

  if (self->node->children->len == 0)
    return NULL;
  store = g_list_store_new (JSUI_TYPE_STACK_ITEM);
  for (guint i = 0; i < self->node->children->len; i++)
    {
      g_autoptr (JsuiStackItem) child
          = jsui_stack_item_new (self->tree, g_ptr_array_index (self->node->children, i));

      g_list_store_append (store, child);
    }
  return G_LIST_MODEL (store);
}
