/* jsr-input-queue.c: reports and aggregates loaded ahead by worker threads
 *
 * Input i goes to slot i % window. A worker claims the next index only when
 * it is within `window` of the next one the caller will take, so at most
 * `window` loaded inputs wait at a time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "jsr-aggregate-io.h"
#include "jsr-input-queue.h"
#include "jsr-json-doc.h"

#define MAX_THREADS 8
#define PER_THREAD 3 /* inputs loaded ahead per worker */

struct _JsrInputQueue
{
  const char *const *paths;
  guint n_paths;
  JsrReportLoadFlags flags;

  GMutex lock;
  GCond ready; /* a slot was filled */
  GCond space; /* the caller took one */
  JsrInput **slots;
  guint window;
  guint next_claim; /* next input a worker will load */
  guint next_take;  /* next input the caller takes */
  gboolean stop;
  GPtrArray *threads;
};

void
jsr_input_free (JsrInput *input)
{
  if (input == NULL)
    return;
  g_clear_pointer (&input->report, jsr_report_free);
  g_clear_pointer (&input->aggregate, jsr_aggregate_free);
  g_clear_error (&input->error);
  g_free (input);
}

JsrInput *
jsr_input_load (const char *path, JsrReportLoadFlags flags)
{
  JsrInput *input = g_new0 (JsrInput, 1);
  g_autofree char *data = NULL;
  g_autoptr (JsrJsonDoc) doc = NULL;
  const JsrJsonNode *root;
  gsize length;

  input->path = path;
  if (!jsr_report_read_file (path, &data, &length, &input->error))
    return input;
  if (length == 0)
    {
      g_set_error (&input->error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_EMPTY,
                   _ ("the file is empty"));
      return input;
    }
  /* Members the reader will not look at (frames are most of a report) are
   * checked, not built. The text stays until the report is built. */
  doc = jsr_json_doc_parse_lazy (data, length, JSR_REPORT_MAX_JSON_DEPTH,
                                 jsr_report_lazy_members (flags), &input->error);
  if (doc == NULL)
    return input;

  root = jsr_json_doc_get_root (doc);
  if (jsr_aggregate_json_is_aggregate (root))
    input->aggregate = jsr_aggregate_load_from_json (root, &input->error);
  else
    {
      input->report = jsr_report_load_from_json (root, flags | JSR_REPORT_LOAD_FULL, &input->error);
      if (input->report != NULL)
        input->report->path = g_strdup (path);
      else if (g_error_matches (input->error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT))
        {
          /* Either kind would do: say so. */
          g_clear_error (&input->error);
          g_set_error (&input->error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT,
                       _ ("not a jankscope report or aggregate (its “format” is neither "
                          "“jankscope-report” nor “%s”)"),
                       JSR_AGGREGATE_FORMAT);
        }
    }
  return input;
}

static gpointer
worker (gpointer data)
{
  JsrInputQueue *queue = data;

  g_mutex_lock (&queue->lock);
  for (;;)
    {
      JsrInput *input;
      guint index;

      while (!queue->stop && queue->next_claim < queue->n_paths
             && queue->next_claim >= queue->next_take + queue->window)
        g_cond_wait (&queue->space, &queue->lock);
      if (queue->stop || queue->next_claim >= queue->n_paths)
        break;
      index = queue->next_claim++;
      g_mutex_unlock (&queue->lock);

      input = jsr_input_load (queue->paths[index], queue->flags);

      g_mutex_lock (&queue->lock);
      queue->slots[index % queue->window] = input;
      g_cond_broadcast (&queue->ready);
    }
  g_mutex_unlock (&queue->lock);
  return NULL;
}

JsrInputQueue *
jsr_input_queue_new (const char *const *paths, guint n_paths, guint threads,
                     JsrReportLoadFlags flags)
{
  JsrInputQueue *queue = g_new0 (JsrInputQueue, 1);

  if (threads == 0)
    threads = CLAMP (g_get_num_processors (), 1, MAX_THREADS);
  threads = MIN (threads, MAX (n_paths, 1));

  queue->paths = paths;
  queue->n_paths = n_paths;
  queue->flags = flags;
  queue->window = threads * PER_THREAD;
  queue->slots = g_new0 (JsrInput *, queue->window);
  g_mutex_init (&queue->lock);
  g_cond_init (&queue->ready);
  g_cond_init (&queue->space);
  queue->threads = g_ptr_array_new ();
  /* GLib's ASCII conversions make a C locale on first use (under g_once).
   * When two threads make that first call together, GLib 2.74's
   * g_ascii_string_to_(un)signed can fail on a valid number (errno is left
   * set by the wait: reproduced in about 1 of 1000 two-thread processes).
   * Make the first call here, before any loader starts. */
  (void) g_ascii_strtoull ("0", NULL, 10);
  /* One thread: the caller loads each input itself (no worker). */
  if (threads > 1)
    for (guint i = 0; i < threads; i++)
      g_ptr_array_add (queue->threads, g_thread_new ("jankscope-load", worker, queue));
  return queue;
}

JsrInput *
jsr_input_queue_next (JsrInputQueue *queue)
{
  JsrInput *input;
  guint slot;

  if (queue->next_take >= queue->n_paths)
    return NULL;
  if (queue->threads->len == 0)
    return jsr_input_load (queue->paths[queue->next_take++], queue->flags);

  slot = queue->next_take % queue->window;
  g_mutex_lock (&queue->lock);
  while (queue->slots[slot] == NULL)
    g_cond_wait (&queue->ready, &queue->lock);
  input = g_steal_pointer (&queue->slots[slot]);
  queue->next_take++;
  g_cond_broadcast (&queue->space);
  g_mutex_unlock (&queue->lock);
  return input;
}

void
jsr_input_queue_free (JsrInputQueue *queue)
{
  if (queue == NULL)
    return;
  g_mutex_lock (&queue->lock);
  queue->stop = TRUE;
  g_cond_broadcast (&queue->space);
  g_mutex_unlock (&queue->lock);
  for (guint i = 0; i < queue->threads->len; i++)
    g_thread_join (g_ptr_array_index (queue->threads, i));
  g_ptr_array_unref (queue->threads);
  for (guint i = 0; i < queue->window; i++)
    jsr_input_free (queue->slots[i]);
  g_free (queue->slots);
  g_mutex_clear (&queue->lock);
  g_cond_clear (&queue->ready);
  g_cond_clear (&queue->space);
  g_free (queue);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

GPtrArray *
jsr_input_expand_paths (char **arguments, GError **error)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; arguments != NULL && arguments[i] != NULL; i++)
    {
      g_autoptr (GDir) dir = NULL;
      g_autoptr (GPtrArray) found = NULL;
      const char *name;

      if (!g_file_test (arguments[i], G_FILE_TEST_IS_DIR))
        {
          g_ptr_array_add (paths, g_strdup (arguments[i]));
          continue;
        }
      dir = g_dir_open (arguments[i], 0, error);
      if (dir == NULL)
        return NULL;
      found = g_ptr_array_new ();
      while ((name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, ".json"))
          g_ptr_array_add (found, g_build_filename (arguments[i], name, NULL));
      g_ptr_array_sort (found, compare_paths);
      for (guint k = 0; k < found->len; k++)
        g_ptr_array_add (paths, g_ptr_array_index (found, k));
    }
  return g_steal_pointer (&paths);
}
