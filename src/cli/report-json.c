/* report-json.c: "jankscope report --json" (report-json.h)
 *
 * The numbers of the text report (cmd-report.c), written with the reading
 * side's one JSON writer: the same sections in the same order, the same
 * rows (the tables from report-groups.c, the diagnoses from
 * report-diagnoses.c, the signatures and worst events from the aggregate's
 * own orders), times as integers in ns, unknown as null. The schema is
 * docs/cli-json.md's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "report-json.h"

#include <string.h>

#include "js-tiers.h"
#include "jsr-saturate.h"
#include "report-diagnoses.h"
#include "report-groups.h"

typedef struct
{
  const JsrAggregate *agg;
  JsrAggSort sort;
  guint top;
  JsJsonWriter *json;
} JsonPrinter;

/* The text's MEAN: null for none. */
static void
json_mean (JsJsonWriter *w, guint64 total, guint64 count)
{
  js_json_writer_member (w, "mean_ns");
  if (count > 0)
    js_json_writer_uint (w, total / count);
  else
    js_json_writer_null (w);
}

static void
json_strv (JsJsonWriter *w, const char *name, char **values)
{
  js_json_writer_member (w, name);
  if (values == NULL)
    {
      js_json_writer_null (w);
      return;
    }
  js_json_writer_begin_array (w);
  for (guint i = 0; values[i] != NULL; i++)
    js_json_writer_string (w, values[i]);
  js_json_writer_end_array (w);
}

static void
json_percentiles (JsJsonWriter *w, const char *name, const JsrHistogram *h)
{
  js_json_writer_member (w, name);
  if (h->count == 0)
    {
      js_json_writer_null (w);
      return;
    }
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "count", h->count);
  /* As the text rounds them (cli_format_duration of the integer). */
  js_json_writer_member_uint (w, "p50_ns", (guint64) jsr_histogram_percentile (h, 0.50));
  js_json_writer_member_uint (w, "p95_ns", (guint64) jsr_histogram_percentile (h, 0.95));
  js_json_writer_member_uint (w, "p99_ns", (guint64) jsr_histogram_percentile (h, 0.99));
  js_json_writer_member (w, "approximate");
  js_json_writer_bool (w, h->approximate > 0);
  js_json_writer_end_object (w);
}

static void
json_overview (const JsonPrinter *p)
{
  const JsrAggregate *agg = p->agg;
  JsJsonWriter *w = p->json;
  g_autoptr (GPtrArray) groups = jsr_aggregate_sorted_groups (agg);
  g_autoptr (GList) apps = g_hash_table_get_keys (agg->apps);
  guint64 attributed_ns
      = jsr_sat_add_u64 (agg->stalls.attributed_ns, agg->frame_uncovered.attributed_ns);
  guint64 blocked_ns = jsr_sat_add_u64 (agg->stalls.total_ns, agg->frame_uncovered.total_ns);
  guint64 frame_events = 0;

  js_json_writer_member (w, "overview");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "runs", g_hash_table_size (agg->runs));
  js_json_writer_member (w, "apps");
  js_json_writer_begin_object (w);
  apps = g_list_sort (apps, (GCompareFunc) strcmp);
  for (GList *l = apps; l != NULL; l = l->next)
    js_json_writer_member_uint (w, l->data, *(guint64 *) g_hash_table_lookup (agg->apps, l->data));
  js_json_writer_end_object (w);
  js_json_writer_member_uint (w, "apps_other_runs", agg->apps_other);
  js_json_writer_member_uint (w, "reports", agg->reports);
  js_json_writer_member_uint (w, "monitored_ns", agg->monitored_ns);
  js_json_writer_member_uint (w, "installations", g_hash_table_size (agg->installs));

  js_json_writer_member (w, "filter");
  if (agg->filter != NULL)
    {
      js_json_writer_begin_object (w);
      json_strv (w, "tiers", agg->filter->tiers);
      json_strv (w, "classes", agg->filter->classes);
      json_strv (w, "sources", agg->filter->sources);
      json_strv (w, "scenes", agg->filter->scenes);
      js_json_writer_member_uint (w, "events_left_out", agg->events_filtered_out);
      js_json_writer_end_object (w);
    }
  else
    js_json_writer_null (w);

  js_json_writer_member (w, "stall_events");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "total", agg->stalls.events);
  js_json_writer_member (w, "by_tier");
  js_json_writer_begin_object (w);
  for (guint t = 1; t < JS_N_EVENT_TIERS; t++)
    {
      guint64 n = 0;

      for (guint i = 0; i < groups->len; i++)
        {
          const JsrAggGroup *group = g_ptr_array_index (groups, i);

          if (g_strcmp0 (group->key.tier, js_tier_name (js_tier_by_mildness (t))) == 0)
            n = jsr_sat_add_u64 (n, group->stats.events);
        }
      js_json_writer_member_uint (w, js_tier_name (js_tier_by_mildness (t)), n);
    }
  js_json_writer_end_object (w);
  js_json_writer_member_uint (w, "blocked_ns", agg->stalls.total_ns);
  js_json_writer_end_object (w);

  js_json_writer_member (w, "attribution");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "blocked_ns", blocked_ns);
  js_json_writer_member_uint (w, "attributed_ns", attributed_ns);
  js_json_writer_member_uint (w, "to_signatures_ns",
                              attributed_ns >= agg->signatures_other.total_ns
                                  ? attributed_ns - agg->signatures_other.total_ns
                                  : 0);
  js_json_writer_member_uint (w, "signatures", g_hash_table_size (agg->signatures));
  js_json_writer_member_uint (
      w, "unattributed_ns",
      jsr_sat_add_u64 (agg->stalls.unattributed_ns, agg->frame_uncovered.unattributed_ns));
  js_json_writer_end_object (w);

  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    frame_events = jsr_sat_add_u64 (frame_events, agg->frame_events_by_tier[t]);
  js_json_writer_member (w, "frame_events");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "total", frame_events);
  js_json_writer_member_uint (w, "uncovered", agg->frame_uncovered.events);
  js_json_writer_member_uint (w, "uncovered_attributed_ns", agg->frame_uncovered.attributed_ns);
  js_json_writer_end_object (w);

  json_percentiles (w, "iteration_busy", &agg->iteration_busy);
  json_percentiles (w, "frame_time", &agg->frame_time);
  js_json_writer_member_uint (w, "frames", agg->frames);
  js_json_writer_member_uint (w, "frames_slow", agg->frames_slow);
  js_json_writer_member (w, "overflowed");
  js_json_writer_bool (w, agg->overflowed);
  js_json_writer_member (w, "saturated");
  js_json_writer_bool (w, agg->saturated);
  js_json_writer_end_object (w);
}

static const char *
sort_id (JsrAggSort sort)
{
  switch (sort)
    {
    case JSR_AGG_SORT_EVENTS:
      return "events";
    case JSR_AGG_SORT_RUNS:
      return "runs";
    case JSR_AGG_SORT_SAMPLES:
      return "samples";
    case JSR_AGG_SORT_TIME:
    default:
      return "time";
    }
}

static void
json_signatures (const JsonPrinter *p)
{
  const JsrAggregate *agg = p->agg;
  JsJsonWriter *w = p->json;
  g_autoptr (GPtrArray) sorted = jsr_aggregate_sorted_signatures (agg, p->sort);
  guint shown = MIN (sorted->len, p->top);
  JsrAggStats rest = agg->signatures_other;
  guint64 rest_count = jsr_sat_add_u64 (agg->signatures_other_count,
                                        g_hash_table_size (agg->signatures_overflowed));

  js_json_writer_member (w, "signatures");
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "sort", sort_id (p->sort));
  js_json_writer_member_uint (w, "of", sorted->len);
  js_json_writer_member (w, "runs_upper_bound");
  js_json_writer_bool (w, agg->runs_upper_bound);
  js_json_writer_member (w, "rows");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < sorted->len; i++)
    {
      const JsrAggSignature *sig = g_ptr_array_index (sorted, i);

      if (i >= shown)
        {
          rest.events = jsr_sat_add_u64 (rest.events, sig->stats.events);
          rest.samples = jsr_sat_add_u64 (rest.samples, sig->stats.samples);
          rest.total_ns = jsr_sat_add_u64 (rest.total_ns, sig->stats.total_ns);
          rest.max_ns = MAX (rest.max_ns, sig->stats.max_ns);
          rest_count = jsr_sat_add_u64 (rest_count, 1);
          continue;
        }
      js_json_writer_begin_object (w);
      js_json_writer_member_uint (w, "rank", i + 1);
      js_json_writer_member_string (w, "id", sig->id);
      js_json_writer_member_string (w, "signature", sig->text);
      js_json_writer_member_uint (w, "total_ns", sig->stats.total_ns);
      json_mean (w, sig->stats.total_ns, sig->stats.events);
      js_json_writer_member_uint (w, "max_ns", sig->stats.max_ns);
      js_json_writer_member_uint (w, "events", sig->stats.events);
      js_json_writer_member_uint (w, "samples", sig->stats.samples);
      js_json_writer_member_uint (w, "runs", sig->stats.runs);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_member (w, "other");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "signatures", rest_count);
  js_json_writer_member_uint (w, "total_ns", rest.total_ns);
  js_json_writer_member_uint (w, "events", rest.events);
  js_json_writer_member_uint (w, "samples", rest.samples);
  js_json_writer_end_object (w);
  js_json_writer_member_uint (w, "unattributed_ns", agg->stalls.unattributed_ns);
  js_json_writer_end_object (w);
}

static void
json_rows (const JsonPrinter *p, const char *name, GPtrArray *rows, gboolean with_callback,
           guint limit)
{
  JsJsonWriter *w = p->json;

  js_json_writer_member (w, name);
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "of", rows->len);
  js_json_writer_member (w, "rows");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (rows->len, limit); i++)
    {
      const CliReportRow *row = g_ptr_array_index (rows, i);

      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "label", row->label);
      if (with_callback)
        js_json_writer_member_string (w, "callback", row->callback);
      js_json_writer_member_uint (w, "events", row->stats.events);
      js_json_writer_member_uint (w, "blocked_ns", row->stats.total_ns);
      json_mean (w, row->stats.total_ns, row->stats.events);
      js_json_writer_member_uint (w, "max_ns", row->stats.max_ns);
      js_json_writer_member_uint (w, "attributed_ns", row->stats.attributed_ns);
      js_json_writer_member_uint (w, "unattributed_ns", row->stats.unattributed_ns);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

static void
json_groups (const JsonPrinter *p)
{
  CliReportGroups g;

  cli_report_groups_build (p->agg, &g);
  json_rows (p, "by_tier", g.ordered_tiers, FALSE, G_MAXUINT);
  json_rows (p, "by_class", g.classes, FALSE, G_MAXUINT);
  json_rows (p, "by_source", g.sources, TRUE, p->top);
  /* Like the text: only when an app labelled scenes. */
  if (g.any_scene)
    json_rows (p, "by_scene", g.scenes, FALSE, p->top);
  else
    {
      js_json_writer_member (p->json, "by_scene");
      js_json_writer_null (p->json);
    }
  cli_report_groups_clear (&g);
}

static void
json_worst (const JsonPrinter *p)
{
  const JsrAggregate *agg = p->agg;
  JsJsonWriter *w = p->json;

  js_json_writer_member (w, "worst_events");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "of", agg->stalls.events);
  js_json_writer_member (w, "rows");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (agg->worst->len, p->top); i++)
    {
      const JsrAggEvent *e = g_ptr_array_index (agg->worst, i);
      guint n_parts = e->parts != NULL ? e->parts->len : 0;

      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "app", e->app);
      js_json_writer_member (w, "pid");
      js_json_writer_int (w, e->pid);
      js_json_writer_member (w, "event_id");
      js_json_writer_int (w, e->event_id);
      js_json_writer_member_uint (w, "duration_ns", e->duration_ns);
      js_json_writer_member_string (w, "tier", e->key.tier);
      js_json_writer_member_string (w, "class", e->key.klass);
      js_json_writer_member_string (w, "wait", e->key.wait);
      js_json_writer_member_string (w, "source", e->key.source);
      js_json_writer_member_string (w, "callback", e->key.callback);
      js_json_writer_member_string (w, "culprit", e->culprit);
      js_json_writer_member_string (w, "culprit_callback", e->culprit_callback);
      js_json_writer_member_string (w, "posted_from", e->posted_from);
      js_json_writer_member_bool (w, "posted_from_inherited", e->posted_from_inherited);
      js_json_writer_member_string (w, "signature", e->signature);
      js_json_writer_member_uint (w, "attributed_ns", e->attributed_ns);
      js_json_writer_member_uint (w, "unattributed_ns", e->unattributed_ns);
      js_json_writer_member_uint (w, "parts_count", e->parts_count);
      js_json_writer_member (w, "parts");
      js_json_writer_begin_array (w);
      for (guint j = 0; j < n_parts; j++)
        {
          const JsrAggPart *part = g_ptr_array_index (e->parts, j);

          js_json_writer_begin_object (w);
          js_json_writer_member_string (w, "type", part->type);
          js_json_writer_member_string (w, "source", part->source);
          js_json_writer_member_string (w, "callback", part->callback);
          js_json_writer_member_uint (w, "duration_ns", part->duration_ns);
          js_json_writer_member_string (w, "tier", part->tier);
          js_json_writer_member_string (w, "class", part->klass);
          js_json_writer_member_string (w, "wait", part->wait);
          js_json_writer_member_string (w, "culprit", part->culprit);
          js_json_writer_member_string (w, "culprit_callback", part->culprit_callback);
          js_json_writer_member_string (w, "posted_from", part->posted_from);
          js_json_writer_member_bool (w, "posted_from_inherited", part->posted_from_inherited);
          /* Unknown: null for both, the text's "-". */
          js_json_writer_member (w, "attributed_ns");
          if (part->attributed_ns >= 0)
            js_json_writer_int (w, part->attributed_ns);
          else
            js_json_writer_null (w);
          js_json_writer_member (w, "unattributed_ns");
          if (part->attributed_ns >= 0)
            js_json_writer_uint (w, part->duration_ns
                                        - MIN ((guint64) part->attributed_ns, part->duration_ns));
          else
            js_json_writer_null (w);
          js_json_writer_end_object (w);
        }
      js_json_writer_end_array (w);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

/* The text's "Slow callbacks by posting site" (docs/report-format.md,
 * "Posting sites"). */
static void
json_postings (const JsonPrinter *p)
{
  const JsrAggPostings *postings = &p->agg->postings;
  g_autoptr (GPtrArray) sorted = jsr_agg_postings_sorted (postings);
  JsJsonWriter *w = p->json;

  js_json_writer_member (w, "postings");
  js_json_writer_begin_object (w);
  js_json_writer_member_uint (w, "of", sorted->len);
  js_json_writer_member (w, "rows");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (sorted->len, p->top); i++)
    {
      const JsrAggPosting *e = g_ptr_array_index (sorted, i);

      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "posted_from", e->posted_from);
      js_json_writer_member_string (w, "callback", e->callback);
      js_json_writer_member_string (w, "signature", e->signature);
      js_json_writer_member_uint (w, "events", e->events);
      js_json_writer_member_uint (w, "parts", e->parts);
      js_json_writer_member_uint (w, "runs", e->runs);
      js_json_writer_member_uint (w, "blocked_ns", e->total_ns);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_member_uint (w, "other_parts", postings->other_parts);
  js_json_writer_member_uint (w, "other_ns", postings->other_ns);
  js_json_writer_end_object (w);
}

void
cli_report_write_json (const JsrAggregate *agg, JsrAggSort sort, guint top, GString *out)
{
  JsJsonWriter writer;
  JsonPrinter printer = { .agg = agg, .sort = sort, .top = top, .json = &writer };
  const JsonPrinter *p = &printer;

  js_json_writer_init (&writer, out, JS_JSON_WRITER_PRETTY);
  js_json_writer_begin_object (p->json);
  js_json_writer_member_string (p->json, "format", "jankscope-report-json");
  js_json_writer_member_uint (p->json, "version", 1);
  json_overview (p);
  cli_report_write_diagnoses_json (p->agg, p->top, p->json);
  json_postings (p);
  json_signatures (p);
  json_groups (p);
  json_worst (p);
  js_json_writer_end_object (p->json);
  g_string_append_c (out, '\n');
}
