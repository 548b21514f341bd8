/* summary-json.c: "jankscope summary --json" (summary-json.h)
 *
 * The numbers of the text summary (summary-printer.c), written with the
 * reading side's one JSON writer: the same rows in the same order (the
 * sorting is the printer's), times as integers in ns where the text shows
 * ms or s, "unknown" as null. The schema is docs/cli-json.md's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "summary-json.h"

#include "child-reports.h"
#include "js-tiers.h"
#include "jsr-json-read.h"
#include "js-json-writer.h"
#include "summary-printer.h"

/* An integer that may be JSR_UNKNOWN (negative): null then. */
static void
member_known (JsJsonWriter *w, const char *name, gint64 value)
{
  js_json_writer_member (w, name);
  if (value < 0)
    js_json_writer_null (w);
  else
    js_json_writer_int (w, value);
}

static void
write_frame (JsJsonWriter *w, const JsrReportFrame *frame)
{
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "function", frame->function);
  js_json_writer_member_string (w, "file", frame->file);
  member_known (w, "line", frame->line);
  js_json_writer_member_string (w, "module", frame->module);
  js_json_writer_member_string (w, "offset", frame->offset);
  js_json_writer_member_bool (w, "inlined", frame->inlined);
  js_json_writer_end_object (w);
}

static void
write_culprit (JsJsonWriter *w, const JsrReportCulprit *culprit)
{
  g_autofree char *callback = NULL;

  js_json_writer_member (w, "culprit");
  if (culprit == NULL)
    {
      js_json_writer_null (w);
      return;
    }
  callback = jsr_culprit_callback_name (culprit);
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "function", culprit->function);
  js_json_writer_member_string (w, "file", culprit->file);
  member_known (w, "line", culprit->line);
  js_json_writer_member_string (w, "module", culprit->module);
  /* The dispatched callback the text shows before a library's culprit. */
  js_json_writer_member_string (w, "callback", callback);
  js_json_writer_member (w, "confidence");
  if (culprit->confidence < 0)
    js_json_writer_null (w);
  else
    js_json_writer_double (w, culprit->confidence);
  member_known (w, "samples", culprit->samples);
  member_known (w, "of_samples", culprit->of_samples);
  js_json_writer_member_string (w, "reason", culprit->reason);
  js_json_writer_end_object (w);
}

static void
write_parts (JsJsonWriter *w, const JsrReportEvent *event)
{
  GPtrArray *parts = event->parts;
  guint n = parts != NULL ? parts->len : 0;

  js_json_writer_member_int (w, "parts_count", MAX (event->parts_count, (gint64) n));
  js_json_writer_member (w, "parts");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      const JsrReportPart *part = g_ptr_array_index (parts, i);

      js_json_writer_begin_object (w);
      /* From the event's start, like the text's "+0.120 s". */
      js_json_writer_member_int (w, "start_ns", part->start_ns - event->start_ns);
      js_json_writer_member_int (w, "duration_ns", part->duration_ns);
      js_json_writer_member_string (w, "source", part->source);
      js_json_writer_member_string (w, "callback", part->callback);
      js_json_writer_member_string (w, "class", part->klass);
      js_json_writer_member_string (w, "wait", part->wait);
      write_culprit (w, part->culprit);
      member_known (w, "attributed_ns", part->attributed_ns);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
}

/* An event as the text shows it: its row, class and times, culprit, top
 * stack and parts. start_ns is from the report's start (the text's START);
 * null for the previous run's hang (another run's clock): report NULL. */
static void
write_event (JsJsonWriter *w, const JsrReport *report, const JsrReportEvent *event)
{
  js_json_writer_begin_object (w);
  js_json_writer_member_int (w, "id", event->id);
  js_json_writer_member (w, "start_ns");
  if (report != NULL)
    js_json_writer_int (w, event->start_ns - report->start_ns);
  else
    js_json_writer_null (w);
  js_json_writer_member_int (w, "duration_ns", event->duration_ns);
  js_json_writer_member_string (w, "tier", js_tier_name (event->tier));
  js_json_writer_member_string (w, "type", event->type);
  js_json_writer_member_string (w, "source", event->source);
  js_json_writer_member_string (w, "callback", event->callback);
  js_json_writer_member_string (w, "class", event->klass);
  js_json_writer_member_string (w, "wait", event->wait);
  member_known (w, "cpu_ns", event->cpu_ns);
  member_known (w, "off_cpu_ns", event->off_cpu_ns);
  write_culprit (w, event->culprit);
  js_json_writer_member (w, "top_stack");
  if (event->top_stack->len == 0)
    js_json_writer_null (w);
  else
    {
      js_json_writer_begin_object (w);
      member_known (w, "samples", event->top_stack_count);
      member_known (w, "of_samples", event->samples_total);
      js_json_writer_member_int (w, "frames_total", event->top_stack_frames_total);
      js_json_writer_member_bool (w, "truncated", event->top_stack_truncated);
      js_json_writer_member (w, "frames");
      js_json_writer_begin_array (w);
      for (guint i = 0; i < event->top_stack->len; i++)
        write_frame (w, g_ptr_array_index (event->top_stack, i));
      js_json_writer_end_array (w);
      js_json_writer_end_object (w);
    }
  write_parts (w, event);
  js_json_writer_end_object (w);
}

static void
write_overview (JsJsonWriter *w, const JsrReport *report)
{
  js_json_writer_member (w, "process");
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "name", report->name);
  member_known (w, "pid", report->pid);
  js_json_writer_member_string (w, "exe", report->exe);
  js_json_writer_end_object (w);
  js_json_writer_member_bool (w, "final", report->final);

  js_json_writer_member (w, "toolkit");
  js_json_writer_begin_object (w);
  js_json_writer_member_string (w, "name", report->toolkit);
  js_json_writer_member_string (w, "gtk_version", report->gtk_version);
  js_json_writer_member_string (w, "mode", report->mode);
  js_json_writer_end_object (w);

  js_json_writer_member_int (w, "monitored_ns", report->monitored_ns);
  js_json_writer_member_int (w, "iterations", report->iterations);
  js_json_writer_member_int (w, "dispatches", report->dispatches);
  js_json_writer_member_int (w, "busy_ns", report->busy_ns);
  /* The text's "Busy": n/a without monitored time. */
  js_json_writer_member (w, "busy_fraction");
  if (report->monitored_ns > 0)
    js_json_writer_double (w, (double) report->busy_ns / (double) report->monitored_ns);
  else
    js_json_writer_null (w);

  js_json_writer_member (w, "events");
  js_json_writer_begin_object (w);
  js_json_writer_member_int (w, "total", report->events_total);
  js_json_writer_member_int (w, "threshold_ns", report->threshold_ns);
  js_json_writer_member (w, "by_tier");
  js_json_writer_begin_object (w);
  for (JsTier tier = 0; tier < JS_N_TIERS; tier++)
    js_json_writer_member_int (w, js_tier_name (tier), report->events_by_tier[tier]);
  js_json_writer_end_object (w);
  js_json_writer_member_int (w, "dropped", report->events_dropped);
  js_json_writer_end_object (w);
  {
    gint64 by_tier[JS_N_EVENT_TIERS];
    gint64 total = jsr_report_frame_events (report, by_tier);

    /* The text's "Frame events": apart from the stall events above. */
    js_json_writer_member (w, "frame_events");
    js_json_writer_begin_object (w);
    js_json_writer_member_int (w, "total", total);
    js_json_writer_member (w, "by_tier");
    js_json_writer_begin_object (w);
    for (guint i = 0; i + 1 < JS_N_EVENT_TIERS; i++)
      js_json_writer_member_int (w, js_tier_name (js_tier_by_mildness (i)),
                                 by_tier[js_tier_by_mildness (i)]);
    js_json_writer_end_object (w);
    js_json_writer_member (w, "dropped");
    if (report->frame_events_dropped != JSR_UNKNOWN)
      js_json_writer_int (w, report->frame_events_dropped);
    else
      js_json_writer_null (w);
    js_json_writer_end_object (w);
  }
  js_json_writer_member_int (w, "records_dropped", report->records_dropped);

  js_json_writer_member (w, "frames");
  if (report->frames > 0)
    {
      js_json_writer_begin_object (w);
      js_json_writer_member_int (w, "count", report->frames);
      js_json_writer_member_int (w, "slow", report->frames_slow);
      js_json_writer_member_int (w, "frozen", report->frames_frozen);
      js_json_writer_member_int (w, "p50_ns", report->frame_p50_ns);
      js_json_writer_member_int (w, "p95_ns", report->frame_p95_ns);
      js_json_writer_member_int (w, "p99_ns", report->frame_p99_ns);
      js_json_writer_member (w, "fps_animating");
      if (report->frames_fps >= 0)
        js_json_writer_double (w, report->frames_fps);
      else
        js_json_writer_null (w);
      js_json_writer_end_object (w);
    }
  else
    js_json_writer_null (w);

  js_json_writer_member (w, "sampler");
  if (report->sampler != NULL)
    {
      const JsrReportSampler *sampler = report->sampler;

      js_json_writer_begin_object (w);
      js_json_writer_member_bool (w, "sampling_off", sampler->sampling_off);
      member_known (w, "samples", sampler->samples);
      member_known (w, "stalls", sampler->stalls);
      member_known (w, "signals_sent", sampler->signals_sent);
      member_known (w, "signal_timeouts", sampler->signal_timeouts);
      member_known (w, "syscalls_interrupted", sampler->syscalls_interrupted);
      js_json_writer_member_bool (w, "signal_lost", sampler->signal_lost);
      js_json_writer_member_string (w, "sampling_path", sampler->sampling_path);
      js_json_writer_member_string (w, "sampling_path_reason", sampler->sampling_path_reason);
      js_json_writer_end_object (w);
    }
  else
    js_json_writer_null (w);
}

static void
write_sources (JsJsonWriter *w, const char *name, const JsrReport *report, gboolean by_longest)
{
  g_autoptr (GPtrArray) sorted = cli_summary_sorted_sources (report, by_longest);

  js_json_writer_member (w, name);
  js_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (sorted->len, CLI_SUMMARY_TOP_N); i++)
    {
      const JsrReportSource *source = g_ptr_array_index (sorted, i);

      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "source", source->source);
      js_json_writer_member_string (w, "callback", source->callback);
      js_json_writer_member_int (w, "count", source->count);
      js_json_writer_member_int (w, "total_ns", source->total_ns);
      js_json_writer_member_int (w, "max_ns", source->max_ns);
      js_json_writer_member_int (w, "p95_ns", source->p95_ns);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
}

/* "children": the reports of the run's other monitored processes. */
static void
write_children (JsJsonWriter *w, const GPtrArray *children, guint more)
{
  js_json_writer_member (w, "children");
  js_json_writer_begin_array (w);
  for (guint i = 0; children != NULL && i < children->len; i++)
    {
      const CliChildReport *c = g_ptr_array_index (children, i);

      js_json_writer_begin_object (w);
      js_json_writer_member_string (w, "path", c->path);
      js_json_writer_member_int (w, "pid", c->pid);
      js_json_writer_member_string (w, "name", c->report != NULL ? c->report->name : NULL);
      js_json_writer_member (w, "stall_events");
      if (c->report != NULL)
        js_json_writer_int (w, c->report->events_total);
      else
        js_json_writer_null (w);
      js_json_writer_member (w, "frame_events");
      if (c->report != NULL)
        js_json_writer_int (w, jsr_report_frame_events (c->report, NULL));
      else
        js_json_writer_null (w);
      js_json_writer_member_string (w, "error", c->error);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_member_uint (w, "children_more", more);
}

void
cli_summary_write_json (const JsrReport *report, const GPtrArray *children, guint more_children,
                        GString *out)
{
  g_autoptr (GPtrArray) events = NULL;
  const JsrReportEvent *hang;
  JsJsonWriter w;

  g_return_if_fail (report != NULL);
  g_return_if_fail (out != NULL);

  js_json_writer_init (&w, out, JS_JSON_WRITER_PRETTY);
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "format", "jankscope-summary-json");
  js_json_writer_member_int (&w, "version", 1);
  write_overview (&w, report);
  write_children (&w, children, more_children);

  hang = jsr_report_get_ongoing_hang (report);
  js_json_writer_member (&w, "ongoing_hang");
  if (hang != NULL)
    write_event (&w, report, hang);
  else
    js_json_writer_null (&w);

  js_json_writer_member (&w, "previous_run");
  if (report->previous_run != NULL)
    {
      const JsrReportPreviousRun *previous = report->previous_run;

      js_json_writer_begin_object (&w);
      member_known (&w, "pid", previous->pid);
      js_json_writer_member_string (&w, "exe", previous->exe);
      js_json_writer_member (&w, "hang");
      write_event (&w, NULL, previous->hang);
      js_json_writer_end_object (&w);
    }
  else
    js_json_writer_null (&w);

  write_sources (&w, "top_sources_by_total", report, FALSE);
  write_sources (&w, "top_sources_by_longest", report, TRUE);

  events = cli_summary_sorted_events (report);
  js_json_writer_member_int (&w, "events_listed", events->len);
  js_json_writer_member (&w, "worst_events");
  js_json_writer_begin_array (&w);
  for (guint i = 0; i < MIN (events->len, CLI_SUMMARY_TOP_N); i++)
    write_event (&w, report, g_ptr_array_index (events, i));
  js_json_writer_end_array (&w);
  js_json_writer_end_object (&w);
  g_string_append_c (out, '\n');
}
