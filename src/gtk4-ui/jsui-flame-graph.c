/* jsui-flame-graph.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-colors.h"
#include "jsui-flame-graph.h"
#include "jsui-format.h"

/* Boxes under half a pixel (of a 1000 px wide graph) are not drawn. */
#define MIN_WIDTH 0.0005

struct _JsuiFlameGraph
{
  GtkWidget parent_instance;
  JsuiStackTree *tree;
  GArray *rects;
  guint depth;
};

G_DEFINE_FINAL_TYPE (JsuiFlameGraph, jsui_flame_graph, GTK_TYPE_WIDGET)

static void
jsui_flame_graph_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                          int *natural, int *minimum_baseline, int *natural_baseline)
{
  JsuiFlameGraph *self = JSUI_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 400;
    }
  else
    *minimum = *natural = (int) (self->depth * JSUI_FLAME_ROW);
}

/* A warm colour per function name: the same function has the same colour in
 * every event and every refresh. */
void
jsui_flame_graph_color (const JsuiStackNode *node, GdkRGBA *color)
{
  guint h = g_str_hash (node->name);
  float r = 0.85f + (h % 16) / 100.0f;
  float g = 0.35f + ((h >> 4) % 40) / 100.0f;
  float b = 0.15f + ((h >> 10) % 15) / 100.0f;

  *color = (GdkRGBA){ MIN (r, 1.0f), g, b, 1.0f };
}

static void
jsui_flame_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JsuiFlameGraph *self = JSUI_FLAME_GRAPH (widget);
  float width = (float) gtk_widget_get_width (widget);
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  GdkRGBA text = { 0, 0, 0, 0.9f };

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  for (guint i = 0; i < self->rects->len; i++)
    {
      const JsuiFlameRect *r = &g_array_index (self->rects, JsuiFlameRect, i);
      graphene_rect_t box
          = GRAPHENE_RECT_INIT ((float) r->x * width, (float) r->depth * JSUI_FLAME_ROW,
                                MAX ((float) r->width * width - 1, 1), JSUI_FLAME_ROW - 1);
      GdkRGBA color;
      int text_width;

      if (box.size.width < 0.5f)
        continue;
      if (r->depth == 0)
        jsui_fg_color (widget, &color), color.alpha = 0.25f;
      else
        jsui_flame_graph_color (r->node, &color);
      gtk_snapshot_append_color (snapshot, &color, &box);

      text_width = (int) box.size.width - 4;
      if (text_width < 12)
        continue;
      pango_layout_set_text (layout, r->node->name, -1);
      pango_layout_set_width (layout, text_width * PANGO_SCALE);
      gtk_snapshot_push_clip (snapshot, &box);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (box.origin.x + 2, box.origin.y + 1));
      gtk_snapshot_append_layout (snapshot, layout, &text);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  JsuiFlameGraph *self)
{
  int width = gtk_widget_get_width (widget);
  const JsuiFlameRect *r;
  g_autofree char *pct = NULL;
  g_autofree char *time = NULL;
  g_autofree char *markup = NULL;

  if (width <= 0 || y < 0)
    return FALSE;
  r = jsui_flame_hit (self->rects, (double) x / width, (guint) (y / JSUI_FLAME_ROW));
  if (r == NULL)
    return FALSE;
  pct = jsui_format_percent (r->width);
  time = jsui_format_duration (r->node->total);
  /* Translators: a flame graph box's tooltip: function, module, its attributed
   * time, its share of the tree's, its samples */
  markup = g_markup_printf_escaped (
      g_dngettext (GETTEXT_PACKAGE, "<b>%s</b>\n%s\n%s (%s), %lld sample",
                   "<b>%s</b>\n%s\n%s (%s), %lld samples",
                   (gulong) CLAMP (r->node->total_samples, 0, G_MAXINT32)),
      r->node->name, r->node->module ? r->node->module : "", time, pct,
      (long long) r->node->total_samples);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
jsui_flame_graph_dispose (GObject *object)
{
  JsuiFlameGraph *self = JSUI_FLAME_GRAPH (object);

  g_clear_pointer (&self->tree, jsui_stack_tree_unref);
  g_clear_pointer (&self->rects, g_array_unref);
  G_OBJECT_CLASS (jsui_flame_graph_parent_class)->dispose (object);
}

static void
jsui_flame_graph_class_init (JsuiFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_flame_graph_dispose;
  widget_class->measure = jsui_flame_graph_measure;
  widget_class->snapshot = jsui_flame_graph_snapshot;
  gtk_widget_class_set_css_name (widget_class, "jankscope-flame-graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jsui_flame_graph_init (JsuiFlameGraph *self)
{
  self->rects = g_array_new (FALSE, FALSE, sizeof (JsuiFlameRect));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Flame graph"), -1);
}

GtkWidget *
jsui_flame_graph_new (void)
{
  return g_object_new (JSUI_TYPE_FLAME_GRAPH, NULL);
}

void
jsui_flame_graph_set_tree (JsuiFlameGraph *self, JsuiStackTree *tree)
{
  g_autofree char *description = NULL;

  g_return_if_fail (JSUI_IS_FLAME_GRAPH (self));

  if (tree != NULL)
    jsui_stack_tree_ref (tree);
  g_clear_pointer (&self->tree, jsui_stack_tree_unref);
  self->tree = tree;

  g_clear_pointer (&self->rects, g_array_unref);
  self->rects = tree != NULL ? jsui_flame_layout (tree->root, MIN_WIDTH)
                             : g_array_new (FALSE, FALSE, sizeof (JsuiFlameRect));
  self->depth = 0;
  for (guint i = 0; i < self->rects->len; i++)
    self->depth = MAX (self->depth, g_array_index (self->rects, JsuiFlameRect, i).depth + 1);

  /* The widest path from the root, for screen readers. */
  if (tree != NULL && tree->root->children->len > 0)
    {
      const JsuiStackNode *n = tree->root;

      while (n->children->len > 0)
        n = g_ptr_array_index (n->children, 0);
      /* Translators: accessible description of the flame graph */
      description = g_strdup_printf (_ ("Most of the time ends in %s"), n->name);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description != NULL ? description : _ ("No stacks"), -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

GArray *
jsui_flame_graph_get_rects (JsuiFlameGraph *self)
{
  g_return_val_if_fail (JSUI_IS_FLAME_GRAPH (self), NULL);
  return self->rects;
}
