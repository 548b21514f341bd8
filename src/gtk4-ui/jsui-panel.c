/* jsui-panel.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "jsui-format.h"
#include "jsui-frame-stats.h"
#include "jsui-items.h"
#include "jsui-pane-ratio.h"
#include "jsui-panel.h"
#include "jsui-panel-actions.h"
#include "jsui-ui-cost.h"
#include "jsui-frame-details.h"
#include "jsui-sources-view.h"

struct _JsuiPanel
{
  GtkWidget parent_instance;

  /* template children */
  GtkBox *banner_box;
  GtkBox *action_bar;
  GtkLabel *status_label;
  GtkLabel *p50_value;
  GtkLabel *p95_value;
  GtkLabel *p99_value;
  GtkLabel *slow_value;
  GtkLabel *frozen_value;
  GtkLabel *hangs_value;
  GtkLabel *overhead_value;
  GtkLabel *ui_cost_value;
  GtkLabel *message_label;
  GtkScrolledWindow *timeline_scroller;
  JsuiTimeline *timeline;
  GtkStack *list_stack;
  GtkColumnView *jank_view;
  gint64 live_stall_ns; /* jsui_panel_set_live_stall (), -1: none */
  JsuiStacksView *stacks_view;
  GtkPaned *jank_paned;
  GtkStack *pages;
  JsuiFrameDetails *frame_details; /* page "frames" */
  JsuiSourcesView *sources_view;   /* page "sources" */

  char *title;
  GtkWidget *banner;
  gboolean paused;    /* "paused": the refresher applies nothing new */
  gint64 baseline_ns; /* "baseline": Clear; 0: none */
  GBytes *document;   /* what the shown snapshot was parsed from */

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

G_DEFINE_FINAL_TYPE (JsuiPanel, jsui_panel, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_TITLE,
  PROP_PAUSED,
  PROP_BASELINE,
  PROP_SNAPSHOT_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The jank list's cells follow their item's "event" (expressions bound in
 * setup, like the Sources page's): when an event changes (an ongoing one
 * grows at every refresh), its row's labels are updated in place. Replacing
 * the row instead makes GtkColumnView build its widgets again at once,
 * 10-30 ms a row in GTK 4.8: most of what a busy app's refresh cost. The
 * text functions get the list item and the event (never NULL: an unbound
 * item does not evaluate); "–" stands for nothing. */
static char *
cell_text (const char *text)
{
  return g_strdup (text != NULL ? text : "–");
}

/* The full text of a cell whose text is ellipsized. */
static gboolean
cell_tooltip_cb (GtkWidget *label, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                 gpointer user_data)
{
  const char *text = gtk_label_get_text (GTK_LABEL (label));

  if (g_strcmp0 (text, "–") == 0 || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static GtkExpression *
event_expression (void)
{
  return gtk_property_expression_new (
      JSUI_TYPE_EVENT, gtk_property_expression_new (GTK_TYPE_LIST_ITEM, NULL, "item"), "event");
}

/* A label showing text (list_item, event) of its row's event. */
static GtkWidget *
cell_setup (GtkListItem *list_item, GCallback text)
{
  GtkWidget *label = gtk_label_new (NULL);
  GtkExpression *event = event_expression ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (cell_tooltip_cb), NULL);
  gtk_list_item_set_child (list_item, label);
  gtk_expression_bind (
      gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 1, &event, text, NULL, NULL), label,
      "label", list_item);
  return label;
}

static char *
time_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  JsuiEvent *item = gtk_list_item_get_item (list_item);
  gint64 start = item != NULL ? jsui_event_get_snapshot (item)->report->start_ns : 0;

  /* Translators: an event's time since the app started, in seconds */
  return g_strdup_printf (_ ("%.1f s"),
                          start > 0 && ev->start_ns >= start ? (ev->start_ns - start) / 1e9 : 0.0);
}

static char *
duration_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  return jsui_format_duration (ev->duration_ns);
}

static char *
tier_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  return cell_text (jsui_tier_label (ev->tier));
}

static GStrv
tier_classes (GtkListItem *list_item, const JsrReportEvent *ev)
{
  const char *classes[] = { "tier", jsui_tier_css_name (ev->tier), NULL };

  return g_strdupv ((char **) classes);
}

static char *
type_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  return cell_text (ev->ongoing ? _ ("stall under way") : jsui_event_type_label (ev->type));
}

static char *
class_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  g_autofree char *text = jsui_format_class (ev->klass, ev->wait);

  return cell_text (text);
}

static char *
source_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  if (ev->source != NULL && ev->callback != NULL)
    return g_strdup_printf ("%s (%s)", ev->source, ev->callback);
  return cell_text (ev->source != NULL ? ev->source : ev->callback);
}

static char *
diagnosis_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  g_autofree char *text = jsui_format_diagnosis (ev->diagnosis);

  return cell_text (text);
}

static char *
diagnosis_fix (GtkListItem *list_item, const JsrReportEvent *ev)
{
  return jsui_format_diagnosis_fix (ev->diagnosis);
}

/* "callback → function" for a library's culprit (jsui_format_culprit). */
static char *
culprit_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  g_autofree char *text
      = jsui_format_posted_from (jsui_format_culprit (ev->culprit), ev->posted_from);

  return cell_text (text);
}

static char *
confidence_text (GtkListItem *list_item, const JsrReportEvent *ev)
{
  const JsrReportCulprit *c = ev->culprit;

  return c != NULL && c->confidence >= 0 ? jsui_format_percent (c->confidence) : cell_text (NULL);
}

static void
time_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (time_text));
}

static void
duration_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (duration_text));
}

static void
tier_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  GtkWidget *label = cell_setup (list_item, G_CALLBACK (tier_text));
  GtkExpression *event = event_expression ();

  gtk_expression_bind (gtk_cclosure_expression_new (G_TYPE_STRV, NULL, 1, &event,
                                                    G_CALLBACK (tier_classes), NULL, NULL),
                       label, "css-classes", list_item);
}

static void
type_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (type_text));
}

static void
class_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (class_text));
}

static void
source_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (source_text));
}

/* The kind of mistake, its fix in the tooltip. */
static void
diagnosis_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  GtkWidget *label = cell_setup (list_item, G_CALLBACK (diagnosis_text));
  GtkExpression *event = event_expression ();

  g_signal_handlers_disconnect_by_func (label, cell_tooltip_cb, NULL);
  gtk_expression_bind (gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 1, &event,
                                                    G_CALLBACK (diagnosis_fix), NULL, NULL),
                       label, "tooltip-text", list_item);
}

static void
culprit_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (culprit_text));
}

static void
confidence_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, JsuiPanel *self)
{
  cell_setup (list_item, G_CALLBACK (confidence_text));
}

static void
show_stacks (JsuiPanel *self, JsuiEvent *item)
{
  const JsrReportEvent *ev = item != NULL ? jsui_event_get_event (item) : NULL;
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
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, JsuiPanel *self)
{
  if (self->refreshing)
    return; /* jsui_panel_set_snapshot () shows the stacks once, at the end */
  show_stacks (self, gtk_single_selection_get_selected_item (selection));
}

static void
timeline_event_activated_cb (JsuiTimeline *timeline, gint64 id, JsuiPanel *self)
{
  jsui_panel_select_event (self, id);
}

static gboolean
follow_idle_cb (gpointer user_data)
{
  JsuiPanel *self = user_data;
  GtkAdjustment *adj = gtk_scrolled_window_get_hadjustment (self->timeline_scroller);

  self->follow_idle = 0;
  self->timeline_upper = gtk_adjustment_get_upper (adj);
  self->timeline_page = gtk_adjustment_get_page_size (adj);
  if (self->follow_timeline)
    gtk_adjustment_set_value (adj, self->timeline_upper - self->timeline_page);
  return G_SOURCE_REMOVE;
}

static void
scroller_changed_cb (GtkAdjustment *adj, JsuiPanel *self)
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
scroller_value_changed_cb (GtkAdjustment *adj, JsuiPanel *self)
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
jsui_panel_dispose (GObject *object)
{
  JsuiPanel *self = JSUI_PANEL (object);
  GtkWidget *child;

  g_clear_handle_id (&self->follow_idle, g_source_remove);
  g_clear_object (&self->selection);
  g_clear_object (&self->events);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  g_clear_pointer (&self->document, g_bytes_unref);
  self->banner = NULL; /* a child of banner_box */
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_PANEL);
  /* The template's children not bound to a member too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (jsui_panel_parent_class)->dispose (object);
}

static void
jsui_panel_finalize (GObject *object)
{
  JsuiPanel *self = JSUI_PANEL (object);

  g_free (self->title);
  G_OBJECT_CLASS (jsui_panel_parent_class)->finalize (object);
}

static void
jsui_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JsuiPanel *self = JSUI_PANEL (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_BASELINE:
      g_value_set_int64 (value, self->baseline_ns);
      break;
    case PROP_SNAPSHOT_TIME:
      g_value_set_int64 (value, self->snapshot != NULL ? self->snapshot->now_ns : 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jsui_panel_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  JsuiPanel *self = JSUI_PANEL (object);

  switch (prop_id)
    {
    case PROP_PAUSED:
      jsui_panel_set_paused (self, g_value_get_boolean (value));
      break;
    case PROP_BASELINE:
      jsui_panel_set_baseline (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Its frames (layout, paint) count as the UI's own main-thread time. */
static void
jsui_panel_realize (GtkWidget *widget)
{
  /* The display is known for sure only now: GTK's Inspector has one of its
   * own, and builds its pages before they are in it. */
  jsui_install_css (gtk_widget_get_display (widget));
  GTK_WIDGET_CLASS (jsui_panel_parent_class)->realize (widget);
  jsui_ui_cost_watch_clock (gtk_widget_get_frame_clock (widget));
}

static void
jsui_panel_class_init (JsuiPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_panel_dispose;
  object_class->finalize = jsui_panel_finalize;
  object_class->get_property = jsui_panel_get_property;
  object_class->set_property = jsui_panel_set_property;
  widget_class->realize = jsui_panel_realize;

  properties[PROP_TITLE]
      = g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED]
      = g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASELINE]
      = g_param_spec_int64 ("baseline", NULL, NULL, 0, G_MAXINT64, 0,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNAPSHOT_TIME]
      = g_param_spec_int64 ("snapshot-time", NULL, NULL, 0, G_MAXINT64, 0,
                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  jsui_panel_actions_install (widget_class);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-panel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  g_type_ensure (JSUI_TYPE_TIMELINE);
  g_type_ensure (JSUI_TYPE_STACKS_VIEW);
  g_type_ensure (JSUI_TYPE_FRAME_DETAILS);
  g_type_ensure (JSUI_TYPE_SOURCES_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/jankscope/ui/jsui-panel.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, JsuiPanel, name)
  CHILD (banner_box);
  CHILD (action_bar);
  CHILD (status_label);
  CHILD (p50_value);
  CHILD (p95_value);
  CHILD (p99_value);
  CHILD (slow_value);
  CHILD (frozen_value);
  CHILD (hangs_value);
  CHILD (overhead_value);
  CHILD (ui_cost_value);
  CHILD (message_label);
  CHILD (timeline_scroller);
  CHILD (timeline);
  CHILD (list_stack);
  CHILD (jank_view);
  CHILD (stacks_view);
  CHILD (jank_paned);
  CHILD (pages);
  CHILD (frame_details);
  CHILD (sources_view);
#undef CHILD
#define CALLBACK(name) gtk_widget_class_bind_template_callback (widget_class, name)
  CALLBACK (time_setup_cb);
  CALLBACK (duration_setup_cb);
  CALLBACK (tier_setup_cb);
  CALLBACK (type_setup_cb);
  CALLBACK (class_setup_cb);
  CALLBACK (source_setup_cb);
  CALLBACK (diagnosis_setup_cb);
  CALLBACK (culprit_setup_cb);
  CALLBACK (confidence_setup_cb);
  CALLBACK (timeline_event_activated_cb);
#undef CALLBACK
}

static void
jsui_panel_init (JsuiPanel *self)
{
  GtkAdjustment *hadj;

  gtk_orientable_set_orientation (
      GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The list shows a handful of rows; the selected event's stacks (tree and
   * flame graph) get the rest of the height. */
  jsui_pane_keep_ratio (self->jank_paned, JSUI_PANEL_LIST_SHARE);
  self->live_stall_ns = -1;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.show-all", FALSE);
  jsui_frame_details_set_timeline (self->frame_details, self->timeline);
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
  self->title = g_strdup_printf (_ ("jankscope — %s (pid %d)"),
                                 g_get_prgname () ? g_get_prgname () : "?", (int) getpid ());
  jsui_panel_set_snapshot (self, NULL);
}

JsuiPanel *
jsui_panel_new (void)
{
  return g_object_new (JSUI_TYPE_PANEL, NULL);
}

static void
set_duration (GtkLabel *label, gint64 ns, gboolean bad)
{
  g_autofree char *text = jsui_format_duration (ns);

  gtk_label_set_text (label, text);
  if (bad)
    gtk_widget_add_css_class (GTK_WIDGET (label), "bad");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "bad");
}

/* A frame-time percentile is marked bad when a frame that long is slow. */
static gboolean
slow_percentile (const JsrReport *r, gint64 ns, gint64 budget_ns)
{
  return ns >= 0 && jsui_frame_is_slow (r, ns, budget_ns, NULL);
}

static void
set_rate (GtkLabel *label, gint64 count, gint64 of)
{
  g_autofree char *text = jsui_format_percent (of > 0 ? (double) count / (double) of : -1);

  gtk_label_set_text (label, text);
}

/* "3 stall events, 2 frame events": the two kinds of jank events apart, as
 * the summary and the report count them (jsr-report.h), from the list
 * shown (since Clear, when cleared). */
static char *
describe_event_counts (GListStore *events, guint n_events)
{
  guint stalls = 0, frames = 0;
  g_autofree char *stall_text = NULL;
  g_autofree char *frame_text = NULL;

  for (guint i = 0; i < n_events; i++)
    {
      g_autoptr (JsuiEvent) item = g_list_model_get_item (G_LIST_MODEL (events), i);
      const JsrReportEvent *event = jsui_event_get_event (item);

      if (event->ongoing)
        continue;
      if (g_strcmp0 (event->type, "frame") == 0)
        frames++;
      else
        stalls++;
    }
  stall_text = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u stall event", "%u stall events", stalls), stalls);
  frame_text = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u frame event", "%u frame events", frames), frames);
  /* Translators: "3 stall events, 2 frame events" */
  return g_strdup_printf (_ ("%s, %s"), stall_text, frame_text);
}

static void
update_metrics (JsuiPanel *self)
{
  JsuiSnapshot *snap = self->snapshot;
  const JsrReport *r = snap != NULL ? snap->report : NULL;
  gboolean frames = r != NULL && r->frames > 0;
  gint64 budget = 0; /* unknown: the fallback (js-slow-frame.h) */
  g_autofree char *hangs = NULL;
  g_autofree char *overhead = NULL;
  g_autofree char *status = NULL;
  g_autofree char *title = NULL;
  g_autofree char *ui_cost = NULL;
  double ui_ms = jsui_ui_cost_ms_per_s (g_get_monotonic_time ());
  guint n_events = g_list_model_get_n_items (G_LIST_MODEL (self->events));

  if (snap != NULL && snap->frames->len > 0)
    budget = g_array_index (snap->frames, JsuiFrame, snap->frames->len - 1).budget_ns;
  if (self->baseline_ns > 0 && snap != NULL)
    {
      /* Since Clear: from the live frames after the baseline. */
      JsuiFrameStats fs;
      gint64 n_hangs = 0;

      jsui_frame_stats_compute (snap->frames, r, self->baseline_ns, &fs);
      set_duration (self->p50_value, fs.p50_ns, slow_percentile (r, fs.p50_ns, budget));
      set_duration (self->p95_value, fs.p95_ns, slow_percentile (r, fs.p95_ns, budget));
      set_duration (self->p99_value, fs.p99_ns, slow_percentile (r, fs.p99_ns, budget));
      set_rate (self->slow_value, fs.slow, fs.frames);
      set_rate (self->frozen_value, fs.frozen, fs.frames);
      for (guint i = 0; i < n_events; i++)
        {
          g_autoptr (JsuiEvent) item = g_list_model_get_item (G_LIST_MODEL (self->events), i);

          n_hangs += jsui_event_get_event (item)->tier == JS_TIER_HANG
                     || jsui_event_get_event (item)->ongoing;
        }
      hangs = g_strdup_printf ("%" G_GINT64_FORMAT, n_hangs);
    }
  else
    {
      set_duration (self->p50_value, frames ? r->frame_p50_ns : -1,
                    frames && slow_percentile (r, r->frame_p50_ns, budget));
      set_duration (self->p95_value, frames ? r->frame_p95_ns : -1,
                    frames && slow_percentile (r, r->frame_p95_ns, budget));
      set_duration (self->p99_value, frames ? r->frame_p99_ns : -1,
                    frames && slow_percentile (r, r->frame_p99_ns, budget));
      set_rate (self->slow_value, frames ? r->frames_slow : 0, frames ? r->frames : 0);
      set_rate (self->frozen_value, frames ? r->frames_frozen : 0, frames ? r->frames : 0);
      if (r != NULL)
        hangs = g_strdup_printf ("%" G_GINT64_FORMAT,
                                 r->events_by_tier[JS_TIER_HANG]
                                     + (jsr_report_get_ongoing_hang (r) != NULL ? 1 : 0));
    }
  gtk_label_set_text (self->hangs_value, hangs != NULL ? hangs : "–");

  if (snap != NULL && snap->overhead_cpu_pct >= 0)
    overhead = jsui_format_percent (snap->overhead_cpu_pct / 100.0);
  gtk_label_set_text (self->overhead_value, overhead != NULL ? overhead : "–");
  /* Translators: the jankscope window's own main-thread time, milliseconds per second */
  ui_cost = ui_ms >= 0 ? g_strdup_printf (_ ("%.1f ms/s"), ui_ms) : NULL;
  gtk_label_set_text (self->ui_cost_value, ui_cost != NULL ? ui_cost : "–");

  if (r == NULL && self->live_stall_ns < 0)
    status = g_strdup (_ ("Waiting for data…"));
  else if (self->live_stall_ns >= 0 || snap->stall_ns >= MAX (r->threshold_ns, 1))
    {
      /* The viewer's banner's own number while it shows one: the two agree. */
      g_autofree char *d
          = jsui_format_duration (self->live_stall_ns >= 0 ? self->live_stall_ns : snap->stall_ns);

      const JsrReportEvent *hang = r != NULL ? jsr_report_get_ongoing_hang (r) : NULL;
      const char *from = hang != NULL ? jsr_posting_name (hang->posted_from) : NULL;

      if (from != NULL)
        /* Translators: the main loop has been blocked this long, in work
         * scheduled (g_idle_add...) by this function */
        status = g_strdup_printf (_ ("Stalled for %s, posted from %s"), d, from);
      else
        /* Translators: the main loop has been blocked this long */
        status = g_strdup_printf (_ ("Stalled for %s"), d);
    }
  else
    status = describe_event_counts (self->events, n_events);
  if (self->baseline_ns > 0 && r != NULL)
    {
      /* Translators: the status, then: counted since the user pressed Clear */
      g_autofree char *since = g_strdup_printf (_ ("%s since Clear"), status);

      g_free (status);
      status = g_steal_pointer (&since);
    }
  if (self->paused)
    {
      /* Translators: the status while the window shows no new data */
      g_autofree char *paused = g_strdup_printf (_ ("Paused — %s"), status);

      g_free (status);
      status = g_steal_pointer (&paused);
    }
  gtk_label_set_text (self->status_label, status);

  if (r != NULL && r->name != NULL && r->pid > 0)
    {
      title = g_strdup_printf (_ ("jankscope — %s (pid %d)"), r->name, (int) r->pid);
      if (g_strcmp0 (title, self->title) != 0)
        {
          g_free (self->title);
          self->title = g_steal_pointer (&title);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
        }
    }
}

static const char *
culprit_function (const JsrReportEvent *ev)
{
  return ev->culprit != NULL ? ev->culprit->function : NULL;
}

/* Does the row show this event as it is now? */
static gboolean
same_event (const JsrReportEvent *a, const JsrReportEvent *b)
{
  return a->id == b->id && a->duration_ns == b->duration_ns && a->ongoing == b->ongoing
         && a->samples_total == b->samples_total && a->tier == b->tier
         && (a->detail != NULL ? a->detail->stacks->len : 0)
                == (b->detail != NULL ? b->detail->stacks->len : 0)
         && g_strcmp0 (culprit_function (a), culprit_function (b)) == 0
         && g_strcmp0 (a->diagnosis != NULL ? a->diagnosis->id : NULL,
                       b->diagnosis != NULL ? b->diagnosis->id : NULL)
                == 0
         && (a->culprit != NULL ? a->culprit->confidence : -1)
                == (b->culprit != NULL ? b->culprit->confidence : -1);
}

/* The row at i shows the item's event (the same id): then it is kept,
 * pointed at the item's (newer) snapshot, so that no older one stays alive
 * for it; if the event changed, its cells follow (jsui_event_update). */
static gboolean
keep_item (GListModel *shown, guint i, JsuiEvent *item)
{
  g_autoptr (JsuiEvent) old_item = g_list_model_get_item (shown, i);
  const JsrReportEvent *ev = jsui_event_get_event (item);

  if (jsui_event_get_id (old_item) != ev->id)
    return FALSE;
  if (same_event (jsui_event_get_event (old_item), ev))
    jsui_event_rebase (old_item, jsui_event_get_snapshot (item), ev);
  else
    jsui_event_update (old_item, jsui_event_get_snapshot (item), ev);
  return TRUE;
}

/* Splices only where events came or went: the events are in file order, a
 * refresh mostly adds some at the end or updates the ongoing last one, so
 * the head and tail of the list that are the same events keep their rows
 * (none rebuilt; a changed one is updated in place). Most refreshes change
 * nothing: the list is left alone then. */
static void
update_events (GListStore *store, GPtrArray *items)
{
  GListModel *shown = G_LIST_MODEL (store);
  guint n_old = g_list_model_get_n_items (shown);
  guint head = 0, tail = 0;

  while (head < n_old && head < items->len && keep_item (shown, head, items->pdata[head]))
    head++;
  while (tail < n_old - head && tail < items->len - head
         && keep_item (shown, n_old - 1 - tail, items->pdata[items->len - 1 - tail]))
    tail++;
  if (head == n_old && head == items->len)
    return;
  g_list_store_splice (store, head, n_old - head - tail, items->pdata + head,
                       items->len - head - tail);
}

void
jsui_panel_set_snapshot (JsuiPanel *self, JsuiSnapshot *snapshot)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gint64 keep = self->selected_id;

  g_return_if_fail (JSUI_IS_PANEL (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;

  jsui_timeline_set_snapshot (self->timeline, snapshot);
  jsui_sources_view_set_snapshot (self->sources_view, snapshot);

  for (guint i = 0; snapshot != NULL && i < snapshot->report->events->len; i++)
    {
      const JsrReportEvent *ev = g_ptr_array_index (snapshot->report->events, i);

      /* Clear: what ended before the baseline is left out. */
      if (self->baseline_ns > 0 && !ev->ongoing
          && ev->start_ns + ev->duration_ns < self->baseline_ns)
        continue;
      g_ptr_array_add (items, jsui_event_new (snapshot, ev));
    }

  self->refreshing = TRUE;
  update_events (self->events, items);
  jsui_panel_select_event (self, keep);
  show_stacks (self, gtk_single_selection_get_selected_item (self->selection));
  self->refreshing = FALSE;

  gtk_stack_set_visible_child_name (self->list_stack, items->len > 0 ? "list" : "empty");
  update_metrics (self);
  /* Every snapshot, even one with the same time: the panel shows new data. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNAPSHOT_TIME]);
}

/* The jank list shows row i (a selection made from elsewhere may be off
 * screen: the 21st row of a list that shows 8). GtkColumnView has no
 * scrolling call before GTK 4.12: its list view's "list.scroll-to-item"
 * action does it. */
static void
scroll_jank_list_to (JsuiPanel *self, guint i)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->jank_view)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      {
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", i);
        return;
      }
}

void
jsui_panel_set_live_stall (JsuiPanel *self, gint64 stall_ns)
{
  g_return_if_fail (JSUI_IS_PANEL (self));

  if (self->live_stall_ns == stall_ns)
    return;
  self->live_stall_ns = stall_ns;
  update_metrics (self);
}

gboolean
jsui_panel_select_event (JsuiPanel *self, gint64 id)
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
          scroll_jank_list_to (self, i);
          return TRUE;
        }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  return FALSE;
}

gint64
jsui_panel_get_selected_event (JsuiPanel *self)
{
  return self->selected_id;
}

GListModel *
jsui_panel_get_events (JsuiPanel *self)
{
  return G_LIST_MODEL (self->events);
}

JsuiTimeline *
jsui_panel_get_timeline (JsuiPanel *self)
{
  return self->timeline;
}

JsuiStacksView *
jsui_panel_get_stacks_view (JsuiPanel *self)
{
  return self->stacks_view;
}

GtkPaned *
jsui_panel_get_jank_paned (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->jank_paned;
}

const char *
jsui_panel_get_metric (JsuiPanel *self, const char *name)
{
  const struct
  {
    const char *name;
    GtkLabel *label;
  } metrics[] = {
    { "p50", self->p50_value },           { "p95", self->p95_value },
    { "p99", self->p99_value },           { "slow", self->slow_value },
    { "frozen", self->frozen_value },     { "hangs", self->hangs_value },
    { "overhead", self->overhead_value }, { "ui", self->ui_cost_value },
    { "status", self->status_label },
  };

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    if (g_strcmp0 (metrics[i].name, name) == 0)
      return gtk_label_get_text (metrics[i].label);
  g_return_val_if_reached (NULL);
}

JsuiSnapshot *
jsui_panel_get_snapshot (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->snapshot;
}

const char *
jsui_panel_get_title (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->title;
}

void
jsui_panel_set_banner (JsuiPanel *self, GtkWidget *banner)
{
  g_return_if_fail (JSUI_IS_PANEL (self));
  g_return_if_fail (banner == NULL || GTK_IS_WIDGET (banner));

  if (banner == self->banner)
    return;
  if (self->banner != NULL)
    gtk_box_remove (self->banner_box, self->banner);
  self->banner = banner;
  if (banner != NULL)
    gtk_box_append (self->banner_box, banner);
  gtk_widget_set_visible (GTK_WIDGET (self->banner_box), banner != NULL);
}

GtkWidget *
jsui_panel_get_banner (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->banner;
}

GtkStack *
jsui_panel_get_pages (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->pages;
}

GtkWidget *
jsui_panel_get_action_bar (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return GTK_WIDGET (self->action_bar);
}

void
jsui_panel_set_paused (JsuiPanel *self, gboolean paused)
{
  g_return_if_fail (JSUI_IS_PANEL (self));

  paused = !!paused;
  if (paused == self->paused)
    return;
  self->paused = paused;
  if (paused)
    gtk_widget_add_css_class (GTK_WIDGET (self), "paused");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "paused");
  update_metrics (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

gboolean
jsui_panel_get_paused (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), FALSE);
  return self->paused;
}

void
jsui_panel_set_baseline (JsuiPanel *self, gint64 baseline_ns)
{
  g_autoptr (JsuiSnapshot) snap = NULL;

  g_return_if_fail (JSUI_IS_PANEL (self));

  baseline_ns = MAX (baseline_ns, 0);
  if (baseline_ns == self->baseline_ns)
    return;
  self->baseline_ns = baseline_ns;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.show-all", baseline_ns > 0);
  /* Shown again with the baseline applied (the refresher, told by the
   * notification, brings the frames after it). */
  snap = self->snapshot != NULL ? jsui_snapshot_ref (self->snapshot) : NULL;
  jsui_panel_set_snapshot (self, snap);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
}

gint64
jsui_panel_get_baseline (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), 0);
  return self->baseline_ns;
}

void
jsui_panel_set_document (JsuiPanel *self, GBytes *document)
{
  g_return_if_fail (JSUI_IS_PANEL (self));

  if (document != NULL)
    g_bytes_ref (document);
  g_clear_pointer (&self->document, g_bytes_unref);
  self->document = document;
}

GBytes *
jsui_panel_get_document (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return self->document;
}

void
jsui_panel_show_message (JsuiPanel *self, const char *message)
{
  g_return_if_fail (JSUI_IS_PANEL (self));

  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->message_label), message);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

const char *
jsui_panel_get_message (JsuiPanel *self)
{
  g_return_val_if_fail (JSUI_IS_PANEL (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->message_label))
             ? gtk_label_get_text (self->message_label)
             : NULL;
}
