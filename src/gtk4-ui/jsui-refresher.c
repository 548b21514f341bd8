/* jsui-refresher.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <gio/gio.h>

#include "jsui-refresher.h"
#include "jsui-ui-cost.h"

struct _JsuiRefresher
{
  GWeakRef panel;
  gulong baseline_handler, paused_handler;
  JsuiSnapshotSource source;
  gpointer user_data;
  guint interval_ms;
  GSource *timer;          /* ours; its ready time is when to look next */
  gint64 parse_started_us; /* the last parse's start: the next one interval_ms later */
  gint64 waiting_since_us; /* expecting something new since (created, resumed, parsed) */
  guint64 generation;
  gboolean have_generation;
  GBytes *last_bytes; /* the newest document taken from the source */
  gboolean reparse;   /* the baseline changed: parse last_bytes again */
  GCancellable *cancellable;
  gboolean parsing;
  guint n_shown;
  guint n_failed;
};

typedef struct
{
  GBytes *bytes;
  gint64 baseline_ns;
} ParseJob;

static void
parse_job_free (ParseJob *job)
{
  g_bytes_unref (job->bytes);
  g_free (job);
}

/* Worker thread. The snapshot is not shared yet: frames before the
 * panel's baseline (Clear) are dropped here, off the main thread. */
static void
parse_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ParseJob *job = task_data;
  gsize length;
  const char *data = g_bytes_get_data (job->bytes, &length);
  GError *error = NULL;
  JsuiSnapshot *snap = data != NULL ? jsui_snapshot_parse (data, length, &error) : NULL;

  if (snap != NULL && job->baseline_ns > 0)
    {
      guint keep_from = 0;

      while (keep_from < snap->frames->len
             && g_array_index (snap->frames, JsuiFrame, keep_from).end_ns < job->baseline_ns)
        keep_from++;
      if (keep_from > 0)
        g_array_remove_range (snap->frames, 0, keep_from);
    }
  if (snap != NULL)
    g_task_return_pointer (task, snap, (GDestroyNotify) jsui_snapshot_unref);
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "empty snapshot");
}

static gboolean tick_cb (gpointer user_data);

/* The next look at the source. What costs (a parse in a worker, the
 * panel's update and redraw on the main thread) comes at most once per
 * interval: not before interval_ms after the last parse started. A look is
 * only a mutex and a reference: then one every JSUI_REFRESH_RETRY_MS until
 * something new comes (the core publishes once per interval, a little
 * earlier or later than the window looks), for two intervals since the
 * refresher started, resumed or last parsed; after that one per interval
 * (the source went quiet: a closed stream, no core).
 *
 * No budget that would stretch the interval: the window must show new data
 * at least once a second, and its cost is bounded by this rate (two
 * refreshes a second at most, whatever the app does) and by the size of a
 * snapshot (the core's caps). */
static void
schedule (JsuiRefresher *self, gint64 now)
{
  gint64 interval = (gint64) self->interval_ms * 1000;
  gint64 retry = MIN ((gint64) JSUI_REFRESH_RETRY_MS * 1000, interval);
  gint64 next;

  if (now - self->waiting_since_us >= 2 * interval)
    next = now + interval;
  else
    next = MAX (now + retry, self->parse_started_us + interval);
  g_source_set_ready_time (self->timer, next);
}

/* Main thread. The refresher outlives its tasks: freeing it cancels them,
 * and a cancelled task's callback does not touch it. */
static void
parsed_cb (GObject *source_object, GAsyncResult *result, gpointer user_data)
{
  GTask *task = G_TASK (result);
  ParseJob *job = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsuiSnapshot) snap = g_task_propagate_pointer (task, &error);
  JsuiRefresher *self;
  g_autoptr (JsuiPanel) panel = NULL;
  gint64 start = g_get_monotonic_time ();

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  self = user_data;
  self->parsing = FALSE;
  panel = g_weak_ref_get (&self->panel);
  if (panel != NULL && !jsui_panel_get_paused (panel))
    schedule (self, start);
  if (snap == NULL)
    {
      self->n_failed++;
      g_debug ("jankscope: a snapshot was not read: %s", error->message);
      return;
    }
  if (panel != NULL)
    {
      jsui_panel_set_document (panel, job->bytes);
      jsui_panel_set_snapshot (panel, snap);
      self->n_shown++;
      if (jsui_panel_get_baseline (panel) != job->baseline_ns)
        self->reparse = TRUE; /* cleared meanwhile: the next tick */
    }
  jsui_ui_cost_add (g_get_monotonic_time (), g_get_monotonic_time () - start);
}

static gboolean
tick_cb (gpointer user_data)
{
  JsuiRefresher *self = user_data;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GTask) task = NULL;
  g_autoptr (JsuiPanel) panel = g_weak_ref_get (&self->panel);
  guint64 generation = 0;
  gint64 start = g_get_monotonic_time ();
  ParseJob *job;

  /* Paused: not even asked for, no wake-up until resumed (panel_changed_cb).
   * Parsing: parsed_cb schedules the next look. */
  g_source_set_ready_time (self->timer, -1);
  if (self->parsing || panel == NULL || jsui_panel_get_paused (panel))
    return G_SOURCE_CONTINUE;
  bytes = self->source (&generation, self->user_data);
  if (bytes != NULL && (!self->have_generation || generation != self->generation))
    {
      g_clear_pointer (&self->last_bytes, g_bytes_unref);
      self->last_bytes = g_bytes_ref (bytes);
      self->generation = generation;
      self->have_generation = TRUE;
    }
  else if (self->reparse && self->last_bytes != NULL)
    {
      g_clear_pointer (&bytes, g_bytes_unref);
      bytes = g_bytes_ref (self->last_bytes);
    }
  else
    {
      schedule (self, start); /* nothing new */
      return G_SOURCE_CONTINUE;
    }
  self->reparse = FALSE;
  self->parsing = TRUE;
  self->parse_started_us = start;
  self->waiting_since_us = start;

  job = g_new0 (ParseJob, 1);
  job->bytes = g_steal_pointer (&bytes);
  job->baseline_ns = jsui_panel_get_baseline (panel);
  task = g_task_new (NULL, self->cancellable, parsed_cb, self);
  g_task_set_name (task, "[jankscope-ui] parse");
  /* parsed_cb runs from an idle source of this priority in the main
   * context: the default one (GTask's default too), never below the app's
   * redraws. */
  g_task_set_priority (task, G_PRIORITY_DEFAULT);
  g_task_set_task_data (task, job, (GDestroyNotify) parse_job_free);
  g_task_run_in_thread (task, parse_thread);
  jsui_ui_cost_add (g_get_monotonic_time (), g_get_monotonic_time () - start);
  return G_SOURCE_CONTINUE;
}

/* Clear or resume: at once, not at the next tick. */
static void
panel_changed_cb (JsuiPanel *panel, GParamSpec *pspec, JsuiRefresher *self)
{
  if (g_strcmp0 (g_param_spec_get_name (pspec), "baseline") == 0)
    self->reparse = TRUE;
  self->waiting_since_us = g_get_monotonic_time ();
  tick_cb (self);
}

/* The timer: a source that is ready at its ready time only
 * (g_source_set_ready_time), which tick_cb and parsed_cb move. */
static gboolean
timer_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  return callback (user_data);
}

static GSourceFuncs timer_funcs = {
  .dispatch = timer_dispatch,
};

JsuiRefresher *
jsui_refresher_new (JsuiPanel *panel, JsuiSnapshotSource source, gpointer user_data,
                    guint interval_ms)
{
  JsuiRefresher *self = g_new0 (JsuiRefresher, 1);

  g_return_val_if_fail (JSUI_IS_PANEL (panel), NULL);

  g_weak_ref_init (&self->panel, panel);
  self->interval_ms = MAX (interval_ms, 1);
  self->waiting_since_us = g_get_monotonic_time ();
  self->source = source;
  self->user_data = user_data;
  self->cancellable = g_cancellable_new ();
  self->baseline_handler
      = g_signal_connect (panel, "notify::baseline", G_CALLBACK (panel_changed_cb), self);
  self->paused_handler
      = g_signal_connect (panel, "notify::paused", G_CALLBACK (panel_changed_cb), self);

  self->timer = g_source_new (&timer_funcs, sizeof (GSource));
  /* Named: the core recognises its own sources by the "[jankscope" prefix. */
  g_source_set_name (self->timer, JSUI_REFRESH_SOURCE_NAME);
  /* G_PRIORITY_DEFAULT, like the app's events: GLib dispatches only the
   * most urgent of the ready sources, and an app that always has a frame to
   * draw (GDK_PRIORITY_REDRAW) or idle work never lets a G_PRIORITY_LOW or
   * _DEFAULT_IDLE source run. Its cost is bounded by time instead: a look at
   * the source is a mutex and a reference, a parse (in a worker) and the
   * panel's update at most every interval_ms (schedule). */
  g_source_set_priority (self->timer, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->timer, tick_cb, self, NULL);
  g_source_attach (self->timer, NULL);
  tick_cb (self); /* the first one now: the panel shows data at once when there is some */
  return self;
}

void
jsui_refresher_free (JsuiRefresher *self)
{
  g_autoptr (JsuiPanel) panel = NULL;

  if (self == NULL)
    return;
  panel = g_weak_ref_get (&self->panel);
  if (panel != NULL)
    {
      g_signal_handler_disconnect (panel, self->baseline_handler);
      g_signal_handler_disconnect (panel, self->paused_handler);
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_source_destroy (self->timer);
  g_source_unref (self->timer);
  g_clear_pointer (&self->last_bytes, g_bytes_unref);
  g_weak_ref_clear (&self->panel);
  g_free (self);
}

guint
jsui_refresher_get_n_shown (JsuiRefresher *self)
{
  return self->n_shown;
}

guint
jsui_refresher_get_n_failed (JsuiRefresher *self)
{
  return self->n_failed;
}
