/* jsui-frame-details.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-format.h"
#include "jsui-frame-details.h"
#include "jsui-items.h"

struct _JsuiFrameDetails
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkLabel *title_label;
  GtkColumnView *phases_view;
  GtkColumnView *dispatches_view;
  JsuiStacksView *stacks_view;

  GListStore *phases;
  GListStore *dispatches;
  GArray *events; /* gint64, 0-terminated */
  JsuiSnapshot *snapshot;
  JsuiTimeline *timeline; /* weak */
  GCancellable *merging;  /* the stacks of several events, merged in a worker */
};

G_DEFINE_FINAL_TYPE (JsuiFrameDetails, jsui_frame_details, GTK_TYPE_WIDGET)

static JsuiTimeRow *
row_of (GtkListItem *list_item)
{
  return JSUI_TIME_ROW (gtk_list_item_get_item (list_item));
}

static void
text_setup_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
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
set_text (GtkListItem *list_item, const char *text)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "–");
  gtk_widget_set_tooltip_text (label, text);
}

static void
name_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_text (list_item, jsui_time_row_get_name (row_of (list_item)));
}

static void
detail_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  set_text (list_item, jsui_time_row_get_detail (row_of (list_item)));
}

static void
count_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  g_autofree char *text = g_strdup_printf ("%u", jsui_time_row_get_count (row_of (list_item)));

  set_text (list_item, text);
}

static void
total_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  g_autofree char *text = jsui_format_duration (jsui_time_row_get_total_ns (row_of (list_item)));

  set_text (list_item, text);
}

static void
max_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  g_autofree char *text = jsui_format_duration (jsui_time_row_get_max_ns (row_of (list_item)));

  set_text (list_item, text);
}

static void
offset_bind_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  gint64 offset = jsui_time_row_get_offset_ns (row_of (list_item));
  g_autofree char *text = offset >= 0 ? jsui_format_duration (offset) : NULL;

  set_text (list_item, text);
}

static void
frames_selected_cb (JsuiTimeline *timeline, int first, int last, JsuiFrameDetails *self)
{
  GtkWidget *pages = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_STACK);

  jsui_frame_details_set_frames (self, jsui_timeline_get_snapshot (timeline), first, last);
  /* A range of frames is asked for here: show it. (A single frame also
   * selects its jank event, in the page of the jank list.) */
  if (first != last && pages != NULL)
    gtk_stack_set_visible_child (GTK_STACK (pages), GTK_WIDGET (self));
}

static void
zoom_in_cb (GtkButton *button, JsuiFrameDetails *self)
{
  if (self->timeline != NULL)
    jsui_timeline_zoom_in (self->timeline);
}

static void
zoom_out_cb (GtkButton *button, JsuiFrameDetails *self)
{
  if (self->timeline != NULL)
    jsui_timeline_zoom_out (self->timeline);
}

static void
jsui_frame_details_dispose (GObject *object)
{
  JsuiFrameDetails *self = JSUI_FRAME_DETAILS (object);
  GtkWidget *child;

  jsui_frame_details_set_timeline (self, NULL);
  if (self->merging != NULL)
    g_cancellable_cancel (self->merging);
  g_clear_object (&self->merging);
  g_clear_object (&self->phases);
  g_clear_object (&self->dispatches);
  g_clear_pointer (&self->events, g_array_unref);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSUI_TYPE_FRAME_DETAILS);
  /* The template's top box is not bound to a member. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (jsui_frame_details_parent_class)->dispose (object);
}

static void
jsui_frame_details_class_init (JsuiFrameDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_frame_details_dispose;

  g_type_ensure (JSUI_TYPE_STACKS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/ui/jsui-frame-details.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, JsuiFrameDetails, name)
  CHILD (stack);
  CHILD (title_label);
  CHILD (phases_view);
  CHILD (dispatches_view);
  CHILD (stacks_view);
#undef CHILD
#define CALLBACK(name) gtk_widget_class_bind_template_callback (widget_class, name)
  CALLBACK (text_setup_cb);
  CALLBACK (number_setup_cb);
  CALLBACK (name_bind_cb);
  CALLBACK (detail_bind_cb);
  CALLBACK (count_bind_cb);
  CALLBACK (total_bind_cb);
  CALLBACK (max_bind_cb);
  CALLBACK (offset_bind_cb);
  CALLBACK (zoom_in_cb);
  CALLBACK (zoom_out_cb);
#undef CALLBACK
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-frame-details");
}

static void
jsui_frame_details_init (JsuiFrameDetails *self)
{
  g_autoptr (GtkNoSelection) phases = NULL;
  g_autoptr (GtkNoSelection) dispatches = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->phases = g_list_store_new (JSUI_TYPE_TIME_ROW);
  self->dispatches = g_list_store_new (JSUI_TYPE_TIME_ROW);
  self->events = g_array_new (TRUE, TRUE, sizeof (gint64));
  phases = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->phases)));
  dispatches = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->dispatches)));
  gtk_column_view_set_model (self->phases_view, GTK_SELECTION_MODEL (phases));
  gtk_column_view_set_model (self->dispatches_view, GTK_SELECTION_MODEL (dispatches));
}

GtkWidget *
jsui_frame_details_new (void)
{
  return g_object_new (JSUI_TYPE_FRAME_DETAILS, NULL);
}

void
jsui_frame_details_set_timeline (JsuiFrameDetails *self, JsuiTimeline *timeline)
{
  g_return_if_fail (JSUI_IS_FRAME_DETAILS (self));

  if (self->timeline == timeline)
    return;
  if (self->timeline != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->timeline, self);
      g_object_remove_weak_pointer (G_OBJECT (self->timeline), (gpointer *) &self->timeline);
    }
  self->timeline = timeline;
  if (timeline != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (timeline), (gpointer *) &self->timeline);
      g_signal_connect (timeline, "frames-selected", G_CALLBACK (frames_selected_cb), self);
    }
}

typedef struct
{
  const char *source, *callback;
  guint count;
  gint64 total_ns, max_ns, offset_ns;
} DispatchSum;

static int
by_total (gconstpointer a, gconstpointer b)
{
  const DispatchSum *x = a, *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return g_strcmp0 (x->source, y->source);
}

/* The snapshot's names are interned (live.strings: one index, one
 * pointer): a (source, callback) pair is a pair of pointers. */
static guint
pair_hash (gconstpointer key)
{
  const DispatchSum *k = key;

  return g_direct_hash (k->source) * 31 + g_direct_hash (k->callback);
}

static gboolean
pair_equal (gconstpointer a, gconstpointer b)
{
  const DispatchSum *x = a, *y = b;

  return x->source == y->source && x->callback == y->callback;
}

static void
fill_dispatches (JsuiFrameDetails *self, GArray *frames, guint first, guint last)
{
  g_autoptr (GArray) sums = g_array_new (FALSE, FALSE, sizeof (DispatchSum));
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  /* (source, callback) -> position + 1 in sums */
  g_autoptr (GHashTable) index = g_hash_table_new_full (pair_hash, pair_equal, g_free, NULL);

  for (guint i = first; i <= last; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);

      for (guint d = 0; d < f->n_dispatches; d++)
        {
          const JsuiFrameDispatch *x = &f->dispatches[d];
          DispatchSum key = { x->source, x->callback, 0, 0, 0, 0 };
          guint at = GPOINTER_TO_UINT (g_hash_table_lookup (index, &key));
          DispatchSum *sum;

          if (at == 0)
            {
              DispatchSum fresh = { x->source, x->callback, 0, 0, 0, x->offset_ns };

              g_array_append_val (sums, fresh);
              at = sums->len;
              g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (at));
            }
          sum = &g_array_index (sums, DispatchSum, at - 1);
          sum->count++;
          sum->total_ns = jsui_sat_add (sum->total_ns, x->duration_ns);
          sum->max_ns = MAX (sum->max_ns, x->duration_ns);
          /* one frame: where that source first ran in it */
          sum->offset_ns = MIN (sum->offset_ns, x->offset_ns);
        }
    }
  g_array_sort (sums, by_total);
  for (guint s = 0; s < sums->len; s++)
    {
      const DispatchSum *sum = &g_array_index (sums, DispatchSum, s);

      /* Where it started only means something within one frame. */
      g_ptr_array_add (rows, jsui_time_row_new (sum->source != NULL ? sum->source : _ ("(unnamed)"),
                                                sum->callback, sum->count, sum->total_ns,
                                                sum->max_ns, first == last ? sum->offset_ns : -1));
    }
  g_list_store_splice (self->dispatches, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->dispatches)), rows->pdata,
                       rows->len);
}

/* GdkFrameClock's phases (jsui_phase_name ()), translated. */
static const char *
phase_label (JsuiPhase phase)
{
  static const char *const labels[] = {
    NC_ ("frame clock phase", "flush-events"), NC_ ("frame clock phase", "before-paint"),
    NC_ ("frame clock phase", "update"),       NC_ ("frame clock phase", "layout"),
    NC_ ("frame clock phase", "paint"),        NC_ ("frame clock phase", "after-paint"),
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (labels) == JSUI_N_PHASES);
  return phase < JSUI_N_PHASES ? g_dpgettext2 (GETTEXT_PACKAGE, "frame clock phase", labels[phase])
                               : "?";
}

static void
fill_phases (JsuiFrameDetails *self, GArray *frames, guint first, guint last)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint p = 0; p < JSUI_N_PHASES; p++)
    {
      gint64 total = 0, longest = 0;
      guint count = 0;

      for (guint i = first; i <= last; i++)
        {
          gint64 ns = g_array_index (frames, JsuiFrame, i).phase_ns[p];

          count += ns > 0;
          total = jsui_sat_add (total, MAX (ns, 0));
          longest = MAX (longest, ns);
        }
      if (count > 0)
        g_ptr_array_add (rows,
                         jsui_time_row_new (phase_label (p), NULL, count, total, longest, -1));
    }
  g_list_store_splice (self->phases, 0, g_list_model_get_n_items (G_LIST_MODEL (self->phases)),
                       rows->pdata, rows->len);
}

/* Past this many events, a range's stacks merge only the first ones: the
 * title says how many more. */
#define MAX_MERGED_EVENTS 32

/* The stacks of several events, merged in a GTask worker (the trees are
 * immutable plain data, shared by reference): selecting with Shift+arrow
 * costs the host's main thread nothing; each selection cancels the last
 * merge. */
typedef struct
{
  GPtrArray *trees; /* of JsuiStackTree: top-down, one per event with stacks */
  GPtrArray *ups;   /* their bottom-up trees (NULL elements: to invert), or NULL: not wanted */
  char *ids;        /* "1, 2, 3 … and 4 more" */
  JsuiStackTree *merged, *merged_up;
} MergeJob;

static void
merge_job_free (gpointer data)
{
  MergeJob *job = data;

  g_clear_pointer (&job->trees, g_ptr_array_unref);
  g_clear_pointer (&job->ups, g_ptr_array_unref);
  g_clear_pointer (&job->merged, jsui_stack_tree_unref);
  g_clear_pointer (&job->merged_up, jsui_stack_tree_unref);
  g_free (job->ids);
  g_free (job);
}

/* Worker thread. Bottom-up only when it is shown (else the stacks view
 * inverts the merge if it is toggled): inverting is linear in the samples,
 * so the merge of the events' bottom-up trees is the bottom-up tree of the
 * merge. */
static void
merge_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  MergeJob *job = data;

  job->merged = jsui_stack_tree_new (_ ("All samples"));
  if (job->ups != NULL)
    job->merged_up = jsui_stack_tree_new (_ ("All samples"));
  for (guint i = 0; i < job->trees->len && !g_cancellable_is_cancelled (cancellable); i++)
    {
      JsuiStackTree *tree = g_ptr_array_index (job->trees, i);
      JsuiStackTree *up = job->ups != NULL ? g_ptr_array_index (job->ups, i) : NULL;
      g_autoptr (JsuiStackTree) inverted = NULL;

      jsui_stack_tree_merge (job->merged, tree);
      if (job->ups == NULL)
        continue;
      if (up == NULL)
        up = inverted = jsui_stack_tree_bottom_up (tree);
      jsui_stack_tree_merge (job->merged_up, up);
    }
  jsui_stack_tree_sort (job->merged);
  if (job->merged_up != NULL)
    jsui_stack_tree_sort (job->merged_up);
  g_task_return_boolean (task, TRUE);
}

static void
merge_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  JsuiFrameDetails *self = JSUI_FRAME_DETAILS (source);
  MergeJob *job = g_task_get_task_data (G_TASK (result));
  g_autofree char *title = NULL;
  g_autofree char *time = NULL;
  gint64 samples;

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return; /* cancelled: another selection, or gone */
  g_clear_object (&self->merging);
  time = jsui_format_duration (job->merged->root->total);
  samples = job->merged->root->total_samples;
  /* Translators: the stacks of several events: their ids, their attributed
   * time, their samples */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Events %s: %s, %lld sample",
                                        "Events %s: %s, %lld samples",
                                        (gulong) CLAMP (samples, 0, G_MAXINT32)),
                           job->ids, time, (long long) samples);
  jsui_stacks_view_set_trees (self->stacks_view, job->merged, job->merged_up, title,
                              _ ("No stacks were sampled during these events"));
}

static void
cancel_merge (JsuiFrameDetails *self)
{
  if (self->merging != NULL)
    g_cancellable_cancel (self->merging);
  g_clear_object (&self->merging);
}

/* The stacks of the frames' jank events: one event with its samples, or
 * several merged. */
static void
fill_stacks (JsuiFrameDetails *self, JsuiSnapshot *snap, GArray *frames, guint first, guint last)
{
  /* an event's frames need not be contiguous (A, B, A): count it once */
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GString) ids = g_string_new (NULL);
  g_autoptr (GTask) task = NULL;
  gboolean bottom_up = jsui_stacks_view_get_bottom_up (self->stacks_view);
  MergeJob *job;
  guint n_merged;

  cancel_merge (self);
  g_array_set_size (self->events, 0);
  for (guint i = first; i <= last; i++)
    {
      gint64 id = g_array_index (frames, JsuiFrame, i).event_id;

      if (id != 0 && !g_hash_table_contains (seen, &id))
        {
          g_hash_table_add (seen, g_memdup2 (&id, sizeof id));
          g_array_append_val (self->events, id);
        }
    }
  if (self->events->len == 0)
    {
      jsui_stacks_view_set_trees (
          self->stacks_view, NULL, NULL, NULL,
          _ ("These frames are part of no jank event: nothing was sampled"));
      return;
    }
  if (self->events->len == 1)
    {
      jsui_stacks_view_set_event (
          self->stacks_view, snap,
          jsui_snapshot_find_event (snap, g_array_index (self->events, gint64, 0)));
      return;
    }

  job = g_new0 (MergeJob, 1);
  job->trees = g_ptr_array_new_with_free_func ((GDestroyNotify) jsui_stack_tree_unref);
  job->ups
      = bottom_up ? g_ptr_array_new_with_free_func ((GDestroyNotify) jsui_stack_tree_unref) : NULL;
  n_merged = MIN (self->events->len, MAX_MERGED_EVENTS);
  for (guint e = 0; e < n_merged; e++)
    {
      gint64 id = g_array_index (self->events, gint64, e);
      const JsrReportEvent *ev = jsui_snapshot_find_event (snap, id);
      JsuiStackTree *tree = ev != NULL ? jsui_snapshot_get_tree (snap, ev, FALSE) : NULL;
      JsuiStackTree *up = ev != NULL ? jsui_snapshot_get_tree (snap, ev, TRUE) : NULL;

      g_string_append_printf (ids, "%s%lld", e > 0 ? ", " : "", (long long) id);
      if (tree == NULL)
        continue;
      g_ptr_array_add (job->trees, jsui_stack_tree_ref (tree));
      if (job->ups != NULL)
        g_ptr_array_add (job->ups, up != NULL ? jsui_stack_tree_ref (up) : NULL);
    }
  if (self->events->len > n_merged)
    {
      guint more = self->events->len - n_merged;

      /* Translators: after the first event ids of a range, how many more */
      g_string_append_printf (
          ids, g_dngettext (GETTEXT_PACKAGE, " … and %u more", " … and %u more", more), more);
    }
  job->ids = g_string_free (g_steal_pointer (&ids), FALSE);

  self->merging = g_cancellable_new ();
  task = g_task_new (self, self->merging, merge_done, NULL);
  g_task_set_source_tag (task, fill_stacks);
  g_task_set_name (task, "[jankscope-ui] merge");
  g_task_set_task_data (task, job, merge_job_free);
  g_task_run_in_thread (task, merge_thread);
}

static void
set_title (JsuiFrameDetails *self, JsuiSnapshot *snap, guint first, guint last)
{
  GArray *frames = snap->frames;
  const JsuiFrame *a = &g_array_index (frames, JsuiFrame, first);
  const JsuiFrame *b = &g_array_index (frames, JsuiFrame, last);
  gint64 start = snap->report->start_ns;
  double at = start > 0 ? (jsui_frame_start_ns (a) - start) / 1e9 : 0;
  g_autofree char *title = NULL;

  if (first == last)
    {
      g_autofree char *d = jsui_format_duration (a->duration_ns);
      g_autofree char *budget = jsui_format_duration (a->budget_ns > 0 ? a->budget_ns : -1);
      JsTier tier;
      gboolean slow = jsui_frame_is_slow (snap->report, a->duration_ns, a->budget_ns, &tier);

      /* Translators: one frame: when (s since start), frame time, budget, tier */
      title = g_strdup_printf (_ ("Frame at %.2f s: %s (budget %s), %s"), at, d, budget,
                               slow ? jsui_tier_label (tier) : _ ("on time"));
    }
  else
    {
      guint slow = 0, n = last - first + 1;
      gint64 longest = 0;
      g_autofree char *d = NULL;

      for (guint i = first; i <= last; i++)
        {
          const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);

          slow += jsui_frame_is_slow (snap->report, f->duration_ns, f->budget_ns, NULL);
          longest = MAX (longest, f->duration_ns);
        }
      d = jsui_format_duration (longest);
      /* Translators: a range of frames: how many, from (s), to (s), slow ones, the longest */
      title = g_strdup_printf (
          g_dngettext (GETTEXT_PACKAGE, "%u frame from %.2f s to %.2f s: %u slow, the longest %s",
                       "%u frames from %.2f s to %.2f s: %u slow, the longest %s", n),
          n, at, start > 0 ? (b->end_ns - start) / 1e9 : 0, slow, d);
    }
  gtk_label_set_text (self->title_label, title);
}

void
jsui_frame_details_set_frames (JsuiFrameDetails *self, JsuiSnapshot *snapshot, int first, int last)
{
  g_return_if_fail (JSUI_IS_FRAME_DETAILS (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;

  if (first > last)
    {
      int t = first;

      first = last;
      last = t;
    }
  if (snapshot == NULL || first < 0 || (guint) last >= snapshot->frames->len)
    {
      g_list_store_remove_all (self->phases);
      g_list_store_remove_all (self->dispatches);
      g_array_set_size (self->events, 0);
      cancel_merge (self);
      jsui_stacks_view_set_trees (self->stacks_view, NULL, NULL, NULL, NULL);
      gtk_label_set_text (self->title_label, "");
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  set_title (self, snapshot, (guint) first, (guint) last);
  fill_phases (self, snapshot->frames, (guint) first, (guint) last);
  fill_dispatches (self, snapshot->frames, (guint) first, (guint) last);
  fill_stacks (self, snapshot, snapshot->frames, (guint) first, (guint) last);
  gtk_stack_set_visible_child_name (self->stack, "frames");
}

GListModel *
jsui_frame_details_get_phases (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), NULL);
  return G_LIST_MODEL (self->phases);
}

GListModel *
jsui_frame_details_get_dispatches (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), NULL);
  return G_LIST_MODEL (self->dispatches);
}

JsuiStacksView *
jsui_frame_details_get_stacks_view (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), NULL);
  return self->stacks_view;
}

const char *
jsui_frame_details_get_title (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), NULL);
  return gtk_label_get_text (self->title_label);
}

gboolean
jsui_frame_details_is_merging (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), FALSE);
  return self->merging != NULL;
}

const gint64 *
jsui_frame_details_get_events (JsuiFrameDetails *self)
{
  g_return_val_if_fail (JSUI_IS_FRAME_DETAILS (self), NULL);
  return (const gint64 *) (void *) self->events->data;
}
