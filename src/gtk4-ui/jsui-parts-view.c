/* jsui-parts-view.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-format.h"
#include "jsui-items.h"
#include "jsui-parts-view.h"

enum
{
  COLUMN_PART,
  COLUMN_START,
  COLUMN_DURATION,
  COLUMN_CALLBACK,
  COLUMN_CLASS,
  COLUMN_DIAGNOSIS,
  COLUMN_CULPRIT,
  COLUMN_ATTRIBUTED,
  N_COLUMNS
};

struct _JsuiPartsView
{
  GtkWidget parent_instance;

  GtkColumnView *view;
  GtkLabel *title_label;

  GListStore *parts;
  GtkSingleSelection *selection;
  gint64 event_id;   /* the event shown, 0: none */
  gboolean updating; /* the selection changes because of set_event */
};

G_DEFINE_FINAL_TYPE (JsuiPartsView, jsui_parts_view, GTK_TYPE_WIDGET)

enum
{
  PART_SELECTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static char *
cell_text (JsuiPart *item, guint column)
{
  const JsrReportEvent *ev = jsui_part_get_event (item);
  const JsrReportPart *part = jsui_part_get_part (item);
  char *text = NULL;

  switch (column)
    {
    case COLUMN_PART:
      return g_strdup_printf ("%u", jsui_part_get_index (item) + 1);
    case COLUMN_START:
      /* Translators: a part's start from its event's, in seconds */
      return g_strdup_printf (_ ("+%.3f s"), part->start_ns >= ev->start_ns
                                                 ? (part->start_ns - ev->start_ns) / 1e9
                                                 : 0.0);
    case COLUMN_DURATION:
      return jsui_format_duration (part->duration_ns);
    case COLUMN_CALLBACK:
      text = g_strdup (jsr_dispatch_label (part->callback, part->source));
      break;
    case COLUMN_CLASS:
      text = jsui_format_class (part->klass, part->wait);
      break;
    case COLUMN_DIAGNOSIS:
      text = jsui_format_diagnosis (part->diagnosis);
      break;
    case COLUMN_CULPRIT:
      text = jsui_format_posted_from (jsui_format_culprit (part->culprit), part->posted_from);
      break;
    case COLUMN_ATTRIBUTED:
      return jsui_format_duration (part->attributed_ns);
    default:
      g_return_val_if_reached (NULL);
    }
  return text != NULL ? text : g_strdup ("–");
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer column)
{
  GtkWidget *label = gtk_label_new (NULL);
  guint c = GPOINTER_TO_UINT (column);

  gtk_label_set_xalign (GTK_LABEL (label), c == COLUMN_PART || c == COLUMN_START
                                                   || c == COLUMN_DURATION || c == COLUMN_ATTRIBUTED
                                               ? 1
                                               : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (c != COLUMN_CALLBACK && c != COLUMN_CLASS && c != COLUMN_DIAGNOSIS && c != COLUMN_CULPRIT)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer column)
{
  g_autofree char *text = cell_text (gtk_list_item_get_item (list_item), GPOINTER_TO_UINT (column));
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text);
  /* The full text when it is cut; a diagnosis's fix. */
  if (GPOINTER_TO_UINT (column) == COLUMN_DIAGNOSIS)
    {
      g_autofree char *fix = jsui_format_diagnosis_fix (
          jsui_part_get_part (gtk_list_item_get_item (list_item))->diagnosis);

      gtk_widget_set_tooltip_text (label, fix);
    }
  else
    gtk_widget_set_tooltip_text (label, text);
}

static void
add_column (JsuiPartsView *self, guint column, const char *title, gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *c;

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GUINT_TO_POINTER (column));
  c = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (c, expand);
  gtk_column_view_column_set_resizable (c, TRUE);
  gtk_column_view_append_column (self->view, c);
  g_object_unref (c);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, JsuiPartsView *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[PART_SELECTED], 0, jsui_parts_view_get_selected (self));
}

static void
jsui_parts_view_dispose (GObject *object)
{
  JsuiPartsView *self = JSUI_PARTS_VIEW (object);

  GtkWidget *child;

  g_clear_object (&self->selection);
  g_clear_object (&self->parts);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_PARTS_VIEW);
  /* The template's children that are not bound (the scrolled window). */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (jsui_parts_view_parent_class)->dispose (object);
}

static void
jsui_parts_view_class_init (JsuiPartsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_parts_view_dispose;

  /**
   * JsuiPartsView::part-selected:
   * @index: the part's index in the event's parts, -1: none (the whole event)
   */
  signals[PART_SELECTED]
      = g_signal_new ("part-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/ui/jsui-parts-view.ui");
  gtk_widget_class_bind_template_child (widget_class, JsuiPartsView, view);
  gtk_widget_class_bind_template_child (widget_class, JsuiPartsView, title_label);
  gtk_widget_class_set_css_name (widget_class, "jankscope-parts");
}

static void
jsui_parts_view_init (JsuiPartsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Translators: the columns of an event's parts list */
  add_column (self, COLUMN_PART, C_ ("parts", "Part"), FALSE);
  add_column (self, COLUMN_START, C_ ("parts", "Start"), FALSE);
  add_column (self, COLUMN_DURATION, C_ ("parts", "Duration"), FALSE);
  add_column (self, COLUMN_CALLBACK, C_ ("parts", "Callback"), TRUE);
  add_column (self, COLUMN_CLASS, C_ ("parts", "Class"), FALSE);
  add_column (self, COLUMN_DIAGNOSIS, C_ ("parts", "Diagnosis"), TRUE);
  add_column (self, COLUMN_CULPRIT, C_ ("parts", "Culprit"), TRUE);
  add_column (self, COLUMN_ATTRIBUTED, C_ ("parts", "Attributed"), FALSE);

  self->parts = g_list_store_new (JSUI_TYPE_PART);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->parts)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
}

GtkWidget *
jsui_parts_view_new (void)
{
  return g_object_new (JSUI_TYPE_PARTS_VIEW, NULL);
}

void
jsui_parts_view_set_event (JsuiPartsView *self, JsuiSnapshot *snapshot, const JsrReportEvent *event)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  int keep = -1;
  guint n = snapshot != NULL && event != NULL && event->parts != NULL ? event->parts->len : 0;
  gint64 count = event != NULL ? MAX (event->parts_count, (gint64) n) : 0;
  g_autofree char *title = NULL;

  g_return_if_fail (JSUI_IS_PARTS_VIEW (self));

  if (event != NULL && event->id == self->event_id)
    keep = jsui_parts_view_get_selected (self);
  self->event_id = event != NULL ? event->id : 0;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, jsui_part_new (snapshot, event, i));

  self->updating = TRUE;
  g_list_store_splice (self->parts, 0, g_list_model_get_n_items (G_LIST_MODEL (self->parts)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (
      self->selection, keep >= 0 && (guint) keep < n ? (guint) keep : GTK_INVALID_LIST_POSITION);
  self->updating = FALSE;

  if (count > (gint64) n)
    /* Translators: the parts list's title when the report left some out */
    title
        = g_strdup_printf (_ ("Parts: %u of %lld, each with its own cause"), n, (long long) count);
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u part, each with its own cause",
                                          "%u parts, each with its own cause", n),
                             n);
  gtk_label_set_text (self->title_label, title);
  gtk_widget_set_visible (GTK_WIDGET (self), n >= 2);
}

void
jsui_parts_view_select (JsuiPartsView *self, int index)
{
  g_return_if_fail (JSUI_IS_PARTS_VIEW (self));

  gtk_single_selection_set_selected (self->selection,
                                     index >= 0 ? (guint) index : GTK_INVALID_LIST_POSITION);
}

int
jsui_parts_view_get_selected (JsuiPartsView *self)
{
  guint selected;

  g_return_val_if_fail (JSUI_IS_PARTS_VIEW (self), -1);

  selected = gtk_single_selection_get_selected (self->selection);
  return selected != GTK_INVALID_LIST_POSITION ? (int) selected : -1;
}

GListModel *
jsui_parts_view_get_parts (JsuiPartsView *self)
{
  g_return_val_if_fail (JSUI_IS_PARTS_VIEW (self), NULL);
  return G_LIST_MODEL (self->parts);
}

char *
jsui_parts_view_cell_text (JsuiPartsView *self, guint index, guint column)
{
  g_autoptr (JsuiPart) item = NULL;

  g_return_val_if_fail (JSUI_IS_PARTS_VIEW (self), NULL);

  if (column >= N_COLUMNS
      || (item = g_list_model_get_item (G_LIST_MODEL (self->parts), index)) == NULL)
    return NULL;
  return cell_text (item, column);
}
