/* jsui-stacks-view.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsr-profile.h"
#include "jsui-format.h"
#include "jsui-items.h"
#include "jsui-pane-ratio.h"
#include "jsui-parts-view.h"
#include "jsui-samples-strip.h"
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
  GtkColumnViewColumn *self_column;
  JsuiFlameGraph *flame_graph;
  GtkPaned *stacks_paned;
  JsuiSamplesStrip *samples_strip;
  JsuiPartsView *parts_view;
  GtkToggleButton *bottom_up_button;
  GtkToggleButton *whole_button;

  /* What is shown: both directions of one tree, and the event whose
   * samples the strip shows (NULL for several events). */
  JsuiSnapshot *snapshot;
  const JsrReportEvent *event; /* owned by snapshot */
  JsuiStackTree *top_down;
  JsuiStackTree *bottom_up;
  gboolean show_bottom_up;
  gboolean whole_stacks; /* from the program's start, not the dispatched callback */

  GListStore *roots; /* the one root of the shown tree, or none */
  GtkTreeListModel *rows;
  GtkSingleSelection *selection;
};

static void whole_toggled_cb (GtkToggleButton *button, JsuiStacksView *self);

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

/* The attributed time through the node (the tree's weight). */
static void
time_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiStacksView *self)
{
  g_autoptr (JsuiStackItem) item = item_of (list_item);
  const JsuiStackNode *node = jsui_stack_item_get_node (item);
  g_autofree char *text = jsui_format_duration (node->total);
  g_autofree char *samples
      = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%lld sample", "%lld samples",
                                      (gulong) CLAMP (node->total_samples, 0, G_MAXINT32)),
                         (long long) node->total_samples);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), samples);
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
  double share = node->total > 0 ? all * (double) node->self / (double) node->total : 0;
  g_autofree char *text = jsui_format_percent (share);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void show_tree (JsuiStacksView *self);

static void
bottom_up_toggled_cb (GtkToggleButton *button, JsuiStacksView *self)
{
  jsui_stacks_view_set_bottom_up (self, gtk_toggle_button_get_active (button));
}

static void
node_activated_cb (JsuiSamplesStrip *strip, int node, JsuiStacksView *self)
{
  jsui_stacks_view_select_node (self, node);
}

static void show_part (JsuiStacksView *self, int part);

static void
part_selected_cb (JsuiPartsView *parts, int part, JsuiStacksView *self)
{
  show_part (self, part);
}

static void
jsui_stacks_view_dispose (GObject *object)
{
  JsuiStacksView *self = JSUI_STACKS_VIEW (object);

  self->event = NULL;
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  g_clear_pointer (&self->top_down, jsui_stack_tree_unref);
  g_clear_pointer (&self->bottom_up, jsui_stack_tree_unref);

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
  g_type_ensure (JSUI_TYPE_SAMPLES_STRIP);
  g_type_ensure (JSUI_TYPE_PARTS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/ui/jsui-stacks-view.ui");
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, stack);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, title_label);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, tree_view);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, stacks_paned);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, self_column);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, samples_strip);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, parts_view);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, bottom_up_button);
  gtk_widget_class_bind_template_child (widget_class, JsuiStacksView, whole_button);
  gtk_widget_class_bind_template_callback (widget_class, whole_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, bottom_up_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, node_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, part_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, function_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, function_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, number_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, time_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, percent_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, self_bind_cb);
  gtk_widget_class_set_css_name (widget_class, "jankscope-stacks");
}

static void
jsui_stacks_view_init (JsuiStacksView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The tree's columns need about 420 px of a 1000 px window; the flame
   * graph, as wide as it can be, the rest. */
  jsui_pane_keep_ratio (self->stacks_paned, JSUI_STACKS_TREE_SHARE);

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

static void
show_empty (JsuiStacksView *self, const char *message)
{
  g_list_store_remove_all (self->roots);
  jsui_flame_graph_set_tree (self->flame_graph, NULL);
  jsui_samples_strip_set_event (self->samples_strip, NULL, NULL);
  gtk_label_set_text (self->empty_label, message);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* The tree of the direction chosen, into the rows. */
static void
show_tree (JsuiStacksView *self)
{
  JsuiStackTree *tree;
  g_autoptr (JsuiStackItem) root = NULL;

  /* Inverted here only when shown (linear in the tree): the snapshot's
   * events come with theirs, the frame details merge them when bottom-up
   * is on. */
  if (self->show_bottom_up && self->bottom_up == NULL && self->top_down != NULL)
    self->bottom_up = jsui_stack_tree_bottom_up (self->top_down);
  tree = self->show_bottom_up ? self->bottom_up : self->top_down;

  g_list_store_remove_all (self->roots);
  if (tree == NULL)
    return;
  root = jsui_stack_item_new (tree, tree->root);
  g_list_store_append (self->roots, root);
  expand_heaviest (self->rows);
  /* Self is where samples ended: the first level of a bottom-up tree. */
  gtk_column_view_column_set_visible (self->self_column, !self->show_bottom_up);
}

/* The tree's accessible name says which direction it shows. */
static void
update_tree_label (JsuiStacksView *self)
{
  gtk_accessible_update_property (
      GTK_ACCESSIBLE (self->tree_view), GTK_ACCESSIBLE_PROPERTY_LABEL,
      self->show_bottom_up ? _ ("Stacks, bottom-up") : _ ("Stacks, top-down"), -1);
}

static void
show_trees (JsuiStacksView *self, JsuiStackTree *top_down, JsuiStackTree *bottom_up,
            const char *title, const char *empty_message)
{
  if (top_down != NULL)
    jsui_stack_tree_ref (top_down);
  if (bottom_up != NULL)
    jsui_stack_tree_ref (bottom_up);
  g_clear_pointer (&self->top_down, jsui_stack_tree_unref);
  g_clear_pointer (&self->bottom_up, jsui_stack_tree_unref);
  self->top_down = top_down;
  self->bottom_up = bottom_up;

  if (self->top_down == NULL || self->top_down->root->total == 0)
    {
      show_empty (self, empty_message != NULL ? empty_message
                                              : _ ("No stacks were sampled during this event"));
      return;
    }
  show_tree (self);
  jsui_flame_graph_set_tree (self->flame_graph, self->top_down);
  jsui_samples_strip_set_event (self->samples_strip, self->event != NULL ? self->snapshot : NULL,
                                self->event);
  gtk_widget_set_visible (GTK_WIDGET (self->samples_strip), self->event != NULL);
  gtk_label_set_text (self->title_label, title != NULL ? title : "");
  gtk_stack_set_visible_child_name (self->stack, "stacks");
}

void
jsui_stacks_view_set_trees (JsuiStacksView *self, JsuiStackTree *top_down, JsuiStackTree *bottom_up,
                            const char *title, const char *empty_message)
{
  g_return_if_fail (JSUI_IS_STACKS_VIEW (self));

  self->event = NULL;
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  jsui_parts_view_set_event (self->parts_view, NULL, NULL);
  show_trees (self, top_down, bottom_up, title, empty_message);
}

/* Stacks that samples ended in: the nodes with time or samples of their own. */
static guint
count_stacks (const JsuiStackNode *node)
{
  guint n = node->self > 0 || node->self_samples > 0;

  for (guint i = 0; i < node->children->len; i++)
    n += count_stacks (g_ptr_array_index (node->children, i));
  return n;
}

/* "Event 4: 360.0 ms in 26 stacks": the attributed time (the tree's root,
 * what `jankscope report` and every export show) and the stacks. */
static char *
tree_title (const JsrReportEvent *event, const JsrReportPart *part, guint part_number,
            const JsuiStackTree *tree)
{
  g_autofree char *time = jsui_format_duration (tree->root->total);
  guint k = count_stacks (tree->root);
  g_autofree char *stacks
      = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u stack", "%u stacks", k), k);

  if (part != NULL)
    /* Translators: the stacks pane's title for one part of an event: event
     * id, part number, its callback, its attributed time, "N stacks" */
    return g_strdup_printf (_ ("Event %lld, part %u (%s): %s in %s"), (long long) event->id,
                            part_number,
                            jsr_dispatch_label (part->callback, part->source) != NULL
                                ? jsr_dispatch_label (part->callback, part->source)
                                : "–",
                            time, stacks);
  /* Translators: the stacks pane's title: event id, its attributed time, "N stacks" */
  return g_strdup_printf (_ ("Event %lld: %s in %s"), (long long) event->id, time, stacks);
}

/* The whole event's trees (part < 0) or one part's. */
static void
show_part (JsuiStacksView *self, int part)
{
  const JsrReportEvent *event = self->event;
  g_autoptr (JsuiStackTree) built = NULL;
  JsuiStackTree *top_down = NULL, *bottom_up = NULL;
  g_autofree char *title = NULL;

  if (event == NULL)
    return;
  if (part >= 0)
    {
      top_down = built = jsui_stack_tree_from_part (event, (guint) part, self->whole_stacks);
      if (built == NULL)
        {
          show_trees (self, NULL, NULL, NULL, _ ("No stacks were sampled during this part"));
          return;
        }
      title = tree_title (event, g_ptr_array_index (event->parts, part), (guint) part + 1, built);
      show_trees (self, top_down, NULL, title, _ ("No stacks were sampled during this part"));
      return;
    }

  /* Aggregated with the snapshot, in its worker thread (from the
   * dispatched callback); whole stacks on demand. */
  if (self->snapshot != NULL && !self->whole_stacks)
    {
      top_down = jsui_snapshot_get_tree (self->snapshot, event, FALSE);
      bottom_up = jsui_snapshot_get_tree (self->snapshot, event, TRUE);
    }
  if (top_down == NULL)
    top_down = built = jsui_stack_tree_from_event (event, self->whole_stacks);
  if (top_down == NULL)
    {
      show_trees (self, NULL, NULL, NULL, _ ("No stacks were sampled during this event"));
      return;
    }
  title = tree_title (event, NULL, 0, top_down);
  show_trees (self, top_down, bottom_up, title, NULL);
}

void
jsui_stacks_view_set_event (JsuiStacksView *self, JsuiSnapshot *snapshot,
                            const JsrReportEvent *event)
{
  g_return_if_fail (JSUI_IS_STACKS_VIEW (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;
  self->event = snapshot != NULL ? event : NULL;

  /* The parts list keeps its selection for the same event (a refresh). */
  jsui_parts_view_set_event (self->parts_view, self->snapshot, self->event);
  if (event == NULL || event->detail == NULL || event->detail->profile == NULL)
    {
      show_trees (self, NULL, NULL, NULL,
                  event == NULL ? _ ("Select a jank event to see its stacks")
                                : _ ("No stacks were sampled during this event"));
      return;
    }
  show_part (self, jsui_parts_view_get_selected (self->parts_view));
}

void
jsui_stacks_view_set_bottom_up (JsuiStacksView *self, gboolean bottom_up)
{
  g_return_if_fail (JSUI_IS_STACKS_VIEW (self));

  bottom_up = !!bottom_up;
  if (gtk_toggle_button_get_active (self->bottom_up_button) != bottom_up)
    gtk_toggle_button_set_active (self->bottom_up_button, bottom_up); /* comes back here */
  if (self->show_bottom_up == bottom_up)
    return;
  self->show_bottom_up = bottom_up;
  update_tree_label (self);
  show_tree (self);
}

void
jsui_stacks_view_set_whole_stacks (JsuiStacksView *self, gboolean whole)
{
  g_return_if_fail (JSUI_IS_STACKS_VIEW (self));

  whole = !!whole;
  if (gtk_toggle_button_get_active (self->whole_button) != whole)
    gtk_toggle_button_set_active (self->whole_button, whole); /* comes back here */
  if (self->whole_stacks == whole)
    return;
  self->whole_stacks = whole;
  if (self->event != NULL)
    show_part (self, jsui_parts_view_get_selected (self->parts_view));
}

gboolean
jsui_stacks_view_get_whole_stacks (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), FALSE);
  return self->whole_stacks;
}

static void
whole_toggled_cb (GtkToggleButton *button, JsuiStacksView *self)
{
  jsui_stacks_view_set_whole_stacks (self, gtk_toggle_button_get_active (button));
}

gboolean
jsui_stacks_view_get_bottom_up (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), FALSE);
  return self->show_bottom_up;
}

/* Follows a path of (name, module) down the rows from the root, opening them. */
static GtkTreeListRow *
open_path (JsuiStacksView *self, GPtrArray *names, GPtrArray *modules)
{
  GtkTreeListRow *row = gtk_tree_list_model_get_row (self->rows, 0);

  for (guint i = 0; row != NULL && i < names->len; i++)
    {
      g_autoptr (JsuiStackItem) item = gtk_tree_list_row_get_item (row);
      const JsuiStackNode *node = jsui_stack_item_get_node (item);
      GtkTreeListRow *next = NULL;

      gtk_tree_list_row_set_expanded (row, TRUE);
      for (guint c = 0; c < node->children->len; c++)
        {
          const JsuiStackNode *child = g_ptr_array_index (node->children, c);

          /* the tree keys on both: the same name may be in two modules */
          if (g_strcmp0 (child->name, g_ptr_array_index (names, i)) == 0
              && g_strcmp0 (child->module, g_ptr_array_index (modules, i)) == 0)
            {
              next = gtk_tree_list_row_get_child_row (row, c);
              break;
            }
        }
      g_object_unref (row);
      row = next;
    }
  return row;
}

/* open_path of a whole stack (callers first top-down, the leaf first
 * bottom-up) in a tree that may start at the dispatched callback: the
 * whole path, else without its outermost frames, as few as it takes. */
static GtkTreeListRow *
open_stack_path (JsuiStacksView *self, GPtrArray *names, GPtrArray *modules)
{
  GtkTreeListRow *row = open_path (self, names, modules);

  for (guint cut = 1; row == NULL && !self->whole_stacks && cut < names->len; cut++)
    {
      g_autoptr (GPtrArray) n = g_ptr_array_new ();
      g_autoptr (GPtrArray) m = g_ptr_array_new ();
      guint from = self->show_bottom_up ? 0 : cut;
      guint to = self->show_bottom_up ? names->len - cut : names->len;

      for (guint i = from; i < to; i++)
        {
          g_ptr_array_add (n, g_ptr_array_index (names, i));
          g_ptr_array_add (m, g_ptr_array_index (modules, i));
        }
      row = open_path (self, n, m);
    }
  return row;
}

gboolean
jsui_stacks_view_select_stack (JsuiStacksView *self, int stack_index)
{
  const JsrReportStack *stack;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  g_autoptr (GtkTreeListRow) row = NULL;

  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), FALSE);

  if (self->event == NULL || self->event->detail == NULL || stack_index < 0
      || (guint) stack_index >= self->event->detail->stacks->len)
    return FALSE;
  stack = g_ptr_array_index (self->event->detail->stacks, stack_index);
  /* The tree's path: callers first top-down, the leaf first bottom-up
   * (jankscope's own frames are not in the tree). */
  for (guint i = 0; i < stack->frames->len; i++)
    {
      guint k = self->show_bottom_up ? i : stack->frames->len - 1 - i;
      const JsrReportFrame *f = g_ptr_array_index (stack->frames, k);

      if (!jsui_frame_is_own (f))
        {
          g_ptr_array_add (names, jsui_frame_name (f));
          g_ptr_array_add (modules, f->module);
        }
    }
  row = open_stack_path (self, names, modules);
  if (row == NULL)
    return FALSE;
  gtk_single_selection_set_selected (self->selection, gtk_tree_list_row_get_position (row));
  return TRUE;
}

gboolean
jsui_stacks_view_select_node (JsuiStacksView *self, int node)
{
  const JsrProfile *profile;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  g_autoptr (GtkTreeListRow) row = NULL;

  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), FALSE);

  profile
      = self->event != NULL && self->event->detail != NULL ? self->event->detail->profile : NULL;
  if (profile == NULL || node < 0 || (guint) node >= profile->nodes->len)
    return FALSE;
  jsr_profile_path (profile, (guint) node, path);
  /* The tree's path: callers first top-down, the leaf first bottom-up
   * (jankscope's own frames are not in the tree). */
  for (guint i = 0; i < path->len; i++)
    {
      const JsrProfileNode *n
          = g_ptr_array_index (path, self->show_bottom_up ? i : path->len - 1 - i);
      const JsrReportFrame *f
          = n->frame >= 0 ? g_ptr_array_index (profile->frames, n->frame) : NULL;

      if (f != NULL && jsui_frame_is_own (f))
        continue;
      g_ptr_array_add (names, f != NULL ? jsui_frame_name (f)
                                        : g_strdup (n->frame == JSR_PROFILE_TRUNCATED
                                                        ? JSR_PROFILE_TRUNCATED_NAME
                                                        : JSR_PROFILE_OTHER_NAME));
      g_ptr_array_add (modules, f != NULL ? f->module : NULL);
    }
  row = open_stack_path (self, names, modules);
  if (row == NULL)
    return FALSE;
  gtk_single_selection_set_selected (self->selection, gtk_tree_list_row_get_position (row));
  return TRUE;
}

JsuiPartsView *
jsui_stacks_view_get_parts_view (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return self->parts_view;
}

guint
jsui_stacks_view_get_selected_row (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), GTK_INVALID_LIST_POSITION);
  return gtk_single_selection_get_selected (self->selection);
}

JsuiSamplesStrip *
jsui_stacks_view_get_samples_strip (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return self->samples_strip;
}

GListModel *
jsui_stacks_view_get_rows (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return G_LIST_MODEL (self->rows);
}

GtkPaned *
jsui_stacks_view_get_paned (JsuiStacksView *self)
{
  g_return_val_if_fail (JSUI_IS_STACKS_VIEW (self), NULL);
  return self->stacks_paned;
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
