/* jsui-refresher.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <gio/gio.h>

#include "jsui-refresher.h"

struct _JsuiRefresher
{
  GWeakRef window;
  JsuiSnapshotSource source;
  gpointer user_data;
  guint timer;
  guint64 generation;
  gboolean have_generation;
  GCancellable *cancellable;
  gboolean parsing;
  guint n_shown;
  guint n_failed;
};

/* Worker thread: task data is the snapshot's GBytes. */
static void
parse_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  GBytes *bytes = task_data;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  GError *error = NULL;
  JsuiSnapshot *snap = data != NULL ? jsui_snapshot_parse (data, length, &error) : NULL;

  if (snap != NULL)
    g_task_return_pointer (task, snap, (GDestroyNotify)jsui_snapshot_unref);
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "empty snapshot");
}

/* Main thread. The refresher outlives its tasks: freeing it cancels them,
 * and a cancelled task's callback does not touch it. */
static void
parsed_cb (GObject *source_object, GAsyncResult *result, gpointer user_data)
{
  GTask *task = G_TASK (result);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsuiSnapshot) snap = g_task_propagate_pointer (task, &error);
  JsuiRefresher *self;
  g_autoptr (JsuiWindow) window = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  self = user_data;
  self->parsing = FALSE;
  window = g_weak_ref_get (&self->window);
  if (snap == NULL)
    {
      self->n_failed++;
      g_debug ("jankscope: a snapshot was not read: %s", error->message);
      return;
    }
  if (window != NULL)
    {
      jsui_window_set_snapshot (window, snap);
      self->n_shown++;
    }
}

static gboolean
tick_cb (gpointer user_data)
{
  JsuiRefresher *self = user_data;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GTask) task = NULL;
  guint64 generation = 0;

  if (self->parsing)
    return G_SOURCE_CONTINUE;
  bytes = self->source (&generation, self->user_data);
  if (bytes == NULL || (self->have_generation && generation == self->generation))
    return G_SOURCE_CONTINUE;
  self->generation = generation;
  self->have_generation = TRUE;
  self->parsing = TRUE;

  task = g_task_new (NULL, self->cancellable, parsed_cb, self);
  g_task_set_name (task, "[jankscope-ui] parse");
  g_task_set_task_data (task, g_steal_pointer (&bytes), (GDestroyNotify)g_bytes_unref);
  g_task_run_in_thread (task, parse_thread);
  return G_SOURCE_CONTINUE;
}

JsuiRefresher *
jsui_refresher_new (JsuiWindow *window, JsuiSnapshotSource source, gpointer user_data,
                    guint interval_ms)
{
  JsuiRefresher *self = g_new0 (JsuiRefresher, 1);
  GSource *timer = g_timeout_source_new (MAX (interval_ms, 1));

  g_weak_ref_init (&self->window, window);
  self->source = source;
  self->user_data = user_data;
  self->cancellable = g_cancellable_new ();

  /* Named: the core recognises its own sources by the "[jankscope" prefix. */
  g_source_set_name (timer, JSUI_REFRESH_SOURCE_NAME);
  g_source_set_priority (timer, G_PRIORITY_LOW);
  g_source_set_callback (timer, tick_cb, self, NULL);
  self->timer = g_source_attach (timer, NULL);
  g_source_unref (timer);
  tick_cb (self); /* the first one now: the window shows data at once when there is some */
  return self;
}

void
jsui_refresher_free (JsuiRefresher *self)
{
  if (self == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_source_remove (self->timer);
  g_weak_ref_clear (&self->window);
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
