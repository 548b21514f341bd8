/* jsui-items.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-items.h"

struct _JsuiEvent
{
  GObject parent_instance;
  JsuiSnapshot *snapshot;
  const JsrReportEvent *event; /* owned by snapshot */
};

G_DEFINE_FINAL_TYPE (JsuiEvent, jsui_event, G_TYPE_OBJECT)

static GParamSpec *event_pspec;

static void
jsui_event_finalize (GObject *object)
{
  JsuiEvent *self = JSUI_EVENT (object);

  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  G_OBJECT_CLASS (jsui_event_parent_class)->finalize (object);
}

static void
jsui_event_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  g_value_set_pointer (value, (gpointer) JSUI_EVENT (object)->event);
}

static void
jsui_event_class_init (JsuiEventClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = jsui_event_finalize;
  object_class->get_property = jsui_event_get_property;
  event_pspec = g_param_spec_pointer (
      "event", NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (object_class, 1, event_pspec);
}

static void
jsui_event_init (JsuiEvent *self)
{
}

JsuiEvent *
jsui_event_new (JsuiSnapshot *snapshot, const JsrReportEvent *event)
{
  JsuiEvent *self = g_object_new (JSUI_TYPE_EVENT, NULL);

  self->snapshot = jsui_snapshot_ref (snapshot);
  self->event = event;
  return self;
}

void
jsui_event_rebase (JsuiEvent *self, JsuiSnapshot *snapshot, const JsrReportEvent *event)
{
  g_return_if_fail (JSUI_IS_EVENT (self));
  g_return_if_fail (snapshot != NULL && event != NULL);

  jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;
  self->event = event;
}

void
jsui_event_update (JsuiEvent *self, JsuiSnapshot *snapshot, const JsrReportEvent *event)
{
  jsui_event_rebase (self, snapshot, event);
  g_object_notify_by_pspec (G_OBJECT (self), event_pspec);
}

const JsrReportEvent *
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

struct _JsuiPart
{
  GObject parent_instance;
  JsuiSnapshot *snapshot;
  const JsrReportEvent *event; /* owned by snapshot */
  guint index;
};

G_DEFINE_FINAL_TYPE (JsuiPart, jsui_part, G_TYPE_OBJECT)

static void
jsui_part_finalize (GObject *object)
{
  JsuiPart *self = JSUI_PART (object);

  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  G_OBJECT_CLASS (jsui_part_parent_class)->finalize (object);
}

static void
jsui_part_class_init (JsuiPartClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jsui_part_finalize;
}

static void
jsui_part_init (JsuiPart *self)
{
}

JsuiPart *
jsui_part_new (JsuiSnapshot *snapshot, const JsrReportEvent *event, guint index)
{
  JsuiPart *self;

  g_return_val_if_fail (snapshot != NULL && event != NULL, NULL);
  g_return_val_if_fail (event->parts != NULL && index < event->parts->len, NULL);

  self = g_object_new (JSUI_TYPE_PART, NULL);
  self->snapshot = jsui_snapshot_ref (snapshot);
  self->event = event;
  self->index = index;
  return self;
}

const JsrReportEvent *
jsui_part_get_event (JsuiPart *self)
{
  g_return_val_if_fail (JSUI_IS_PART (self), NULL);
  return self->event;
}

const JsrReportPart *
jsui_part_get_part (JsuiPart *self)
{
  g_return_val_if_fail (JSUI_IS_PART (self), NULL);
  return g_ptr_array_index (self->event->parts, self->index);
}

guint
jsui_part_get_index (JsuiPart *self)
{
  g_return_val_if_fail (JSUI_IS_PART (self), 0);
  return self->index;
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

  return all > 0 ? (double) self->node->total / (double) all : 0.0;
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

/* ---- JsuiSource ------------------------------------------------------ */

struct _JsuiSource
{
  GObject parent_instance;
  JsrReportSource source; /* strings owned */
  char *label;
};

G_DEFINE_FINAL_TYPE (JsuiSource, jsui_source, G_TYPE_OBJECT)

enum
{
  SOURCE_PROP_0,
  SOURCE_PROP_NAME,
  SOURCE_PROP_CALLBACK,
  SOURCE_PROP_LABEL,
  SOURCE_PROP_COUNT,
  SOURCE_PROP_TOTAL_NS,
  SOURCE_PROP_MEAN_NS,
  SOURCE_PROP_P95_NS,
  SOURCE_PROP_MAX_NS,
  SOURCE_N_PROPS
};
static GParamSpec *source_props[SOURCE_N_PROPS];

static void
jsui_source_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JsuiSource *self = JSUI_SOURCE (object);

  switch (prop_id)
    {
    case SOURCE_PROP_NAME:
      g_value_set_string (value,
                          self->source.source != NULL ? self->source.source : _ ("(unnamed)"));
      break;
    case SOURCE_PROP_CALLBACK:
      g_value_set_string (value, self->source.callback);
      break;
    case SOURCE_PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case SOURCE_PROP_COUNT:
      g_value_set_int64 (value, self->source.count);
      break;
    case SOURCE_PROP_TOTAL_NS:
      g_value_set_int64 (value, self->source.total_ns);
      break;
    case SOURCE_PROP_MEAN_NS:
      g_value_set_int64 (value, jsui_source_get_mean_ns (self));
      break;
    case SOURCE_PROP_P95_NS:
      g_value_set_int64 (value, self->source.p95_ns);
      break;
    case SOURCE_PROP_MAX_NS:
      g_value_set_int64 (value, self->source.max_ns);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jsui_source_finalize (GObject *object)
{
  JsuiSource *self = JSUI_SOURCE (object);

  g_free (self->source.source);
  g_free (self->source.callback);
  g_free (self->label);
  G_OBJECT_CLASS (jsui_source_parent_class)->finalize (object);
}

static void
jsui_source_class_init (JsuiSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamSpec **props = source_props;
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = jsui_source_finalize;
  object_class->get_property = jsui_source_get_property;
  props[SOURCE_PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  props[SOURCE_PROP_CALLBACK] = g_param_spec_string ("callback", NULL, NULL, NULL, flags);
  props[SOURCE_PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  props[SOURCE_PROP_COUNT] = g_param_spec_int64 ("count", NULL, NULL, 0, G_MAXINT64, 0, flags);
  props[SOURCE_PROP_TOTAL_NS]
      = g_param_spec_int64 ("total-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  props[SOURCE_PROP_MEAN_NS] = g_param_spec_int64 ("mean-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  props[SOURCE_PROP_P95_NS] = g_param_spec_int64 ("p95-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  props[SOURCE_PROP_MAX_NS] = g_param_spec_int64 ("max-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  g_object_class_install_properties (object_class, SOURCE_N_PROPS, props);
}

static void
jsui_source_init (JsuiSource *self)
{
}

JsuiSource *
jsui_source_new (const JsrReportSource *source)
{
  JsuiSource *self = g_object_new (JSUI_TYPE_SOURCE, NULL);
  const char *name = source->source != NULL ? source->source : _ ("(unnamed)");

  self->source = *source;
  self->source.source = g_strdup (source->source);
  self->source.callback = g_strdup (source->callback);
  self->label = source->callback != NULL ? g_strdup_printf ("%s (%s)", name, source->callback)
                                         : g_strdup (name);
  return self;
}

gboolean
jsui_source_update (JsuiSource *self, const JsrReportSource *source)
{
  JsrReportSource *s;
  gboolean count, total, p95, max;

  g_return_val_if_fail (JSUI_IS_SOURCE (self), FALSE);

  s = &self->source;
  count = s->count != source->count;
  total = s->total_ns != source->total_ns;
  p95 = s->p95_ns != source->p95_ns;
  max = s->max_ns != source->max_ns;
  if (!(count || total || p95 || max))
    return FALSE;
  s->count = source->count;
  s->total_ns = source->total_ns;
  s->p95_ns = source->p95_ns;
  s->max_ns = source->max_ns;
  g_object_freeze_notify (G_OBJECT (self));
  if (count)
    g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_COUNT]);
  if (total)
    g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_TOTAL_NS]);
  if (count || total)
    g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_MEAN_NS]);
  if (p95)
    g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_P95_NS]);
  if (max)
    g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_MAX_NS]);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

const JsrReportSource *
jsui_source_get_source (JsuiSource *self)
{
  g_return_val_if_fail (JSUI_IS_SOURCE (self), NULL);
  return &self->source;
}

const char *
jsui_source_get_label (JsuiSource *self)
{
  g_return_val_if_fail (JSUI_IS_SOURCE (self), NULL);
  return self->label;
}

gint64
jsui_source_get_mean_ns (JsuiSource *self)
{
  g_return_val_if_fail (JSUI_IS_SOURCE (self), 0);
  return self->source.count > 0 ? self->source.total_ns / self->source.count : 0;
}

/* ---- JsuiTimeRow ----------------------------------------------------- */

struct _JsuiTimeRow
{
  GObject parent_instance;
  char *name;
  char *detail;
  guint count;
  gint64 total_ns, max_ns, offset_ns;
};

G_DEFINE_FINAL_TYPE (JsuiTimeRow, jsui_time_row, G_TYPE_OBJECT)

static void
jsui_time_row_finalize (GObject *object)
{
  JsuiTimeRow *self = JSUI_TIME_ROW (object);

  g_free (self->name);
  g_free (self->detail);
  G_OBJECT_CLASS (jsui_time_row_parent_class)->finalize (object);
}

static void
jsui_time_row_class_init (JsuiTimeRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jsui_time_row_finalize;
}

static void
jsui_time_row_init (JsuiTimeRow *self)
{
}

JsuiTimeRow *
jsui_time_row_new (const char *name, const char *detail, guint count, gint64 total_ns,
                   gint64 max_ns, gint64 offset_ns)
{
  JsuiTimeRow *self = g_object_new (JSUI_TYPE_TIME_ROW, NULL);

  self->name = g_strdup (name);
  self->detail = g_strdup (detail);
  self->count = count;
  self->total_ns = total_ns;
  self->max_ns = max_ns;
  self->offset_ns = offset_ns;
  return self;
}

const char *
jsui_time_row_get_name (JsuiTimeRow *self)
{
  return self->name;
}

const char *
jsui_time_row_get_detail (JsuiTimeRow *self)
{
  return self->detail;
}

guint
jsui_time_row_get_count (JsuiTimeRow *self)
{
  return self->count;
}

gint64
jsui_time_row_get_total_ns (JsuiTimeRow *self)
{
  return self->total_ns;
}

gint64
jsui_time_row_get_max_ns (JsuiTimeRow *self)
{
  return self->max_ns;
}

gint64
jsui_time_row_get_offset_ns (JsuiTimeRow *self)
{
  return self->offset_ns;
}
