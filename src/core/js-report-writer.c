/* js-report-writer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-writer.h"
#include "js-log.h"
#include "js-report-file.h"

#include <string.h>

/* json-glib parses recursively: an old journal is not ours, so a line
 * nested deeper than any line we write is not parsed at all. */
#define MAX_JSON_DEPTH 64
/* A hang line is at most a few hundred KiB (16 stacks of 128 frames). */
#define MAX_LINE (JS_JOURNAL_TAIL_MAX / 2)

struct _JsReportWriter
{
  char *path;
  char *journal_path;
  char *run_id;
  guint64 seq;           /* of the last journal line made */
  GString *pending;      /* lines not appended yet */
  guint64 journal_bytes; /* since the last snapshot */
  guint64 snapshot_bytes;
  guint lines_pending;
  JsReportWriterStats stats;
  GQuark last_error_domain; /* the last error, said once */
  int last_error_code;
};

static void
say_error (JsReportWriter *w, const char *what, const GError *error)
{
  /* Once per kind of error: a full disk must not flood the app's stderr. */
  if (error->domain == w->last_error_domain && error->code == w->last_error_code)
    return;
  w->last_error_domain = error->domain;
  w->last_error_code = error->code;
  js_log_warning ("cannot write %s %s: %s; monitoring goes on", what, w->path, error->message);
}

JsReportWriter *
js_report_writer_new (const char *path, const char *run_id)
{
  g_autoptr (GError) error = NULL;
  JsReportWriter *w;

  if (!js_report_file_check_target (path, &error))
    {
      js_log_warning ("JANKSCOPE_REPORT=%s cannot be used: %s; no report is written", path,
                      error->message);
      return NULL;
    }
  w = g_new0 (JsReportWriter, 1);
  w->path = g_strdup (path);
  w->journal_path = g_strconcat (path, JS_JOURNAL_SUFFIX, NULL);
  w->run_id = g_strdup (run_id);
  w->pending = g_string_new (NULL);
  return w;
}

void
js_report_writer_free (JsReportWriter *w)
{
  if (w == NULL)
    return;
  g_free (w->path);
  g_free (w->journal_path);
  g_free (w->run_id);
  g_string_free (w->pending, TRUE);
  g_free (w);
}

const char *
js_report_writer_path (JsReportWriter *w)
{
  return w->path;
}

const char *
js_report_writer_run_id (JsReportWriter *w)
{
  return w->run_id;
}

guint64
js_report_writer_seq (JsReportWriter *w)
{
  return w->seq;
}

void
js_report_writer_get_stats (JsReportWriter *w, JsReportWriterStats *stats)
{
  *stats = w->stats;
}

/* --- journal lines ------------------------------------------------------ */

static void
begin_line (JsReportWriter *w, const char *member)
{
  /* The run id is ours (digits and a dash): no escaping needed. */
  g_string_append_printf (w->pending,
                          "{\"run\":\"%s\",\"seq\":%" G_GUINT64_FORMAT ",\"%s\":", w->run_id,
                          ++w->seq, member);
}

static void
end_line (JsReportWriter *w)
{
  g_string_append (w->pending, "}\n");
  w->lines_pending++;
}

void
js_report_writer_add_event (JsReportWriter *w, GBytes *json)
{
  gsize length;
  const char *data = g_bytes_get_data (json, &length);

  begin_line (w, "event");
  g_string_append_len (w->pending, data, (gssize) length);
  end_line (w);
}

void
js_report_writer_add_hang (JsReportWriter *w, const char *json, gsize length)
{
  begin_line (w, "hang");
  if (json != NULL)
    g_string_append_len (w->pending, json, (gssize) length);
  else
    g_string_append (w->pending, "null");
  end_line (w);
}

void
js_report_writer_add_hang_progress (JsReportWriter *w, const char *json, gsize length)
{
  begin_line (w, "hang_progress");
  g_string_append_len (w->pending, json, (gssize) length);
  end_line (w);
}

void
js_report_writer_add_members (JsReportWriter *w, const char *json, gsize length)
{
  begin_line (w, "set");
  g_string_append_len (w->pending, json, (gssize) length);
  end_line (w);
}

void
js_report_writer_add_final (JsReportWriter *w)
{
  begin_line (w, "final");
  g_string_append (w->pending, "true");
  end_line (w);
}

gboolean
js_report_writer_flush (JsReportWriter *w)
{
  g_autoptr (GError) error = NULL;
  gsize length = w->pending->len;

  if (length == 0)
    return TRUE;
  if (!js_report_file_append (w->journal_path, w->pending->str, length, &error))
    {
      say_error (w, "the journal of", error);
      g_string_truncate (w->pending, 0);
      w->lines_pending = 0;
      return FALSE;
    }
  g_string_truncate (w->pending, 0);
  w->journal_bytes += length;
  w->stats.bytes_written += length;
  w->stats.journal_lines += w->lines_pending;
  w->lines_pending = 0;
  w->last_error_domain = 0;
  return TRUE;
}

gboolean
js_report_writer_wants_snapshot (JsReportWriter *w)
{
  return w->journal_bytes >= MAX (w->snapshot_bytes, (guint64) JS_JOURNAL_MIN_COMPACT);
}

gboolean
js_report_writer_snapshot (JsReportWriter *w, const char *json, gsize length, gboolean final)
{
  g_autoptr (GError) error = NULL;

  if (!js_report_file_replace (w->path, json, length, final, &error))
    {
      say_error (w, "the report", error);
      return FALSE;
    }
  w->snapshot_bytes = length;
  w->stats.bytes_written += length;
  w->stats.snapshots++;
  w->last_error_domain = 0;
  /* Everything journaled so far is in the report now (its "journal" member
   * says up to which line), so the journal can start again. A journal that
   * could not be removed is harmless: readers skip lines the report holds. */
  w->journal_bytes = 0;
  g_string_truncate (w->pending, 0);
  w->lines_pending = 0;
  if (!js_report_file_remove (w->journal_path, &error))
    say_error (w, "the journal of", error);
  return TRUE;
}

/* --- the previous run ----------------------------------------------------- */

/* Deepest nesting of arrays and objects in `text`, strings skipped; stops
 * counting past `max`. */
static guint
json_depth (const char *text, gsize length, guint max)
{
  guint depth = 0, deepest = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length && deepest <= max; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          depth++;
          deepest = MAX (deepest, depth);
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return deepest;
}

/* One journal line as an object, or NULL when it is not one we can read. */
static JsonObject *
parse_line (JsonParser *parser, const char *line, gsize length)
{
  JsonNode *root;

  if (length == 0 || length > MAX_LINE || json_depth (line, length, MAX_JSON_DEPTH) > MAX_JSON_DEPTH
      || !json_parser_load_from_data (parser, line, (gssize) length, NULL))
    return NULL;
  root = json_parser_get_root (parser); /* NULL for an empty document */
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return json_node_get_object (root);
}

static const char *
string_member (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING
             ? json_node_get_string (n)
             : NULL;
}

static gint64
int_member (JsonObject *o, const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  return n != NULL && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_INT64
             ? json_node_get_int (n)
             : 0;
}

JsonNode *
js_report_writer_find_previous_hang (JsReportWriter *w)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new (); /* mutable: the hang is copied and edited */
  g_autofree char *tail = NULL;
  g_autofree char *last_run = NULL;
  /* The newest hang_progress line after the newest hang line, if any. */
  struct
  {
    gboolean seen;
    gint64 start_ns, end_ns, duration_ns, max_part_ns;
  } progress = { 0 };
  g_autofree char *progress_tier = NULL;
  gsize length;
  guint64 size;
  char *end;

  tail = js_report_file_read_tail (w->journal_path, JS_JOURNAL_TAIL_MAX, &length, &size, &error);
  if (tail == NULL)
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        js_log_debug ("previous run: %s not read: %s", w->journal_path, error->message);
      return NULL;
    }
  /* From the last complete line back (a torn last line is skipped), to the
   * newest "hang" or "final" line of the newest run. */
  end = tail + length;
  while (end > tail)
    {
      char *line_end = end;
      char *line;
      JsonObject *o;
      JsonNode *hang;
      const char *run;

      if (end[-1] != '\n')
        {
          /* A torn line: skip to the newline before it. */
          while (end > tail && end[-1] != '\n')
            end--;
          continue;
        }
      line_end = end - 1;
      line = line_end;
      while (line > tail && line[-1] != '\n')
        line--;
      end = line;
      if (line == tail && size > length)
        break; /* the first line in the tail may be cut: not trusted */
      o = parse_line (parser, line, (gsize) (line_end - line));
      if (o == NULL || (run = string_member (o, "run")) == NULL)
        continue;
      if (last_run == NULL)
        last_run = g_strdup (run);
      else if (strcmp (last_run, run) != 0)
        break;
      if (json_object_has_member (o, "final"))
        break;
      if (!progress.seen && json_object_has_member (o, "hang_progress"))
        {
          JsonNode *n = json_object_get_member (o, "hang_progress");

          if (JSON_NODE_HOLDS_OBJECT (n))
            {
              JsonObject *p = json_node_get_object (n);

              progress.seen = TRUE;
              progress.start_ns = int_member (p, "start_ns");
              progress.end_ns = int_member (p, "end_ns");
              progress.duration_ns = int_member (p, "duration_ns");
              progress.max_part_ns = int_member (p, "max_part_ns");
              progress_tier = g_strdup (string_member (p, "tier"));
            }
          continue;
        }
      if (!json_object_has_member (o, "hang"))
        continue;
      hang = json_object_get_member (o, "hang");
      if (!JSON_NODE_HOLDS_OBJECT (hang))
        break; /* the hang had ended */
      {
        JsonObject *h = json_node_get_object (hang);
        JsonNode *proc = json_object_get_member (h, "process");
        JsonObject *p
            = proc != NULL && JSON_NODE_HOLDS_OBJECT (proc) ? json_node_get_object (proc) : NULL;
        gint64 pid = p != NULL ? int_member (p, "pid") : 0;
        g_autofree char *exe = g_strdup (
            p != NULL && string_member (p, "exe") != NULL ? string_member (p, "exe") : "");
        g_autoptr (JsonBuilder) b = json_builder_new ();
        JsonNode *copy = json_node_copy (hang); /* shares the object: edited last */

        json_object_remove_member (json_node_get_object (copy), "process");
        /* How far it had come by the last progress line, when that is this
         * hang's and says more. */
        if (progress.seen && progress.start_ns == int_member (h, "start_ns")
            && progress.duration_ns > int_member (h, "duration_ns"))
          {
            /* The time it adds has no samples on disk yet: unattributed. */
            if (json_object_has_member (h, "unattributed_ns"))
              json_object_set_int_member (h, "unattributed_ns",
                                          int_member (h, "unattributed_ns") + progress.duration_ns
                                              - int_member (h, "duration_ns"));
            json_object_set_int_member (h, "end_ns", progress.end_ns);
            json_object_set_int_member (h, "duration_ns", progress.duration_ns);
            json_object_set_int_member (h, "max_part_ns", progress.max_part_ns);
            if (progress_tier != NULL)
              json_object_set_string_member (h, "tier", progress_tier);
          }
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "pid");
        json_builder_add_int_value (b, pid);
        json_builder_set_member_name (b, "exe");
        json_builder_add_string_value (b, exe);
        json_builder_set_member_name (b, "hang");
        json_builder_add_value (b, copy);
        json_builder_end_object (b);
        return json_builder_get_root (b);
      }
    }
  return NULL;
}
