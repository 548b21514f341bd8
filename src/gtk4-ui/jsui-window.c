/* jsui-window.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "jsui-format.h"
#include "jsui-items.h"
#include "jsui-window.h"

struct _JsuiWindow
{
  GtkWindow parent_instance;

  /* template children */
  GtkLabel *title_label;
  GtkLabel *status_label;
  GtkLabel *p50_value;
  GtkLabel *p95_value;
  GtkLabel *p99_value;
  GtkLabel *slow_value;
  GtkLabel *frozen_value;
  GtkLabel *hangs_value;
  GtkLabel *overhead_value;
  GtkScrolledWindow *timeline_scroller;
  JsuiTimeline *timeline;
  GtkStack *list_stack;
  GtkColumnView *jank_view;
  JsuiStacksView *stacks_view;

  JsuiSnapshot *snapshot;
  GListStore *events;
  GtkSingleSelection *selection;
  gint64 selected_id;
  /* What the stacks view shows, to leave it (and its expanded rows) alone
   * when a refresh brings nothing new about it. */
  gint64 shown_id;
  gint64 shown_samples;
  guint shown_stacks;
  gboolean follow_timeline;             /* keep the newest frames in view */
  double timeline_upper, timeline_page; /* the scroller's extent last seen */
  guint follow_idle;
  gboolean refreshing; /* the selection changes because of a refresh */
};

G_DEFINE_FINAL_TYPE (JsuiWindow, jsui_window, GTK_TYPE_WINDOW)

static const CliReportEvent *
event_of (GtkListItem *list_item)
{
  return jsui_event_get_event (JSUI_EVENT (gtk_list_item_get_item (list_item)));
}

static JsuiSnapshot *
snapshot_of (GtkListItem *list_item)
{
  return jsui_event_get_snapshot (JSUI_EVENT (gtk_list_item_get_item (list_item)));
}

static void
set_cell (GtkListItem *list_item, const char *text)
{
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (list_item));

  gtk_label_set_text (label, text != NULL ? text : "–");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
time_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportEvent *ev = event_of (list_item);
  gint64 start = snapshot_of (list_item)->report->start_ns;
  g_autofree char *text = NULL;

  /* Translators: an event's time since the app started, in seconds */
  text = g_strdup_printf (_ ("%.1f s"),
                          start > 0 && ev->start_ns >= start ? (ev->start_ns - start) / 1e9 : 0.0);
  set_cell (list_item, text);
}

static void
duration_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  g_autofree char *text = jsui_format_duration (event_of (list_item)->duration_ns);

  set_cell (list_item, text);
}

static JsuiTier
tier_of (const CliReportEvent *ev)
{
  return jsui_tier_from_name (cli_tier_to_string (ev->tier));
}

static void
tier_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  JsuiTier tier = tier_of (event_of (list_item));
  const char *classes[] = { "tier", jsui_tier_css_name (tier), NULL };

  set_cell (list_item, jsui_tier_label (tier));
  gtk_widget_set_css_classes (label, classes);
}

static void
type_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportEvent *ev = event_of (list_item);

  set_cell (list_item, ev->ongoing ? _ ("stall under way") : ev->type);
}

static void
class_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportEvent *ev = event_of (list_item);
  g_autofree char *text = NULL;

  if (ev->klass != NULL && ev->wait != NULL)
    text = g_strdup_printf ("%s / %s", ev->klass, ev->wait);
  else
    text = g_strdup (ev->klass);
  set_cell (list_item, text);
}

static void
source_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportEvent *ev = event_of (list_item);
  g_autofree char *text = NULL;

  if (ev->source != NULL && ev->callback != NULL)
    text = g_strdup_printf ("%s (%s)", ev->source, ev->callback);
  else
    text = g_strdup (ev->source != NULL ? ev->source : ev->callback);
  set_cell (list_item, text);
}

static void
culprit_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportCulprit *c = event_of (list_item)->culprit;
  g_autofree char *text = NULL;

  if (c != NULL && c->function != NULL && c->file != NULL && c->line >= 0)
    text = g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ")", c->function, c->file, c->line);
  else if (c != NULL)
    text = g_strdup (c->function != NULL ? c->function : c->module);
  set_cell (list_item, text);
}

static void
confidence_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiWindow *self)
{
  const CliReportCulprit *c = event_of (list_item)->culprit;
  g_autofree char *text
      = c != NULL && c->confidence >= 0 ? jsui_format_percent (c->confidence) : NULL;

  set_cell (list_item, text);
}

static void
show_stacks (JsuiWindow *self, JsuiEvent *item)
{
  const CliReportEvent *ev = item != NULL ? jsui_event_get_event (item) : NULL;
  gint64 samples = ev != NULL ? ev->samples_total : 0;
  guint stacks = ev != NULL && ev->detail != NULL ? ev->detail->stacks->len : 0;

  self->selected_id = ev != NULL ? ev->id : 0;
  jsui_timeline_set_selected_event (self->timeline, self->selected_id);
  if (self->refreshing && self->shown_id == self->selected_id && self->shown_samples == samples
      && self->shown_stacks == stacks)
    return;
  self->shown_id = self->selected_id;
  self->shown_samples = samples;
  self->shown_stacks = stacks;
  jsui_stacks_view_set_event (self->stacks_view,
                              item != NULL ? jsui_event_get_snapshot (item) : NULL, ev);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, JsuiWindow *self)
{
  if (self->refreshing)
    return; /* jsui_window_set_snapshot () shows the stacks once, at the end */
  show_stacks (self, gtk_single_selection_get_selected_item (selection));
}

static void
timeline_event_activated_cb (JsuiTimeline *timeline, gint64 id, JsuiWindow *self)
{
  jsui_window_select_event (self, id);
}

static gboolean
follow_idle_cb (gpointer user_data)
{
  JsuiWindow *self = user_data;
  GtkAdjustment *adj = gtk_scrolled_window_get_hadjustment (self->timeline_scroller);

  self->follow_idle = 0;
  self->timeline_upper = gtk_adjustment_get_upper (adj);
  self->timeline_page = gtk_adjustment_get_page_size (adj);
  if (self->follow_timeline)
    gtk_adjustment_set_value (adj, self->timeline_upper - self->timeline_page);
  return G_SOURCE_REMOVE;
}

static void
scroller_changed_cb (GtkAdjustment *adj, JsuiWindow *self)
{
  self->timeline_upper = gtk_adjustment_get_upper (adj);
  self->timeline_page = gtk_adjustment_get_page_size (adj);
  /* The viewport changes its extent while it allocates, and would not
   * move its child for a value set now: scroll right after. */
  if (self->follow_timeline && self->follow_idle == 0)
    {
      self->follow_idle = g_idle_add_full (G_PRIORITY_DEFAULT, follow_idle_cb, self, NULL);
      g_source_set_name_by_id (self->follow_idle, "[jankscope-ui] follow");
    }
}

static void
scroller_value_changed_cb (GtkAdjustment *adj, JsuiWindow *self)
{
  double end = gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj);

  /* New frames or a resize move the value too: only a move within the
   * extent seen last is the user's. Scrolled back: stop following until
   * back at the end. */
  if (gtk_adjustment_get_upper (adj) != self->timeline_upper
      || gtk_adjustment_get_page_size (adj) != self->timeline_page)
    return;
  self->follow_timeline = gtk_adjustment_get_value (adj) >= end - JSUI_TIMELINE_STEP;
}

void
jsui_install_css (GdkDisplay *display)
{
  g_autoptr (GtkCssProvider) provider = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "jankscope-ui-css") != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/jankscope/ui/jankscope-ui.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "jankscope-ui-css", g_object_ref (provider),
                          g_object_unref);
}

static void
jsui_window_realize (GtkWidget *widget)
{
  GdkSurface *surface;

  GTK_WIDGET_CLASS (jsui_window_parent_class)->realize (widget);

  /* Before the first frame: the core looks at a clock when it first sees it. */
  surface = gtk_native_get_surface (GTK_NATIVE (widget));
  if (surface != NULL)
    {
      g_object_set_data (G_OBJECT (surface), JSUI_EXCLUDE_KEY, GINT_TO_POINTER (1));
      if (gdk_surface_get_frame_clock (surface) != NULL)
        g_object_set_data (G_OBJECT (gdk_surface_get_frame_clock (surface)), JSUI_EXCLUDE_KEY,
                           GINT_TO_POINTER (1));
    }
}

static void
jsui_window_dispose (GObject *object)
{
  JsuiWindow *self = JSUI_WINDOW (object);

  g_clear_handle_id (&self->follow_idle, g_source_remove);
  g_clear_object (&self->selection);
  g_clear_object (&self->events);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_WINDOW);
  G_OBJECT_CLASS (jsui_window_parent_class)->dispose (object);
}

static void
jsui_window_class_init (JsuiWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_window_dispose;
  widget_class->realize = jsui_window_realize;

  g_type_ensure (JSUI_TYPE_TIMELINE);
  g_type_ensure (JSUI_TYPE_STACKS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/jankscope/ui/jsui-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, JsuiWindow, name)
  CHILD (title_label);
  CHILD (status_label);
  CHILD (p50_value);
  CHILD (p95_value);
  CHILD (p99_value);
  CHILD (slow_value);
  CHILD (frozen_value);
  CHILD (hangs_value);
  CHILD (overhead_value);
  CHILD (timeline_scroller);
  CHILD (timeline);
  CHILD (list_stack);
  CHILD (jank_view);
  CHILD (stacks_view);
#undef CHILD
#define CALLBACK(name) gtk_widget_class_bind_template_callback (widget_class, name)
  CALLBACK (cell_setup_cb);
  CALLBACK (time_bind_cb);
  CALLBACK (duration_bind_cb);
  CALLBACK (tier_bind_cb);
  CALLBACK (type_bind_cb);
  CALLBACK (class_bind_cb);
  CALLBACK (source_bind_cb);
  CALLBACK (culprit_bind_cb);
  CALLBACK (confidence_bind_cb);
  CALLBACK (timeline_event_activated_cb);
#undef CALLBACK
}

static void
jsui_window_init (JsuiWindow *self)
{
  GtkAdjustment *hadj;
  g_autofree char *title = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_name (GTK_WIDGET (self), JSUI_WINDOW_NAME);
  g_object_set_data (G_OBJECT (self), JSUI_EXCLUDE_KEY, GINT_TO_POINTER (1));
  jsui_install_css (gtk_widget_get_display (GTK_WIDGET (self)));

  self->events = g_list_store_new (JSUI_TYPE_EVENT);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->events)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->jank_view, GTK_SELECTION_MODEL (self->selection));

  self->follow_timeline = TRUE;
  hadj = gtk_scrolled_window_get_hadjustment (self->timeline_scroller);
  g_signal_connect (hadj, "changed", G_CALLBACK (scroller_changed_cb), self);
  g_signal_connect (hadj, "value-changed", G_CALLBACK (scroller_value_changed_cb), self);

  /* Translators: the window title: program name and process id */
  title = g_strdup_printf (_ ("jankscope — %s (pid %d)"), g_get_prgname () ? g_get_prgname () : "?",
                           (int)getpid ());
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->title_label, title);
  jsui_window_set_snapshot (self, NULL);
}

JsuiWindow *
jsui_window_new (void)
{
  return g_object_new (JSUI_TYPE_WINDOW, NULL);
}

static void
set_duration (GtkLabel *label, gint64 ns, gint64 bad_from_ns)
{
  g_autofree char *text = jsui_format_duration (ns);

  gtk_label_set_text (label, text);
  if (bad_from_ns > 0 && ns >= bad_from_ns)
    gtk_widget_add_css_class (GTK_WIDGET (label), "bad");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "bad");
}

static void
set_rate (GtkLabel *label, gint64 count, gint64 of)
{
  g_autofree char *text = jsui_format_percent (of > 0 ? (double)count / (double)of : -1);

  gtk_label_set_text (label, text);
}

static void
update_metrics (JsuiWindow *self)
{
  JsuiSnapshot *snap = self->snapshot;
  const CliReport *r = snap != NULL ? snap->report : NULL;
  gboolean frames = r != NULL && r->frames > 0;
  gint64 budget = 16667000;
  g_autofree char *hangs = NULL;
  g_autofree char *overhead = NULL;
  g_autofree char *status = NULL;
  g_autofree char *title = NULL;

  if (snap != NULL && snap->frames->len > 0)
    budget = MAX (g_array_index (snap->frames, JsuiFrame, snap->frames->len - 1).budget_ns, 1);
  set_duration (self->p50_value, frames ? r->frame_p50_ns : -1, budget * 3 / 2);
  set_duration (self->p95_value, frames ? r->frame_p95_ns : -1, budget * 3 / 2);
  set_duration (self->p99_value, frames ? r->frame_p99_ns : -1, budget * 3 / 2);
  set_rate (self->slow_value, frames ? r->frames_slow : 0, frames ? r->frames : 0);
  set_rate (self->frozen_value, frames ? r->frames_frozen : 0, frames ? r->frames : 0);

  if (r != NULL)
    hangs = g_strdup_printf ("%" G_GINT64_FORMAT,
                             r->events_by_tier[CLI_TIER_HANG]
                                 + (cli_report_get_ongoing_hang (r) != NULL ? 1 : 0));
  gtk_label_set_text (self->hangs_value, hangs != NULL ? hangs : "–");

  if (snap != NULL && snap->overhead_cpu_pct >= 0)
    overhead = jsui_format_percent (snap->overhead_cpu_pct / 100.0);
  gtk_label_set_text (self->overhead_value, overhead != NULL ? overhead : "–");

  if (r == NULL)
    status = g_strdup (_ ("Waiting for data…"));
  else if (snap->stall_ns >= MAX (r->threshold_ns, 1))
    {
      g_autofree char *d = jsui_format_duration (snap->stall_ns);

      /* Translators: the main loop has been blocked this long */
      status = g_strdup_printf (_ ("Stalled for %s"), d);
    }
  else
    status = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u jank event", "%u jank events", r->events->len),
        r->events->len);
  gtk_label_set_text (self->status_label, status);

  if (r != NULL && r->name != NULL && r->pid > 0)
    {
      title = g_strdup_printf (_ ("jankscope — %s (pid %d)"), r->name, (int)r->pid);
      gtk_window_set_title (GTK_WINDOW (self), title);
      gtk_label_set_text (self->title_label, title);
    }
}

void
jsui_window_set_snapshot (JsuiWindow *self, JsuiSnapshot *snapshot)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gint64 keep = self->selected_id;
  guint n_old;

  g_return_if_fail (JSUI_IS_WINDOW (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;

  update_metrics (self);
  jsui_timeline_set_snapshot (self->timeline, snapshot);

  for (guint i = 0; snapshot != NULL && i < snapshot->report->events->len; i++)
    g_ptr_array_add (items,
                     jsui_event_new (snapshot, g_ptr_array_index (snapshot->report->events, i)));

  self->refreshing = TRUE;
  n_old = g_list_model_get_n_items (G_LIST_MODEL (self->events));
  g_list_store_splice (self->events, 0, n_old, items->pdata, items->len);
  jsui_window_select_event (self, keep);
  show_stacks (self, gtk_single_selection_get_selected_item (self->selection));
  self->refreshing = FALSE;

  gtk_stack_set_visible_child_name (self->list_stack, items->len > 0 ? "list" : "empty");
}

gboolean
jsui_window_select_event (JsuiWindow *self, gint64 id)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->events));

  for (guint i = 0; id != 0 && i < n; i++)
    {
      g_autoptr (JsuiEvent) item = g_list_model_get_item (G_LIST_MODEL (self->events), i);

      if (jsui_event_get_id (item) == id)
        {
          if (gtk_single_selection_get_selected (self->selection) == i && !self->refreshing)
            show_stacks (self, item); /* notify::selected is not emitted */
          else
            gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  return FALSE;
}

gint64
jsui_window_get_selected_event (JsuiWindow *self)
{
  return self->selected_id;
}

GListModel *
jsui_window_get_events (JsuiWindow *self)
{
  return G_LIST_MODEL (self->events);
}

JsuiTimeline *
jsui_window_get_timeline (JsuiWindow *self)
{
  return self->timeline;
}

JsuiStacksView *
jsui_window_get_stacks_view (JsuiWindow *self)
{
  return self->stacks_view;
}

const char *
jsui_window_get_metric (JsuiWindow *self, const char *name)
{
  const struct
  {
    const char *name;
    GtkLabel *label;
  } metrics[] = {
    { "p50", self->p50_value },           { "p95", self->p95_value },
    { "p99", self->p99_value },           { "slow", self->slow_value },
    { "frozen", self->frozen_value },     { "hangs", self->hangs_value },
    { "overhead", self->overhead_value }, { "status", self->status_label },
  };

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (g_strcmp0 (metrics[i].name, name) == 0)
      return gtk_label_get_text (metrics[i].label);
  g_return_val_if_reached (NULL);
}
