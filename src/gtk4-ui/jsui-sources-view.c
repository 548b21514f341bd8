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

  /* The rows, by source: "source\x1fcallback" -> JsuiSource (in `sources`) */
  GHashTable *by_key;
  /* The newest snapshot, not shown yet: set while the page is not mapped
   * (applied on map); `has_pending` tells a pending NULL from none. */
  JsuiSnapshot *pending;
  gboolean has_pending;
  /* The values changed since the rows were last sorted: re-sorted at most
   * every SORT_INTERVAL_US (sorting 200 rows rebinds them all). */
  gint64 sorted_at;
  guint sort_id;
  guint n_created; /* JsuiSource objects created, for the tests */
};

#define SORT_INTERVAL_US (2 * G_USEC_PER_SEC)

G_DEFINE_FINAL_TYPE (JsuiSourcesView, jsui_sources_view, GTK_TYPE_WIDGET)

/* The cells follow their JsuiSource's properties (expressions bound in
 * setup): a refresh updates the sources in place and only the labels whose
 * number changed, of the rows instantiated, are redrawn. */
static GtkExpression *
item_property (const char *property)
{
  return gtk_property_expression_new (
      JSUI_TYPE_SOURCE, gtk_property_expression_new (GTK_TYPE_LIST_ITEM, NULL, "item"), property);
}

static GtkWidget *
new_label (GtkListItem *list_item, float xalign)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_list_item_set_child (list_item, label);
  return label;
}

static void
name_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = new_label (list_item, 0);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  /* the label never changes for a source: bound once */
  gtk_expression_bind (item_property ("label"), label, "label", list_item);
  gtk_expression_bind (item_property ("label"), label, "tooltip-text", list_item);
}

static char *
format_count (GtkListItem *list_item, gint64 count)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, count);
}

static char *
format_duration (GtkListItem *list_item, gint64 ns)
{
  return jsui_format_duration (ns);
}

static void
number_setup (GtkListItem *list_item, const char *property, GCallback format)
{
  GtkWidget *label = new_label (list_item, 1);
  GtkExpression *value = item_property (property);

  gtk_widget_add_css_class (label, "numeric");
  gtk_expression_bind (
      gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 1, &value, format, NULL, NULL), label,
      "label", list_item);
}

static void
count_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  number_setup (list_item, "count", G_CALLBACK (format_count));
}

static void
total_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  number_setup (list_item, "total-ns", G_CALLBACK (format_duration));
}

static void
mean_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  number_setup (list_item, "mean-ns", G_CALLBACK (format_duration));
}

static void
p95_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  number_setup (list_item, "p95-ns", G_CALLBACK (format_duration));
}

static void
max_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  number_setup (list_item, "max-ns", G_CALLBACK (format_duration));
}

static void jsui_sources_view_map (GtkWidget *widget);

static void
jsui_sources_view_dispose (GObject *object)
{
  JsuiSourcesView *self = JSUI_SOURCES_VIEW (object);

  g_clear_handle_id (&self->sort_id, g_source_remove);
  g_clear_pointer (&self->pending, jsui_snapshot_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
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
  widget_class->map = jsui_sources_view_map;

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
  CALLBACK (count_setup_cb);
  CALLBACK (total_setup_cb);
  CALLBACK (mean_setup_cb);
  CALLBACK (p95_setup_cb);
  CALLBACK (max_setup_cb);
#undef CALLBACK
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-sources");
}

static void
jsui_sources_view_init (JsuiSourcesView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->sources = g_list_store_new (JSUI_TYPE_SOURCE);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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

static char *
source_key (const JsrReportSource *source)
{
  return g_strdup_printf ("%c%s\x1f%c%s", source->source != NULL ? 's' : '-',
                          source->source != NULL ? source->source : "",
                          source->callback != NULL ? 'c' : '-',
                          source->callback != NULL ? source->callback : "");
}

static void
resort (JsuiSourcesView *self)
{
  g_clear_handle_id (&self->sort_id, g_source_remove);
  self->sorted_at = g_get_monotonic_time ();
  gtk_sorter_changed (gtk_column_view_get_sorter (self->view), GTK_SORTER_CHANGE_DIFFERENT);
}

static gboolean
resort_cb (gpointer data)
{
  JsuiSourcesView *self = data;

  self->sort_id = 0;
  resort (self);
  return G_SOURCE_REMOVE;
}

/* Numbers changed in place: the sort model does not watch its items. */
static void
queue_resort (JsuiSourcesView *self)
{
  gint64 wait = self->sorted_at + SORT_INTERVAL_US - g_get_monotonic_time ();

  if (wait <= 0)
    resort (self);
  else if (self->sort_id == 0)
    {
      /* Bounded by time (every SORT_INTERVAL_US at most), so at the
       * priority of the app's events: at G_PRIORITY_LOW it would never run
       * in an app that always has a frame to draw. */
      self->sort_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) (wait / 1000) + 1, resort_cb,
                                          self, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->sort_id),
                                "[jankscope-ui] sources-sort");
    }
}

static void
set_summary (JsuiSourcesView *self, JsuiSnapshot *snapshot, guint n)
{
  g_autofree char *summary = NULL;

  if (snapshot != NULL && snapshot->report->sources_truncated > 0)
    /* Translators: the sources page's footer */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u source, by own dispatch time; %lld more left out "
                                            "of the report",
                                            "%u sources, by own dispatch time; %lld more left out "
                                            "of the report",
                                            n),
                               n, (long long) snapshot->report->sources_truncated);
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u source, by own dispatch time",
                                            "%u sources, by own dispatch time", n),
                               n);
  gtk_label_set_text (self->summary_label, summary);
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
}

/* The rows become the snapshot's sources: the ones shown already are
 * updated in place (their cells follow), new ones added; the store is
 * spliced only when sources came or went. */
static void
apply (JsuiSourcesView *self, JsuiSnapshot *snapshot)
{
  GPtrArray *sources = snapshot != NULL ? snapshot->report->sources : NULL;
  guint n = sources != NULL ? sources->len : 0;
  g_autoptr (GHashTable) next = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);
  gboolean members_changed = FALSE, values_changed = FALSE;

  for (guint i = 0; i < n; i++)
    {
      const JsrReportSource *src = g_ptr_array_index (sources, i);
      char *key = source_key (src);
      JsuiSource *item = NULL;
      gpointer old_key;

      /* the same pair twice (a hostile report): a key of its own */
      while (g_hash_table_contains (next, key))
        {
          char *longer = g_strconcat (key, "\x1f", NULL);

          g_free (key);
          key = longer;
        }
      if (g_hash_table_steal_extended (self->by_key, key, &old_key, (gpointer *) &item))
        {
          g_free (old_key);
          values_changed |= jsui_source_update (item, src);
          g_object_ref (item);
        }
      else
        {
          item = jsui_source_new (src);
          self->n_created++;
          members_changed = TRUE;
        }
      g_hash_table_insert (next, key, item);
      g_ptr_array_add (items, item);
    }
  members_changed |= g_hash_table_size (self->by_key) > 0; /* some went */
  g_hash_table_unref (self->by_key);
  self->by_key = g_steal_pointer (&next);

  if (members_changed)
    {
      /* sorted on insertion by the sort model */
      g_list_store_splice (self->sources, 0,
                           g_list_model_get_n_items (G_LIST_MODEL (self->sources)), items->pdata,
                           items->len);
      self->sorted_at = g_get_monotonic_time ();
    }
  else if (values_changed)
    queue_resort (self);
  set_summary (self, snapshot, n);
}

static void
apply_pending (JsuiSourcesView *self)
{
  g_autoptr (JsuiSnapshot) snapshot = g_steal_pointer (&self->pending);

  if (!self->has_pending)
    return;
  self->has_pending = FALSE;
  apply (self, snapshot);
}

static void
jsui_sources_view_map (GtkWidget *widget)
{
  JsuiSourcesView *self = JSUI_SOURCES_VIEW (widget);

  GTK_WIDGET_CLASS (jsui_sources_view_parent_class)->map (widget);
  apply_pending (self);
}

void
jsui_sources_view_set_snapshot (JsuiSourcesView *self, JsuiSnapshot *snapshot)
{
  g_return_if_fail (JSUI_IS_SOURCES_VIEW (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->pending, jsui_snapshot_unref);
  self->pending = snapshot;
  self->has_pending = TRUE;
  /* Hidden (another page, a closed Inspector): nothing to do until shown. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    apply_pending (self);
}

guint
jsui_sources_view_get_n_created (JsuiSourcesView *self)
{
  g_return_val_if_fail (JSUI_IS_SOURCES_VIEW (self), 0);
  return self->n_created;
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
