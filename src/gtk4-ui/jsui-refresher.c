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
  guint timer;
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
    g_task_return_pointer (task, snap, (GDestroyNotify)jsui_snapshot_unref);
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "empty snapshot");
}

static gboolean tick_cb (gpointer user_data);

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

  if (self->parsing || panel == NULL || jsui_panel_get_paused (panel))
    return G_SOURCE_CONTINUE; /* paused: not even asked for */
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
    return G_SOURCE_CONTINUE; /* nothing new */
  self->reparse = FALSE;
  self->parsing = TRUE;

  job = g_new0 (ParseJob, 1);
  job->bytes = g_steal_pointer (&bytes);
  job->baseline_ns = jsui_panel_get_baseline (panel);
  task = g_task_new (NULL, self->cancellable, parsed_cb, self);
  g_task_set_name (task, "[jankscope-ui] parse");
  g_task_set_task_data (task, job, (GDestroyNotify)parse_job_free);
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
  tick_cb (self);
}

JsuiRefresher *
jsui_refresher_new (JsuiPanel *panel, JsuiSnapshotSource source, gpointer user_data,
                    guint interval_ms)
{
  JsuiRefresher *self = g_new0 (JsuiRefresher, 1);
  GSource *timer = g_timeout_source_new (MAX (interval_ms, 1));

  g_return_val_if_fail (JSUI_IS_PANEL (panel), NULL);

  g_weak_ref_init (&self->panel, panel);
  self->source = source;
  self->user_data = user_data;
  self->cancellable = g_cancellable_new ();
  self->baseline_handler
      = g_signal_connect (panel, "notify::baseline", G_CALLBACK (panel_changed_cb), self);
  self->paused_handler
      = g_signal_connect (panel, "notify::paused", G_CALLBACK (panel_changed_cb), self);

  /* Named: the core recognises its own sources by the "[jankscope" prefix. */
  g_source_set_name (timer, JSUI_REFRESH_SOURCE_NAME);
  g_source_set_priority (timer, G_PRIORITY_LOW);
  g_source_set_callback (timer, tick_cb, self, NULL);
  self->timer = g_source_attach (timer, NULL);
  g_source_unref (timer);
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
  g_source_remove (self->timer);
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
