/* jsui-sources-view.c
 *
 * The sorters are the columns' own (data/gtk4-ui/jsui-sources-view.ui:
 * expressions on JsuiSource's properties); the column view combines them
 * into its sorter, which sorts the model.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-format.h"
#include "jsui-items.h"
#include "jsui-sources-view.h"

struct _JsuiSourcesView
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkLabel *summary_label;
  GtkColumnView *view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *count_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *mean_column;
  GtkColumnViewColumn *p95_column;
  GtkColumnViewColumn *max_column;

  GListStore *sources;
  GtkSortListModel *sorted;
  GtkNoSelection *selection;
};

G_DEFINE_FINAL_TYPE (JsuiSourcesView, jsui_sources_view, GTK_TYPE_WIDGET)

static JsuiSource *
source_of (GtkListItem *list_item)
{
  return JSUI_SOURCE (gtk_list_item_get_item (list_item));
}

static void
name_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
name_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const char *text = jsui_source_get_label (source_of (list_item));

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
number_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
set_number (GtkListItem *list_item, char *text)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
  g_free (text);
}

static void
count_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_number (list_item, g_strdup_printf ("%" G_GINT64_FORMAT,
                                          jsui_source_get_source (source_of (list_item))->count));
}

static void
total_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_number (list_item,
              jsui_format_duration (jsui_source_get_source (source_of (list_item))->total_ns));
}

static void
mean_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_number (list_item, jsui_format_duration (jsui_source_get_mean_ns (source_of (list_item))));
}

static void
p95_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_number (list_item,
              jsui_format_duration (jsui_source_get_source (source_of (list_item))->p95_ns));
}

static void
max_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_number (list_item,
              jsui_format_duration (jsui_source_get_source (source_of (list_item))->max_ns));
}

static void
jsui_sources_view_dispose (GObject *object)
{
  JsuiSourcesView *self = JSUI_SOURCES_VIEW (object);

  if (self->view != NULL)
    gtk_column_view_set_model (self->view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->sources);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_SOURCES_VIEW);
  G_OBJECT_CLASS (jsui_sources_view_parent_class)->dispose (object);
}

static void
jsui_sources_view_class_init (JsuiSourcesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_sources_view_dispose;

  g_type_ensure (JSUI_TYPE_SOURCE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/ui/jsui-sources-view.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, JsuiSourcesView, name)
  CHILD (stack);
  CHILD (summary_label);
  CHILD (view);
  CHILD (name_column);
  CHILD (count_column);
  CHILD (total_column);
  CHILD (mean_column);
  CHILD (p95_column);
  CHILD (max_column);
#undef CHILD
#define CALLBACK(name) gtk_widget_class_bind_template_callback (widget_class, name)
  CALLBACK (name_setup_cb);
  CALLBACK (name_bind_cb);
  CALLBACK (number_setup_cb);
  CALLBACK (count_bind_cb);
  CALLBACK (total_bind_cb);
  CALLBACK (mean_bind_cb);
  CALLBACK (p95_bind_cb);
  CALLBACK (max_bind_cb);
#undef CALLBACK
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-sources");
}

static void
jsui_sources_view_init (JsuiSourcesView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->sources = g_list_store_new (JSUI_TYPE_SOURCE);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->sources)),
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  self->selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->view, self->total_column, GTK_SORT_DESCENDING);
}

GtkWidget *
jsui_sources_view_new (void)
{
  return g_object_new (JSUI_TYPE_SOURCES_VIEW, NULL);
}

void
jsui_sources_view_set_snapshot (JsuiSourcesView *self, JsuiSnapshot *snapshot)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *sources = snapshot != NULL ? snapshot->report->sources : NULL;
  g_autofree char *summary = NULL;

  g_return_if_fail (JSUI_IS_SOURCES_VIEW (self));

  for (guint i = 0; sources != NULL && i < sources->len; i++)
    g_ptr_array_add (items, jsui_source_new (g_ptr_array_index (sources, i)));
  g_list_store_splice (self->sources, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sources)),
                       items->pdata, items->len);

  if (snapshot != NULL && snapshot->report->sources_truncated > 0)
    /* Translators: the sources page's footer */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u source, by own dispatch time; %lld more left out "
                                            "of the report",
                                            "%u sources, by own dispatch time; %lld more left out "
                                            "of the report",
                                            items->len),
                               items->len, (long long)snapshot->report->sources_truncated);
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u source, by own dispatch time",
                                            "%u sources, by own dispatch time", items->len),
                               items->len);
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->stack, items->len > 0 ? "list" : "empty");
}

GListModel *
jsui_sources_view_get_rows (JsuiSourcesView *self)
{
  g_return_val_if_fail (JSUI_IS_SOURCES_VIEW (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

gboolean
jsui_sources_view_sort_by (JsuiSourcesView *self, const char *column, GtkSortType order)
{
  const struct
  {
    const char *name;
    GtkColumnViewColumn *column;
  } columns[] = {
    { "name", self->name_column }, { "count", self->count_column }, { "total", self->total_column },
    { "mean", self->mean_column }, { "p95", self->p95_column },     { "max", self->max_column },
  };

  g_return_val_if_fail (JSUI_IS_SOURCES_VIEW (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (g_strcmp0 (columns[i].name, column) == 0)
      {
        gtk_column_view_sort_by_column (self->view, columns[i].column, order);
        return TRUE;
      }
  return FALSE;
}
