/* jsr-aggregate-io.c: the aggregate document (docs/aggregate-format.md)
 *
 * Written with jsr-json-writer.c (an aggregate of a fleet holds many
 * thousands of entries; json-glib's builder would triple the time), in a
 * fixed order and layout, so that equal aggregates are equal files. Read
 * back with jsr-json-doc.c and checked like a report.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "jsr-agg-read.h"
#include "jsr-aggregate-io.h"
#include "jsr-json-read.h"
#include "js-json-writer.h"
#include "jsr-saturate.h"

/* ---- writing ------------------------------------------------------------------ */

/* The layout: one top-level member per line, indented by two; a container
 * that holds many entries (apps, groups, signatures, cells, worst events)
 * has one per line, two further in than the line that opens it, and a long
 * entry goes on over lines indented one past its brace. */
#define TOP 2

/* A top-level member (or one of a block at `indent`) on a line of its own. */
static void
line_member (JsJsonWriter *w, guint indent, const char *name)
{
  js_json_writer_newline (w, indent);
  js_json_writer_member (w, name);
}

/* The members of a JsrAggStats: "events": 1, ... */
static void
write_stats (JsJsonWriter *w, const JsrAggStats *s, const char *total_name,
             gboolean with_attribution)
{
  js_json_writer_member (w, "events");
  js_json_writer_uint (w, s->events);
  js_json_writer_member (w, "samples");
  js_json_writer_uint (w, s->samples);
  js_json_writer_member (w, "runs");
  js_json_writer_uint (w, s->runs);
  js_json_writer_member (w, total_name);
  js_json_writer_uint (w, s->total_ns);
  js_json_writer_member (w, "max_ns");
  js_json_writer_uint (w, s->max_ns);
  if (with_attribution)
    {
      js_json_writer_member (w, "attributed_ns");
      js_json_writer_uint (w, s->attributed_ns);
      js_json_writer_member (w, "unattributed_ns");
      js_json_writer_uint (w, s->unattributed_ns);
    }
}

static void
write_key (JsJsonWriter *w, const JsrAggKey *key)
{
  js_json_writer_member_string (w, "tier", key->tier);
  js_json_writer_member_string (w, "class", key->klass);
  js_json_writer_member_string (w, "wait", key->wait);
  js_json_writer_member_string (w, "source", key->source);
  js_json_writer_member_string (w, "callback", key->callback);
  /* Only where there is one: aggregates without it read as before. */
  if (key->callback_build_id != NULL)
    js_json_writer_member_string (w, "callback_build_id", key->callback_build_id);
  js_json_writer_member_string (w, "scene", key->scene);
}

/* The members of a percentile block at `indent`, its histogram last. */
static void
write_histogram (JsJsonWriter *w, guint indent, const JsrHistogram *h, const double *qs,
                 const char *const *names, guint n)
{
  line_member (w, indent, "count");
  js_json_writer_count (w, h->count);
  line_member (w, indent, "approximate");
  js_json_writer_count (w, h->approximate);
  for (guint i = 0; i < n; i++)
    {
      line_member (w, indent, names[i]);
      js_json_writer_count (w, (guint64) jsr_histogram_percentile (h, qs[i]));
    }
  line_member (w, indent, "max_ns");
  js_json_writer_count (w, h->count > 0 ? (guint64) h->max_ns : 0);
  line_member (w, indent, "histogram");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "sub_bits");
  js_json_writer_int (w, JSR_HISTOGRAM_SUB_BITS);
  js_json_writer_member (w, "min_exp");
  js_json_writer_int (w, JSR_HISTOGRAM_MIN_EXP);
  js_json_writer_member (w, "count");
  js_json_writer_uint (w, h->count);
  js_json_writer_member (w, "min_ns");
  js_json_writer_int (w, h->count > 0 ? h->min_ns : 0);
  js_json_writer_member (w, "max_ns");
  js_json_writer_int (w, h->count > 0 ? h->max_ns : 0);
  js_json_writer_member (w, "buckets");
  js_json_writer_begin_array (w);
  for (guint b = 0; b < JSR_HISTOGRAM_BUCKETS; b++)
    if (h->buckets[b] != 0)
      {
        js_json_writer_begin_array (w);
        js_json_writer_uint (w, b);
        js_json_writer_count (w, h->buckets[b]);
        js_json_writer_end_array (w);
      }
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The keys of a set of strings, sorted: documents list them in one order. */
static GPtrArray *
sorted_string_keys (GHashTable *set)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

/* A run id as the documents spell it: 16 hexadecimal digits. */
static void
write_run_id (JsJsonWriter *w, guint64 run)
{
  char id[17];

  g_snprintf (id, sizeof id, "%016" G_GINT64_MODIFIER "x", run);
  js_json_writer_string (w, id);
}

static void
write_runs (JsJsonWriter *w, const JsrAggregate *agg)
{
  g_autoptr (GArray) ids
      = g_array_sized_new (FALSE, FALSE, sizeof (guint64), g_hash_table_size (agg->runs));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, agg->runs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_array_append_val (ids, *(guint64 *) key);
  g_array_sort (ids, compare_u64);
  line_member (w, TOP, "runs");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "count");
  js_json_writer_uint (w, ids->len);
  js_json_writer_member (w, "ids");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < ids->len; i++)
    write_run_id (w, g_array_index (ids, guint64, i));
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

static void
write_installs (JsJsonWriter *w, const JsrAggregate *agg)
{
  g_autoptr (GPtrArray) ids = sorted_string_keys (agg->installs);

  line_member (w, TOP, "installs");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "count");
  js_json_writer_uint (w, ids->len);
  js_json_writer_member (w, "ids");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < ids->len; i++)
    js_json_writer_string (w, g_ptr_array_index (ids, i));
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

static void
write_apps (JsJsonWriter *w, const JsrAggregate *agg)
{
  g_autoptr (GPtrArray) names = sorted_string_keys (agg->apps);

  line_member (w, TOP, "apps");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);

      js_json_writer_newline (w, TOP + 2);
      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "name", name);
      js_json_writer_member (w, "runs");
      js_json_writer_uint (w, *(guint64 *) g_hash_table_lookup (agg->apps, name));
      js_json_writer_end_object (w);
    }
  if (names->len > 0)
    js_json_writer_newline (w, TOP);
  js_json_writer_end_array (w);
  line_member (w, TOP, "apps_other");
  js_json_writer_count (w, agg->apps_other);
}

static void
write_summary (JsJsonWriter *w, const JsrAggregate *agg)
{
  static const double busy_qs[] = { 0.50, 0.95, 0.99 };
  static const char *const busy_names[] = { "p50_ns", "p95_ns", "p99_ns" };
  static const double frame_qs[] = { 0.50, 0.90, 0.95, 0.99 };
  static const char *const frame_names[] = { "p50_ns", "p90_ns", "p95_ns", "p99_ns" };
  const struct
  {
    const char *name;
    guint64 value;
  } counts[] = {
    { "monitored_ns", agg->monitored_ns },       { "busy_ns", agg->busy_ns },
    { "iterations", agg->iterations },           { "dispatches", agg->dispatches },
    { "events_total", agg->events_total },       { "events_dropped", agg->events_dropped },
    { "records_dropped", agg->records_dropped },
  };
  const guint in = TOP + 2;

  line_member (w, TOP, "summary");
  js_json_writer_begin_object (w);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      line_member (w, in, counts[i].name);
      js_json_writer_count (w, counts[i].value);
    }
  line_member (w, in, "events_by_tier");
  js_json_writer_begin_object (w);
  for (JsTier t = 0; t < JS_N_TIERS; t++)
    {
      js_json_writer_member (w, js_tier_name (t));
      js_json_writer_uint (w, agg->events_by_tier[t]);
    }
  js_json_writer_end_object (w);
  line_member (w, in, "iteration_busy");
  js_json_writer_begin_object (w);
  write_histogram (w, in + 2, &agg->iteration_busy, busy_qs, busy_names, G_N_ELEMENTS (busy_qs));
  js_json_writer_newline (w, in);
  js_json_writer_end_object (w);
  line_member (w, in, "frames");
  js_json_writer_begin_object (w);
  line_member (w, in + 2, "frames");
  js_json_writer_count (w, agg->frames);
  line_member (w, in + 2, "slow");
  js_json_writer_count (w, agg->frames_slow);
  line_member (w, in + 2, "frozen");
  js_json_writer_count (w, agg->frames_frozen);
  write_histogram (w, in + 2, &agg->frame_time, frame_qs, frame_names, G_N_ELEMENTS (frame_qs));
  js_json_writer_newline (w, in);
  js_json_writer_end_object (w);
  js_json_writer_newline (w, TOP);
  js_json_writer_end_object (w);
}

static int
compare_groups (gconstpointer a, gconstpointer b)
{
  return jsr_agg_key_compare (&(*(JsrAggGroup *const *) a)->key, &(*(JsrAggGroup *const *) b)->key);
}

/* An entry of the signatures (at TOP + 2), its cells one per line under it. */
static void
write_signature (JsJsonWriter *w, const JsrAggSignature *sig)
{
  g_autoptr (GPtrArray) cells = g_ptr_array_new ();
  const guint in = TOP + 3; /* past the entry's brace */
  GHashTableIter iter;
  gpointer value;

  js_json_writer_newline (w, TOP + 2);
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "signature", sig->text);
  js_json_writer_member_string (w, "signature_id", sig->id);
  write_stats (w, &sig->stats, "total_ns", FALSE);
  line_member (w, in, "cells");
  js_json_writer_begin_array (w);
  g_hash_table_iter_init (&iter, sig->cells);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (cells, value);
  g_ptr_array_sort (cells, compare_groups);
  for (guint i = 0; i < cells->len; i++)
    {
      const JsrAggGroup *cell = g_ptr_array_index (cells, i);

      js_json_writer_newline (w, in + 2);
      js_json_writer_begin_object (w);
      write_key (w, &cell->key);
      write_stats (w, &cell->stats, "total_ns", FALSE);
      js_json_writer_end_object (w);
    }
  if (cells->len > 0)
    js_json_writer_newline (w, in);
  js_json_writer_end_array (w);
  line_member (w, in, "cells_other");
  if (sig->cells_other != NULL)
    {
      js_json_writer_begin_object (w);
      write_stats (w, &sig->cells_other->stats, "total_ns", FALSE);
      js_json_writer_end_object (w);
    }
  else
    js_json_writer_null (w);
  js_json_writer_end_object (w);
}

/* A nameless name's build-id: only where there is one, so that aggregates
 * without it read and write as before. */
static void
write_build_id (JsJsonWriter *w, const char *member, const char *build_id)
{
  if (build_id != NULL)
    js_json_writer_member_string (w, member, build_id);
}

static void
write_part (JsJsonWriter *w, guint in, const JsrAggPart *part)
{
  js_json_writer_newline (w, in);
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "type", part->type);
  js_json_writer_member_string (w, "source", part->source);
  js_json_writer_member_string (w, "callback", part->callback);
  write_build_id (w, "callback_build_id", part->callback_build_id);
  js_json_writer_member (w, "start_ns");
  js_json_writer_int (w, part->start_ns);
  js_json_writer_member (w, "duration_ns");
  js_json_writer_count (w, part->duration_ns);
  js_json_writer_member_string (w, "tier", part->tier);
  js_json_writer_member_string (w, "class", part->klass);
  js_json_writer_member_string (w, "wait", part->wait);
  js_json_writer_member_string (w, "culprit", part->culprit);
  write_build_id (w, "culprit_build_id", part->culprit_build_id);
  js_json_writer_member_string (w, "culprit_callback", part->culprit_callback);
  write_build_id (w, "culprit_callback_build_id", part->culprit_callback_build_id);
  js_json_writer_member_string (w, "posted_from", part->posted_from);
  if (part->posted_from_inherited)
    js_json_writer_member_bool (w, "posted_from_inherited", TRUE);
  js_json_writer_member (w, "attributed_ns");
  if (part->attributed_ns >= 0)
    js_json_writer_int (w, part->attributed_ns);
  else
    js_json_writer_null (w);
  js_json_writer_end_object (w);
}

static void
write_worst (JsJsonWriter *w, const JsrAggEvent *e)
{
  const guint in = TOP + 3; /* past the entry's brace */

  js_json_writer_newline (w, TOP + 2);
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "run");
  write_run_id (w, e->run);
  js_json_writer_member_string (w, "app", e->app);
  js_json_writer_member (w, "pid");
  js_json_writer_int (w, e->pid);
  js_json_writer_member (w, "id");
  js_json_writer_int (w, e->event_id);
  js_json_writer_member (w, "start_ns");
  js_json_writer_int (w, e->start_ns);
  js_json_writer_member (w, "duration_ns");
  js_json_writer_uint (w, e->duration_ns);
  js_json_writer_member (w, "attributed_ns");
  js_json_writer_uint (w, e->attributed_ns);
  js_json_writer_member (w, "unattributed_ns");
  js_json_writer_uint (w, e->unattributed_ns);
  js_json_writer_newline (w, in);
  write_key (w, &e->key);
  line_member (w, in, "culprit");
  js_json_writer_string (w, e->culprit);
  write_build_id (w, "culprit_build_id", e->culprit_build_id);
  js_json_writer_member_string (w, "culprit_callback", e->culprit_callback);
  write_build_id (w, "culprit_callback_build_id", e->culprit_callback_build_id);
  js_json_writer_member_string (w, "posted_from", e->posted_from);
  if (e->posted_from_inherited)
    js_json_writer_member_bool (w, "posted_from_inherited", TRUE);
  js_json_writer_member_string (w, "signature", e->signature);
  line_member (w, in, "parts_count");
  js_json_writer_count (w, e->parts_count);
  js_json_writer_member (w, "parts");
  js_json_writer_begin_array (w);
  for (guint i = 0; e->parts != NULL && i < e->parts->len; i++)
    write_part (w, in + 2, g_ptr_array_index (e->parts, i));
  if (e->parts != NULL && e->parts->len > 0)
    js_json_writer_newline (w, in);
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

/* The blocks of many entries: one per line, the closing bracket on a line of
 * its own unless there are none. */
static void
end_block (JsJsonWriter *w, guint entries)
{
  if (entries > 0)
    js_json_writer_newline (w, TOP);
  js_json_writer_end_array (w);
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
  JsJsonWriter writer;
  JsJsonWriter *w = &writer;

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

  js_json_writer_init (w, out, JS_JSON_WRITER_SPACED);
  js_json_writer_begin_object (w);
  line_member (w, TOP, "format");
  js_json_writer_string (w, JSR_AGGREGATE_FORMAT);
  line_member (w, TOP, "version");
  js_json_writer_count (w, JSR_AGGREGATE_VERSION);
  line_member (w, TOP, "generator");
  js_json_writer_string (w, "jankscope " JANKSCOPE_VERSION);
  line_member (w, TOP, "signature_frames");
  js_json_writer_count (w, agg->signature_frames);
  js_json_writer_newline (w, TOP);
  js_json_writer_member_bool (w, "exact", !overflowed && !agg->saturated);
  js_json_writer_newline (w, TOP);
  js_json_writer_member_bool (w, "overflowed", overflowed);
  js_json_writer_newline (w, TOP);
  js_json_writer_member_bool (w, "saturated", agg->saturated);
  js_json_writer_newline (w, TOP);
  js_json_writer_member_bool (w, "runs_upper_bound", agg->runs_upper_bound);
  line_member (w, TOP, "reports");
  js_json_writer_count (w, agg->reports);
  write_runs (w, agg);
  write_installs (w, agg);
  write_apps (w, agg);
  write_summary (w, agg);

  line_member (w, TOP, "stalls");
  js_json_writer_begin_object (w);
  write_stats (w, &agg->stalls, "blocked_ns", TRUE);
  js_json_writer_member (w, "filtered_out");
  js_json_writer_uint (w, agg->events_filtered_out);
  js_json_writer_end_object (w);
  line_member (w, TOP, "frame_events");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "by_tier");
  js_json_writer_begin_object (w);
  for (JsTier t = 0; t < JS_N_EVENT_TIERS; t++)
    {
      js_json_writer_member (w, js_tier_name (t));
      js_json_writer_uint (w, agg->frame_events_by_tier[t]);
    }
  js_json_writer_end_object (w);
  js_json_writer_member (w, "total_ns");
  js_json_writer_uint (w, agg->frame_events_ns);
  js_json_writer_member (w, "uncovered");
  js_json_writer_begin_object (w);
  write_stats (w, &agg->frame_uncovered, "blocked_ns", TRUE);
  js_json_writer_end_object (w);
  js_json_writer_end_object (w);

  line_member (w, TOP, "groups");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < groups->len; i++)
    {
      const JsrAggGroup *group = g_ptr_array_index (groups, i);

      js_json_writer_newline (w, TOP + 2);
      js_json_writer_begin_object (w);
      write_key (w, &group->key);
      js_json_writer_newline (w, TOP + 3);
      write_stats (w, &group->stats, "blocked_ns", TRUE);
      js_json_writer_end_object (w);
    }
  end_block (w, groups->len);
  line_member (w, TOP, "groups_other");
  js_json_writer_begin_object (w);
  write_stats (w, &agg->groups_other, "blocked_ns", TRUE);
  js_json_writer_end_object (w);
  jsr_agg_diagnoses_write (w, TOP, &agg->diagnoses);
  jsr_agg_postings_write (w, TOP, &agg->postings);

  line_member (w, TOP, "signatures");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < kept; i++)
    write_signature (w, g_ptr_array_index (signatures, i));
  end_block (w, kept);
  line_member (w, TOP, "signatures_other");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "signatures");
  js_json_writer_uint (w, other_count);
  write_stats (w, &other, "total_ns", FALSE);
  js_json_writer_end_object (w);

  line_member (w, TOP, "worst_events");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < agg->worst->len; i++)
    write_worst (w, g_ptr_array_index (agg->worst, i));
  end_block (w, agg->worst->len);
  js_json_writer_newline (w, 0);
  js_json_writer_end_object (w);
  g_string_append_c (out, '\n');

  return g_string_free (out, FALSE);
}

/* ---- reading ------------------------------------------------------------------ */

typedef const JsrJsonNode Node;
typedef JsrJsonPath Path;

static gboolean
read_stats (Node *object, const Path *path, const char *total_name, gboolean with_attribution,
            JsrAggStats *stats, GError **error)
{
  if (!jsr_agg_read_u64 (object, path, "events", &stats->events, error)
      || !jsr_agg_read_u64 (object, path, "samples", &stats->samples, error)
      || !jsr_agg_read_u64 (object, path, "runs", &stats->runs, error)
      || !jsr_agg_read_u64 (object, path, total_name, &stats->total_ns, error)
      || !jsr_agg_read_u64 (object, path, "max_ns", &stats->max_ns, error))
    return FALSE;
  if (with_attribution)
    {
      if (!jsr_agg_read_u64 (object, path, "attributed_ns", &stats->attributed_ns, error)
          || !jsr_agg_read_u64 (object, path, "unattributed_ns", &stats->unattributed_ns, error))
        return FALSE;
      /* Both below 2^63: no overflow. */
      if (stats->attributed_ns + stats->unattributed_ns != stats->total_ns)
        return jsr_agg_invalid (
            error, path, NULL,
            _ ("does not add up: attributed_ns + unattributed_ns must equal its "
               "blocked_ns"));
    }
  if (stats->max_ns > stats->total_ns && stats->events > 0 && stats->total_ns > 0)
    return jsr_agg_invalid (error, path, "max_ns", _ ("must not be more than the total"));
  return TRUE;
}

/* Optional: hex, and only beside a nameless callback. */
static gboolean
read_callback_build_id (Node *object, const Path *path, JsrAggKey *key, GError **error)
{
  const char *plus;

  if (!jsr_json_read_string (object, path, "callback_build_id", TRUE, &key->callback_build_id,
                             error))
    return FALSE;
  if (key->callback_build_id == NULL)
    return TRUE;
  if (!jsr_is_build_id (key->callback_build_id))
    return jsr_agg_invalid (error, path, "callback_build_id",
                            _ ("must be hex digits (a build-id)"));
  plus = key->callback != NULL ? strrchr (key->callback, '+') : NULL;
  if (plus == NULL || plus == key->callback || !g_str_has_prefix (plus, "+0x"))
    return jsr_agg_invalid (error, path, "callback_build_id",
                            _ ("must be beside a nameless callback (“module+0x…”)"));
  return TRUE;
}

static gboolean
read_key (Node *object, const Path *path, JsrAggKey *key, GError **error)
{
  return jsr_json_read_string (object, path, "tier", TRUE, &key->tier, error)
         && jsr_json_read_string (object, path, "class", TRUE, &key->klass, error)
         && jsr_json_read_string (object, path, "wait", TRUE, &key->wait, error)
         && jsr_json_read_string (object, path, "source", TRUE, &key->source, error)
         && jsr_json_read_string (object, path, "callback", TRUE, &key->callback, error)
         && read_callback_build_id (object, path, key, error)
         && jsr_json_read_string (object, path, "scene", TRUE, &key->scene, error);
}

static void
clear_key (JsrAggKey *key)
{
  g_free (key->tier);
  g_free (key->klass);
  g_free (key->wait);
  g_free (key->source);
  g_free (key->callback);
  g_free (key->callback_build_id);
  g_free (key->scene);
  memset (key, 0, sizeof *key);
}

static gboolean
read_hex_id (Node *node, const Path *path, guint64 *out, GError **error)
{
  guint64 value = 0;

  if (node->type != JSR_JSON_STRING || node->length != 16
      || strspn (node->v.string, "0123456789abcdef") != 16)
    return jsr_agg_invalid (error, path, NULL, _ ("must be 16 lowercase hex digits"));
  for (guint i = 0; i < 16; i++)
    {
      char c = node->v.string[i];

      value = value << 4 | (guint64) (c <= '9' ? c - '0' : c - 'a' + 10);
    }
  *out = value;
  return TRUE;
}

static gboolean
read_histogram (Node *object, const Path *path, JsrHistogram *h, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  JsrReportHistogram *histogram = NULL;
  gint64 approximate;

  if (!jsr_histogram_read_member (object, path, &histogram, error)
      || !jsr_json_read_count (object, path, "approximate", &approximate, error))
    {
      g_clear_pointer (&histogram, jsr_report_histogram_free);
      return FALSE;
    }
  if (histogram == NULL)
    return jsr_agg_invalid (error, path, "histogram",
                            _ ("is missing or not of the layout sub_bits 4, min_exp 6"));
  jsr_histogram_add_report (h, histogram);
  jsr_report_histogram_free (histogram);
  if ((guint64) approximate > h->count)
    return jsr_agg_invalid (error, path, "approximate",
                            _ ("must not be more than the histogram's count"));
  h->approximate = (guint64) approximate;
  return TRUE;
}

static gboolean
read_summary (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "summary");
  Path tiers_path = JSR_JSON_MEMBER (&path, "events_by_tier");
  Path busy_path = JSR_JSON_MEMBER (&path, "iteration_busy");
  Path frames_path = JSR_JSON_MEMBER (&path, "frames");
  Node *summary = jsr_json_read_object (root, NULL, "summary", error);
  Node *tiers, *busy, *frames;

  if (summary == NULL
      || !jsr_agg_read_u64 (summary, &path, "monitored_ns", &agg->monitored_ns, error)
      || !jsr_agg_read_u64 (summary, &path, "busy_ns", &agg->busy_ns, error)
      || !jsr_agg_read_u64 (summary, &path, "iterations", &agg->iterations, error)
      || !jsr_agg_read_u64 (summary, &path, "dispatches", &agg->dispatches, error)
      || !jsr_agg_read_u64 (summary, &path, "events_total", &agg->events_total, error)
      || !jsr_agg_read_u64 (summary, &path, "events_dropped", &agg->events_dropped, error)
      || !jsr_agg_read_u64 (summary, &path, "records_dropped", &agg->records_dropped, error)
      || (tiers = jsr_json_read_object (summary, &path, "events_by_tier", error)) == NULL)
    return FALSE;
  for (JsTier t = 0; t < JS_N_TIERS; t++)
    if (!jsr_agg_read_u64 (tiers, &tiers_path, js_tier_name (t), &agg->events_by_tier[t], error))
      return FALSE;
  if ((busy = jsr_json_read_object (summary, &path, "iteration_busy", error)) == NULL
      || !read_histogram (busy, &busy_path, &agg->iteration_busy, error)
      || (frames = jsr_json_read_object (summary, &path, "frames", error)) == NULL
      || !jsr_agg_read_u64 (frames, &frames_path, "frames", &agg->frames, error)
      || !jsr_agg_read_u64 (frames, &frames_path, "slow", &agg->frames_slow, error)
      || !jsr_agg_read_u64 (frames, &frames_path, "frozen", &agg->frames_frozen, error)
      || !read_histogram (frames, &frames_path, &agg->frame_time, error))
    return FALSE;
  return TRUE;
}

static gboolean
read_runs (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "runs");
  Path ids_path = JSR_JSON_MEMBER (&path, "ids");
  Node *runs = jsr_json_read_object (root, NULL, "runs", error);
  Node *ids;
  gint64 count;

  if (runs == NULL || !jsr_json_read_count (runs, &path, "count", &count, error)
      || (ids = jsr_json_read_array (runs, &path, "ids", error)) == NULL)
    return FALSE;
  if ((guint64) count != ids->length)
    return jsr_agg_invalid (error, &path, "count", _ ("must be the number of its ids"));
  for (guint i = 0; i < ids->length; i++)
    {
      Path id_path = JSR_JSON_ELEMENT (&ids_path, i);
      guint64 id, *key;

      if (!read_hex_id (&ids->v.elements[i], &id_path, &id, error))
        return FALSE;
      if (g_hash_table_contains (agg->runs, &id))
        return jsr_agg_invalid (error, &id_path, NULL, _ ("is listed twice"));
      key = g_new (guint64, 1);
      *key = id;
      g_hash_table_add (agg->runs, key);
    }
  return TRUE;
}

static gboolean
read_installs (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "installs");
  Path ids_path = JSR_JSON_MEMBER (&path, "ids");
  Node *installs = jsr_json_read_object (root, NULL, "installs", error);
  Node *ids;
  gint64 count;

  if (installs == NULL || !jsr_json_read_count (installs, &path, "count", &count, error)
      || (ids = jsr_json_read_array (installs, &path, "ids", error)) == NULL)
    return FALSE;
  for (guint i = 0; i < ids->length; i++)
    {
      Path id_path = JSR_JSON_ELEMENT (&ids_path, i);

      if (ids->v.elements[i].type != JSR_JSON_STRING)
        return jsr_json_invalid (error, &id_path, NULL, _ ("a string"), &ids->v.elements[i]);
      g_hash_table_add (agg->installs, jsr_json_copy_capped (ids->v.elements[i].v.string));
    }
  if ((guint64) count != g_hash_table_size (agg->installs))
    return jsr_agg_invalid (error, &path, "count", _ ("must be the number of its distinct ids"));
  return TRUE;
}

static gboolean
read_apps (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "apps");
  Node *apps = jsr_json_read_array (root, NULL, "apps", error);

  if (apps == NULL || !jsr_agg_read_u64 (root, NULL, "apps_other", &agg->apps_other, error))
    return FALSE;
  for (guint i = 0; i < apps->length; i++)
    {
      Path app_path = JSR_JSON_ELEMENT (&path, i);
      Node *app = jsr_json_read_element (apps, &app_path, error);
      g_autofree char *name = NULL;
      guint64 runs, *count;

      if (app == NULL || !jsr_json_read_string (app, &app_path, "name", FALSE, &name, error)
          || !jsr_agg_read_u64 (app, &app_path, "runs", &runs, error))
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
read_groups (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "groups");
  Path other_path = JSR_JSON_MEMBER (NULL, "groups_other");
  Path stalls_path = JSR_JSON_MEMBER (NULL, "stalls");
  Path frame_path = JSR_JSON_MEMBER (NULL, "frame_events");
  Path by_tier_path = JSR_JSON_MEMBER (&frame_path, "by_tier");
  Node *groups, *other, *stalls, *frame_events, *by_tier;

  if ((stalls = jsr_json_read_object (root, NULL, "stalls", error)) == NULL
      || !read_stats (stalls, &stalls_path, "blocked_ns", TRUE, &agg->stalls, error)
      || !jsr_agg_read_u64 (stalls, &stalls_path, "filtered_out", &agg->events_filtered_out, error)
      || (frame_events = jsr_json_read_object (root, NULL, "frame_events", error)) == NULL
      || (by_tier = jsr_json_read_object (frame_events, &frame_path, "by_tier", error)) == NULL
      || !jsr_agg_read_u64 (frame_events, &frame_path, "total_ns", &agg->frame_events_ns, error))
    return FALSE;
  for (JsTier t = 0; t < JS_N_EVENT_TIERS; t++)
    if (!jsr_agg_read_u64 (by_tier, &by_tier_path, js_tier_name (t), &agg->frame_events_by_tier[t],
                           error))
      return FALSE;
  /* Aggregates before it have none. */
  {
    Path uncovered_path = JSR_JSON_MEMBER (&frame_path, "uncovered");
    g_autoptr (GError) local_error = NULL;
    Node *uncovered
        = jsr_json_read_optional_object (frame_events, &frame_path, "uncovered", &local_error);

    if (local_error != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local_error));
        return FALSE;
      }
    if (uncovered != NULL
        && !read_stats (uncovered, &uncovered_path, "blocked_ns", TRUE, &agg->frame_uncovered,
                        error))
      return FALSE;
  }

  if ((groups = jsr_json_read_array (root, NULL, "groups", error)) == NULL
      || (other = jsr_json_read_object (root, NULL, "groups_other", error)) == NULL
      || !read_stats (other, &other_path, "blocked_ns", TRUE, &agg->groups_other, error))
    return FALSE;
  for (guint i = 0; i < groups->length; i++)
    {
      Path group_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (groups, &group_path, error);
      JsrAggGroup *group;

      if (object == NULL)
        return FALSE;
      group = g_new0 (JsrAggGroup, 1);
      if (!read_key (object, &group_path, &group->key, error)
          || !read_stats (object, &group_path, "blocked_ns", TRUE, &group->stats, error)
          || g_hash_table_contains (agg->groups, &group->key))
        {
          gboolean twice = error == NULL || *error == NULL;

          clear_key (&group->key);
          g_free (group);
          return twice ? jsr_agg_invalid (error, &group_path, NULL, _ ("is listed twice")) : FALSE;
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
read_signature (Node *object, const Path *path, JsrAggregate *agg, GError **error)
{
  Path cells_path = JSR_JSON_MEMBER (path, "cells");
  Path cells_other_path = JSR_JSON_MEMBER (path, "cells_other");
  g_autoptr (GError) local_error = NULL;
  g_autofree char *text = NULL, *id = NULL;
  JsrAggSignature *sig;
  Node *cells, *cells_other;

  if (!jsr_json_read_string (object, path, "signature", FALSE, &text, error)
      || !jsr_json_read_string (object, path, "signature_id", FALSE, &id, error))
    return FALSE;
  if (strlen (id) != 16 || strspn (id, "0123456789abcdef") != 16)
    return jsr_agg_invalid (error, path, "signature_id", _ ("must be 16 lowercase hex digits"));
  if (g_hash_table_contains (agg->signatures, text))
    return jsr_agg_invalid (error, path, "signature", _ ("is listed twice"));

  sig = g_new0 (JsrAggSignature, 1);
  sig->text = g_steal_pointer (&text);
  memcpy (sig->id, id, 17);
  sig->cells = jsr_aggregate_new_group_table ();
  g_hash_table_insert (agg->signatures, sig->text, sig);

  if (!read_stats (object, path, "total_ns", FALSE, &sig->stats, error)
      || (cells = jsr_json_read_array (object, path, "cells", error)) == NULL)
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
      if (!read_key (element, &cell_path, &cell->key, error)
          || !read_stats (element, &cell_path, "total_ns", FALSE, &cell->stats, error)
          || g_hash_table_contains (sig->cells, &cell->key))
        {
          gboolean twice = error == NULL || *error == NULL;

          free_group (cell);
          return twice ? jsr_agg_invalid (error, &cell_path, NULL, _ ("is listed twice")) : FALSE;
        }
      g_hash_table_insert (sig->cells, &cell->key, cell);
    }
  return TRUE;
}

static gboolean
read_signatures (Node *root, JsrAggregate *agg, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "signatures");
  Path other_path = JSR_JSON_MEMBER (NULL, "signatures_other");
  Node *signatures = jsr_json_read_array (root, NULL, "signatures", error);
  Node *other;

  if (signatures == NULL
      || (other = jsr_json_read_object (root, NULL, "signatures_other", error)) == NULL
      || !jsr_agg_read_u64 (other, &other_path, "signatures", &agg->signatures_other_count, error)
      || !read_stats (other, &other_path, "total_ns", FALSE, &agg->signatures_other, error))
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

/* worst_events[].parts: optional (aggregates before them have none). */
static gboolean
read_worst_parts (Node *object, const Path *event_path, JsrAggEvent *event, GError **error)
{
  Path path = JSR_JSON_MEMBER (event_path, "parts");
  g_autoptr (GError) local_error = NULL;
  Node *parts = jsr_json_read_optional_array (object, event_path, "parts", &local_error);
  gint64 count;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!jsr_json_read_optional_count (object, event_path, "parts_count", &count, error))
    return FALSE;
  event->parts_count = count > 0 ? (guint64) count : 0;
  if (parts == NULL)
    return TRUE;
  if (parts->length > JSR_AGGREGATE_WORST_PARTS)
    return jsr_agg_invalid (error, event_path, "parts",
                            _ ("has more entries than an aggregate keeps"));
  event->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_agg_part_free);
  for (guint i = 0; i < parts->length; i++)
    {
      Path part_path = JSR_JSON_ELEMENT (&path, i);
      Node *element = jsr_json_read_element (parts, &part_path, error);
      JsrAggPart *part;
      gint64 value;

      if (element == NULL)
        return FALSE;
      part = g_new0 (JsrAggPart, 1);
      g_ptr_array_add (event->parts, part);
      if (!jsr_json_read_string (element, &part_path, "type", TRUE, &part->type, error)
          || !jsr_json_read_string (element, &part_path, "source", TRUE, &part->source, error)
          || !jsr_json_read_string (element, &part_path, "callback", TRUE, &part->callback, error)
          || !jsr_agg_read_build_id (element, &part_path, "callback_build_id", part->callback,
                                     &part->callback_build_id, error)
          || !jsr_json_read_count (element, &part_path, "start_ns", &part->start_ns, error)
          || !jsr_json_read_count (element, &part_path, "duration_ns", &value, error)
          || !jsr_json_read_string (element, &part_path, "tier", TRUE, &part->tier, error)
          || !jsr_json_read_string (element, &part_path, "class", TRUE, &part->klass, error)
          || !jsr_json_read_string (element, &part_path, "wait", TRUE, &part->wait, error)
          || !jsr_json_read_string (element, &part_path, "culprit", TRUE, &part->culprit, error)
          || !jsr_agg_read_build_id (element, &part_path, "culprit_build_id", part->culprit,
                                     &part->culprit_build_id, error)
          || !jsr_json_read_string (element, &part_path, "culprit_callback", TRUE,
                                    &part->culprit_callback, error)
          || !jsr_agg_read_build_id (element, &part_path, "culprit_callback_build_id",
                                     part->culprit_callback, &part->culprit_callback_build_id,
                                     error)
          || !jsr_json_read_string (element, &part_path, "posted_from", TRUE, &part->posted_from,
                                    error)
          || !jsr_json_read_optional_bool (element, &part_path, "posted_from_inherited",
                                           &part->posted_from_inherited, error)
          || !jsr_json_read_optional_count (element, &part_path, "attributed_ns",
                                            &part->attributed_ns, error))
        return FALSE;
      part->duration_ns = (guint64) value;
    }
  return TRUE;
}

static gboolean
read_worst (Node *root, JsrAggregate *agg, GError **error)
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
                : jsr_json_invalid (error, &event_path, "run", _ ("a string"), NULL))
           && jsr_json_read_string (object, &event_path, "app", TRUE, &event->app, error)
           && jsr_json_read_count (object, &event_path, "pid", &event->pid, error)
           && jsr_json_read_count (object, &event_path, "id", &event->event_id, error)
           && jsr_json_read_count (object, &event_path, "start_ns", &event->start_ns, error)
           && jsr_json_read_count (object, &event_path, "duration_ns", &value, error)
           && (event->duration_ns = (guint64) value, TRUE)
           && jsr_json_read_count (object, &event_path, "attributed_ns", &value, error)
           && (event->attributed_ns = (guint64) value, TRUE)
           && jsr_json_read_count (object, &event_path, "unattributed_ns", &value, error)
           && (event->unattributed_ns = (guint64) value, TRUE)
           && read_key (object, &event_path, &event->key, error)
           && jsr_json_read_string (object, &event_path, "culprit", TRUE, &event->culprit, error)
           && jsr_agg_read_build_id (object, &event_path, "culprit_build_id", event->culprit,
                                     &event->culprit_build_id, error)
           && jsr_json_read_string (object, &event_path, "culprit_callback", TRUE,
                                    &event->culprit_callback, error)
           && jsr_agg_read_build_id (object, &event_path, "culprit_callback_build_id",
                                     event->culprit_callback, &event->culprit_callback_build_id,
                                     error)
           && jsr_json_read_string (object, &event_path, "posted_from", TRUE, &event->posted_from,
                                    error)
           && jsr_json_read_optional_bool (object, &event_path, "posted_from_inherited",
                                           &event->posted_from_inherited, error)
           && jsr_json_read_string (object, &event_path, "signature", TRUE, &event->signature,
                                    error)
           && read_worst_parts (object, &event_path, event, error);
      if (!ok)
        return FALSE;
      if (event->attributed_ns + event->unattributed_ns != event->duration_ns)
        return jsr_agg_invalid (
            error, &event_path, NULL,
            _ ("does not add up: attributed_ns + unattributed_ns must equal its "
               "duration_ns"));
    }
  return TRUE;
}

gboolean
jsr_aggregate_json_is_aggregate (const JsrJsonNode *root)
{
  Node *format = jsr_json_object_get (root, "format");

  return format != NULL && format->type == JSR_JSON_STRING
         && strcmp (format->v.string, JSR_AGGREGATE_FORMAT) == 0;
}

JsrAggregate *
jsr_aggregate_load_from_json (const JsrJsonNode *root, GError **error)
{
  g_autoptr (JsrAggregate) agg = NULL;
  Node *version;
  gint64 frames;
  gboolean flag;

  if (!jsr_aggregate_json_is_aggregate (root))
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT,
                   _ ("not a jankscope aggregate: its “format” is not “%s”"), JSR_AGGREGATE_FORMAT);
      return NULL;
    }
  version = jsr_json_object_get (root, "version");
  if (version == NULL || version->type != JSR_JSON_INT)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _ ("the aggregate has no valid “version”"));
      return NULL;
    }
  if (version->v.integer != JSR_AGGREGATE_VERSION)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _ ("aggregate format version %lld is not supported (this jankscope reads "
                      "version %d)"),
                   (long long) version->v.integer, JSR_AGGREGATE_VERSION);
      return NULL;
    }
  if (!jsr_json_read_count (root, NULL, "signature_frames", &frames, error))
    return NULL;
  if (frames < 1 || frames > 64)
    {
      jsr_agg_invalid (error, NULL, "signature_frames", _ ("must be from 1 to 64"));
      return NULL;
    }

  agg = jsr_aggregate_new ((guint) frames, 1);
  if (!jsr_agg_read_u64 (root, NULL, "reports", &agg->reports, error)
      || !jsr_json_read_bool (root, NULL, "overflowed", &agg->overflowed, error)
      || !jsr_json_read_bool (root, NULL, "saturated", &agg->saturated, error)
      || !jsr_json_read_bool (root, NULL, "runs_upper_bound", &agg->runs_upper_bound, error)
      || !jsr_json_read_bool (root, NULL, "exact", &flag, error) || !read_runs (root, agg, error)
      || !read_installs (root, agg, error) || !read_apps (root, agg, error)
      || !read_summary (root, agg, error) || !read_groups (root, agg, error)
      || !jsr_agg_diagnoses_read (root, &agg->diagnoses, error)
      || !jsr_agg_postings_read (root, &agg->postings, error) || !read_signatures (root, agg, error)
      || !read_worst (root, agg, error))
    return NULL;

  return g_steal_pointer (&agg);
}
