/* js-report.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report.h"
#include "js-report-live.h"
#include "js-report-posting.h"
#include "js-report-stacks.h"
#include "js-report-context.h"
#include "js-frame-hooks.h"
#include "js-names.h"
#include "jankscope-config.h"
#include "js-json.h"

#include <json-glib/json-glib.h>
#include <string.h>

static void
add_process (JsonBuilder *b, const JsReportInput *in)
{
  const JsProcessInfo *p = in->process;

  json_builder_set_member_name (b, "process");
  json_builder_begin_object (b);
  js_json_member_string (b, "exe", p->exe);
  js_json_member_string (b, "name", p->name);
  js_json_member_int (b, "pid", p->pid);
  js_json_member_string (b, "glib_version", p->glib_version);
  js_json_member_string (b, "gtk_version", p->gtk_version);
  js_json_member_string (b, "toolkit", p->toolkit);
  js_json_member_string (b, "mode", in->mode);
  js_json_member_int (b, "start_ns", in->start_ns);
  js_json_member_int (b, "report_ns", in->now_ns);
  json_builder_end_object (b);
}

static void
add_config (JsonBuilder *b, const JsConfig *c)
{
  json_builder_set_member_name (b, "config");
  json_builder_begin_object (b);
  js_json_member_int (b, "threshold_ns", c->threshold_ns);
  json_builder_set_member_name (b, "tiers_ns");
  json_builder_begin_object (b);
  for (guint t = 0; t < JS_N_TIERS; t++)
    js_json_member_int (b, js_tier_name (t), c->tier_ns[t]);
  json_builder_end_object (b);
  js_json_member_int (b, "merge_gap_ns", c->merge_gap_ns);
  js_json_member_int (b, "max_events", c->max_events);
  js_json_member_int (b, "max_parts", c->max_parts);
  js_json_member_int (b, "slow_frame_pct", c->slow_frame_pct);
  json_builder_end_object (b);
}

/* `callback` and its `callback_frame`: the callback named like a stack
 * frame (function, module, file:line, offset, build-id), null without an
 * address or a module. */
static void
add_callback (JsonBuilder *b, const JsReportInput *in, const void *code)
{
  const JsCallbackName *n = js_callback_names_describe (in->callback_names, code);

  js_json_member_string (b, "callback", n != NULL ? n->name : NULL);
  json_builder_set_member_name (b, "callback_frame");
  if (n != NULL && n->module != NULL)
    js_report_add_frame (b, &n->frame, n->module);
  else
    json_builder_add_null_value (b);
}

static void
add_source_entry (JsonBuilder *b, const JsReportInput *in, const JsSourceStats *s)
{
  json_builder_begin_object (b);
  js_json_member_string (b, "source", js_names_get (s->name_id));
  add_callback (b, in, s->code);
  js_json_member_int (b, "count", (gint64) s->hist.count);
  js_json_member_int (b, "total_ns", s->total_ns);
  js_json_member_int (b, "mean_ns", s->hist.count ? s->total_ns / (gint64) s->hist.count : 0);
  js_json_member_int (b, "max_ns", s->hist.max_ns);
  js_json_member_int (b, "p95_ns", js_histogram_percentile (&s->hist, 0.95));
  json_builder_end_object (b);
}

static void
add_double_or_null (JsonBuilder *b, const char *member, gboolean valid, double value)
{
  json_builder_set_member_name (b, member);
  if (valid)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* The histogram itself, sparse, so reports of many runs merge exactly:
 * {"sub_bits": 4, "min_exp": 6, "count", "min_ns", "max_ns",
 *  "buckets": [[index, count], ...]} (docs/report-format.md). */
static void
add_histogram (JsonBuilder *b, const JsHistogram *h)
{
  json_builder_set_member_name (b, "histogram");
  json_builder_begin_object (b);
  js_json_member_int (b, "sub_bits", JS_HISTOGRAM_SUB_BITS);
  js_json_member_int (b, "min_exp", JS_HISTOGRAM_MIN_EXP);
  js_json_member_int (b, "count", (gint64) h->count);
  js_json_member_int (b, "min_ns", h->count ? h->min_ns : 0);
  js_json_member_int (b, "max_ns", h->max_ns);
  json_builder_set_member_name (b, "buckets");
  json_builder_begin_array (b);
  for (guint i = 0; i < JS_HISTOGRAM_BUCKETS; i++)
    if (h->buckets[i] != 0)
      {
        json_builder_begin_array (b);
        json_builder_add_int_value (b, i);
        json_builder_add_int_value (b, h->buckets[i]);
        json_builder_end_array (b);
      }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_frame_metrics (JsonBuilder *b, const JsFrameWindow *w)
{
  double n = (double) w->frames;

  js_json_member_int (b, "frames", (gint64) w->frames);
  js_json_member_int (b, "slow", (gint64) w->slow);
  js_json_member_int (b, "frozen", (gint64) w->frozen);
  add_double_or_null (b, "slow_rate", w->frames > 0, w->slow / MAX (n, 1));
  add_double_or_null (b, "frozen_rate", w->frames > 0, w->frozen / MAX (n, 1));
  /* Big jank: frames over the frozen bound among all frames (background.md). */
  add_double_or_null (b, "big_jank_rate", w->frames > 0, w->frozen / MAX (n, 1));
  js_json_member_int (b, "p50_ns", js_histogram_percentile (&w->hist, 0.50));
  js_json_member_int (b, "p90_ns", js_histogram_percentile (&w->hist, 0.90));
  js_json_member_int (b, "p95_ns", js_histogram_percentile (&w->hist, 0.95));
  js_json_member_int (b, "p99_ns", js_histogram_percentile (&w->hist, 0.99));
  js_json_member_int (b, "max_ns", w->hist.max_ns);
  add_histogram (b, &w->hist);
  /* Over at least 10 frames of an animation: two frames that happen to end
   * together would give a meaningless rate. */
  add_double_or_null (b, "fps_animating", w->animating_frames >= 10 && w->animating_ns > 0,
                      w->animating_frames * 1e9 / MAX ((double) w->animating_ns, 1));
  js_json_member_int (b, "budget_ns", w->budget_ns);
}

static void
add_frames_summary (JsonBuilder *b, const JsFrameMetrics *f)
{
  json_builder_set_member_name (b, "frames");
  json_builder_begin_object (b);
  add_frame_metrics (b, &f->total);
  js_json_member_int (b, "windows_dropped", (gint64) f->windows_dropped);
  json_builder_set_member_name (b, "windows");
  json_builder_begin_array (b);
  for (guint i = 0; i < f->windows->len; i++)
    {
      const JsFrameWindow *w = g_ptr_array_index (f->windows, i);

      json_builder_begin_object (b);
      js_json_member_int (b, "id", w->id);
      json_builder_set_member_name (b, "closed");
      json_builder_add_boolean_value (b, w->gone);
      add_frame_metrics (b, w);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_summary (JsonBuilder *b, const JsReportInput *in)
{
  JsLoopStats *st = in->loop_stats;
  g_autoptr (GPtrArray) sources = js_loop_stats_sorted_sources (st);
  guint64 by_tier[JS_N_EVENT_TIERS], dropped, total = 0;
  guint64 frame_by_tier[JS_N_EVENT_TIERS], frame_dropped, frame_total = 0;

  js_event_store_count (in->store, by_tier, &dropped);
  js_event_store_count (&in->frames->frame_store, frame_by_tier, &frame_dropped);
  json_builder_set_member_name (b, "summary");
  json_builder_begin_object (b);
  js_json_member_int (b, "iterations", (gint64) st->iterations);
  js_json_member_int (b, "dispatches", (gint64) st->dispatches);
  js_json_member_int (b, "busy_ns", st->busy_ns);
  js_json_member_int (b, "monitored_ns", in->now_ns - in->start_ns);

  json_builder_set_member_name (b, "iteration_busy");
  json_builder_begin_object (b);
  js_json_member_int (b, "p50_ns", js_histogram_percentile (&st->iteration_hist, 0.50));
  js_json_member_int (b, "p95_ns", js_histogram_percentile (&st->iteration_hist, 0.95));
  js_json_member_int (b, "p99_ns", js_histogram_percentile (&st->iteration_hist, 0.99));
  js_json_member_int (b, "max_ns", st->iteration_hist.max_ns);
  add_histogram (b, &st->iteration_hist);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "events_by_tier");
  json_builder_begin_object (b);
  for (guint t = 0; t < JS_N_TIERS; t++)
    {
      js_json_member_int (b, js_tier_name (t), (gint64) by_tier[t]);
      total += by_tier[t];
    }
  json_builder_end_object (b);
  js_json_member_int (b, "events_total", (gint64) total);
  js_json_member_int (b, "events_dropped", (gint64) dropped);
  /* Frame events (episodes of slow frames) apart: with the stall events
   * above, they are the jank events every reader counts. */
  json_builder_set_member_name (b, "frame_events_by_tier");
  json_builder_begin_object (b);
  for (guint i = 0; i < JS_N_EVENT_TIERS - 1; i++)
    {
      JsTier t = js_tier_by_mildness (i); /* light .. frozen: frames never hang */

      js_json_member_int (b, js_tier_name (t), (gint64) frame_by_tier[t]);
      frame_total += frame_by_tier[t];
    }
  json_builder_end_object (b);
  js_json_member_int (b, "frame_events_total", (gint64) frame_total);
  js_json_member_int (b, "frame_events_dropped", (gint64) frame_dropped);
  js_json_member_int (b, "records_dropped", (gint64) in->records_dropped);
  js_json_member_int (b, "nested_loops", (gint64) st->nested_loops);
  js_json_member_int (b, "poll_func_reinstalls", in->poll_reinstalls);
  js_json_member_int (b, "sources_not_timed", in->sources_not_timed);

  add_frames_summary (b, in->frames);
  js_report_add_sampler_summary (b, in->stalls, in->watchdog);
  js_report_add_posting_summary (b, in->posts);
  /* jankscope's own cost of keeping the report on disk. */
  json_builder_set_member_name (b, "report_file");
  if (in->writer_stats != NULL)
    {
      json_builder_begin_object (b);
      js_json_member_int (b, "snapshots", (gint64) in->writer_stats->snapshots);
      js_json_member_int (b, "journal_lines", (gint64) in->writer_stats->journal_lines);
      js_json_member_int (b, "bytes_written", (gint64) in->writer_stats->bytes_written);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "sources");
  json_builder_begin_array (b);
  for (guint i = 0; i < MIN (sources->len, JS_REPORT_MAX_SOURCES); i++)
    add_source_entry (b, in, g_ptr_array_index (sources, i));
  json_builder_end_array (b);
  js_json_member_int (b, "sources_truncated",
                      sources->len > JS_REPORT_MAX_SOURCES ? sources->len - JS_REPORT_MAX_SOURCES
                                                           : 0);
  json_builder_end_object (b);
}

static const char *
part_type_name (JsRecordKind kind)
{
  return kind == JS_RECORD_DISPATCH ? "dispatch" : kind == JS_RECORD_FRAME ? "frame" : "iteration";
}

static const char *
part_tier_name (const JsPart *p)
{
  return js_tier_name (p->frame != NULL ? p->frame->tier : p->tier);
}

static void
add_frame_members (JsonBuilder *b, const JsReportInput *in, const JsFrameInfo *f)
{
  js_json_member_int (b, "window", f->window);
  js_json_member_int (b, "budget_ns", f->budget_ns);
  js_json_member_int (b, "work_ns", f->work_ns);
  js_json_member_int (b, "dropped_frames", f->dropped_frames);
  json_builder_set_member_name (b, "blocking");
  json_builder_add_string_value (b, f->fully_blocking ? "fully" : "partially");
  json_builder_set_member_name (b, "phases");
  json_builder_begin_object (b);
  for (guint p = 0; p < JS_N_PHASES; p++)
    if (f->mask & (1u << p))
      js_json_member_int (b, js_phase_name (p), f->phase_ns[p]);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "dispatches");
  json_builder_begin_array (b);
  for (guint i = 0; i < f->n_dispatches; i++)
    {
      json_builder_begin_object (b);
      js_json_member_string (b, "source", js_names_get (f->dispatches[i].name_id));
      js_json_member_string (b, "callback",
                             js_callback_names_lookup (in->callback_names, f->dispatches[i].code));
      js_json_member_int (b, "overlap_ns", f->dispatches[i].overlap_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_part_members (JsonBuilder *b, const JsReportInput *in, const JsPart *p, JsReportStacks *rs,
                  guint index)
{
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, part_type_name (p->type));
  js_json_member_int (b, "start_ns", p->start_ns);
  js_json_member_int (b, "end_ns", p->end_ns);
  js_json_member_int (b, "duration_ns", p->duration_ns);
  js_json_member_int (b, "nested_ns", p->nested_ns);
  json_builder_set_member_name (b, "tier");
  json_builder_add_string_value (b, part_tier_name (p));
  js_json_member_string (b, "source", js_names_get (p->name_id));
  js_json_member_string (b, "callback", js_callback_names_lookup (in->callback_names, p->code));
  if (p->type == JS_RECORD_DISPATCH)
    {
      js_json_member_int (b, "priority", p->priority);
      js_json_member_int (b, "frames_delayed", p->frames_delayed);
    }
  else if (p->type == JS_RECORD_FRAME)
    add_frame_members (b, in, p->frame);
  else
    {
      js_json_member_int (b, "dispatches", p->dispatches);
      js_json_member_int (b, "top_source_ns", p->top_ns);
    }
  js_json_member_int (b, "depth", p->depth);
  if (p->type == JS_RECORD_DISPATCH)
    js_report_add_posted_from (b, in->posts, in->stalls, p->post);
  js_report_stacks_add_part (b, rs, index, p->duration_ns, p->type == JS_RECORD_FRAME);
}

static void
add_event (JsonBuilder *b, const JsReportInput *in, const JsEvent *e)
{
  const JsPart *l = &e->longest;
  JsReportStacks *rs = js_report_stacks_new (in->stalls, e);

  json_builder_begin_object (b);
  js_json_member_int (b, "id", (gint64) e->id);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, part_type_name (l->type));
  js_json_member_int (b, "start_ns", e->start_ns);
  js_json_member_int (b, "end_ns", e->end_ns);
  js_json_member_int (b, "duration_ns", e->duration_ns);
  js_json_member_int (b, "max_part_ns", l->duration_ns);
  js_json_member_int (b, "blocked_ns", e->blocked_ns);
  json_builder_set_member_name (b, "tier");
  json_builder_add_string_value (b, js_tier_name (e->tier));
  js_json_member_string (b, "source", js_names_get (l->name_id));
  add_callback (b, in, l->code);
  if (l->type == JS_RECORD_DISPATCH)
    js_json_member_int (b, "priority", l->priority);
  js_json_member_int (b, "depth", l->depth);
  js_json_member_int (b, "parts_count", e->parts_count);
  if (l->type == JS_RECORD_DISPATCH)
    js_report_add_posted_from (b, in->posts, in->stalls, l->post);
  if (l->type == JS_RECORD_FRAME)
    add_frame_members (b, in, l->frame);
  else
    {
      guint64 delayed = 0;

      for (guint i = 0; i < e->parts->len; i++)
        delayed += g_array_index (e->parts, JsPart, i).frames_delayed;
      js_json_member_int (b, "frames_delayed", (gint64) delayed);
    }
  js_report_stacks_add_event (b, in->config, rs, e->duration_ns, l->type == JS_RECORD_FRAME);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  for (guint i = 0; i < e->parts->len; i++)
    {
      json_builder_begin_object (b);
      add_part_members (b, in, &g_array_index (e->parts, JsPart, i), rs, i);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  js_report_stacks_free (rs);
  if (in->context != NULL)
    js_report_add_event_context (b, in->context, e);
  /* Only events still open to change are built here in a live snapshot
   * (a frozen one is copied): late stalls, CPU readings and frames may
   * still alter them. */
  if (in->live)
    {
      json_builder_set_member_name (b, "settling");
      json_builder_add_boolean_value (b, TRUE);
    }
  json_builder_end_object (b);
}

/* A node made with a builder, scrubbed, as text. */
static char *
node_to_text (const JsReportInput *in, JsonNode *root, gboolean pretty, gsize *length)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();

  if (in->scrub != NULL)
    js_scrub_json (in->scrub, root);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, pretty);
  return json_generator_to_data (gen, length);
}

GBytes *
js_report_event_json (const JsReportInput *in, const JsEvent *e)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  gsize length;
  char *text;

  add_event (b, in, e);
  root = json_builder_get_root (b);
  text = node_to_text (in, root, FALSE, &length);
  return g_bytes_new_take (text, length);
}

gboolean
js_report_has_ongoing_hang (const JsReportInput *in)
{
  return in->stalls != NULL && in->stalls->ongoing != NULL
         && in->stalls->ongoing->h.last_seen_ns - in->stalls->ongoing->h.start_ns
                >= in->config->watchdog_tier_ns[0];
}

char *
js_report_hang_progress_json (const JsReportInput *in, gsize *length)
{
  const JsStall *s = in->stalls->ongoing;
  gint64 end, duration;
  JsTier tier = js_report_ongoing_hang_span (in->config, s, &end, &duration);
  char *text;

  /* Numbers and a tier's name: no escaping, no builder needed. */
  text = g_strdup_printf (
      "{\"start_ns\":%" G_GINT64_FORMAT ",\"end_ns\":%" G_GINT64_FORMAT
      ",\"duration_ns\":%" G_GINT64_FORMAT ",\"max_part_ns\":%" G_GINT64_FORMAT ",\"tier\":%s%s%s}",
      s->h.start_ns, end, duration, duration, (gint) tier >= 0 ? "\"" : "",
      (gint) tier >= 0 ? js_tier_name (tier) : "null", (gint) tier >= 0 ? "\"" : "");
  *length = strlen (text);
  return text;
}

char *
js_report_ongoing_hang_json (const JsReportInput *in, gboolean with_process, gsize *length)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  js_report_add_ongoing_hang (b, in->config, in->stalls, in->posts, in->now_ns);
  root = json_builder_get_root (b);
  if (with_process)
    {
      /* Whose hang it was, for the next run on this path (previous_run). */
      JsonObject *process = json_object_new ();

      json_object_set_int_member (process, "pid", in->process->pid);
      json_object_set_string_member (process, "exe", in->process->exe ? in->process->exe : "");
      json_object_set_object_member (json_node_get_object (root), "process", process);
    }
  return node_to_text (in, root, FALSE, length);
}

/* Everything but the events. */
static JsonNode *
build_head (const JsReportInput *in)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, JS_REPORT_FORMAT);
  js_json_member_int (b, "version", JS_REPORT_VERSION);
  json_builder_set_member_name (b, "generator");
  json_builder_add_string_value (b, "jankscope " JANKSCOPE_VERSION);
  json_builder_set_member_name (b, "final");
  json_builder_add_boolean_value (b, in->final);
  if (in->journal_run != NULL && !in->final)
    {
      /* The journal lines this report holds (docs/report-format.md). */
      json_builder_set_member_name (b, "journal");
      json_builder_begin_object (b);
      js_json_member_string (b, "run", in->journal_run);
      js_json_member_int (b, "seq", (gint64) in->journal_seq);
      json_builder_end_object (b);
    }
  add_process (b, in);
  if (in->context != NULL)
    js_report_add_context (b, in->context);
  add_config (b, in->config);
  add_summary (b, in);
  if (in->stalls != NULL)
    js_report_add_modules (b, in->stalls->modules);
  if (in->previous_run != NULL)
    {
      json_builder_set_member_name (b, "previous_run");
      json_builder_add_value (b, json_node_copy (in->previous_run));
    }
  if (in->live)
    js_report_add_live (b, in->frames, in->callback_names, in->watchdog, in->now_ns, in->start_ns,
                        in->collector_cpu_ns);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
js_report_members_json (const JsReportInput *in, gsize *length)
{
  g_autoptr (JsonNode) head = build_head (in);
  JsonObject *o = json_node_get_object (head);

  /* What a reader replaces: not the document's identity, nor what it
   * folds itself. */
  json_object_remove_member (o, "format");
  json_object_remove_member (o, "version");
  json_object_remove_member (o, "generator");
  json_object_remove_member (o, "final");
  json_object_remove_member (o, "journal");
  return node_to_text (in, head, FALSE, length);
}

static void
collect_events (GPtrArray *out, const JsEventStore *store)
{
  for (guint i = 0; i < store->events->len; i++)
    g_ptr_array_add (out, g_ptr_array_index (store->events, i));
  if (store->open != NULL)
    g_ptr_array_add (out, store->open);
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const JsEvent *x = *(JsEvent *const *) a, *y = *(JsEvent *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The document is the head (everything but the events, pretty-printed in
 * files) with the events spliced in as text, one event per line: an event
 * that can no longer change is serialized once (JsEvent.frozen) and copied
 * here, so writing a report costs a copy per kept event, not an analysis. */
char *
js_report_build (const JsReportInput *in, gsize *length)
{
  g_autoptr (JsonNode) head = build_head (in);
  g_autoptr (GPtrArray) events = g_ptr_array_new ();
  g_autofree char *head_text = NULL;
  const char *separator = in->live ? "," : ",\n";
  gsize head_length;
  GString *out;
  gchar *close;

  head_text = node_to_text (in, head, !in->live, &head_length);
  close = strrchr (head_text, '}'); /* the generator wrote an object: there is one */
  if (close == NULL)
    {
      *length = head_length;
      return g_steal_pointer (&head_text);
    }
  while (close > head_text && g_ascii_isspace (close[-1]))
    close--;
  out = g_string_sized_new (head_length + 4096);
  g_string_append_len (out, head_text, close - head_text);
  g_string_append (out, in->live ? ",\"events\":[" : ",\n  \"events\" : [\n");

  collect_events (events, in->store);
  collect_events (events, &in->frames->frame_store);
  g_ptr_array_sort (events, by_start);
  for (guint i = 0; i < events->len; i++)
    {
      const JsEvent *e = g_ptr_array_index (events, i);
      g_autoptr (GBytes) json
          = e->frozen != NULL ? g_bytes_ref (e->frozen) : js_report_event_json (in, e);
      gsize n;
      const char *data = g_bytes_get_data (json, &n);

      if (i > 0)
        g_string_append (out, separator);
      g_string_append_len (out, data, (gssize) n);
    }
  /* The stall under way, past the first watchdog tier: its evidence so far. */
  if (js_report_has_ongoing_hang (in))
    {
      gsize n;
      g_autofree char *hang = js_report_ongoing_hang_json (in, FALSE, &n);

      if (events->len > 0)
        g_string_append (out, separator);
      g_string_append_len (out, hang, (gssize) n);
    }
  g_string_append (out, in->live ? "]}" : "\n  ]\n}\n");
  *length = out->len;
  return g_string_free (out, FALSE);
}
