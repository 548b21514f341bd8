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
#include "js-json-node.h"

#include <string.h>

static void
add_process (JsJsonWriter *b, const JsReportInput *in)
{
  const JsProcessInfo *p = in->process;

  js_json_writer_member (b, "process");
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "exe", p->exe);
  js_json_writer_member_string (b, "name", p->name);
  js_json_writer_member_int (b, "pid", p->pid);
  js_json_writer_member_string (b, "glib_version", p->glib_version);
  js_json_writer_member_string (b, "gtk_version", p->gtk_version);
  js_json_writer_member_string (b, "toolkit", p->toolkit);
  js_json_writer_member_string (b, "mode", in->mode);
  js_json_writer_member_int (b, "start_ns", in->start_ns);
  js_json_writer_member_int (b, "report_ns", in->now_ns);
  js_json_writer_end_object (b);
}

static void
add_config (JsJsonWriter *b, const JsConfig *c)
{
  js_json_writer_member (b, "config");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "threshold_ns", c->threshold_ns);
  js_json_writer_member (b, "tiers_ns");
  js_json_writer_begin_object (b);
  for (guint t = 0; t < JS_N_TIERS; t++)
    js_json_writer_member_int (b, js_tier_name (t), c->tier_ns[t]);
  js_json_writer_end_object (b);
  js_json_writer_member_int (b, "merge_gap_ns", c->merge_gap_ns);
  js_json_writer_member_int (b, "max_events", c->max_events);
  js_json_writer_member_int (b, "max_parts", c->max_parts);
  js_json_writer_member_int (b, "slow_frame_pct", c->slow_frame_pct);
  js_json_writer_end_object (b);
}

/* `callback` and its `callback_frame`: the callback named like a stack
 * frame (function, module, file:line, offset, build-id), null without an
 * address or a module. */
static void
add_callback (JsJsonWriter *b, const JsReportInput *in, const void *code)
{
  const JsCallbackName *n = js_callback_names_describe (in->callback_names, code);

  js_json_writer_member_string (b, "callback", n != NULL ? n->name : NULL);
  js_json_writer_member (b, "callback_frame");
  if (n != NULL && n->module != NULL)
    js_report_add_frame (b, &n->frame, n->module);
  else
    js_json_writer_null (b);
}

static void
add_source_entry (JsJsonWriter *b, const JsReportInput *in, const JsSourceStats *s)
{
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "source", js_names_get (s->name_id));
  add_callback (b, in, s->code);
  js_json_writer_member_int (b, "count", (gint64) s->hist.count);
  js_json_writer_member_int (b, "total_ns", s->total_ns);
  js_json_writer_member_int (b, "mean_ns",
                             s->hist.count ? s->total_ns / (gint64) s->hist.count : 0);
  js_json_writer_member_int (b, "max_ns", s->hist.max_ns);
  js_json_writer_member_int (b, "p95_ns", js_histogram_percentile (&s->hist, 0.95));
  js_json_writer_end_object (b);
}

static void
add_double_or_null (JsJsonWriter *b, const char *member, gboolean valid, double value)
{
  js_json_writer_member (b, member);
  if (valid)
    js_json_writer_double (b, value);
  else
    js_json_writer_null (b);
}

/* The histogram itself, sparse, so reports of many runs merge exactly:
 * {"sub_bits": 4, "min_exp": 6, "count", "min_ns", "max_ns",
 *  "buckets": [[index, count], ...]} (docs/report-format.md). */
static void
add_histogram (JsJsonWriter *b, const JsHistogram *h)
{
  js_json_writer_member (b, "histogram");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "sub_bits", JS_HISTOGRAM_SUB_BITS);
  js_json_writer_member_int (b, "min_exp", JS_HISTOGRAM_MIN_EXP);
  js_json_writer_member_int (b, "count", (gint64) h->count);
  js_json_writer_member_int (b, "min_ns", h->count ? h->min_ns : 0);
  js_json_writer_member_int (b, "max_ns", h->max_ns);
  js_json_writer_member (b, "buckets");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < JS_HISTOGRAM_BUCKETS; i++)
    if (h->buckets[i] != 0)
      {
        js_json_writer_begin_array (b);
        js_json_writer_int (b, i);
        js_json_writer_int (b, h->buckets[i]);
        js_json_writer_end_array (b);
      }
  js_json_writer_end_array (b);
  js_json_writer_end_object (b);
}

static void
add_frame_metrics (JsJsonWriter *b, const JsFrameWindow *w)
{
  double n = (double) w->frames;

  js_json_writer_member_int (b, "frames", (gint64) w->frames);
  js_json_writer_member_int (b, "slow", (gint64) w->slow);
  js_json_writer_member_int (b, "frozen", (gint64) w->frozen);
  add_double_or_null (b, "slow_rate", w->frames > 0, w->slow / MAX (n, 1));
  add_double_or_null (b, "frozen_rate", w->frames > 0, w->frozen / MAX (n, 1));
  /* Big jank: frames over the frozen bound among all frames (background.md). */
  add_double_or_null (b, "big_jank_rate", w->frames > 0, w->frozen / MAX (n, 1));
  js_json_writer_member_int (b, "p50_ns", js_histogram_percentile (&w->hist, 0.50));
  js_json_writer_member_int (b, "p90_ns", js_histogram_percentile (&w->hist, 0.90));
  js_json_writer_member_int (b, "p95_ns", js_histogram_percentile (&w->hist, 0.95));
  js_json_writer_member_int (b, "p99_ns", js_histogram_percentile (&w->hist, 0.99));
  js_json_writer_member_int (b, "max_ns", w->hist.max_ns);
  add_histogram (b, &w->hist);
  /* Over at least 10 frames of an animation: two frames that happen to end
   * together would give a meaningless rate. */
  add_double_or_null (b, "fps_animating", w->animating_frames >= 10 && w->animating_ns > 0,
                      w->animating_frames * 1e9 / MAX ((double) w->animating_ns, 1));
  js_json_writer_member_int (b, "budget_ns", w->budget_ns);
}

static void
add_frames_summary (JsJsonWriter *b, const JsFrameMetrics *f)
{
  js_json_writer_member (b, "frames");
  js_json_writer_begin_object (b);
  add_frame_metrics (b, &f->total);
  js_json_writer_member_int (b, "windows_dropped", (gint64) f->windows_dropped);
  js_json_writer_member (b, "windows");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < f->windows->len; i++)
    {
      const JsFrameWindow *w = g_ptr_array_index (f->windows, i);

      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "id", w->id);
      js_json_writer_member (b, "closed");
      js_json_writer_bool (b, w->gone);
      add_frame_metrics (b, w);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
  js_json_writer_end_object (b);
}

static void
add_summary (JsJsonWriter *b, const JsReportInput *in)
{
  JsLoopStats *st = in->loop_stats;
  g_autoptr (GPtrArray) sources = js_loop_stats_sorted_sources (st);
  guint64 by_tier[JS_N_EVENT_TIERS], dropped, total = 0;
  guint64 frame_by_tier[JS_N_EVENT_TIERS], frame_dropped, frame_total = 0;

  js_event_store_count (in->store, by_tier, &dropped);
  js_event_store_count (&in->frames->frame_store, frame_by_tier, &frame_dropped);
  js_json_writer_member (b, "summary");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "iterations", (gint64) st->iterations);
  js_json_writer_member_int (b, "dispatches", (gint64) st->dispatches);
  js_json_writer_member_int (b, "busy_ns", st->busy_ns);
  js_json_writer_member_int (b, "monitored_ns", in->now_ns - in->start_ns);

  js_json_writer_member (b, "iteration_busy");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "p50_ns", js_histogram_percentile (&st->iteration_hist, 0.50));
  js_json_writer_member_int (b, "p95_ns", js_histogram_percentile (&st->iteration_hist, 0.95));
  js_json_writer_member_int (b, "p99_ns", js_histogram_percentile (&st->iteration_hist, 0.99));
  js_json_writer_member_int (b, "max_ns", st->iteration_hist.max_ns);
  add_histogram (b, &st->iteration_hist);
  js_json_writer_end_object (b);

  js_json_writer_member (b, "events_by_tier");
  js_json_writer_begin_object (b);
  for (guint t = 0; t < JS_N_TIERS; t++)
    {
      js_json_writer_member_int (b, js_tier_name (t), (gint64) by_tier[t]);
      total += by_tier[t];
    }
  js_json_writer_end_object (b);
  js_json_writer_member_int (b, "events_total", (gint64) total);
  js_json_writer_member_int (b, "events_dropped", (gint64) dropped);
  /* Frame events (episodes of slow frames) apart: with the stall events
   * above, they are the jank events every reader counts. */
  js_json_writer_member (b, "frame_events_by_tier");
  js_json_writer_begin_object (b);
  for (guint i = 0; i < JS_N_EVENT_TIERS - 1; i++)
    {
      JsTier t = js_tier_by_mildness (i); /* light .. frozen: frames never hang */

      js_json_writer_member_int (b, js_tier_name (t), (gint64) frame_by_tier[t]);
      frame_total += frame_by_tier[t];
    }
  js_json_writer_end_object (b);
  js_json_writer_member_int (b, "frame_events_total", (gint64) frame_total);
  js_json_writer_member_int (b, "frame_events_dropped", (gint64) frame_dropped);
  js_json_writer_member_int (b, "records_dropped", (gint64) in->records_dropped);
  js_json_writer_member_int (b, "nested_loops", (gint64) st->nested_loops);
  js_json_writer_member_int (b, "poll_func_reinstalls", in->poll_reinstalls);
  js_json_writer_member_int (b, "sources_not_timed", in->sources_not_timed);

  add_frames_summary (b, in->frames);
  js_report_add_sampler_summary (b, in->stalls, in->watchdog);
  js_report_add_posting_summary (b, in->posts);
  /* jankscope's own cost of keeping the report on disk. */
  js_json_writer_member (b, "report_file");
  if (in->writer_stats != NULL)
    {
      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "snapshots", (gint64) in->writer_stats->snapshots);
      js_json_writer_member_int (b, "journal_lines", (gint64) in->writer_stats->journal_lines);
      js_json_writer_member_int (b, "bytes_written", (gint64) in->writer_stats->bytes_written);
      js_json_writer_end_object (b);
    }
  else
    js_json_writer_null (b);

  js_json_writer_member (b, "sources");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < MIN (sources->len, JS_REPORT_MAX_SOURCES); i++)
    add_source_entry (b, in, g_ptr_array_index (sources, i));
  js_json_writer_end_array (b);
  js_json_writer_member_int (
      b, "sources_truncated",
      sources->len > JS_REPORT_MAX_SOURCES ? sources->len - JS_REPORT_MAX_SOURCES : 0);
  js_json_writer_end_object (b);
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
add_frame_members (JsJsonWriter *b, const JsReportInput *in, const JsFrameInfo *f)
{
  js_json_writer_member_int (b, "window", f->window);
  js_json_writer_member_int (b, "budget_ns", f->budget_ns);
  js_json_writer_member_int (b, "work_ns", f->work_ns);
  js_json_writer_member_int (b, "dropped_frames", f->dropped_frames);
  js_json_writer_member (b, "blocking");
  js_json_writer_string (b, f->fully_blocking ? "fully" : "partially");
  js_json_writer_member (b, "phases");
  js_json_writer_begin_object (b);
  for (guint p = 0; p < JS_N_PHASES; p++)
    if (f->mask & (1u << p))
      js_json_writer_member_int (b, js_phase_name (p), f->phase_ns[p]);
  js_json_writer_end_object (b);
  js_json_writer_member (b, "dispatches");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < f->n_dispatches; i++)
    {
      js_json_writer_begin_object (b);
      js_json_writer_member_string (b, "source", js_names_get (f->dispatches[i].name_id));
      js_json_writer_member_string (
          b, "callback", js_callback_names_lookup (in->callback_names, f->dispatches[i].code));
      js_json_writer_member_int (b, "overlap_ns", f->dispatches[i].overlap_ns);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
}

static void
add_part_members (JsJsonWriter *b, const JsReportInput *in, const JsPart *p, JsReportStacks *rs,
                  guint index)
{
  js_json_writer_member (b, "type");
  js_json_writer_string (b, part_type_name (p->type));
  js_json_writer_member_int (b, "start_ns", p->start_ns);
  js_json_writer_member_int (b, "end_ns", p->end_ns);
  js_json_writer_member_int (b, "duration_ns", p->duration_ns);
  js_json_writer_member_int (b, "nested_ns", p->nested_ns);
  js_json_writer_member (b, "tier");
  js_json_writer_string (b, part_tier_name (p));
  js_json_writer_member_string (b, "source", js_names_get (p->name_id));
  js_json_writer_member_string (b, "callback",
                                js_callback_names_lookup (in->callback_names, p->code));
  if (p->type == JS_RECORD_DISPATCH)
    {
      js_json_writer_member_int (b, "priority", p->priority);
      js_json_writer_member_int (b, "frames_delayed", p->frames_delayed);
    }
  else if (p->type == JS_RECORD_FRAME)
    add_frame_members (b, in, p->frame);
  else
    {
      js_json_writer_member_int (b, "dispatches", p->dispatches);
      js_json_writer_member_int (b, "top_source_ns", p->top_ns);
    }
  js_json_writer_member_int (b, "depth", p->depth);
  if (p->type == JS_RECORD_DISPATCH)
    js_report_add_posted_from (b, in->posts, in->stalls, p->post);
  js_report_stacks_add_part (b, rs, index, p->duration_ns, p->type == JS_RECORD_FRAME);
}

/* An event's members up to its context: what its parts and stalls say. */
static void
add_event_body (JsJsonWriter *b, const JsReportInput *in, const JsEvent *e)
{
  const JsPart *l = &e->longest;
  JsReportStacks *rs = js_report_stacks_new (in->stalls, e);

  js_json_writer_member_int (b, "id", (gint64) e->id);
  js_json_writer_member (b, "type");
  js_json_writer_string (b, part_type_name (l->type));
  js_json_writer_member_int (b, "start_ns", e->start_ns);
  js_json_writer_member_int (b, "end_ns", e->end_ns);
  js_json_writer_member_int (b, "duration_ns", e->duration_ns);
  js_json_writer_member_int (b, "max_part_ns", l->duration_ns);
  js_json_writer_member_int (b, "blocked_ns", e->blocked_ns);
  js_json_writer_member (b, "tier");
  js_json_writer_string (b, js_tier_name (e->tier));
  js_json_writer_member_string (b, "source", js_names_get (l->name_id));
  add_callback (b, in, l->code);
  if (l->type == JS_RECORD_DISPATCH)
    js_json_writer_member_int (b, "priority", l->priority);
  js_json_writer_member_int (b, "depth", l->depth);
  js_json_writer_member_int (b, "parts_count", e->parts_count);
  if (l->type == JS_RECORD_DISPATCH)
    js_report_add_posted_from (b, in->posts, in->stalls, l->post);
  if (l->type == JS_RECORD_FRAME)
    add_frame_members (b, in, l->frame);
  else
    {
      guint64 delayed = 0;

      for (guint i = 0; i < e->parts->len; i++)
        delayed += g_array_index (e->parts, JsPart, i).frames_delayed;
      js_json_writer_member_int (b, "frames_delayed", (gint64) delayed);
    }
  js_report_stacks_add_event (b, in->config, rs, e->duration_ns, l->type == JS_RECORD_FRAME);
  js_json_writer_member (b, "parts");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < e->parts->len; i++)
    {
      js_json_writer_begin_object (b);
      add_part_members (b, in, &g_array_index (e->parts, JsPart, i), rs, i);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
  js_report_stacks_free (rs);
}

/* The rest: its context, which is set once it closed. */
static void
add_event_end (JsJsonWriter *b, const JsReportInput *in, const JsEvent *e)
{
  if (in->context != NULL)
    js_report_add_event_context (b, in->context, e);
  /* Only events still open to change are built here in a live snapshot
   * (a frozen one is copied): late stalls, CPU readings and frames may
   * still alter them. */
  if (in->live)
    {
      js_json_writer_member (b, "settling");
      js_json_writer_bool (b, TRUE);
    }
}

/* A writer of this report's documents into `out`: scrubbed when asked. */
static void
writer_init (JsJsonWriter *w, const JsReportInput *in, GString *out, JsJsonWriterStyle style)
{
  js_json_writer_init (w, out, style);
  if (in->scrub != NULL)
    js_scrub_writer (in->scrub, w);
}

/* An event not frozen yet is built again whenever it changed: most often
 * only its context did (set when it closed), after a journal line of it
 * open, while its stacks and profile, most of its text, did not. So the
 * text up to its context is kept with it (js_event_keep_body) and copied
 * while its parts, stalls and the symbols naming its frames are as they
 * were: 0.3 ms of the collector's CPU per build of a 30 KB event. */
GBytes *
js_report_event_json (const JsReportInput *in, JsEvent *e)
{
  guint symbols = in->stalls != NULL ? js_symbolizer_generation (in->stalls->symbolizer) : 0;
  GBytes *kept = js_event_kept_body (e, symbols);
  GString *out = g_string_sized_new (kept != NULL ? g_bytes_get_size (kept) + 1024 : 4096);
  gsize body_end = 0;
  GBytes *json;
  JsJsonWriter w;

  writer_init (&w, in, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_begin_object (&w);
  if (kept != NULL)
    {
      gsize n;
      const char *data = g_bytes_get_data (kept, &n);

      js_json_writer_members_text (&w, data, n);
    }
  else
    {
      add_event_body (&w, in, e);
      body_end = out->len;
    }
  add_event_end (&w, in, e);
  js_json_writer_end_object (&w);
  json = g_string_free_to_bytes (out);
  if (kept == NULL)
    {
      /* The members after the opening bracket, in the text itself. */
      g_autoptr (GBytes) body = g_bytes_new_from_bytes (json, 1, body_end - 1);

      js_event_keep_body (e, body, symbols);
    }
  return json;
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
  GString *out = g_string_sized_new (4096);
  JsJsonWriter w;

  writer_init (&w, in, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_begin_object (&w);
  js_report_add_ongoing_hang_members (&w, in->config, in->stalls, in->posts, in->now_ns);
  if (with_process)
    {
      /* Whose hang it was, for the next run on this path (previous_run). */
      js_json_writer_member (&w, "process");
      js_json_writer_begin_object (&w);
      js_json_writer_member_int (&w, "pid", in->process->pid);
      js_json_writer_member_string (&w, "exe", in->process->exe ? in->process->exe : "");
      js_json_writer_end_object (&w);
    }
  js_json_writer_end_object (&w);
  *length = out->len;
  return g_string_free (out, FALSE);
}

/* Everything but the events, the object left open; `identity`: with the
 * document's identity (format, version, generator, final, journal). */
static void
write_head (JsJsonWriter *b, const JsReportInput *in, gboolean identity)
{
  js_json_writer_begin_object (b);
  if (identity)
    {
      js_json_writer_member_string (b, "format", JS_REPORT_FORMAT);
      js_json_writer_member_int (b, "version", JS_REPORT_VERSION);
      js_json_writer_member_string (b, "generator", "jankscope " JANKSCOPE_VERSION);
      js_json_writer_member_bool (b, "final", in->final);
      if (in->journal_run != NULL && !in->final)
        {
          /* The journal lines this report holds (docs/report-format.md). */
          js_json_writer_member (b, "journal");
          js_json_writer_begin_object (b);
          js_json_writer_member_string (b, "run", in->journal_run);
          js_json_writer_member_int (b, "seq", (gint64) in->journal_seq);
          js_json_writer_end_object (b);
        }
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
      js_json_writer_member (b, "previous_run");
      js_json_write_node (b, in->previous_run);
    }
  if (in->live)
    js_report_add_live (b, in->frames, in->callback_names, in->watchdog, in->now_ns, in->start_ns,
                        in->collector_cpu_ns);
}

char *
js_report_members_json (const JsReportInput *in, gsize *length)
{
  GString *out = g_string_sized_new (16384);
  JsJsonWriter w;

  writer_init (&w, in, out, JS_JSON_WRITER_COMPACT);
  /* What a reader replaces: not the document's identity, nor what it
   * folds itself. */
  write_head (&w, in, FALSE);
  js_json_writer_end_object (&w);
  *length = out->len;
  return g_string_free (out, FALSE);
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
  g_autoptr (GPtrArray) events = g_ptr_array_new ();
  const char *separator = in->live ? "," : ",\n";
  GString *out = g_string_sized_new (65536);
  JsJsonWriter w;

  writer_init (&w, in, out, in->live ? JS_JSON_WRITER_COMPACT : JS_JSON_WRITER_PRETTY);
  write_head (&w, in, TRUE);
  /* The head's object stays open: the events member is written as text,
   * laid out as the pretty writer would lay out its name. */
  g_string_append (out, in->live ? ",\"events\":[" : ",\n  \"events\" : [\n");

  collect_events (events, in->store);
  collect_events (events, &in->frames->frame_store);
  g_ptr_array_sort (events, by_start);
  for (guint i = 0; i < events->len; i++)
    {
      JsEvent *e = g_ptr_array_index (events, i);
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
