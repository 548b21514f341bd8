/* jsr-aggregate-postings.c: slow dispatches counted by posting signature
 * (jsr-aggregate-postings.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "jsr-aggregate-postings.h"

#include <glib/gi18n.h>
#include <string.h>
#include "jsr-agg-read.h"
#include "jsr-saturate.h"

static void
entry_free (JsrAggPosting *e)
{
  g_free (e->signature);
  g_free (e->posted_from);
  g_free (e->callback);
  g_free (e->callback_build_id);
  g_free (e);
}

void
jsr_agg_postings_init (JsrAggPostings *p)
{
  memset (p, 0, sizeof *p);
  p->by_signature
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) entry_free);
}

void
jsr_agg_postings_clear (JsrAggPostings *p)
{
  g_clear_pointer (&p->by_signature, g_hash_table_unref);
}

static guint64
add (JsrAggPostings *p, guint64 a, guint64 b)
{
  guint64 sum;

  if (!jsr_add_u64_checked (&sum, a, b))
    p->saturated = TRUE;
  return sum;
}

/* The entry for `signature`, made as needed; NULL past the table's bound. */
static JsrAggPosting *
entry_for (JsrAggPostings *p, const char *signature, const char *posted_from, const char *callback,
           const char *callback_build_id)
{
  JsrAggPosting *e = g_hash_table_lookup (p->by_signature, signature);

  if (e == NULL)
    {
      if (g_hash_table_size (p->by_signature) >= JSR_AGG_MAX_POSTINGS)
        {
          p->overflowed = TRUE;
          return NULL;
        }
      e = g_new0 (JsrAggPosting, 1);
      e->signature = g_strdup (signature);
      g_hash_table_insert (p->by_signature, e->signature, e);
    }
  if (e->posted_from == NULL && posted_from != NULL)
    e->posted_from = g_strdup (posted_from);
  if (e->callback == NULL && callback != NULL)
    {
      e->callback = g_strdup (callback);
      e->callback_build_id = g_strdup (callback_build_id);
    }
  return e;
}

static void
count_part (JsrAggPostings *p, const JsrReport *report, const JsrPosting *posting,
            const char *callback, gint64 duration_ns, guint64 run, GHashTable *seen)
{
  guint64 ns = (guint64) MAX (duration_ns, 0);
  JsrAggPosting *e;

  if (posting->signature == NULL)
    return;
  e = entry_for (p, posting->signature, jsr_posting_name (posting), callback,
                 jsr_report_callback_build_id (report, callback));
  if (e == NULL)
    {
      p->other_parts = add (p, p->other_parts, 1);
      p->other_ns = add (p, p->other_ns, ns);
      return;
    }
  e->parts = add (p, e->parts, 1);
  e->total_ns = add (p, e->total_ns, ns);
  if (!g_hash_table_contains (seen, e))
    {
      g_hash_table_add (seen, e);
      e->events = add (p, e->events, 1);
    }
  if (e->last_run != run)
    {
      e->last_run = run;
      e->runs = add (p, e->runs, 1);
    }
}

void
jsr_agg_postings_add_event (JsrAggPostings *p, const JsrReport *report, const JsrReportEvent *event,
                            guint64 run)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = event->parts != NULL ? event->parts->len : 0;

  for (guint i = 0; i < n; i++)
    {
      const JsrReportPart *part = g_ptr_array_index (event->parts, i);

      if (part->posted_from != NULL)
        count_part (p, report, part->posted_from, part->callback, part->duration_ns, run, seen);
    }
  if (n == 0 && event->posted_from != NULL)
    count_part (p, report, event->posted_from, event->callback, event->duration_ns, run, seen);
}

void
jsr_agg_postings_merge (JsrAggPostings *p, const JsrAggPostings *other)
{
  GHashTableIter iter;
  gpointer value;

  p->other_parts = add (p, p->other_parts, other->other_parts);
  p->other_ns = add (p, p->other_ns, other->other_ns);
  p->saturated |= other->saturated;
  p->overflowed |= other->overflowed;
  g_hash_table_iter_init (&iter, other->by_signature);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const JsrAggPosting *from = value;
      JsrAggPosting *e = entry_for (p, from->signature, from->posted_from, from->callback,
                                    from->callback_build_id);

      if (e == NULL)
        {
          p->other_parts = add (p, p->other_parts, from->parts);
          p->other_ns = add (p, p->other_ns, from->total_ns);
          continue;
        }
      e->events = add (p, e->events, from->events);
      e->parts = add (p, e->parts, from->parts);
      e->runs = add (p, e->runs, from->runs);
      e->total_ns = add (p, e->total_ns, from->total_ns);
    }
}

guint
jsr_agg_postings_name_callbacks (JsrAggPostings *p, JsrAggNameFunc name, gpointer data)
{
  GHashTableIter iter;
  gpointer value;
  guint named = 0;

  /* Keyed by signature: a renamed callback merges nothing. */
  g_hash_table_iter_init (&iter, p->by_signature);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JsrAggPosting *e = value;

      named += jsr_agg_name_pair (&e->callback, &e->callback_build_id, name, data);
    }
  return named;
}

static gint
entry_by_time (gconstpointer a, gconstpointer b)
{
  const JsrAggPosting *x = *(JsrAggPosting *const *) a, *y = *(JsrAggPosting *const *) b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return strcmp (x->signature, y->signature);
}

GPtrArray *
jsr_agg_postings_sorted (const JsrAggPostings *p)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, p->by_signature);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (out, value);
  g_ptr_array_sort (out, entry_by_time);
  return out;
}

void
jsr_agg_postings_write (JsJsonWriter *w, guint indent, const JsrAggPostings *p)
{
  g_autoptr (GPtrArray) sorted = jsr_agg_postings_sorted (p);

  js_json_writer_newline (w, indent);
  js_json_writer_member (w, "postings");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < sorted->len; i++)
    {
      const JsrAggPosting *e = g_ptr_array_index (sorted, i);

      js_json_writer_newline (w, indent + 2);
      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "signature", e->signature);
      js_json_writer_member_string (w, "posted_from", e->posted_from);
      js_json_writer_member_string (w, "callback", e->callback);
      /* Only where there is one: aggregates without it read as before. */
      if (e->callback_build_id != NULL)
        js_json_writer_member_string (w, "callback_build_id", e->callback_build_id);
      js_json_writer_member_count (w, "events", e->events);
      js_json_writer_member_count (w, "parts", e->parts);
      js_json_writer_member_count (w, "runs", e->runs);
      js_json_writer_member_count (w, "blocked_ns", e->total_ns);
      js_json_writer_end_object (w);
    }
  if (sorted->len > 0)
    js_json_writer_newline (w, indent);
  js_json_writer_end_array (w);
  js_json_writer_newline (w, indent);
  js_json_writer_member (w, "postings_other");
  js_json_writer_begin_object (w);
  js_json_writer_member_count (w, "parts", p->other_parts);
  js_json_writer_member_count (w, "blocked_ns", p->other_ns);
  js_json_writer_end_object (w);
}

gboolean
jsr_agg_postings_read (const JsrJsonNode *root, JsrAggPostings *p, GError **error)
{
  JsrJsonPath path = JSR_JSON_MEMBER (NULL, "postings");
  JsrJsonPath other_path = JSR_JSON_MEMBER (NULL, "postings_other");
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *list, *other = NULL;

  list = jsr_json_read_optional_array (root, NULL, "postings", &local_error);
  if (local_error == NULL)
    other = jsr_json_read_optional_object (root, NULL, "postings_other", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (other != NULL
      && (!jsr_agg_read_u64 (other, &other_path, "parts", &p->other_parts, error)
          || !jsr_agg_read_u64 (other, &other_path, "blocked_ns", &p->other_ns, error)))
    return FALSE;
  if (list == NULL)
    return TRUE;
  if (list->length > JSR_AGG_MAX_POSTINGS)
    return jsr_agg_invalid (error, NULL, "postings", _ ("has too many entries"));
  for (guint i = 0; i < list->length; i++)
    {
      JsrJsonPath entry_path = JSR_JSON_ELEMENT (&path, i);
      const JsrJsonNode *object = jsr_json_read_element (list, &entry_path, error);
      g_autofree char *signature = NULL, *posted_from = NULL, *callback = NULL;
      g_autofree char *callback_build_id = NULL;
      JsrAggPosting *e;

      if (object == NULL
          || !jsr_json_read_string (object, &entry_path, "signature", FALSE, &signature, error)
          || !jsr_json_read_string (object, &entry_path, "posted_from", TRUE, &posted_from, error)
          || !jsr_json_read_string (object, &entry_path, "callback", TRUE, &callback, error)
          || !jsr_agg_read_build_id (object, &entry_path, "callback_build_id", callback,
                                     &callback_build_id, error))
        return FALSE;
      if (g_hash_table_contains (p->by_signature, signature))
        return jsr_agg_invalid (error, &entry_path, NULL, _ ("is listed twice"));
      e = entry_for (p, signature, posted_from, callback, callback_build_id);
      if (!jsr_agg_read_u64 (object, &entry_path, "events", &e->events, error)
          || !jsr_agg_read_u64 (object, &entry_path, "parts", &e->parts, error)
          || !jsr_agg_read_u64 (object, &entry_path, "runs", &e->runs, error)
          || !jsr_agg_read_u64 (object, &entry_path, "blocked_ns", &e->total_ns, error))
        return FALSE;
      if (e->events > e->parts)
        return jsr_agg_invalid (error, &entry_path, "events",
                                _ ("must not be more than its parts"));
      if (e->runs > e->events)
        return jsr_agg_invalid (error, &entry_path, "runs", _ ("must not be more than its events"));
    }
  return TRUE;
}
