/* jsr-aggregate-diagnoses.c: stall events counted by diagnosis id
 * (jsr-aggregate-diagnoses.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "jsr-aggregate-diagnoses.h"

#include <glib/gi18n.h>
#include <string.h>
#include "jsr-agg-read.h"
#include "jsr-saturate.h"

static void
place_free (JsrAggPlace *place)
{
  g_free (place->function);
  g_free (place->build_id);
  g_free (place);
}

static void
entry_free (JsrAggDiagnosis *e)
{
  g_free (e->id);
  g_free (e->title);
  g_ptr_array_unref (e->places);
  g_ptr_array_unref (e->details);
  g_free (e);
}

void
jsr_agg_diagnoses_init (JsrAggDiagnoses *d)
{
  memset (d, 0, sizeof *d);
  d->by_id = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) entry_free);
}

void
jsr_agg_diagnoses_clear (JsrAggDiagnoses *d)
{
  g_clear_pointer (&d->by_id, g_hash_table_unref);
}

static guint64
add (JsrAggDiagnoses *d, guint64 a, guint64 b)
{
  guint64 sum;

  if (!jsr_add_u64_checked (&sum, a, b))
    d->saturated = TRUE;
  return sum;
}

/* The entry for `id`, made as needed; NULL past the table's bound. */
static JsrAggDiagnosis *
entry_for (JsrAggDiagnoses *d, const char *id, const char *title)
{
  JsrAggDiagnosis *e = g_hash_table_lookup (d->by_id, id);

  if (e != NULL)
    {
      if (e->title == NULL && title != NULL)
        e->title = g_strdup (title);
      return e;
    }
  if (g_hash_table_size (d->by_id) >= JSR_AGG_MAX_DIAGNOSES)
    {
      d->overflowed = TRUE;
      return NULL;
    }
  e = g_new0 (JsrAggDiagnosis, 1);
  e->id = g_strdup (id);
  e->title = g_strdup (title);
  e->places = g_ptr_array_new_with_free_func ((GDestroyNotify) place_free);
  e->details = g_ptr_array_new_with_free_func ((GDestroyNotify) place_free);
  g_hash_table_insert (d->by_id, e->id, e);
  return e;
}

static gint
place_by_time (gconstpointer a, gconstpointer b)
{
  const JsrAggPlace *x = *(JsrAggPlace *const *) a, *y = *(JsrAggPlace *const *) b;

  int c;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if ((c = g_strcmp0 (x->function, y->function)) != 0)
    return c;
  return g_strcmp0 (x->build_id, y->build_id);
}

static gboolean
place_is (const JsrAggPlace *place, const char *function, const char *build_id)
{
  return g_strcmp0 (place->function, function) == 0 && g_strcmp0 (place->build_id, build_id) == 0;
}

/* `ns` at `function` (of `build_id`) in `list` (places or details): its
 * entry's, else a new entry (the lightest one goes to `other_ns` when the
 * list has `max` and the new one is heavier). */
static void
add_to_list (JsrAggDiagnoses *d, GPtrArray *list, guint64 *other_ns, guint max,
             const char *function, const char *build_id, guint64 ns)
{
  JsrAggPlace *place;

  for (guint i = 0; i < list->len; i++)
    {
      place = g_ptr_array_index (list, i);
      if (place_is (place, function, build_id))
        {
          place->total_ns = add (d, place->total_ns, ns);
          g_ptr_array_sort (list, place_by_time);
          return;
        }
    }
  if (list->len >= max)
    {
      JsrAggPlace *lightest = g_ptr_array_index (list, list->len - 1);

      if (lightest->total_ns >= ns)
        {
          *other_ns = add (d, *other_ns, ns);
          return;
        }
      *other_ns = add (d, *other_ns, lightest->total_ns);
      g_ptr_array_remove_index (list, list->len - 1);
    }
  place = g_new0 (JsrAggPlace, 1);
  place->function = g_strdup (function);
  place->build_id = g_strdup (build_id);
  place->total_ns = ns;
  g_ptr_array_add (list, place);
  g_ptr_array_sort (list, place_by_time);
}

static void
add_place (JsrAggDiagnoses *d, JsrAggDiagnosis *e, const char *function, const char *build_id,
           guint64 ns)
{
  add_to_list (d, e->places, &e->places_other_ns, JSR_AGG_DIAGNOSIS_MAX_PLACES, function, build_id,
               ns);
}

static void
add_detail (JsrAggDiagnoses *d, JsrAggDiagnosis *e, const char *text, guint64 ns)
{
  add_to_list (d, e->details, &e->details_other_ns, JSR_AGG_DIAGNOSIS_MAX_DETAILS, text, NULL, ns);
}

/* Where a diagnosed part's time went, by name (g_malloc ()ed): the
 * diagnosis's caller (the app's own code), else the app's code the culprit
 * names, else the diagnosis's function, else the culprit, else the
 * callback. A nameless culprit or callback ("module+0x…") comes with its
 * module's build-id (*build_id, borrowed from the report), as the culprit
 * it is would be named once symbolized. */
static char *
place_of (const JsrReport *report, const JsrReportDiagnosis *diag, const JsrReportCulprit *culprit,
          const char *callback, const char **build_id)
{
  g_autofree char *culprit_name = jsr_agg_culprit_name (report, culprit, build_id);
  const char *culprit_id = *build_id;

  *build_id = NULL;
  if (diag->caller != NULL)
    return g_strdup (diag->caller);
  if (culprit_name != NULL && g_strcmp0 (culprit->reason, "app-code") == 0)
    {
      *build_id = culprit_id;
      return g_steal_pointer (&culprit_name);
    }
  if (diag->function != NULL)
    return g_strdup (diag->function);
  if (culprit_name != NULL)
    {
      *build_id = culprit_id;
      return g_steal_pointer (&culprit_name);
    }
  *build_id = jsr_report_callback_build_id (report, callback);
  return g_strdup (callback);
}

static void
count_part (JsrAggDiagnoses *d, const JsrReport *report, const JsrReportDiagnosis *diag,
            const JsrReportCulprit *culprit, const char *callback, gint64 duration_ns, guint64 run,
            GHashTable *seen)
{
  JsrAggDiagnosis *e = entry_for (d, diag->id, diag->title);
  guint64 ns = (guint64) MAX (duration_ns, 0);
  g_autofree char *place = NULL;
  const char *build_id = NULL;

  if (e == NULL)
    {
      d->other_parts = add (d, d->other_parts, 1);
      d->other_ns = add (d, d->other_ns, ns);
      return;
    }
  e->parts = add (d, e->parts, 1);
  e->total_ns = add (d, e->total_ns, ns);
  e->evidence_ns = add (d, e->evidence_ns, (guint64) MIN (MAX (diag->evidence_ns, 0), (gint64) ns));
  if (!g_hash_table_contains (seen, e))
    {
      g_hash_table_add (seen, e);
      e->events = add (d, e->events, 1);
    }
  if (e->last_run != run)
    {
      e->last_run = run;
      e->runs = add (d, e->runs, 1);
    }
  place = place_of (report, diag, culprit, callback, &build_id);
  add_place (d, e, place, build_id, ns);
  {
    g_autofree char *text = jsr_diagnosis_detail_text (diag);

    if (text != NULL)
      add_detail (d, e, text, ns);
  }
}

void
jsr_agg_diagnoses_add_event (JsrAggDiagnoses *d, const JsrReport *report,
                             const JsrReportEvent *event, guint64 run)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = event->parts != NULL ? event->parts->len : 0;

  for (guint i = 0; i < n; i++)
    {
      const JsrReportPart *part = g_ptr_array_index (event->parts, i);

      if (part->diagnosis != NULL)
        count_part (d, report, part->diagnosis, part->culprit, part->callback, part->duration_ns,
                    run, seen);
    }
  if (n == 0 && event->diagnosis != NULL)
    count_part (d, report, event->diagnosis, event->culprit, event->callback, event->duration_ns,
                run, seen);
}

void
jsr_agg_diagnoses_merge (JsrAggDiagnoses *d, const JsrAggDiagnoses *other)
{
  GHashTableIter iter;
  gpointer value;

  d->other_parts = add (d, d->other_parts, other->other_parts);
  d->other_ns = add (d, d->other_ns, other->other_ns);
  d->saturated |= other->saturated;
  d->overflowed |= other->overflowed;
  g_hash_table_iter_init (&iter, other->by_id);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const JsrAggDiagnosis *from = value;
      JsrAggDiagnosis *e = entry_for (d, from->id, from->title);

      if (e == NULL)
        {
          d->other_parts = add (d, d->other_parts, from->parts);
          d->other_ns = add (d, d->other_ns, from->total_ns);
          continue;
        }
      e->events = add (d, e->events, from->events);
      e->parts = add (d, e->parts, from->parts);
      e->runs = add (d, e->runs, from->runs);
      e->total_ns = add (d, e->total_ns, from->total_ns);
      e->evidence_ns = add (d, e->evidence_ns, from->evidence_ns);
      e->places_other_ns = add (d, e->places_other_ns, from->places_other_ns);
      for (guint i = 0; i < from->places->len; i++)
        {
          const JsrAggPlace *place = g_ptr_array_index (from->places, i);

          add_place (d, e, place->function, place->build_id, place->total_ns);
        }
      e->details_other_ns = add (d, e->details_other_ns, from->details_other_ns);
      for (guint i = 0; i < from->details->len; i++)
        {
          const JsrAggPlace *detail = g_ptr_array_index (from->details, i);

          add_detail (d, e, detail->function, detail->total_ns);
        }
    }
}

guint
jsr_agg_diagnoses_name_places (JsrAggDiagnoses *d, JsrAggNameFunc name, gpointer data)
{
  GHashTableIter iter;
  gpointer value;
  guint named = 0;

  g_hash_table_iter_init (&iter, d->by_id);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JsrAggDiagnosis *e = value;
      g_autoptr (GPtrArray) places = e->places;

      /* Named in the list's order (most time first, then by name: a fixed
       * one), and added back: places that became one are summed, the
       * list keeps its bound (it cannot grow) and its order. */
      e->places = g_ptr_array_new_with_free_func ((GDestroyNotify) place_free);
      for (guint i = 0; i < places->len; i++)
        {
          JsrAggPlace *place = g_ptr_array_index (places, i);

          named += jsr_agg_name_pair (&place->function, &place->build_id, name, data);
          add_place (d, e, place->function, place->build_id, place->total_ns);
        }
    }
  return named;
}

static gint
entry_by_time (gconstpointer a, gconstpointer b)
{
  const JsrAggDiagnosis *x = *(JsrAggDiagnosis *const *) a, *y = *(JsrAggDiagnosis *const *) b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return strcmp (x->id, y->id);
}

GPtrArray *
jsr_agg_diagnoses_sorted (const JsrAggDiagnoses *d)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, d->by_id);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (out, value);
  g_ptr_array_sort (out, entry_by_time);
  return out;
}

void
jsr_agg_diagnoses_write (JsJsonWriter *w, guint indent, const JsrAggDiagnoses *d)
{
  g_autoptr (GPtrArray) sorted = jsr_agg_diagnoses_sorted (d);

  js_json_writer_newline (w, indent);
  js_json_writer_member (w, "diagnoses");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < sorted->len; i++)
    {
      const JsrAggDiagnosis *e = g_ptr_array_index (sorted, i);

      js_json_writer_newline (w, indent + 2);
      js_json_writer_begin_object (w);
      js_json_writer_member (w, "id");
      js_json_writer_string (w, e->id);
      js_json_writer_member (w, "title");
      if (e->title != NULL)
        js_json_writer_string (w, e->title);
      else
        js_json_writer_null (w);
      js_json_writer_member_count (w, "events", e->events);
      js_json_writer_member_count (w, "parts", e->parts);
      js_json_writer_member_count (w, "runs", e->runs);
      js_json_writer_member_count (w, "blocked_ns", e->total_ns);
      js_json_writer_member_count (w, "evidence_ns", e->evidence_ns);
      js_json_writer_member (w, "places");
      js_json_writer_begin_array (w);
      for (guint k = 0; k < e->places->len; k++)
        {
          const JsrAggPlace *place = g_ptr_array_index (e->places, k);

          js_json_writer_begin_object (w);
          js_json_writer_member (w, "function");
          if (place->function != NULL)
            js_json_writer_string (w, place->function);
          else
            js_json_writer_null (w);
          /* Only where there is one: aggregates without it read as before. */
          if (place->build_id != NULL)
            js_json_writer_member_string (w, "function_build_id", place->build_id);
          js_json_writer_member_count (w, "blocked_ns", place->total_ns);
          js_json_writer_end_object (w);
        }
      js_json_writer_end_array (w);
      js_json_writer_member_count (w, "places_other_ns", e->places_other_ns);
      js_json_writer_member (w, "details");
      js_json_writer_begin_array (w);
      for (guint k = 0; k < e->details->len; k++)
        {
          const JsrAggPlace *detail = g_ptr_array_index (e->details, k);

          js_json_writer_begin_object (w);
          js_json_writer_member (w, "detail");
          js_json_writer_string (w, detail->function);
          js_json_writer_member_count (w, "blocked_ns", detail->total_ns);
          js_json_writer_end_object (w);
        }
      js_json_writer_end_array (w);
      js_json_writer_member_count (w, "details_other_ns", e->details_other_ns);
      js_json_writer_end_object (w);
    }
  if (sorted->len > 0)
    js_json_writer_newline (w, indent);
  js_json_writer_end_array (w);
  js_json_writer_newline (w, indent);
  js_json_writer_member (w, "diagnoses_other");
  js_json_writer_begin_object (w);
  js_json_writer_member_count (w, "parts", d->other_parts);
  js_json_writer_member_count (w, "blocked_ns", d->other_ns);
  js_json_writer_end_object (w);
}

static gboolean
read_places (const JsrJsonNode *object, const JsrJsonPath *path, JsrAggDiagnosis *e, GError **error)
{
  JsrJsonPath places_path = JSR_JSON_MEMBER (path, "places");
  const JsrJsonNode *places = jsr_json_read_array (object, path, "places", error);

  if (places == NULL)
    return FALSE;
  if (places->length > JSR_AGG_DIAGNOSIS_MAX_PLACES)
    return jsr_agg_invalid (error, path, "places", _ ("has too many entries"));
  for (guint i = 0; i < places->length; i++)
    {
      JsrJsonPath place_path = JSR_JSON_ELEMENT (&places_path, i);
      const JsrJsonNode *element = jsr_json_read_element (places, &place_path, error);
      g_autofree char *function = NULL, *build_id = NULL;
      guint64 ns;

      if (element == NULL
          || !jsr_json_read_string (element, &place_path, "function", TRUE, &function, error)
          || !jsr_agg_read_build_id (element, &place_path, "function_build_id", function, &build_id,
                                     error)
          || !jsr_agg_read_u64 (element, &place_path, "blocked_ns", &ns, error))
        return FALSE;
      for (guint k = 0; k < e->places->len; k++)
        if (place_is (g_ptr_array_index (e->places, k), function, build_id))
          return jsr_agg_invalid (error, &place_path, NULL, _ ("is listed twice"));
      {
        JsrAggPlace *place = g_new0 (JsrAggPlace, 1);

        place->function = g_steal_pointer (&function);
        place->build_id = g_steal_pointer (&build_id);
        place->total_ns = ns;
        g_ptr_array_add (e->places, place);
      }
    }
  g_ptr_array_sort (e->places, place_by_time);
  return TRUE;
}

/* details: absent in aggregates of before them. Each a string as a
 * report's detail is (jsr-diagnosis.h), listed once. */
static gboolean
read_details (const JsrJsonNode *object, const JsrJsonPath *path, JsrAggDiagnosis *e,
              GError **error)
{
  JsrJsonPath details_path = JSR_JSON_MEMBER (path, "details");
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *details = jsr_json_read_optional_array (object, path, "details", &local_error);
  gint64 other;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!jsr_json_read_optional_count (object, path, "details_other_ns", &other, error))
    return FALSE;
  e->details_other_ns = other >= 0 ? (guint64) other : 0;
  if (details == NULL)
    return TRUE;
  if (details->length > JSR_AGG_DIAGNOSIS_MAX_DETAILS)
    return jsr_agg_invalid (error, path, "details", _ ("has too many entries"));
  for (guint i = 0; i < details->length; i++)
    {
      JsrJsonPath detail_path = JSR_JSON_ELEMENT (&details_path, i);
      const JsrJsonNode *element = jsr_json_read_element (details, &detail_path, error);
      g_autofree char *text = NULL;
      guint64 ns;

      if (element == NULL
          || !jsr_json_read_string (element, &detail_path, "detail", FALSE, &text, error)
          || !jsr_agg_read_u64 (element, &detail_path, "blocked_ns", &ns, error))
        return FALSE;
      if (strlen (text) >= JSR_JSON_MAX_STRING)
        return jsr_agg_invalid (error, &detail_path, "detail", _ ("is too long"));
      for (const char *c = text; *c; c++)
        if ((guchar) *c < 0x20 || *c == 0x7f)
          return jsr_agg_invalid (error, &detail_path, "detail", _ ("has a control character"));
      for (guint k = 0; k < e->details->len; k++)
        if (g_strcmp0 (((JsrAggPlace *) g_ptr_array_index (e->details, k))->function, text) == 0)
          return jsr_agg_invalid (error, &detail_path, NULL, _ ("is listed twice"));
      {
        JsrAggPlace *detail = g_new0 (JsrAggPlace, 1);

        detail->function = g_steal_pointer (&text);
        detail->total_ns = ns;
        g_ptr_array_add (e->details, detail);
      }
    }
  g_ptr_array_sort (e->details, place_by_time);
  return TRUE;
}

gboolean
jsr_agg_diagnoses_read (const JsrJsonNode *root, JsrAggDiagnoses *d, GError **error)
{
  JsrJsonPath path = JSR_JSON_MEMBER (NULL, "diagnoses");
  JsrJsonPath other_path = JSR_JSON_MEMBER (NULL, "diagnoses_other");
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *list, *other = NULL;

  list = jsr_json_read_optional_array (root, NULL, "diagnoses", &local_error);
  if (local_error == NULL)
    other = jsr_json_read_optional_object (root, NULL, "diagnoses_other", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (other != NULL
      && (!jsr_agg_read_u64 (other, &other_path, "parts", &d->other_parts, error)
          || !jsr_agg_read_u64 (other, &other_path, "blocked_ns", &d->other_ns, error)))
    return FALSE;
  if (list == NULL)
    return TRUE;
  if (list->length > JSR_AGG_MAX_DIAGNOSES)
    return jsr_agg_invalid (error, NULL, "diagnoses", _ ("has too many entries"));
  for (guint i = 0; i < list->length; i++)
    {
      JsrJsonPath entry_path = JSR_JSON_ELEMENT (&path, i);
      const JsrJsonNode *object = jsr_json_read_element (list, &entry_path, error);
      g_autofree char *id = NULL, *title = NULL;
      JsrAggDiagnosis *e;

      if (object == NULL || !jsr_json_read_string (object, &entry_path, "id", FALSE, &id, error)
          || !jsr_json_read_string (object, &entry_path, "title", TRUE, &title, error))
        return FALSE;
      if (id[0] == '\0' || strlen (id) > JSR_DIAGNOSIS_MAX_ID
          || strspn (id, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen (id))
        return jsr_agg_invalid (error, &entry_path, "id",
                                _ ("must be a short id of lower-case letters, digits and '-'"));
      if (g_hash_table_contains (d->by_id, id))
        return jsr_agg_invalid (error, &entry_path, NULL, _ ("is listed twice"));
      e = entry_for (d, id, title);
      if (!jsr_agg_read_u64 (object, &entry_path, "events", &e->events, error)
          || !jsr_agg_read_u64 (object, &entry_path, "parts", &e->parts, error)
          || !jsr_agg_read_u64 (object, &entry_path, "runs", &e->runs, error)
          || !jsr_agg_read_u64 (object, &entry_path, "blocked_ns", &e->total_ns, error)
          || !jsr_agg_read_u64 (object, &entry_path, "evidence_ns", &e->evidence_ns, error)
          || !jsr_agg_read_u64 (object, &entry_path, "places_other_ns", &e->places_other_ns, error)
          || !read_places (object, &entry_path, e, error)
          || !read_details (object, &entry_path, e, error))
        return FALSE;
      if (e->events > e->parts)
        return jsr_agg_invalid (error, &entry_path, "events",
                                _ ("must not be more than its parts"));
    }
  return TRUE;
}
