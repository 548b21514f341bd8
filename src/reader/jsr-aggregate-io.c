/* jsr-aggregate-io.c: the aggregate document (docs/aggregate-format.md)
 *
 * Written by hand into a GString (an aggregate of a fleet holds many
 * thousands of entries; json-glib's builder would triple the time), in a
 * fixed order, so that equal aggregates are equal files. Read back with
 * jsr-json-doc.c and checked like a report.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "jsr-aggregate-io.h"
#include "jsr-json-read.h"
#include "jsr-saturate.h"

/* ---- writing ------------------------------------------------------------------ */

static void
member (GString    *out,
        const char *indent,
        const char *name)
{
  g_string_append (out, indent);
  jsr_json_append_string (out, name);
  g_string_append (out, ": ");
}

static void
member_int (GString    *out,
            const char *indent,
            const char *name,
            guint64     value,
            gboolean    last)
{
  member (out, indent, name);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT "%s\n", MIN (value, (guint64) G_MAXINT64),
                          last ? "" : ",");
}

static void
member_string (GString    *out,
               const char *indent,
               const char *name,
               const char *value,
               gboolean    last)
{
  member (out, indent, name);
  jsr_json_append_string (out, value);
  g_string_append (out, last ? "\n" : ",\n");
}

static void
member_bool (GString    *out,
             const char *indent,
             const char *name,
             gboolean    value,
             gboolean    last)
{
  member (out, indent, name);
  g_string_append_printf (out, "%s%s\n", value ? "true" : "false", last ? "" : ",");
}

/* The members of a JsrAggStats, on one line: {"events": 1, ...}. */
static void
append_stats (GString           *out,
              const JsrAggStats *s,
              const char        *total_name,
              gboolean           with_attribution)
{
  g_string_append_printf (out,
                          "\"events\": %" G_GUINT64_FORMAT ", \"samples\": %" G_GUINT64_FORMAT
                          ", \"runs\": %" G_GUINT64_FORMAT ", \"%s\": %" G_GUINT64_FORMAT
                          ", \"max_ns\": %" G_GUINT64_FORMAT,
                          s->events, s->samples, s->runs, total_name, s->total_ns, s->max_ns);
  if (with_attribution)
    g_string_append_printf (out,
                            ", \"attributed_ns\": %" G_GUINT64_FORMAT
                            ", \"unattributed_ns\": %" G_GUINT64_FORMAT,
                            s->attributed_ns, s->unattributed_ns);
}

static void
append_key (GString         *out,
            const JsrAggKey *key)
{
  g_string_append (out, "\"tier\": ");
  jsr_json_append_string (out, key->tier);
  g_string_append (out, ", \"class\": ");
  jsr_json_append_string (out, key->klass);
  g_string_append (out, ", \"wait\": ");
  jsr_json_append_string (out, key->wait);
  g_string_append (out, ", \"source\": ");
  jsr_json_append_string (out, key->source);
  g_string_append (out, ", \"callback\": ");
  jsr_json_append_string (out, key->callback);
  g_string_append (out, ", \"scene\": ");
  jsr_json_append_string (out, key->scene);
}

static void
append_histogram (GString            *out,
                  const char         *indent,
                  const JsrHistogram *h,
                  const double       *qs,
                  const char *const  *names,
                  guint               n)
{
  gboolean first = TRUE;

  member_int (out, indent, "count", h->count, FALSE);
  member_int (out, indent, "approximate", h->approximate, FALSE);
  for (guint i = 0; i < n; i++)
    member_int (out, indent, names[i], (guint64) jsr_histogram_percentile (h, qs[i]), FALSE);
  member_int (out, indent, "max_ns", h->count > 0 ? (guint64) h->max_ns : 0, FALSE);
  member (out, indent, "histogram");
  g_string_append_printf (out,
                          "{\"sub_bits\": %d, \"min_exp\": %d, \"count\": %" G_GUINT64_FORMAT
                          ", \"min_ns\": %" G_GINT64_FORMAT ", \"max_ns\": %" G_GINT64_FORMAT
                          ", \"buckets\": [",
                          JSR_HISTOGRAM_SUB_BITS, JSR_HISTOGRAM_MIN_EXP, h->count,
                          h->count > 0 ? h->min_ns : 0, h->count > 0 ? h->max_ns : 0);
  for (guint b = 0; b < JSR_HISTOGRAM_BUCKETS; b++)
    if (h->buckets[b] != 0)
      {
        g_string_append_printf (out, "%s[%u, %" G_GUINT64_FORMAT "]", first ? "" : ", ", b,
                                MIN (h->buckets[b], (guint64) G_MAXINT64));
        first = FALSE;
      }
  g_string_append (out, "]}\n");
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
append_runs (GString            *out,
             const JsrAggregate *agg)
{
  g_autoptr (GArray) ids = g_array_sized_new (FALSE, FALSE, sizeof (guint64),
                                              g_hash_table_size (agg->runs));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, agg->runs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_array_append_val (ids, *(guint64 *) key);
  g_array_sort (ids, compare_u64);
  g_string_append_printf (out, "  \"runs\": {\"count\": %u, \"ids\": [", ids->len);
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (out, "%s\"%016" G_GINT64_MODIFIER "x\"", i > 0 ? ", " : "",
                            g_array_index (ids, guint64, i));
  g_string_append (out, "]},\n");
}

static void
append_installs (GString            *out,
                 const JsrAggregate *agg)
{
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, agg->installs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (ids, key);
  g_ptr_array_sort (ids, compare_strings);
  g_string_append_printf (out, "  \"installs\": {\"count\": %u, \"ids\": [", ids->len);
  for (guint i = 0; i < ids->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      jsr_json_append_string (out, g_ptr_array_index (ids, i));
    }
  g_string_append (out, "]},\n");
}

static void
append_apps (GString            *out,
             const JsrAggregate *agg)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, agg->apps);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_strings);
  g_string_append (out, "  \"apps\": [");
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);

      g_string_append (out, i > 0 ? ",\n    {\"name\": " : "\n    {\"name\": ");
      jsr_json_append_string (out, name);
      g_string_append_printf (out, ", \"runs\": %" G_GUINT64_FORMAT "}",
                              *(guint64 *) g_hash_table_lookup (agg->apps, name));
    }
  g_string_append (out, names->len > 0 ? "\n  ],\n" : "],\n");
  member_int (out, "  ", "apps_other", agg->apps_other, FALSE);
}

static void
append_summary (GString            *out,
                const JsrAggregate *agg)
{
  static const double busy_qs[] = { 0.50, 0.95, 0.99 };
  static const char *const busy_names[] = { "p50_ns", "p95_ns", "p99_ns" };
  static const double frame_qs[] = { 0.50, 0.90, 0.95, 0.99 };
  static const char *const frame_names[] = { "p50_ns", "p90_ns", "p95_ns", "p99_ns" };
  const char *in = "    ";

  g_string_append (out, "  \"summary\": {\n");
  member_int (out, in, "monitored_ns", agg->monitored_ns, FALSE);
  member_int (out, in, "busy_ns", agg->busy_ns, FALSE);
  member_int (out, in, "iterations", agg->iterations, FALSE);
  member_int (out, in, "dispatches", agg->dispatches, FALSE);
  member_int (out, in, "events_total", agg->events_total, FALSE);
  member_int (out, in, "events_dropped", agg->events_dropped, FALSE);
  member_int (out, in, "records_dropped", agg->records_dropped, FALSE);
  member (out, in, "events_by_tier");
  g_string_append (out, "{");
  for (JsrTier t = 0; t < JSR_N_TIERS; t++)
    g_string_append_printf (out, "%s\"%s\": %" G_GUINT64_FORMAT, t > 0 ? ", " : "",
                            jsr_tier_to_string (t), agg->events_by_tier[t]);
  g_string_append (out, "},\n");
  g_string_append (out, "    \"iteration_busy\": {\n");
  append_histogram (out, "      ", &agg->iteration_busy, busy_qs, busy_names,
                    G_N_ELEMENTS (busy_qs));
  g_string_append (out, "    },\n    \"frames\": {\n");
  member_int (out, "      ", "frames", agg->frames, FALSE);
  member_int (out, "      ", "slow", agg->frames_slow, FALSE);
  member_int (out, "      ", "frozen", agg->frames_frozen, FALSE);
  append_histogram (out, "      ", &agg->frame_time, frame_qs, frame_names,
                    G_N_ELEMENTS (frame_qs));
  g_string_append (out, "    }\n  },\n");
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  return jsr_agg_key_compare (&(*(JsrAggGroup *const *) a)->key,
                              &(*(JsrAggGroup *const *) b)->key);
}

static void
append_signature (GString               *out,
                  const JsrAggSignature *sig)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_string_append (out, "    {\"signature\": ");
  jsr_json_append_string (out, sig->text);
  g_string_append_printf (out, ", \"signature_id\": \"%s\", ", sig->id);
  append_stats (out, &sig->stats, "total_ns", FALSE);
  g_string_append (out, ",\n     \"cells\": [");
  g_hash_table_iter_init (&iter, sig->cells);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (cells, value);
  g_ptr_array_sort (cells, compare_groups);
  for (guint i = 0; i < cells->len; i++)
    {
      const JsrAggGroup *cell = g_ptr_array_index (cells, i);

      g_string_append (out, i > 0 ? ",\n       {" : "\n       {");
      append_key (out, &cell->key);
      g_string_append (out, ", ");
      append_stats (out, &cell->stats, "total_ns", FALSE);
      g_string_append (out, "}");
    }
  g_string_append (out, cells->len > 0 ? "\n     ]" : "]");
  g_string_append (out, ",\n     \"cells_other\": ");
  if (sig->cells_other != NULL)
    {
      g_string_append (out, "{");
      append_stats (out, &sig->cells_other->stats, "total_ns", FALSE);
      g_string_append (out, "}}");
    }
  else
    g_string_append (out, "null}");
}

static void
append_worst (GString           *out,
              const JsrAggEvent *e)
{
  g_string_append_printf (out, "    {\"run\": \"%016" G_GINT64_MODIFIER "x\", \"app\": ", e->run);
  jsr_json_append_string (out, e->app);
  g_string_append_printf (out,
                          ", \"pid\": %" G_GINT64_FORMAT ", \"id\": %" G_GINT64_FORMAT
                          ", \"start_ns\": %" G_GINT64_FORMAT
                          ", \"duration_ns\": %" G_GUINT64_FORMAT
                          ", \"attributed_ns\": %" G_GUINT64_FORMAT
                          ", \"unattributed_ns\": %" G_GUINT64_FORMAT ",\n     ",
                          e->pid, e->event_id, e->start_ns, e->duration_ns, e->attributed_ns,
                          e->unattributed_ns);
  append_key (out, &e->key);
  g_string_append (out, ",\n     \"culprit\": ");
  jsr_json_append_string (out, e->culprit);
  g_string_append (out, ", \"signature\": ");
  jsr_json_append_string (out, e->signature);
  g_string_append (out, "}");
}

char *
jsr_aggregate_to_json (const JsrAggregate *agg)
{
  GString *out = g_string_sized_new (64 * 1024);
  g_autoptr (GPtrArray) signatures = jsr_aggregate_sorted_signatures (agg, JSR_AGG_SORT_TIME);
  g_autoptr (GPtrArray) groups = jsr_aggregate_sorted_groups (agg);
  JsrAggStats other = agg->signatures_other;
  guint64 other_count = jsr_sat_add_u64 (agg->signatures_other_count,
                                         g_hash_table_size (agg->signatures_overflowed));
  guint kept = MIN (signatures->len, agg->max_signatures);
  gboolean overflowed = agg->overflowed || kept < signatures->len;

  /* Signatures past the bound go to "other", exactly. */
  for (guint i = kept; i < signatures->len; i++)
    {
      const JsrAggSignature *sig = g_ptr_array_index (signatures, i);

      other.events = jsr_sat_add_u64 (other.events, sig->stats.events);
      other.samples = jsr_sat_add_u64 (other.samples, sig->stats.samples);
      other.total_ns = jsr_sat_add_u64 (other.total_ns, sig->stats.total_ns);
      other.max_ns = MAX (other.max_ns, sig->stats.max_ns);
      other_count = jsr_sat_add_u64 (other_count, 1);
    }

  g_string_append (out, "{\n");
  member_string (out, "  ", "format", JSR_AGGREGATE_FORMAT, FALSE);
  member_int (out, "  ", "version", JSR_AGGREGATE_VERSION, FALSE);
  member_string (out, "  ", "generator", "jankscope " JANKSCOPE_VERSION, FALSE);
  member_int (out, "  ", "signature_frames", agg->signature_frames, FALSE);
  member_bool (out, "  ", "exact", !overflowed && !agg->saturated, FALSE);
  member_bool (out, "  ", "overflowed", overflowed, FALSE);
  member_bool (out, "  ", "saturated", agg->saturated, FALSE);
  member_bool (out, "  ", "runs_upper_bound", agg->runs_upper_bound, FALSE);
  member_int (out, "  ", "reports", agg->reports, FALSE);
  append_runs (out, agg);
  append_installs (out, agg);
  append_apps (out, agg);
  append_summary (out, agg);

  g_string_append (out, "  \"stalls\": {");
  append_stats (out, &agg->stalls, "blocked_ns", TRUE);
  g_string_append_printf (out, ", \"filtered_out\": %" G_GUINT64_FORMAT "},\n",
                          agg->events_filtered_out);
  g_string_append (out, "  \"frame_events\": {\"by_tier\": {");
  for (JsrTier t = 0; t < JSR_N_EVENT_TIERS; t++)
    g_string_append_printf (out, "%s\"%s\": %" G_GUINT64_FORMAT, t > 0 ? ", " : "",
                            jsr_tier_to_string (t), agg->frame_events_by_tier[t]);
  g_string_append_printf (out, "}, \"total_ns\": %" G_GUINT64_FORMAT "},\n", agg->frame_events_ns);

  g_string_append (out, "  \"groups\": [");
  for (guint i = 0; i < groups->len; i++)
    {
      const JsrAggGroup *group = g_ptr_array_index (groups, i);

      g_string_append (out, i > 0 ? ",\n    {" : "\n    {");
      append_key (out, &group->key);
      g_string_append (out, ",\n     ");
      append_stats (out, &group->stats, "blocked_ns", TRUE);
      g_string_append (out, "}");
    }
  g_string_append (out, groups->len > 0 ? "\n  ],\n" : "],\n");
  g_string_append (out, "  \"groups_other\": {");
  append_stats (out, &agg->groups_other, "blocked_ns", TRUE);
  g_string_append (out, "},\n");

  g_string_append (out, "  \"signatures\": [");
  for (guint i = 0; i < kept; i++)
    {
      g_string_append (out, i > 0 ? ",\n" : "\n");
      append_signature (out, g_ptr_array_index (signatures, i));
    }
  g_string_append (out, kept > 0 ? "\n  ],\n" : "],\n");
  g_string_append_printf (out, "  \"signatures_other\": {\"signatures\": %" G_GUINT64_FORMAT ", ",
                          other_count);
  append_stats (out, &other, "total_ns", FALSE);
  g_string_append (out, "},\n");

  g_string_append (out, "  \"worst_events\": [");
  for (guint i = 0; i < agg->worst->len; i++)
    {
      g_string_append (out, i > 0 ? ",\n" : "\n");
      append_worst (out, g_ptr_array_index (agg->worst, i));
    }
  g_string_append (out, agg->worst->len > 0 ? "\n  ]\n}\n" : "]\n}\n");

  return g_string_free (out, FALSE);
}

/* ---- reading ------------------------------------------------------------------ */

typedef const JsrJsonNode Node;
typedef JsrJsonPath Path;

static gboolean
fail (GError    **error,
      const Path *path,
      const char *member,
      const char *problem)
{
  g_autofree char *full = jsr_json_path_to_string (path, member);

  /* Translators: a member of the aggregate, then what is wrong with it. */
  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID, _("%s %s"), full, problem);
  return FALSE;
}

static gboolean
read_u64 (Node       *object,
          const Path *path,
          const char *member,
          guint64    *out,
          GError    **error)
{
  gint64 value;

  if (!jsr_json_read_count (object, path, member, &value, error))
    return FALSE;
  *out = (guint64) value;
  return TRUE;
}

static gboolean
read_stats (Node        *object,
            const Path  *path,
            const char  *total_name,
            gboolean     with_attribution,
            JsrAggStats *stats,
            GError     **error)
{
  if (!read_u64 (object, path, "events", &stats->events, error) ||
      !read_u64 (object, path, "samples", &stats->samples, error) ||
      !read_u64 (object, path, "runs", &stats->runs, error) ||
      !read_u64 (object, path, total_name, &stats->total_ns, error) ||
      !read_u64 (object, path, "max_ns", &stats->max_ns, error))
    return FALSE;
  if (with_attribution)
    {
      if (!read_u64 (object, path, "attributed_ns", &stats->attributed_ns, error) ||
          !read_u64 (object, path, "unattributed_ns", &stats->unattributed_ns, error))
        return FALSE;
      /* Both below 2^63: no overflow. */
      if (stats->attributed_ns + stats->unattributed_ns != stats->total_ns)
        return fail (error, path, NULL,
                     _("does not add up: attributed_ns + unattributed_ns must equal its "
                       "blocked_ns"));
    }
  if (stats->max_ns > stats->total_ns && stats->events > 0 && stats->total_ns > 0)
    return fail (error, path, "max_ns", _("must not be more than the total"));
  return TRUE;
}

static gboolean
read_key (Node       *object,
          const Path *path,
          JsrAggKey  *key,
          GError    **error)
{
  return jsr_json_read_string (object, path, "tier", TRUE, &key->tier, error) &&
         jsr_json_read_string (object, path, "class", TRUE, &key->klass, error) &&
         jsr_json_read_string (object, path, "wait", TRUE, &key->wait, error) &&
         jsr_json_read_string (object, path, "source", TRUE, &key->source, error) &&
         jsr_json_read_string (object, path, "callback", TRUE, &key->callback, error) &&
         jsr_json_read_string (object, path, "scene", TRUE, &key->scene, error);
}

static void
clear_key (JsrAggKey *key)
{
  g_free (key->tier);
  g_free (key->klass);
  g_free (key->wait);
  g_free (key->source);
  g_free (key->callback);
  g_free (key->scene);
  memset (key, 0, sizeof *key);
}

static gboolean
read_hex_id (Node       *node,
             const Path *path,
             guint64    *out,
             GError    **error)
{
  guint64 value = 0;

  if (node->type != JSR_JSON_STRING || node->length != 16 ||
      strspn (node->v.string, "0123456789abcdef") != 16)
    return fail (error, path, NULL, _("must be 16 lowercase hex digits"));
  for (guint i = 0; i < 16; i++)
    {
      char c = node->v.string[i];

      value = value << 4 | (guint64) (c <= '9' ? c - '0' : c - 'a' + 10);
    }
  *out = value;
  return TRUE;
}

static gboolean
read_histogram (Node         *object,
                const Path   *path,
                JsrHistogram *h,
                GError      **error)
{
  g_autoptr (GError) local_error = NULL;
  JsrReportHistogram *histogram = NULL;
  gint64 approximate;

  if (!jsr_histogram_read_member (object, path, &histogram, error) ||
      !jsr_json_read_count (object, path, "approximate", &approximate, error))
    {
      g_clear_pointer (&histogram, jsr_report_histogram_free);
      return FALSE;
    }
  if (histogram == NULL)
    return fail (error, path, "histogram",
                 _("is missing or not of the layout sub_bits 4, min_exp 6"));
  jsr_histogram_add_report (h, histogram);
  jsr_report_histogram_free (histogram);
  if ((guint64) approximate > h->count)
    return fail (error, path, "approximate", _("must not be more than the histogram's count"));
  h->approximate = (guint64) approximate;
  return TRUE;
}

static gboolean
read_summary (Node         *root,
              JsrAggregate *agg,
              GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "summary");
  Path tiers_path = JSR_JSON_MEMBER (&path, "events_by_tier");
  Path busy_path = JSR_JSON_MEMBER (&path, "iteration_busy");
  Path frames_path = JSR_JSON_MEMBER (&path, "frames");
  Node *summary = jsr_json_read_object (root, NULL, "summary", error);
  Node *tiers, *busy, *frames;

  if (summary == NULL ||
      !read_u64 (summary, &path, "monitored_ns", &agg->monitored_ns, error) ||
      !read_u64 (summary, &path, "busy_ns", &agg->busy_ns, error) ||
      !read_u64 (summary, &path, "iterations", &agg->iterations, error) ||
      !read_u64 (summary, &path, "dispatches", &agg->dispatches, error) ||
      !read_u64 (summary, &path, "events_total", &agg->events_total, error) ||
      !read_u64 (summary, &path, "events_dropped", &agg->events_dropped, error) ||
      !read_u64 (summary, &path, "records_dropped", &agg->records_dropped, error) ||
      (tiers = jsr_json_read_object (summary, &path, "events_by_tier", error)) == NULL)
    return FALSE;
  for (JsrTier t = 0; t < JSR_N_TIERS; t++)
    if (!read_u64 (tiers, &tiers_path, jsr_tier_to_string (t), &agg->events_by_tier[t], error))
      return FALSE;
  if ((busy = jsr_json_read_object (summary, &path, "iteration_busy", error)) == NULL ||
      !read_histogram (busy, &busy_path, &agg->iteration_busy, error) ||
      (frames = jsr_json_read_object (summary, &path, "frames", error)) == NULL ||
      !read_u64 (frames, &frames_path, "frames", &agg->frames, error) ||
      !read_u64 (frames, &frames_path, "slow", &agg->frames_slow, error) ||
      !read_u64 (frames, &frames_path, "frozen", &agg->frames_frozen, error) ||
      !read_histogram (frames, &frames_path, &agg->frame_time, error))
    return FALSE;
  return TRUE;
}

static gboolean
read_runs (Node         *root,
           JsrAggregate *agg,
           GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "runs");
  Path ids_path = JSR_JSON_MEMBER (&path, "ids");
  Node *runs = jsr_json_read_object (root, NULL, "runs", error);
  Node *ids;
  gint64 count;

  if (runs == NULL || !jsr_json_read_count (runs, &path, "count", &count, error) ||
      (ids = jsr_json_read_array (runs, &path, "ids", error)) == NULL)
    return FALSE;
  if ((guint64) count != ids->length)
    return fail (error, &path, "count", _("must be the number of its ids"));
  for (guint i = 0; i < ids->length; i++)
    {
      Path id_path = JSR_JSON_ELEMENT (&ids_path, i);
      guint64 id, *key;

      if (!read_hex_id (&ids->v.elements[i], &id_path, &id, error))
        return FALSE;
      if (g_hash_table_contains (agg->runs, &id))
        return fail (error, &id_path, NULL, _("is listed twice"));
      key = g_new (guint64, 1);
      *key = id;
      g_hash_table_add (agg->runs, key);
    }
  return TRUE;
}

static gboolean
read_installs (Node         *root,
               JsrAggregate *agg,
               GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "installs");
  Path ids_path = JSR_JSON_MEMBER (&path, "ids");
  Node *installs = jsr_json_read_object (root, NULL, "installs", error);
  Node *ids;
  gint64 count;

  if (installs == NULL || !jsr_json_read_count (installs, &path, "count", &count, error) ||
      (ids = jsr_json_read_array (installs, &path, "ids", error)) == NULL)
    return FALSE;
  for (guint i = 0; i < ids->length; i++)
    {
      Path id_path = JSR_JSON_ELEMENT (&ids_path, i);

      if (ids->v.elements[i].type != JSR_JSON_STRING)
        return jsr_json_invalid (error, &id_path, NULL, _("a string"), &ids->v.elements[i]);
      g_hash_table_add (agg->installs, jsr_json_copy_capped (ids->v.elements[i].v.string));
    }
  if ((guint64) count != g_hash_table_size (agg->installs))
    return fail (error, &path, "count", _("must be the number of its distinct ids"));
  return TRUE;
}

static gboolean
read_apps (Node         *root,
           JsrAggregate *agg,
           GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "apps");
  Node *apps = jsr_json_read_array (root, NULL, "apps", error);

  if (apps == NULL || !read_u64 (root, NULL, "apps_other", &agg->apps_other, error))
    return FALSE;
  for (guint i = 0; i < apps->length; i++)
    {
      Path app_path = JSR_JSON_ELEMENT (&path, i);
      Node *app = jsr_json_read_element (apps, &app_path, error);
      g_autofree char *name = NULL;
      guint64 runs, *count;

      if (app == NULL || !jsr_json_read_string (app, &app_path, "name", FALSE, &name, error) ||
          !read_u64 (app, &app_path, "runs", &runs, error))
        return FALSE;
      count = g_hash_table_lookup (agg->apps, name);
      if (count == NULL)
        {
          count = g_new0 (guint64, 1);
          g_hash_table_insert (agg->apps, g_steal_pointer (&name), count);
        }
      *count = jsr_sat_add_u64 (*count, runs);
    }
  return TRUE;
}

static gboolean
read_groups (Node         *root,
             JsrAggregate *agg,
             GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "groups");
  Path other_path = JSR_JSON_MEMBER (NULL, "groups_other");
  Path stalls_path = JSR_JSON_MEMBER (NULL, "stalls");
  Path frame_path = JSR_JSON_MEMBER (NULL, "frame_events");
  Path by_tier_path = JSR_JSON_MEMBER (&frame_path, "by_tier");
  Node *groups, *other, *stalls, *frame_events, *by_tier;

  if ((stalls = jsr_json_read_object (root, NULL, "stalls", error)) == NULL ||
      !read_stats (stalls, &stalls_path, "blocked_ns", TRUE, &agg->stalls, error) ||
      !read_u64 (stalls, &stalls_path, "filtered_out", &agg->events_filtered_out, error) ||
      (frame_events = jsr_json_read_object (root, NULL, "frame_events", error)) == NULL ||
      (by_tier = jsr_json_read_object (frame_events, &frame_path, "by_tier", error)) == NULL ||
      !read_u64 (frame_events, &frame_path, "total_ns", &agg->frame_events_ns, error))
    return FALSE;
  for (JsrTier t = 0; t < JSR_N_EVENT_TIERS; t++)
    if (!read_u64 (by_tier, &by_tier_path, jsr_tier_to_string (t), &agg->frame_events_by_tier[t],
                   error))
      return FALSE;

  if ((groups = jsr_json_read_array (root, NULL, "groups", error)) == NULL ||
      (other = jsr_json_read_object (root, NULL, "groups_other", error)) == NULL ||
      !read_stats (other, &other_path, "blocked_ns", TRUE, &agg->groups_other, error))
    return FALSE;
  for (guint i = 0; i < groups->length; i++)
    {
      Path group_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (groups, &group_path, error);
      JsrAggGroup *group;

      if (object == NULL)
        return FALSE;
      group = g_new0 (JsrAggGroup, 1);
      if (!read_key (object, &group_path, &group->key, error) ||
          !read_stats (object, &group_path, "blocked_ns", TRUE, &group->stats, error) ||
          g_hash_table_contains (agg->groups, &group->key))
        {
          gboolean twice = error == NULL || *error == NULL;

          clear_key (&group->key);
          g_free (group);
          return twice ? fail (error, &group_path, NULL, _("is listed twice")) : FALSE;
        }
      g_hash_table_insert (agg->groups, &group->key, group);
    }
  return TRUE;
}

static void
free_group (gpointer data)
{
  JsrAggGroup *group = data;

  clear_key (&group->key);
  g_free (group);
}

static gboolean
read_signature (Node         *object,
                const Path   *path,
                JsrAggregate *agg,
                GError      **error)
{
  Path cells_path = JSR_JSON_MEMBER (path, "cells");
  Path cells_other_path = JSR_JSON_MEMBER (path, "cells_other");
  g_autoptr (GError) local_error = NULL;
  g_autofree char *text = NULL, *id = NULL;
  JsrAggSignature *sig;
  Node *cells, *cells_other;

  if (!jsr_json_read_string (object, path, "signature", FALSE, &text, error) ||
      !jsr_json_read_string (object, path, "signature_id", FALSE, &id, error))
    return FALSE;
  if (strlen (id) != 16 || strspn (id, "0123456789abcdef") != 16)
    return fail (error, path, "signature_id", _("must be 16 lowercase hex digits"));
  if (g_hash_table_contains (agg->signatures, text))
    return fail (error, path, "signature", _("is listed twice"));

  sig = g_new0 (JsrAggSignature, 1);
  sig->text = g_steal_pointer (&text);
  memcpy (sig->id, id, 17);
  sig->cells = jsr_aggregate_new_group_table ();
  g_hash_table_insert (agg->signatures, sig->text, sig);

  if (!read_stats (object, path, "total_ns", FALSE, &sig->stats, error) ||
      (cells = jsr_json_read_array (object, path, "cells", error)) == NULL)
    return FALSE;
  cells_other = jsr_json_read_optional_object (object, path, "cells_other", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (cells_other != NULL)
    {
      sig->cells_other = g_new0 (JsrAggGroup, 1);
      if (!read_stats (cells_other, &cells_other_path, "total_ns", FALSE, &sig->cells_other->stats,
                       error))
        return FALSE;
    }
  for (guint i = 0; i < cells->length; i++)
    {
      Path cell_path = JSR_JSON_ELEMENT (&cells_path, i);
      Node *element = jsr_json_read_element (cells, &cell_path, error);
      JsrAggGroup *cell;

      if (element == NULL)
        return FALSE;
      cell = g_new0 (JsrAggGroup, 1);
      if (!read_key (element, &cell_path, &cell->key, error) ||
          !read_stats (element, &cell_path, "total_ns", FALSE, &cell->stats, error) ||
          g_hash_table_contains (sig->cells, &cell->key))
        {
          gboolean twice = error == NULL || *error == NULL;

          free_group (cell);
          return twice ? fail (error, &cell_path, NULL, _("is listed twice")) : FALSE;
        }
      g_hash_table_insert (sig->cells, &cell->key, cell);
    }
  return TRUE;
}

static gboolean
read_signatures (Node         *root,
                 JsrAggregate *agg,
                 GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "signatures");
  Path other_path = JSR_JSON_MEMBER (NULL, "signatures_other");
  Node *signatures = jsr_json_read_array (root, NULL, "signatures", error);
  Node *other;

  if (signatures == NULL ||
      (other = jsr_json_read_object (root, NULL, "signatures_other", error)) == NULL ||
      !read_u64 (other, &other_path, "signatures", &agg->signatures_other_count, error) ||
      !read_stats (other, &other_path, "total_ns", FALSE, &agg->signatures_other, error))
    return FALSE;
  /* Every signature of the file is kept (the target applies its bound). */
  agg->max_signatures = MAX (agg->max_signatures, signatures->length);
  for (guint i = 0; i < signatures->length; i++)
    {
      Path sig_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (signatures, &sig_path, error);

      if (object == NULL || !read_signature (object, &sig_path, agg, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_worst (Node         *root,
            JsrAggregate *agg,
            GError      **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "worst_events");
  Node *worst = jsr_json_read_array (root, NULL, "worst_events", error);

  if (worst == NULL)
    return FALSE;
  for (guint i = 0; i < worst->length; i++)
    {
      Path event_path = JSR_JSON_ELEMENT (&path, i);
      Path run_path = JSR_JSON_MEMBER (&event_path, "run");
      Node *object = jsr_json_read_element (worst, &event_path, error);
      JsrAggEvent *event;
      gint64 value;
      gboolean ok;

      if (object == NULL)
        return FALSE;
      event = g_new0 (JsrAggEvent, 1);
      g_ptr_array_add (agg->worst, event);
      ok = (jsr_json_object_get (object, "run") != NULL
              ? read_hex_id (jsr_json_object_get (object, "run"), &run_path, &event->run, error)
              : jsr_json_invalid (error, &event_path, "run", _("a string"), NULL)) &&
           jsr_json_read_string (object, &event_path, "app", TRUE, &event->app, error) &&
           jsr_json_read_count (object, &event_path, "pid", &event->pid, error) &&
           jsr_json_read_count (object, &event_path, "id", &event->event_id, error) &&
           jsr_json_read_count (object, &event_path, "start_ns", &event->start_ns, error) &&
           jsr_json_read_count (object, &event_path, "duration_ns", &value, error) &&
           (event->duration_ns = (guint64) value, TRUE) &&
           jsr_json_read_count (object, &event_path, "attributed_ns", &value, error) &&
           (event->attributed_ns = (guint64) value, TRUE) &&
           jsr_json_read_count (object, &event_path, "unattributed_ns", &value, error) &&
           (event->unattributed_ns = (guint64) value, TRUE) &&
           read_key (object, &event_path, &event->key, error) &&
           jsr_json_read_string (object, &event_path, "culprit", TRUE, &event->culprit, error) &&
           jsr_json_read_string (object, &event_path, "signature", TRUE, &event->signature, error);
      if (!ok)
        return FALSE;
      if (event->attributed_ns + event->unattributed_ns != event->duration_ns)
        return fail (error, &event_path, NULL,
                     _("does not add up: attributed_ns + unattributed_ns must equal its "
                       "duration_ns"));
    }
  return TRUE;
}

gboolean
jsr_aggregate_json_is_aggregate (const JsrJsonNode *root)
{
  Node *format = jsr_json_object_get (root, "format");

  return format != NULL && format->type == JSR_JSON_STRING &&
         strcmp (format->v.string, JSR_AGGREGATE_FORMAT) == 0;
}

JsrAggregate *
jsr_aggregate_load_from_json (const JsrJsonNode *root,
                              GError           **error)
{
  g_autoptr (JsrAggregate) agg = NULL;
  Node *version;
  gint64 frames;
  gboolean flag;

  if (!jsr_aggregate_json_is_aggregate (root))
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT,
                   _("not a jankscope aggregate: its “format” is not “%s”"), JSR_AGGREGATE_FORMAT);
      return NULL;
    }
  version = jsr_json_object_get (root, "version");
  if (version == NULL || version->type != JSR_JSON_INT)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _("the aggregate has no valid “version”"));
      return NULL;
    }
  if (version->v.integer != JSR_AGGREGATE_VERSION)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _("aggregate format version %lld is not supported (this jankscope reads "
                     "version %d)"),
                   (long long) version->v.integer, JSR_AGGREGATE_VERSION);
      return NULL;
    }
  if (!jsr_json_read_count (root, NULL, "signature_frames", &frames, error))
    return NULL;
  if (frames < 1 || frames > 64)
    {
      fail (error, NULL, "signature_frames", _("must be from 1 to 64"));
      return NULL;
    }

  agg = jsr_aggregate_new ((guint) frames, 1);
  if (!read_u64 (root, NULL, "reports", &agg->reports, error) ||
      !jsr_json_read_bool (root, NULL, "overflowed", &agg->overflowed, error) ||
      !jsr_json_read_bool (root, NULL, "saturated", &agg->saturated, error) ||
      !jsr_json_read_bool (root, NULL, "runs_upper_bound", &agg->runs_upper_bound, error) ||
      !jsr_json_read_bool (root, NULL, "exact", &flag, error) ||
      !read_runs (root, agg, error) ||
      !read_installs (root, agg, error) ||
      !read_apps (root, agg, error) ||
      !read_summary (root, agg, error) ||
      !read_groups (root, agg, error) ||
      !read_signatures (root, agg, error) ||
      !read_worst (root, agg, error))
    return NULL;

  return g_steal_pointer (&agg);
}
