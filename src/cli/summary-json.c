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
#include "jsr-json-writer.h"
#include "summary-printer.h"

/* An integer that may be JSR_UNKNOWN (negative): null then. */
static void
member_known (JsrJsonWriter *w, const char *name, gint64 value)
{
  jsr_json_writer_member (w, name);
  if (value < 0)
    jsr_json_writer_null (w);
  else
    jsr_json_writer_int (w, value);
}

static void
write_frame (JsrJsonWriter *w, const JsrReportFrame *frame)
{
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_string (w, "function", frame->function);
  jsr_json_writer_member_string (w, "file", frame->file);
  member_known (w, "line", frame->line);
  jsr_json_writer_member_string (w, "module", frame->module);
  jsr_json_writer_member_string (w, "offset", frame->offset);
  jsr_json_writer_member_bool (w, "inlined", frame->inlined);
  jsr_json_writer_end_object (w);
}

static void
write_culprit (JsrJsonWriter *w, const JsrReportCulprit *culprit)
{
  g_autofree char *callback = NULL;

  jsr_json_writer_member (w, "culprit");
  if (culprit == NULL)
    {
      jsr_json_writer_null (w);
      return;
    }
  callback = jsr_culprit_callback_name (culprit);
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_string (w, "function", culprit->function);
  jsr_json_writer_member_string (w, "file", culprit->file);
  member_known (w, "line", culprit->line);
  jsr_json_writer_member_string (w, "module", culprit->module);
  /* The dispatched callback the text shows before a library's culprit. */
  jsr_json_writer_member_string (w, "callback", callback);
  jsr_json_writer_member (w, "confidence");
  if (culprit->confidence < 0)
    jsr_json_writer_null (w);
  else
    jsr_json_writer_double (w, culprit->confidence);
  member_known (w, "samples", culprit->samples);
  member_known (w, "of_samples", culprit->of_samples);
  jsr_json_writer_member_string (w, "reason", culprit->reason);
  jsr_json_writer_end_object (w);
}

static void
write_parts (JsrJsonWriter *w, const JsrReportEvent *event)
{
  GPtrArray *parts = event->parts;
  guint n = parts != NULL ? parts->len : 0;

  jsr_json_writer_member_int (w, "parts_count", MAX (event->parts_count, (gint64) n));
  jsr_json_writer_member (w, "parts");
  jsr_json_writer_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      const JsrReportPart *part = g_ptr_array_index (parts, i);

      jsr_json_writer_begin_object (w);
      /* From the event's start, like the text's "+0.120 s". */
      jsr_json_writer_member_int (w, "start_ns", part->start_ns - event->start_ns);
      jsr_json_writer_member_int (w, "duration_ns", part->duration_ns);
      jsr_json_writer_member_string (w, "source", part->source);
      jsr_json_writer_member_string (w, "callback", part->callback);
      jsr_json_writer_member_string (w, "class", part->klass);
      jsr_json_writer_member_string (w, "wait", part->wait);
      write_culprit (w, part->culprit);
      member_known (w, "attributed_ns", part->attributed_ns);
      jsr_json_writer_end_object (w);
    }
  jsr_json_writer_end_array (w);
}

/* An event as the text shows it: its row, class and times, culprit, top
 * stack and parts. start_ns is from the report's start (the text's START);
 * null for the previous run's hang (another run's clock): report NULL. */
static void
write_event (JsrJsonWriter *w, const JsrReport *report, const JsrReportEvent *event)
{
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_int (w, "id", event->id);
  jsr_json_writer_member (w, "start_ns");
  if (report != NULL)
    jsr_json_writer_int (w, event->start_ns - report->start_ns);
  else
    jsr_json_writer_null (w);
  jsr_json_writer_member_int (w, "duration_ns", event->duration_ns);
  jsr_json_writer_member_string (w, "tier", js_tier_name (event->tier));
  jsr_json_writer_member_string (w, "type", event->type);
  jsr_json_writer_member_string (w, "source", event->source);
  jsr_json_writer_member_string (w, "callback", event->callback);
  jsr_json_writer_member_string (w, "class", event->klass);
  jsr_json_writer_member_string (w, "wait", event->wait);
  member_known (w, "cpu_ns", event->cpu_ns);
  member_known (w, "off_cpu_ns", event->off_cpu_ns);
  write_culprit (w, event->culprit);
  jsr_json_writer_member (w, "top_stack");
  if (event->top_stack->len == 0)
    jsr_json_writer_null (w);
  else
    {
      jsr_json_writer_begin_object (w);
      member_known (w, "samples", event->top_stack_count);
      member_known (w, "of_samples", event->samples_total);
      jsr_json_writer_member_int (w, "frames_total", event->top_stack_frames_total);
      jsr_json_writer_member_bool (w, "truncated", event->top_stack_truncated);
      jsr_json_writer_member (w, "frames");
      jsr_json_writer_begin_array (w);
      for (guint i = 0; i < event->top_stack->len; i++)
        write_frame (w, g_ptr_array_index (event->top_stack, i));
      jsr_json_writer_end_array (w);
      jsr_json_writer_end_object (w);
    }
  write_parts (w, event);
  jsr_json_writer_end_object (w);
}

static void
write_overview (JsrJsonWriter *w, const JsrReport *report)
{
  jsr_json_writer_member (w, "process");
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_string (w, "name", report->name);
  member_known (w, "pid", report->pid);
  jsr_json_writer_member_string (w, "exe", report->exe);
  jsr_json_writer_end_object (w);
  jsr_json_writer_member_bool (w, "final", report->final);

  jsr_json_writer_member (w, "toolkit");
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_string (w, "name", report->toolkit);
  jsr_json_writer_member_string (w, "gtk_version", report->gtk_version);
  jsr_json_writer_member_string (w, "mode", report->mode);
  jsr_json_writer_end_object (w);

  jsr_json_writer_member_int (w, "monitored_ns", report->monitored_ns);
  jsr_json_writer_member_int (w, "iterations", report->iterations);
  jsr_json_writer_member_int (w, "dispatches", report->dispatches);
  jsr_json_writer_member_int (w, "busy_ns", report->busy_ns);
  /* The text's "Busy": n/a without monitored time. */
  jsr_json_writer_member (w, "busy_fraction");
  if (report->monitored_ns > 0)
    jsr_json_writer_double (w, (double) report->busy_ns / (double) report->monitored_ns);
  else
    jsr_json_writer_null (w);

  jsr_json_writer_member (w, "events");
  jsr_json_writer_begin_object (w);
  jsr_json_writer_member_int (w, "total", report->events_total);
  jsr_json_writer_member_int (w, "threshold_ns", report->threshold_ns);
  jsr_json_writer_member (w, "by_tier");
  jsr_json_writer_begin_object (w);
  for (JsTier tier = 0; tier < JS_N_TIERS; tier++)
    jsr_json_writer_member_int (w, js_tier_name (tier), report->events_by_tier[tier]);
  jsr_json_writer_end_object (w);
  jsr_json_writer_member_int (w, "dropped", report->events_dropped);
  jsr_json_writer_end_object (w);
  {
    gint64 by_tier[JS_N_EVENT_TIERS];
    gint64 total = jsr_report_frame_events (report, by_tier);

    /* The text's "Frame events": apart from the stall events above. */
    jsr_json_writer_member (w, "frame_events");
    jsr_json_writer_begin_object (w);
    jsr_json_writer_member_int (w, "total", total);
    jsr_json_writer_member (w, "by_tier");
    jsr_json_writer_begin_object (w);
    for (guint i = 0; i + 1 < JS_N_EVENT_TIERS; i++)
      jsr_json_writer_member_int (w, js_tier_name (js_tier_by_mildness (i)),
                                  by_tier[js_tier_by_mildness (i)]);
    jsr_json_writer_end_object (w);
    jsr_json_writer_member (w, "dropped");
    if (report->frame_events_dropped != JSR_UNKNOWN)
      jsr_json_writer_int (w, report->frame_events_dropped);
    else
      jsr_json_writer_null (w);
    jsr_json_writer_end_object (w);
  }
  jsr_json_writer_member_int (w, "records_dropped", report->records_dropped);

  jsr_json_writer_member (w, "frames");
  if (report->frames > 0)
    {
      jsr_json_writer_begin_object (w);
      jsr_json_writer_member_int (w, "count", report->frames);
      jsr_json_writer_member_int (w, "slow", report->frames_slow);
      jsr_json_writer_member_int (w, "frozen", report->frames_frozen);
      jsr_json_writer_member_int (w, "p50_ns", report->frame_p50_ns);
      jsr_json_writer_member_int (w, "p95_ns", report->frame_p95_ns);
      jsr_json_writer_member_int (w, "p99_ns", report->frame_p99_ns);
      jsr_json_writer_member (w, "fps_animating");
      if (report->frames_fps >= 0)
        jsr_json_writer_double (w, report->frames_fps);
      else
        jsr_json_writer_null (w);
      jsr_json_writer_end_object (w);
    }
  else
    jsr_json_writer_null (w);

  jsr_json_writer_member (w, "sampler");
  if (report->sampler != NULL)
    {
      const JsrReportSampler *sampler = report->sampler;

      jsr_json_writer_begin_object (w);
      jsr_json_writer_member_bool (w, "sampling_off", sampler->sampling_off);
      member_known (w, "samples", sampler->samples);
      member_known (w, "stalls", sampler->stalls);
      member_known (w, "signals_sent", sampler->signals_sent);
      member_known (w, "signal_timeouts", sampler->signal_timeouts);
      member_known (w, "syscalls_interrupted", sampler->syscalls_interrupted);
      jsr_json_writer_member_bool (w, "signal_lost", sampler->signal_lost);
      jsr_json_writer_member_string (w, "sampling_path", sampler->sampling_path);
      jsr_json_writer_member_string (w, "sampling_path_reason", sampler->sampling_path_reason);
      jsr_json_writer_end_object (w);
    }
  else
    jsr_json_writer_null (w);
}

static void
write_sources (JsrJsonWriter *w, const char *name, const JsrReport *report, gboolean by_longest)
{
  g_autoptr (GPtrArray) sorted = cli_summary_sorted_sources (report, by_longest);

  jsr_json_writer_member (w, name);
  jsr_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (sorted->len, CLI_SUMMARY_TOP_N); i++)
    {
      const JsrReportSource *source = g_ptr_array_index (sorted, i);

      jsr_json_writer_begin_object (w);
      jsr_json_writer_member_string (w, "source", source->source);
      jsr_json_writer_member_string (w, "callback", source->callback);
      jsr_json_writer_member_int (w, "count", source->count);
      jsr_json_writer_member_int (w, "total_ns", source->total_ns);
      jsr_json_writer_member_int (w, "max_ns", source->max_ns);
      jsr_json_writer_member_int (w, "p95_ns", source->p95_ns);
      jsr_json_writer_end_object (w);
    }
  jsr_json_writer_end_array (w);
}

/* "children": the reports of the run's other monitored processes. */
static void
write_children (JsrJsonWriter *w, const GPtrArray *children, guint more)
{
  jsr_json_writer_member (w, "children");
  jsr_json_writer_begin_array (w);
  for (guint i = 0; children != NULL && i < children->len; i++)
    {
      const CliChildReport *c = g_ptr_array_index (children, i);

      jsr_json_writer_begin_object (w);
      jsr_json_writer_member_string (w, "path", c->path);
      jsr_json_writer_member_int (w, "pid", c->pid);
      jsr_json_writer_member_string (w, "name", c->report != NULL ? c->report->name : NULL);
      jsr_json_writer_member (w, "stall_events");
      if (c->report != NULL)
        jsr_json_writer_int (w, c->report->events_total);
      else
        jsr_json_writer_null (w);
      jsr_json_writer_member (w, "frame_events");
      if (c->report != NULL)
        jsr_json_writer_int (w, jsr_report_frame_events (c->report, NULL));
      else
        jsr_json_writer_null (w);
      jsr_json_writer_member_string (w, "error", c->error);
      jsr_json_writer_end_object (w);
    }
  jsr_json_writer_end_array (w);
  jsr_json_writer_member_uint (w, "children_more", more);
}

void
cli_summary_write_json (const JsrReport *report, const GPtrArray *children, guint more_children,
                        GString *out)
{
  g_autoptr (GPtrArray) events = NULL;
  const JsrReportEvent *hang;
  JsrJsonWriter w;

  g_return_if_fail (report != NULL);
  g_return_if_fail (out != NULL);

  jsr_json_writer_init (&w, out, JSR_JSON_WRITER_PRETTY);
  jsr_json_writer_begin_object (&w);
  jsr_json_writer_member_string (&w, "format", "jankscope-summary-json");
  jsr_json_writer_member_int (&w, "version", 1);
  write_overview (&w, report);
  write_children (&w, children, more_children);

  hang = jsr_report_get_ongoing_hang (report);
  jsr_json_writer_member (&w, "ongoing_hang");
  if (hang != NULL)
    write_event (&w, report, hang);
  else
    jsr_json_writer_null (&w);

  jsr_json_writer_member (&w, "previous_run");
  if (report->previous_run != NULL)
    {
      const JsrReportPreviousRun *previous = report->previous_run;

      jsr_json_writer_begin_object (&w);
      member_known (&w, "pid", previous->pid);
      jsr_json_writer_member_string (&w, "exe", previous->exe);
      jsr_json_writer_member (&w, "hang");
      write_event (&w, NULL, previous->hang);
      jsr_json_writer_end_object (&w);
    }
  else
    jsr_json_writer_null (&w);

  write_sources (&w, "top_sources_by_total", report, FALSE);
  write_sources (&w, "top_sources_by_longest", report, TRUE);

  events = cli_summary_sorted_events (report);
  jsr_json_writer_member_int (&w, "events_listed", events->len);
  jsr_json_writer_member (&w, "worst_events");
  jsr_json_writer_begin_array (&w);
  for (guint i = 0; i < MIN (events->len, CLI_SUMMARY_TOP_N); i++)
    write_event (&w, report, g_ptr_array_index (events, i));
  jsr_json_writer_end_array (&w);
  jsr_json_writer_end_object (&w);
  g_string_append_c (out, '\n');
}
