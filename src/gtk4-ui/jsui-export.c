/* jsui-export.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gstdio.h>
#include <unistd.h>
#include <json-glib/json-glib.h>

#include "jse-common.h"
#include "jse-formats.h"
#include "jsui-export.h"

gboolean
jsui_export_format_from_name (const char *name, JsuiExportFormat *format)
{
  static const char *const names[] = { "report", "chrome", "folded" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      {
        *format = (JsuiExportFormat) i;
        return TRUE;
      }
  return FALSE;
}

char *
jsui_export_suggested_name (JsuiExportFormat format, const char *app, gint64 pid)
{
  static const char *const suffixes[] = { "report.json", "trace.json", "folded" };
  g_autofree char *base = NULL;

  if (app != NULL && *app != '\0' && pid > 0)
    base = g_strdup_printf ("%s-%" G_GINT64_FORMAT, app, pid);
  else
    base = g_strdup ("jankscope");
  g_strdelimit (base, "/\\", '_');
  return g_strdup_printf ("%s-%s", base, suffixes[format]);
}

/* The report alone: the document without its `live` member. */
static GBytes *
report_only (GBytes *document, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = NULL;
  JsonNode *root;
  gsize length;
  const char *data = g_bytes_get_data (document, &length);
  char *text;

  if (!json_parser_load_from_data (parser, data, length, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "not a report");
      return NULL;
    }
  json_object_remove_member (json_node_get_object (root), "live");
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &length);
  return g_bytes_new_take (text, length);
}

/* The exporters (src/export/) read files: the document goes through a
 * private temporary one. */
static GBytes *
with_exporter (GBytes *document, JsuiExportFormat format, GError **error)
{
  g_autofree char *tmp_path = NULL;
  g_autoptr (GError) local_error = NULL;
  JseContext *ctx;
  GBytes *out = NULL;
  gsize length;
  const char *data = g_bytes_get_data (document, &length);
  int fd = g_file_open_tmp ("jankscope-export-XXXXXX.json", &tmp_path, error);
  char *paths[2] = { NULL, NULL };

  if (fd < 0)
    return NULL;
  close (fd);
  if (!g_file_set_contents (tmp_path, data, length, error))
    {
      g_unlink (tmp_path);
      return NULL;
    }
  ctx = jse_context_new (FALSE, JSE_ALIGN_CLOCK);
  paths[0] = tmp_path;
  if (jse_context_load (ctx, paths, &local_error))
    out = format == JSUI_EXPORT_CHROME ? jse_format_chrome (ctx, &local_error)
                                       : jse_format_folded (ctx, &local_error);
  jse_context_free (ctx);
  g_unlink (tmp_path);
  if (out == NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return out;
}

GBytes *
jsui_export_convert (GBytes *document, JsuiExportFormat format, GError **error)
{
  g_return_val_if_fail (document != NULL, NULL);

  if (format == JSUI_EXPORT_REPORT)
    return report_only (document, error);
  return with_exporter (document, format, error);
}

typedef struct
{
  GBytes *document;
  JsuiExportFormat format;
  GFile *dest;
} Job;

static void
job_free (Job *job)
{
  g_bytes_unref (job->document);
  g_object_unref (job->dest);
  g_free (job);
}

static void
export_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  g_autoptr (GBytes) bytes = jsui_export_convert (job->document, job->format, &error);
  gsize length;
  const char *data;

  if (bytes == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  data = g_bytes_get_data (bytes, &length);
  /* Written to a temporary file beside it, then renamed over it. */
  if (!g_file_replace_contents (job->dest, data, length, NULL, FALSE,
                                G_FILE_CREATE_REPLACE_DESTINATION, NULL, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
jsui_export_async (GBytes *document, JsuiExportFormat format, GFile *dest,
                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->document = g_bytes_ref (document);
  job->format = format;
  job->dest = g_object_ref (dest);
  g_task_set_name (task, "[jankscope-ui] export");
  g_task_set_source_tag (task, jsui_export_async);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
jsui_export_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
