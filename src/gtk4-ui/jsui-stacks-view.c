/* jsui-stacks-view.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-format.h"
#include "jsui-items.h"
#include "jsui-stacks-view.h"

/* The tree opens this deep by itself: the frames above the app's code
 * (main, g_application_run, the main loop) are rarely what you look for. */
#define AUTOEXPAND_DEPTH 24

struct _JsuiStacksView
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkLabel *empty_label;
  GtkLabel *title_label;
  GtkColumnView *tree_view;
  JsuiFlameGraph *flame_graph;

  GListStore *roots; /* the one root of the shown tree, or none */
  GtkTreeListModel *rows;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (JsuiStacksView, jsui_stacks_view, GTK_TYPE_WIDGET)

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  return jsui_stack_item_children (JSUI_STACK_ITEM (item));
}

static JsuiStackItem *
item_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return JSUI_STACK_ITEM (gtk_tree_list_row_get_item (row));
}

static void
function_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
function_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  g_autoptr (JsuiStackItem) item = item_of (list_item);
  const JsuiStackNode *node = jsui_stack_item_get_node (item);

  gtk_tree_expander_set_list_row (expander, gtk_list_item_get_item (list_item));
  gtk_label_set_text (GTK_LABEL (gtk_tree_expander_get_child (expander)), node->name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (expander), node->module);
}

static void
number_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
samples_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  g_autoptr (JsuiStackItem) item = item_of (list_item);
  g_autofree char *text
      = g_strdup_printf ("%" G_GINT64_FORMAT, jsui_stack_item_get_node (item)->total);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
percent_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  g_autoptr (JsuiStackItem) item = item_of (list_item);
  g_autofree char *text = jsui_format_percent (jsui_stack_item_get_fraction (item));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
self_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  g_autoptr (JsuiStackItem) item = item_of (list_item);
  const JsuiStackNode *node = jsui_stack_item_get_node (item);
  double all = jsui_stack_item_get_fraction (item);
  double share = node->total > 0 ? all * (double)node->self / (double)node->total : 0;
  g_autofree char *text = jsui_format_percent (share);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
jsui_stacks_view_dispose (GObject *object)
{
  JsuiStacksView *self = JSUI_STACKS_VIEW (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->roots);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_STACKS_VIEW);
  G_OBJECT_CLASS (jsui_stacks_view_parent_class)->dispose (object);
}

static void
jsui_stacks_view_class_init (JsuiStacksViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_stacks_view_dispose;

  g_type_ensure (JSUI_TYPE_FLAME_GRAPH);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/ui/jsui-stacks-view.ui");
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, stack);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, title_label);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, tree_view);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, flame_graph);
  gtk_widget_class_bind_template_callback (widget_class, function_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, function_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, number_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, samples_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, percent_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, self_bind_cb);
  gtk_widget_class_set_css_name (widget_class, "jankscope-stacks");
}

static void
jsui_stacks_view_init (JsuiStacksView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->roots = g_list_store_new (JSUI_TYPE_STACK_ITEM);
  self->rows = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                        create_children, NULL, NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (self->selection));
}

GtkWidget *
jsui_stacks_view_new (void)
{
  return g_object_new (JSUI_TYPE_STACKS_VIEW, NULL);
}

/* Opens the rows of the heaviest path, down to where it splits. */
static void
expand_heaviest (GtkTreeListModel *rows)
{
  guint i = 0;

  for (guint depth = 0; depth < AUTOEXPAND_DEPTH; depth++)
    {
      g_autoptr (GtkTreeListRow) row = gtk_tree_list_model_get_row (rows, i);
      g_autoptr (JsuiStackItem) item = NULL;
      const JsuiStackNode *node;

      if (row == NULL)
        return;
      item = gtk_tree_list_row_get_item (row);
      node = jsui_stack_item_get_node (item);
      gtk_tree_list_row_set_expanded (row, TRUE);
      if (node->children->len != 1)
        return;
      i++; /* the only child is the next row */
    }
}

void
jsui_stacks_view_set_event (JsuiStacksView *self, JsuiSnapshot *snapshot,
                            const CliReportEvent *event)
{
  g_autoptr (JsuiStackTree) tree = NULL;
  g_autoptr (JsuiStackItem) root = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (JSUI_IS_STACKS_VIEW (self));

  g_list_store_remove_all (self->roots);
  if (event == NULL || event->detail == NULL || event->detail->stacks->len == 0)
    {
      jsui_flame_graph_set_tree (self->flame_graph, NULL);
      gtk_label_set_text (self->empty_label, event == NULL
                                                 ? _ ("Select a jank event to see its stacks")
                                                 : _ ("No stacks were sampled during this event"));
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  tree = jsui_stack_tree_from_event (event);
  root = jsui_stack_item_new (tree, tree->root);
  g_list_store_append (self->roots, root);
  expand_heaviest (self->rows);
  jsui_flame_graph_set_tree (self->flame_graph, tree);

  /* Translators: the stacks pane's title: event id, samples, distinct stacks */
  title = g_strdup_printf (_ ("Event %lld: %lld samples in %u stacks"), (long long)event->id,
                           (long long)tree->root->total, event->detail->stacks->len);
  gtk_label_set_text (self->title_label, title);
  gtk_stack_set_visible_child_name (self->stack, "stacks");
}

GListModel *
jsui_stacks_view_get_rows (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return G_LIST_MODEL (self->rows);
}

JsuiFlameGraph *
jsui_stacks_view_get_flame_graph (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return self->flame_graph;
}

const char *
jsui_stacks_view_get_page (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}
