/* jsr-report.c: loads and validates a jankscope report (docs/report-format.md)
 *
 * The file is untrusted: it may be truncated, hand-written, of another
 * version or not a report at all. Every member that the CLI uses is checked
 * for presence, type and range; a problem gives a GError that names the
 * member ("summary.sources[3].count must be an integer, not a string").
 * Unknown members are ignored, as the format asks of readers.
 *
 * The text is parsed by jsr-json-doc.c, which also keeps jsr-json-guard.c's rules
 * (nesting depth, 64-bit integers, memory budget). jsr_report_load reads
 * what the summary needs; jsr_report_load_full also reads every event's
 * stacks (all frames), samples and parts, within JSR_REPORT_FULL_MAX_*:
 * past them it fails rather than truncate silently.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "js-slow-frame.h"
#include "jsr-display.h"
#include "jsr-histogram.h"
#include "jsr-json-doc.h"
#include "jsr-json-read.h"
#include "jsr-profile.h"
#include "jsr-report-journal.h"
#include "jsr-report.h"
#include "jsr-saturate.h"

#define REPORT_FORMAT "jankscope-report"
#define REPORT_VERSION 1

GQuark
jsr_report_error_quark (void)
{
  return g_quark_from_static_string ("jankscope-reader-report-error");
}

/* The frame phases of JsrReportPart.phases, in order (report-format.md). */
static const char *const phase_names[6] = {
  "flush-events", "before-paint", "update", "layout", "paint", "after-paint",
};

const char *const *
jsr_report_lazy_members (JsrReportLoadFlags flags)
{
  /* Only containers are ever lazy: "samples" of the sampler summary (a
   * number) is read as usual. */
  static const char *const aggregate[] = {
    "frames", "samples", "sources", "watchdog", "windows", NULL,
  };

  return (flags & JSR_REPORT_LOAD_AGGREGATE) ? aggregate : NULL;
}

/* ---- freeing ---------------------------------------------------------------- */

static void
source_free (JsrReportSource *source)
{
  g_free (source->source);
  g_free (source->callback);
  g_free (source);
}

static void
frame_free (JsrReportFrame *frame)
{
  g_free (frame->function);
  g_free (frame->symbol);
  g_free (frame->module);
  g_free (frame->file);
  g_free (frame->offset);
  g_free (frame->build_id);
  g_free (frame);
}

static void
callback_free (JsrReportCallback *callback)
{
  g_free (callback->function);
  g_free (callback->module);
  g_free (callback->offset);
  g_free (callback->source);
  g_free (callback);
}

static void
culprit_free (JsrReportCulprit *culprit)
{
  g_free (culprit->function);
  g_free (culprit->module);
  g_free (culprit->file);
  g_free (culprit->reason);
  g_free (culprit->offset);
  g_clear_pointer (&culprit->callback, callback_free);
  g_free (culprit);
}

static void
stack_free (JsrReportStack *stack)
{
  g_free (stack->signature);
  g_free (stack->signature_id);
  g_clear_pointer (&stack->frames, g_ptr_array_unref);
  g_free (stack);
}

static void
sample_clear (JsrReportSample *sample)
{
  g_free (sample->state);
  g_free (sample->wait);
}

static void
part_stack_free (JsrReportPartStack *stack)
{
  g_free (stack->signature);
  g_free (stack->signature_id);
  g_free (stack);
}

static void
part_free (JsrReportPart *part)
{
  g_free (part->type);
  g_free (part->tier);
  g_free (part->source);
  g_free (part->callback);
  g_free (part->klass);
  g_free (part->wait);
  g_clear_pointer (&part->culprit, culprit_free);
  g_clear_pointer (&part->diagnosis, jsr_diagnosis_free);
  g_clear_pointer (&part->posted_from, jsr_posting_free);
  g_clear_pointer (&part->profile, g_array_unref);
  g_clear_pointer (&part->stacks, g_ptr_array_unref);
  g_free (part);
}

static void
detail_free (JsrReportEventDetail *detail)
{
  g_clear_pointer (&detail->stacks, g_ptr_array_unref);
  g_clear_pointer (&detail->samples, g_array_unref);
  g_clear_pointer (&detail->parts, g_ptr_array_unref);
  g_clear_pointer (&detail->profile, jsr_profile_free);
  g_free (detail->scene);
  g_free (detail);
}

static void
event_free (JsrReportEvent *event)
{
  g_free (event->type);
  g_free (event->source);
  g_free (event->callback);
  g_free (event->klass);
  g_free (event->wait);
  g_clear_pointer (&event->culprit, culprit_free);
  g_clear_pointer (&event->diagnosis, jsr_diagnosis_free);
  g_clear_pointer (&event->posted_from, jsr_posting_free);
  g_clear_pointer (&event->top_stack, g_ptr_array_unref);
  g_clear_pointer (&event->detail, detail_free);
  g_clear_pointer (&event->parts, g_ptr_array_unref);
  g_free (event);
}

static void
previous_run_free (JsrReportPreviousRun *previous)
{
  g_free (previous->exe);
  g_clear_pointer (&previous->hang, event_free);
  g_free (previous);
}

static void
sampler_free (JsrReportSampler *sampler)
{
  g_free (sampler->sampling_path);
  g_free (sampler->sampling_path_reason);
  g_free (sampler);
}

static void
module_free (JsrReportModule *module)
{
  g_free (module->name);
  g_free (module->path);
  g_free (module->build_id);
  g_free (module);
}

void
jsr_report_free (JsrReport *report)
{
  if (report == NULL)
    return;

  g_free (report->generator);
  g_free (report->name);
  g_free (report->toolkit);
  g_free (report->gtk_version);
  g_free (report->mode);
  g_clear_pointer (&report->sources, g_ptr_array_unref);
  g_clear_pointer (&report->events, g_ptr_array_unref);
  g_clear_pointer (&report->sampler, sampler_free);
  g_clear_pointer (&report->previous_run, previous_run_free);
  g_free (report->install_id);
  g_free (report->path);
  g_free (report->exe);
  g_clear_pointer (&report->iteration_histogram, jsr_report_histogram_free);
  g_clear_pointer (&report->frame_histogram, jsr_report_histogram_free);
  g_clear_pointer (&report->modules, g_ptr_array_unref);
  g_free (report);
}

gboolean
jsr_is_build_id (const char *text)
{
  gsize n = 0;

  if (text == NULL)
    return FALSE;
  for (; text[n] != '\0'; n++)
    if (!g_ascii_isxdigit (text[n]) || n >= 128)
      return FALSE;
  return n >= 2 && n % 2 == 0;
}

const JsrReportModule *
jsr_report_find_module (const JsrReport *report, const char *name, const char *build_id)
{
  const JsrReportModule *found = NULL;

  for (guint i = 0; report->modules != NULL && name != NULL && i < report->modules->len; i++)
    {
      const JsrReportModule *m = g_ptr_array_index (report->modules, i);

      if (strcmp (m->name, name) != 0)
        continue;
      if (build_id != NULL && g_strcmp0 (m->build_id, build_id) == 0)
        return m;
      if (build_id == NULL)
        {
          if (found != NULL)
            return NULL; /* several: which one is unknown */
          found = m;
        }
    }
  return found;
}

const char *
jsr_report_callback_build_id (const JsrReport *report, const char *callback)
{
  const char *plus = callback != NULL ? strrchr (callback, '+') : NULL;
  g_autofree char *name = NULL;
  const JsrReportModule *m;

  if (report == NULL || plus == NULL || plus == callback || !g_str_has_prefix (plus, "+0x"))
    return NULL;
  name = g_strndup (callback, plus - callback);
  m = jsr_report_find_module (report, name, NULL);
  return m != NULL ? m->build_id : NULL;
}

/* The first event of the stall under way, if the report has one. */
gint64
jsr_report_frame_events (const JsrReport *report, gint64 by_tier[JS_N_EVENT_TIERS])
{
  gint64 total = 0;

  g_return_val_if_fail (report != NULL, 0);

  if (report->frame_events_total != JSR_UNKNOWN)
    {
      if (by_tier != NULL)
        memcpy (by_tier, report->frame_events_by_tier, sizeof report->frame_events_by_tier);
      return report->frame_events_total;
    }
  if (by_tier != NULL)
    memset (by_tier, 0, sizeof report->frame_events_by_tier);
  for (guint i = 0; i < report->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (report->events, i);

      if (event->ongoing || g_strcmp0 (event->type, "frame") != 0)
        continue;
      total++;
      if (by_tier != NULL)
        by_tier[event->tier]++;
    }
  return total;
}

const JsrReportEvent *
jsr_report_get_ongoing_hang (const JsrReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  for (guint i = 0; i < report->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (report->events, i);

      if (event->ongoing)
        return event;
    }

  return NULL;
}

char *
jsr_culprit_callback_name (const JsrReportCulprit *culprit)
{
  const JsrReportCallback *callback = culprit != NULL ? culprit->callback : NULL;

  if (callback == NULL || g_strcmp0 (culprit->reason, "app-code") == 0)
    return NULL;
  if (callback->function != NULL)
    return g_strcmp0 (callback->function, culprit->function) != 0 ? g_strdup (callback->function)
                                                                  : NULL;
  if (callback->source != NULL)
    return g_strdup (callback->source);
  if (callback->module != NULL && callback->offset != NULL)
    return g_strdup_printf ("%s+%s", callback->module, callback->offset);
  return NULL;
}

/* GLib's type names of its sources ("GIdleSource", "GTimeoutSource",
 * "GUnixSignalSource"...) name no callback. */
static gboolean
names_a_callback (const char *source)
{
  return source != NULL && source[0] != '\0'
         && !(source[0] == 'G' && g_str_has_suffix (source, "Source")
              && strchr (source, ' ') == NULL);
}

/* "module+0x1f2e": the core's name for a callback without a symbol. */
static gboolean
is_nameless_callback (const char *callback)
{
  const char *plus = callback != NULL ? strstr (callback, "+0x") : NULL;

  return plus != NULL && plus > callback && plus[3] != '\0'
         && strspn (plus + 3, "0123456789abcdefABCDEF") == strlen (plus + 3)
         && strchr (callback, ' ') == NULL;
}

const char *
jsr_dispatch_label (const char *callback, const char *source)
{
  if (callback != NULL && (!is_nameless_callback (callback) || !names_a_callback (source)))
    return callback;
  return source != NULL ? source : callback;
}

static void
set_callback_source (JsrReportCulprit *culprit, const char *source)
{
  if (culprit != NULL && culprit->callback != NULL && culprit->callback->function == NULL
      && names_a_callback (source))
    {
      g_free (culprit->callback->source);
      culprit->callback->source = g_strdup (source);
    }
}

/* A nameless callback on a culprit's path (a stripped library's static
 * function) takes the name of the source it was dispatched for where that
 * is certain: each part's own; the event's when every part was dispatched
 * for that source (its culprit may be in any of them). */
static void
name_callbacks_by_source (JsrReportEvent *event)
{
  gboolean one_source = event->source != NULL && event->parts->len > 0
                        && (gint64) event->parts->len >= event->parts_count;

  for (guint i = 0; i < event->parts->len; i++)
    {
      JsrReportPart *part = g_ptr_array_index (event->parts, i);

      set_callback_source (part->culprit, part->source);
      one_source = one_source && g_strcmp0 (part->source, event->source) == 0;
    }
  if (one_source)
    set_callback_source (event->culprit, event->source);
}

/* ---- shorthands ------------------------------------------------------------- */

typedef const JsrJsonNode Node;
typedef JsrJsonPath Path;

#define read_count jsr_json_read_count
#define read_optional_count jsr_json_read_optional_count
#define read_string jsr_json_read_string
#define read_bool jsr_json_read_bool
#define read_optional_bool jsr_json_read_optional_bool

/* An optional container: FALSE only on a wrong type (*out NULL when absent). */
static gboolean
read_optional (Node *object, const Path *path, const char *member, JsrJsonType type, Node **out,
               GError **error)
{
  g_autoptr (GError) local_error = NULL;

  if (type == JSR_JSON_OBJECT)
    *out = jsr_json_read_optional_object (object, path, member, &local_error);
  else
    *out = jsr_json_read_optional_array (object, path, member, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

static gboolean
too_many (GError **error, const Path *path, const char *member, guint found, guint limit)
{
  g_autofree char *full = jsr_json_path_to_string (path, member);

  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_TOO_LARGE,
               _ ("%s has %u entries: at most %u can be loaded"), full, found, limit);
  return FALSE;
}

static gboolean
read_tier (Node *object, const Path *path, JsTier *out, GError **error)
{
  g_autofree char *name = NULL;
  g_autofree char *full = NULL;
  g_autofree char *shown = NULL;

  if (!read_string (object, path, "tier", FALSE, &name, error))
    return FALSE;

  if (js_tier_from_name (name, out))
    return TRUE;

  full = jsr_json_path_to_string (path, NULL);
  shown = jsr_display (name);
  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
               _ ("%s.tier must be light, noticeable, severe, frozen or hang, not “%s”"), full,
               shown);
  return FALSE;
}

/* ---- the sections of a report ------------------------------------------- */

static gboolean
parse_process (Node *root, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "process");
  Node *process = jsr_json_read_object (root, NULL, "process", error);

  if (process == NULL || !read_string (process, &path, "name", TRUE, &report->name, error)
      || !read_count (process, &path, "pid", &report->pid, error)
      || !read_string (process, &path, "toolkit", TRUE, &report->toolkit, error)
      || !read_string (process, &path, "gtk_version", TRUE, &report->gtk_version, error)
      || !read_string (process, &path, "mode", TRUE, &report->mode, error)
      || !read_count (process, &path, "start_ns", &report->start_ns, error)
      || !read_string (process, &path, "exe", TRUE, &report->exe, error)
      || !read_optional_count (process, &path, "report_ns", &report->report_ns, error))
    return FALSE;

  return TRUE;
}

/* The thresholds the app judged with (docs/report-format.md, "config"): what
 * the window's tiers and slow-frame marks follow. Reports that predate
 * tiers_ns or slow_frame_pct read as the defaults, with the threshold as the
 * noticeable bound. */
static gboolean
parse_config (Node *root, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "config");
  Path tiers_path = JSR_JSON_MEMBER (&path, "tiers_ns");
  Node *config = jsr_json_read_object (root, NULL, "config", error);
  Node *tiers = NULL;
  gint64 pct;

  if (config == NULL || !read_count (config, &path, "threshold_ns", &report->threshold_ns, error)
      || !read_optional (config, &path, "tiers_ns", JSR_JSON_OBJECT, &tiers, error)
      || !read_optional_count (config, &path, "slow_frame_pct", &pct, error))
    return FALSE;

  js_tier_default_bounds (report->tier_ns);
  report->tier_ns[JS_TIER_NOTICEABLE] = report->threshold_ns;
  for (JsTier tier = 0; tiers != NULL && tier < JS_N_TIERS; tier++)
    {
      gint64 bound;

      if (!read_optional_count (tiers, &tiers_path, js_tier_name (tier), &bound, error))
        return FALSE;
      if (bound != JSR_UNKNOWN)
        report->tier_ns[tier] = bound;
    }
  report->slow_frame_pct
      = pct != JSR_UNKNOWN ? (guint) MIN (pct, G_MAXUINT) : JS_SLOW_FRAME_DEFAULT_PCT;
  return TRUE;
}

static JsrReportSource *
parse_source (Node *object, const Path *path, GError **error)
{
  JsrReportSource *source = g_new0 (JsrReportSource, 1);

  if (read_string (object, path, "source", TRUE, &source->source, error)
      && read_string (object, path, "callback", TRUE, &source->callback, error)
      && read_count (object, path, "count", &source->count, error)
      && read_count (object, path, "total_ns", &source->total_ns, error)
      && read_count (object, path, "max_ns", &source->max_ns, error)
      && read_count (object, path, "p95_ns", &source->p95_ns, error))
    return source;

  source_free (source);
  return NULL;
}

static gboolean
parse_sources (Node *summary, const Path *summary_path, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (summary_path, "sources");
  Node *sources = jsr_json_read_array (summary, summary_path, "sources", error);

  if (sources == NULL)
    return FALSE;

  for (guint i = 0; i < sources->length; i++)
    {
      Path element_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (sources, &element_path, error);
      JsrReportSource *source;

      if (object == NULL || (source = parse_source (object, &element_path, error)) == NULL)
        return FALSE;
      g_ptr_array_add (report->sources, source);
    }

  return TRUE;
}

/* summary.iteration_busy: optional (its percentiles and histogram). */
static gboolean
parse_iteration_busy (Node *summary, const Path *summary_path, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (summary_path, "iteration_busy");
  Node *busy;

  report->iteration_p50_ns = report->iteration_p95_ns = JSR_UNKNOWN;
  report->iteration_p99_ns = report->iteration_max_ns = JSR_UNKNOWN;
  if (!read_optional (summary, summary_path, "iteration_busy", JSR_JSON_OBJECT, &busy, error))
    return FALSE;
  if (busy == NULL)
    return TRUE;

  return read_optional_count (busy, &path, "p50_ns", &report->iteration_p50_ns, error)
         && read_optional_count (busy, &path, "p95_ns", &report->iteration_p95_ns, error)
         && read_optional_count (busy, &path, "p99_ns", &report->iteration_p99_ns, error)
         && read_optional_count (busy, &path, "max_ns", &report->iteration_max_ns, error)
         && jsr_histogram_read_member (busy, &path, &report->iteration_histogram, error);
}

/* summary.frames is optional: reports of plain GLib programs have no frames. */
static gboolean
parse_frames (Node *summary, const Path *summary_path, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (summary_path, "frames");
  Node *frames;
  Node *fps;

  report->frames_fps = -1;
  if (jsr_json_object_get (summary, "frames") == NULL)
    return TRUE;
  frames = jsr_json_read_object (summary, summary_path, "frames", error);
  if (frames == NULL || !read_count (frames, &path, "frames", &report->frames, error)
      || !read_count (frames, &path, "slow", &report->frames_slow, error)
      || !read_count (frames, &path, "frozen", &report->frames_frozen, error)
      || !read_count (frames, &path, "p50_ns", &report->frame_p50_ns, error)
      || !read_count (frames, &path, "p95_ns", &report->frame_p95_ns, error)
      || !read_count (frames, &path, "p99_ns", &report->frame_p99_ns, error)
      || !read_optional_count (frames, &path, "p90_ns", &report->frame_p90_ns, error)
      || !read_optional_count (frames, &path, "max_ns", &report->frame_max_ns, error)
      || !jsr_histogram_read_member (frames, &path, &report->frame_histogram, error))
    return FALSE;
  fps = jsr_json_object_get (frames, "fps_animating");
  if (fps != NULL && fps->type == JSR_JSON_DOUBLE)
    report->frames_fps = fps->v.number;
  return TRUE;
}

/* summary.frame_events_by_tier, _total, _dropped: all three or none (older
 * reports), and the total must be the sum of the tiers. */
static gboolean
parse_frame_event_counts (Node *summary, const Path *path, JsrReport *report, GError **error)
{
  Path tiers_path = JSR_JSON_MEMBER (path, "frame_events_by_tier");
  Node *tiers = jsr_json_object_get (summary, "frame_events_by_tier");
  gint64 sum = 0;

  report->frame_events_total = report->frame_events_dropped = JSR_UNKNOWN;
  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    report->frame_events_by_tier[t] = JSR_UNKNOWN;
  if (tiers == NULL)
    return TRUE;
  if ((tiers = jsr_json_read_object (summary, path, "frame_events_by_tier", error)) == NULL
      || !read_count (summary, path, "frame_events_total", &report->frame_events_total, error)
      || !read_count (summary, path, "frame_events_dropped", &report->frame_events_dropped, error))
    return FALSE;
  for (guint i = 0; i + 1 < JS_N_EVENT_TIERS; i++)
    {
      JsTier t = js_tier_by_mildness (i); /* light .. frozen */

      if (!read_count (tiers, &tiers_path, js_tier_name (t), &report->frame_events_by_tier[t],
                       error))
        return FALSE;
      sum = jsr_sat_add (sum, report->frame_events_by_tier[t]);
    }
  report->frame_events_by_tier[JS_TIER_HANG] = 0; /* frames never hang */
  if (sum != report->frame_events_total || report->frame_events_dropped > sum)
    {
      g_autofree char *full = jsr_json_path_to_string (path, "frame_events_total");

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s is not the sum of frame_events_by_tier, or fewer than the dropped ones"),
                   full);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_summary (Node *root, JsrReport *report, JsrReportLoadFlags flags, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "summary");
  Path tiers_path = JSR_JSON_MEMBER (&path, "events_by_tier");
  Node *summary = jsr_json_read_object (root, NULL, "summary", error);
  Node *tiers;

  if (summary == NULL || !read_count (summary, &path, "iterations", &report->iterations, error)
      || !read_count (summary, &path, "dispatches", &report->dispatches, error)
      || !read_count (summary, &path, "busy_ns", &report->busy_ns, error)
      || !read_count (summary, &path, "monitored_ns", &report->monitored_ns, error)
      || !read_count (summary, &path, "events_total", &report->events_total, error)
      || !read_count (summary, &path, "events_dropped", &report->events_dropped, error)
      || !read_count (summary, &path, "records_dropped", &report->records_dropped, error)
      || !read_count (summary, &path, "sources_truncated", &report->sources_truncated, error))
    return FALSE;

  tiers = jsr_json_read_object (summary, &path, "events_by_tier", error);
  if (tiers == NULL)
    return FALSE;
  for (JsTier tier = 0; tier < JS_N_TIERS; tier++)
    if (!read_count (tiers, &tiers_path, js_tier_name (tier), &report->events_by_tier[tier], error))
      return FALSE;
  if (!parse_frame_event_counts (summary, &path, report, error))
    return FALSE;

  return parse_iteration_busy (summary, &path, report, error)
         && parse_frames (summary, &path, report, error)
         && ((flags & JSR_REPORT_LOAD_AGGREGATE) || parse_sources (summary, &path, report, error));
}

static JsrReportFrame *
parse_frame (Node *object, const Path *path, gboolean full, GError **error)
{
  JsrReportFrame *frame = g_new0 (JsrReportFrame, 1);

  if (read_string (object, path, "function", TRUE, &frame->function, error)
      && read_string (object, path, "symbol", TRUE, &frame->symbol, error)
      && read_string (object, path, "module", TRUE, &frame->module, error)
      && read_string (object, path, "file", TRUE, &frame->file, error)
      && read_optional_count (object, path, "line", &frame->line, error)
      && read_string (object, path, "offset", TRUE, &frame->offset, error)
      && read_optional_bool (object, path, "inlined", &frame->inlined, error)
      && read_optional_bool (object, path, "symbolized", &frame->symbolized, error)
      && (!full || read_string (object, path, "build_id", TRUE, &frame->build_id, error)))
    return frame;

  frame_free (frame);
  return NULL;
}

/* Only the top stack (the first: "most samples first") is read, and only its
 * first JSR_REPORT_MAX_FRAMES frames: the rest is counted, not validated
 * (jsr_report_load_full reads the others in detail). */
static gboolean
parse_top_stack (Node *object, const Path *path, JsrReportEvent *event, JsrReportLoadFlags flags,
                 GError **error)
{
  Path stacks_path = JSR_JSON_MEMBER (path, "stacks");
  Path stack_path = JSR_JSON_ELEMENT (&stacks_path, 0);
  Path frames_path = JSR_JSON_MEMBER (&stack_path, "frames");
  Node *stacks;
  Node *stack;
  Node *frames;

  event->top_stack_count = JSR_UNKNOWN;
  if (!read_optional (object, path, "stacks", JSR_JSON_ARRAY, &stacks, error))
    return FALSE;
  if (stacks == NULL || stacks->length == 0)
    return TRUE;
  event->n_stacks = stacks->length;

  stack = jsr_json_read_element (stacks, &stack_path, error);
  if (stack == NULL
      || !read_optional_count (stack, &stack_path, "count", &event->top_stack_count, error)
      || !read_optional_bool (stack, &stack_path, "truncated", &event->top_stack_truncated, error))
    return FALSE;

  /* Aggregating by signatures needs no frames (see the flag). */
  if ((flags & JSR_REPORT_LOAD_AGGREGATE) && jsr_json_object_get (stack, "signature") != NULL
      && jsr_json_object_get (stack, "signature")->type == JSR_JSON_STRING)
    {
      event->top_stack_frames_total
          = (guint) MAX (jsr_json_object_array_length (stack, "frames"), 0);
      return TRUE;
    }
  if (!read_optional (stack, &stack_path, "frames", JSR_JSON_ARRAY, &frames, error))
    return FALSE;
  if (frames == NULL)
    return TRUE;

  event->top_stack_frames_total = frames->length;
  for (guint i = 0; i < MIN (event->top_stack_frames_total, JSR_REPORT_MAX_FRAMES); i++)
    {
      Path frame_path = JSR_JSON_ELEMENT (&frames_path, i);
      Node *element = jsr_json_read_element (frames, &frame_path, error);
      JsrReportFrame *frame;

      if (element == NULL || (frame = parse_frame (element, &frame_path, FALSE, error)) == NULL)
        return FALSE;
      g_ptr_array_add (event->top_stack, frame);
    }

  return TRUE;
}

/* culprit.callback: null, absent or {function, module, offset}. */
static gboolean
parse_callback (Node *culprit, const Path *culprit_path, JsrReportCallback **out, GError **error)
{
  Path path = JSR_JSON_MEMBER (culprit_path, "callback");
  Node *member;
  JsrReportCallback *callback;

  if (!read_optional (culprit, culprit_path, "callback", JSR_JSON_OBJECT, &member, error))
    return FALSE;
  if (member == NULL)
    return TRUE;
  callback = *out = g_new0 (JsrReportCallback, 1);
  return read_string (member, &path, "function", TRUE, &callback->function, error)
         && read_string (member, &path, "module", TRUE, &callback->module, error)
         && read_string (member, &path, "offset", TRUE, &callback->offset, error);
}

/* The culprit of an event or a part (NULL when null or absent). Its `node`
 * is checked against the profile once that is read (check_culprit_node). */
static gboolean
parse_culprit (Node *object, const Path *path, JsrReportCulprit **out, GError **error)
{
  Path culprit_path = JSR_JSON_MEMBER (path, "culprit");
  Node *member;
  JsrReportCulprit *culprit;

  if (!read_optional (object, path, "culprit", JSR_JSON_OBJECT, &member, error))
    return FALSE;
  if (member == NULL)
    return TRUE;

  culprit = *out = g_new0 (JsrReportCulprit, 1);
  if (!read_string (member, &culprit_path, "function", TRUE, &culprit->function, error)
      || !read_string (member, &culprit_path, "module", TRUE, &culprit->module, error)
      || !read_string (member, &culprit_path, "file", TRUE, &culprit->file, error)
      || !read_optional_count (member, &culprit_path, "line", &culprit->line, error)
      || !jsr_json_read_fraction (member, &culprit_path, "confidence", &culprit->confidence, error)
      || !read_optional_count (member, &culprit_path, "samples", &culprit->samples, error)
      || !read_optional_count (member, &culprit_path, "of_samples", &culprit->of_samples, error)
      || !read_string (member, &culprit_path, "reason", TRUE, &culprit->reason, error)
      || !read_string (member, &culprit_path, "offset", TRUE, &culprit->offset, error)
      || !read_optional_count (member, &culprit_path, "node", &culprit->node, error)
      || !read_optional_count (member, &culprit_path, "time_ns", &culprit->time_ns, error)
      || !read_optional_count (member, &culprit_path, "app_code_ns", &culprit->app_code_ns, error)
      || !parse_callback (member, &culprit_path, &culprit->callback, error))
    return FALSE;

  if (culprit->samples != JSR_UNKNOWN && culprit->of_samples != JSR_UNKNOWN
      && culprit->samples > culprit->of_samples)
    {
      g_autofree char *full = jsr_json_path_to_string (&culprit_path, NULL);

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s.samples (%lld) must not be more than its of_samples (%lld)"), full,
                   (long long) culprit->samples, (long long) culprit->of_samples);
      return FALSE;
    }

  return TRUE;
}

/* The members of "Stacks and classification": all optional. */
static gboolean
parse_event_analysis (Node *object, const Path *path, JsrReportEvent *event,
                      JsrReportLoadFlags flags, GError **error)
{
  return read_optional_bool (object, path, "ongoing", &event->ongoing, error)
         && read_optional_count (object, path, "watched_ns", &event->watched_ns, error)
         && read_optional_count (object, path, "cpu_ns", &event->cpu_ns, error)
         && read_optional_count (object, path, "off_cpu_ns", &event->off_cpu_ns, error)
         && read_string (object, path, "class", TRUE, &event->klass, error)
         && read_string (object, path, "wait", TRUE, &event->wait, error)
         && read_optional_count (object, path, "samples_total", &event->samples_total, error)
         && parse_culprit (object, path, &event->culprit, error)
         && jsr_diagnosis_parse (object, path, &event->diagnosis, error)
         && jsr_posting_parse (object, path, &event->posted_from, error)
         && parse_top_stack (object, path, event, flags, error);
}

/* ---- full loading: the event's detail ---------------------------------------- */

/* An index into a list of `n` entries: −1 (none) when null or absent. */
static gboolean
read_index (Node *object, const Path *path, const char *member, guint n, gint32 *out,
            GError **error)
{
  Node *node = jsr_json_object_get (object, member);

  *out = -1;
  if (jsr_json_is_absent (node))
    return TRUE;
  if (node->type != JSR_JSON_INT)
    return jsr_json_invalid (error, path, member, _ ("an integer or null"), node);
  if (node->v.integer < -1 || node->v.integer >= (gint64) n)
    {
      g_autofree char *full = jsr_json_path_to_string (path, member);

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s must be from -1 to %d (it is %lld)"), full, (int) n - 1,
                   (long long) node->v.integer);
      return FALSE;
    }
  *out = (gint32) node->v.integer;
  return TRUE;
}

static JsrReportStack *
parse_stack (Node *object, const Path *path, guint n_nodes, JsrReportLoadFlags flags,
             GError **error)
{
  Path frames_path = JSR_JSON_MEMBER (path, "frames");
  JsrReportStack *stack = g_new0 (JsrReportStack, 1);
  Node *frames;

  stack->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
  if (!read_optional_count (object, path, "count", &stack->count, error)
      || !read_string (object, path, "signature", TRUE, &stack->signature, error)
      || !read_string (object, path, "signature_id", TRUE, &stack->signature_id, error)
      || !read_optional_bool (object, path, "truncated", &stack->truncated, error)
      || !read_optional_count (object, path, "time_ns", &stack->time_ns, error)
      || !read_index (object, path, "node", n_nodes, &stack->node, error))
    goto fail;
  /* A stack without a count was sampled at least once. */
  if (stack->count == JSR_UNKNOWN)
    stack->count = 1;

  if ((flags & JSR_REPORT_LOAD_AGGREGATE) && stack->signature != NULL)
    {
      /* Counted, not read (nor built, when the document has them lazy). */
      stack->frames_total = (guint) MAX (jsr_json_object_array_length (object, "frames"), 0);
      return stack;
    }
  if (!read_optional (object, path, "frames", JSR_JSON_ARRAY, &frames, error))
    goto fail;
  stack->frames_total = frames != NULL ? frames->length : 0;
  if (frames != NULL)
    {
      if (frames->length > JSR_REPORT_FULL_MAX_STACK_FRAMES)
        {
          too_many (error, path, "frames", frames->length, JSR_REPORT_FULL_MAX_STACK_FRAMES);
          goto fail;
        }
      g_ptr_array_set_size (stack->frames, 0);
      for (guint i = 0; i < frames->length; i++)
        {
          Path frame_path = JSR_JSON_ELEMENT (&frames_path, i);
          Node *element = jsr_json_read_element (frames, &frame_path, error);
          JsrReportFrame *frame;

          if (element == NULL || (frame = parse_frame (element, &frame_path, TRUE, error)) == NULL)
            goto fail;
          g_ptr_array_add (stack->frames, frame);
        }
    }
  return stack;

fail:
  stack_free (stack);
  return NULL;
}

static gboolean
parse_sample (Node *object, const Path *path, guint n_stacks, guint n_nodes, guint n_parts,
              JsrReportSample *sample, GError **error)
{
  gint32 stack;

  if (!read_count (object, path, "t_ns", &sample->t_ns, error)
      || !read_optional_count (object, path, "last_ns", &sample->last_ns, error)
      || !read_optional_count (object, path, "count", &sample->count, error)
      || !read_string (object, path, "state", TRUE, &sample->state, error)
      || !read_string (object, path, "wait", TRUE, &sample->wait, error)
      || !read_index (object, path, "stack", n_stacks, &stack, error)
      || !read_index (object, path, "node", n_nodes, &sample->node, error)
      || !read_index (object, path, "part", n_parts, &sample->part, error)
      || !read_optional_count (object, path, "running", &sample->running, error))
    return FALSE;
  sample->stack = stack;
  /* A last sample before the first makes no sense: taken as the first
   * (docs/exports.md, "Hostile numbers"). */
  if (sample->last_ns == JSR_UNKNOWN || sample->last_ns < sample->t_ns)
    sample->last_ns = sample->t_ns;
  if (sample->count == JSR_UNKNOWN)
    sample->count = 1;
  /* More running samples than samples: all of them. */
  if (sample->running != JSR_UNKNOWN)
    sample->running = MIN (sample->running, sample->count);
  return TRUE;
}

/* A culprit's node must be one of the profile's. */
static gboolean
check_culprit_node (const JsrReportCulprit *culprit, const Path *path, guint n_nodes,
                    GError **error)
{
  g_autofree char *full = NULL;

  if (culprit == NULL || culprit->node == JSR_UNKNOWN || culprit->node < (gint64) n_nodes)
    return TRUE;
  full = jsr_json_path_to_string (path, "culprit.node");
  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
               _ ("%s must be from 0 to %d (it is %lld)"), full, (int) n_nodes - 1,
               (long long) culprit->node);
  return FALSE;
}

static gboolean
column_int (Node *column, const Path *column_path, guint i, gint64 min, gint64 max, gint64 *out,
            GError **error)
{
  Path element_path = JSR_JSON_ELEMENT (column_path, i);
  Node *element = &column->v.elements[i];

  if (element->type != JSR_JSON_INT)
    return jsr_json_invalid (error, &element_path, NULL, _ ("an integer"), element);
  if (element->v.integer < min || element->v.integer > max)
    {
      g_autofree char *full = jsr_json_path_to_string (&element_path, NULL);

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s must be from %lld to %lld (it is %lld)"), full, (long long) min,
                   (long long) max, (long long) element->v.integer);
      return FALSE;
    }
  *out = element->v.integer;
  return TRUE;
}

/* parts[].profile: the part's samples and time at nodes of the event's
 * profile (by columns), and at the others in all. The sums are the
 * reader's, as for the event's profile (jsr-profile.c). */
static gboolean
parse_part_profile (Node *object, const Path *part_path, guint n_nodes, JsrReportPart *part,
                    GError **error)
{
  Path path = JSR_JSON_MEMBER (part_path, "profile");
  Path node_path = JSR_JSON_MEMBER (&path, "node");
  Path samples_path = JSR_JSON_MEMBER (&path, "self_samples");
  Path ns_path = JSR_JSON_MEMBER (&path, "self_ns");
  Node *profile, *nodes, *samples, *times;
  gint64 ignored;

  if (!read_optional (object, part_path, "profile", JSR_JSON_OBJECT, &profile, error))
    return FALSE;
  if (profile == NULL)
    return TRUE;
  if (!read_optional_count (profile, &path, "samples", &ignored, error)
      || !read_optional_count (profile, &path, "time_ns", &ignored, error)
      || !read_optional_count (profile, &path, "other_samples", &part->other_samples, error)
      || !read_optional_count (profile, &path, "other_ns", &part->other_ns, error)
      || (nodes = jsr_json_read_array (profile, &path, "node", error)) == NULL
      || (samples = jsr_json_read_array (profile, &path, "self_samples", error)) == NULL
      || (times = jsr_json_read_array (profile, &path, "self_ns", error)) == NULL)
    return FALSE;
  if (samples->length != nodes->length || times->length != nodes->length)
    {
      g_autofree char *full = jsr_json_path_to_string (&path, NULL);

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s: “node”, “self_samples” and “self_ns” must be of one length"), full);
      return FALSE;
    }
  if (nodes->length > JSR_PART_PROFILE_MAX_NODES)
    return too_many (error, &path, "node", nodes->length, JSR_PART_PROFILE_MAX_NODES);

  part->other_samples = MAX (part->other_samples, 0);
  part->other_ns = MAX (part->other_ns, 0);
  part->profile_samples = part->other_samples;
  part->profile_time_ns = part->other_ns;
  part->profile = g_array_sized_new (FALSE, TRUE, sizeof (JsrReportPartNode), nodes->length);
  for (guint i = 0; i < nodes->length; i++)
    {
      JsrReportPartNode entry;
      gint64 node;

      if (!column_int (nodes, &node_path, i, 0, (gint64) n_nodes - 1, &node, error)
          || !column_int (samples, &samples_path, i, 0, G_MAXINT64, &entry.self_samples, error)
          || !column_int (times, &ns_path, i, 0, G_MAXINT64, &entry.self_ns, error))
        return FALSE;
      entry.node = (gint32) node;
      g_array_append_val (part->profile, entry);
      part->profile_samples = jsr_sat_add (part->profile_samples, entry.self_samples);
      part->profile_time_ns = jsr_sat_add (part->profile_time_ns, entry.self_ns);
    }
  return TRUE;
}

#define JSR_PART_MAX_STACKS 64

static gboolean
parse_part_stacks (Node *object, const Path *part_path, guint n_nodes, JsrReportPart *part,
                   GError **error)
{
  Path path = JSR_JSON_MEMBER (part_path, "stacks");
  Node *stacks;

  if (!read_optional (object, part_path, "stacks", JSR_JSON_ARRAY, &stacks, error))
    return FALSE;
  if (stacks == NULL)
    return TRUE;
  if (stacks->length > JSR_PART_MAX_STACKS)
    return too_many (error, part_path, "stacks", stacks->length, JSR_PART_MAX_STACKS);
  part->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) part_stack_free);
  for (guint i = 0; i < stacks->length; i++)
    {
      Path stack_path = JSR_JSON_ELEMENT (&path, i);
      Node *element = jsr_json_read_element (stacks, &stack_path, error);
      JsrReportPartStack *stack;
      gint32 node;

      if (element == NULL)
        return FALSE;
      stack = g_new0 (JsrReportPartStack, 1);
      g_ptr_array_add (part->stacks, stack);
      if (!read_index (element, &stack_path, "node", n_nodes, &node, error)
          || !read_optional_count (element, &stack_path, "count", &stack->count, error)
          || !read_optional_count (element, &stack_path, "time_ns", &stack->time_ns, error)
          || !read_string (element, &stack_path, "signature", TRUE, &stack->signature, error)
          || !read_string (element, &stack_path, "signature_id", TRUE, &stack->signature_id, error))
        return FALSE;
      if (node < 0)
        return jsr_json_invalid (error, &stack_path, "node", _ ("an index of the profile's nodes"),
                                 jsr_json_object_get (element, "node"));
      stack->node = node;
      stack->count = MAX (stack->count, 0);
    }
  return TRUE;
}

/* The part's own cause (docs/report-format.md, "Causes per part"): all
 * optional; `n_nodes` is the event's profile's. */
static gboolean
parse_part_cause (Node *object, const Path *path, gboolean with_profile, guint n_nodes,
                  JsrReportPart *part, GError **error)
{
  if (!read_optional_count (object, path, "stalls", &part->stalls, error)
      || !read_optional_count (object, path, "watched_ns", &part->watched_ns, error)
      || !read_optional_count (object, path, "cpu_ns", &part->cpu_ns, error)
      || !read_optional_count (object, path, "off_cpu_ns", &part->off_cpu_ns, error)
      || !read_optional_count (object, path, "runnable_ns", &part->runnable_ns, error)
      || !read_string (object, path, "class", TRUE, &part->klass, error)
      || !read_string (object, path, "wait", TRUE, &part->wait, error)
      || !parse_culprit (object, path, &part->culprit, error)
      || (with_profile && !check_culprit_node (part->culprit, path, n_nodes, error))
      || !jsr_diagnosis_parse (object, path, &part->diagnosis, error)
      || (with_profile && !jsr_diagnosis_check_node (part->diagnosis, path, n_nodes, error))
      || !jsr_posting_parse (object, path, &part->posted_from, error)
      || !read_optional_count (object, path, "attributed_ns", &part->attributed_ns, error)
      || !read_optional_count (object, path, "samples_total", &part->samples_total, error)
      || !read_optional_count (object, path, "samples_with_stack", &part->samples_with_stack, error)
      || (with_profile && !parse_part_profile (object, path, n_nodes, part, error))
      || (with_profile && !parse_part_stacks (object, path, n_nodes, part, error)))
    return FALSE;

  /* Its profile's time, as for the event, never more than its duration. */
  if (part->profile != NULL)
    part->attributed_ns = part->profile_time_ns;
  if (part->attributed_ns != JSR_UNKNOWN)
    part->attributed_ns = MIN (part->attributed_ns, part->duration_ns);
  return TRUE;
}

static JsrReportPart *
parse_part (Node *object, const Path *path, gboolean with_profile, guint n_nodes, GError **error)
{
  Path phases_path = JSR_JSON_MEMBER (path, "phases");
  JsrReportPart *part = g_new0 (JsrReportPart, 1);
  Node *phases;

  if (!read_string (object, path, "type", FALSE, &part->type, error)
      || !read_count (object, path, "start_ns", &part->start_ns, error)
      || !read_count (object, path, "end_ns", &part->end_ns, error)
      || !read_count (object, path, "duration_ns", &part->duration_ns, error)
      || !read_string (object, path, "tier", TRUE, &part->tier, error)
      || !read_string (object, path, "source", TRUE, &part->source, error)
      || !read_string (object, path, "callback", TRUE, &part->callback, error)
      || !read_optional_count (object, path, "window", &part->window, error)
      || !read_optional_count (object, path, "budget_ns", &part->budget_ns, error)
      || !read_optional_count (object, path, "work_ns", &part->work_ns, error)
      || !read_optional (object, path, "phases", JSR_JSON_OBJECT, &phases, error)
      || !parse_part_cause (object, path, with_profile, n_nodes, part, error))
    goto fail;

  /* An end before the start makes no sense: taken as the start. */
  part->end_ns = MAX (part->end_ns, part->start_ns);
  for (guint p = 0; p < G_N_ELEMENTS (phase_names); p++)
    {
      part->phases[p] = JSR_UNKNOWN;
      if (phases != NULL
          && !read_optional_count (phases, &phases_path, phase_names[p], &part->phases[p], error))
        goto fail;
    }
  return part;

fail:
  part_free (part);
  return NULL;
}

/* A number >= 0 or null, as an integer × 100 (JSR_UNKNOWN when null or
 * missing). */
static gboolean
read_number_x100 (Node *object, const Path *path, const char *member, gint64 *out, GError **error)
{
  Node *node = jsr_json_object_get (object, member);
  double value;

  *out = JSR_UNKNOWN;
  if (jsr_json_is_absent (node))
    return TRUE;
  if (node->type == JSR_JSON_INT)
    value = (double) node->v.integer;
  else if (node->type == JSR_JSON_DOUBLE)
    value = node->v.number;
  else
    return jsr_json_invalid (error, path, member, _ ("a number or null"), node);
  if (!(value >= 0 && value < 1e15))
    {
      g_autofree char *full = jsr_json_path_to_string (path, member);

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s must be a number from 0 to 10^15 (it is %g)"), full, value);
      return FALSE;
    }
  *out = (gint64) llround (value * 100);
  return TRUE;
}

/* The event's scene and context (report-format.md, "Scenes and marks",
 * "Context"): all optional; unknown values are null. */
static gboolean
parse_context (Node *event, const Path *path, JsrReportEventDetail *detail, GError **error)
{
  Path context_path = JSR_JSON_MEMBER (path, "context");
  Node *context;

  detail->process_cpu_pct_x100 = detail->load_avg_x100 = detail->mem_available_kb = JSR_UNKNOWN;
  if (!read_string (event, path, "scene", TRUE, &detail->scene, error)
      || !read_optional (event, path, "context", JSR_JSON_OBJECT, &context, error))
    return FALSE;
  if (context == NULL)
    return TRUE;

  return read_number_x100 (context, &context_path, "process_cpu_pct", &detail->process_cpu_pct_x100,
                           error)
         && read_number_x100 (context, &context_path, "load_avg_1m", &detail->load_avg_x100, error)
         && read_optional_count (context, &context_path, "mem_available_kb",
                                 &detail->mem_available_kb, error)
         && read_optional_bool (context, &context_path, "startup", &detail->startup, error);
}

/* The event's profile: the file's, else (an older report) one made of its
 * listed stacks. In either case the event's attributed time is the
 * profile's. */
static gboolean
parse_event_profile (Node *object, const Path *path, JsrReportEvent *event, GError **error)
{
  Path profile_path = JSR_JSON_MEMBER (path, "profile");
  JsrReportEventDetail *detail = event->detail;
  Node *profile;

  if (!read_optional (object, path, "profile", JSR_JSON_OBJECT, &profile, error))
    return FALSE;
  if (profile == NULL)
    return TRUE;
  detail->profile = jsr_profile_parse (profile, &profile_path, error);
  return detail->profile != NULL;
}

static gboolean
parse_event_detail (Node *object, const Path *path, JsrReportEvent *event, JsrReportLoadFlags flags,
                    GError **error)
{
  Path stacks_path = JSR_JSON_MEMBER (path, "stacks");
  Path samples_path = JSR_JSON_MEMBER (path, "samples");
  JsrReportEventDetail *detail;
  Node *stacks, *samples;
  guint n_nodes = 0;
  gint64 n_parts;

  detail = event->detail = g_new0 (JsrReportEventDetail, 1);
  detail->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) stack_free);
  detail->samples = g_array_new (FALSE, TRUE, sizeof (JsrReportSample));
  g_array_set_clear_func (detail->samples, (GDestroyNotify) sample_clear);
  detail->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);

  if (!read_optional_count (object, path, "runnable_ns", &detail->runnable_ns, error)
      || !read_optional_count (object, path, "end_ns", &detail->end_ns, error)
      || !read_optional_count (object, path, "attributed_ns", &detail->attributed_ns, error)
      || !read_optional_count (object, path, "unattributed_ns", &detail->unattributed_ns, error)
      || !read_optional_count (object, path, "attributed_unlisted_ns",
                               &detail->attributed_unlisted_ns, error)
      || !read_optional_count (object, path, "stalls", &detail->stalls, error)
      || !read_optional_count (object, path, "samples_with_stack", &detail->samples_with_stack,
                               error)
      || !read_optional_count (object, path, "stacks_omitted", &detail->stacks_omitted, error))
    return FALSE;
  if (detail->end_ns == JSR_UNKNOWN)
    detail->end_ns = event->start_ns + MIN (event->duration_ns, G_MAXINT64 - event->start_ns);
  if (!parse_context (object, path, detail, error)
      || !parse_event_profile (object, path, event, error))
    return FALSE;
  if (detail->profile != NULL)
    n_nodes = detail->profile->nodes->len;
  if (!check_culprit_node (event->culprit, path, n_nodes, error)
      || !jsr_diagnosis_check_node (event->diagnosis, path, n_nodes, error))
    return FALSE;

  samples = NULL;
  if (!read_optional (object, path, "stacks", JSR_JSON_ARRAY, &stacks, error))
    return FALSE;
  /* Aggregating needs the timeline only to count samples. */
  if (!((flags & JSR_REPORT_LOAD_AGGREGATE) && event->samples_total != JSR_UNKNOWN)
      && !read_optional (object, path, "samples", JSR_JSON_ARRAY, &samples, error))
    return FALSE;

  if (stacks != NULL)
    {
      if (stacks->length > JSR_REPORT_FULL_MAX_STACKS)
        return too_many (error, path, "stacks", stacks->length, JSR_REPORT_FULL_MAX_STACKS);
      for (guint i = 0; i < stacks->length; i++)
        {
          Path stack_path = JSR_JSON_ELEMENT (&stacks_path, i);
          Node *element = jsr_json_read_element (stacks, &stack_path, error);
          JsrReportStack *stack;

          if (element == NULL
              || (stack = parse_stack (element, &stack_path, n_nodes, flags, error)) == NULL)
            return FALSE;
          g_ptr_array_add (detail->stacks, stack);
        }
    }

  if (detail->profile != NULL)
    {
      /* The profile's time is the event's attributed time (docs/report-format.md:
       * never more than duration_ns). */
      detail->attributed_ns = MIN (detail->profile->time_ns, event->duration_ns);
      detail->unattributed_ns = event->duration_ns - detail->attributed_ns;
      jsr_profile_set_sites (detail->profile, detail->stacks);
    }
  else if (!(flags & JSR_REPORT_LOAD_AGGREGATE))
    {
      /* An older report: the profile its stacks make (their frames are not
       * loaded when aggregating, which reads the stacks themselves). */
      detail->profile = jsr_profile_from_stacks (detail->stacks, event->watched_ns,
                                                 event->samples_total, detail->attributed_ns);
      if (detail->profile != NULL)
        n_nodes = detail->profile->nodes->len;
    }

  if (samples != NULL)
    {
      n_parts = MAX (jsr_json_object_array_length (object, "parts"), 0);
      if (samples->length > JSR_REPORT_FULL_MAX_SAMPLES)
        return too_many (error, path, "samples", samples->length, JSR_REPORT_FULL_MAX_SAMPLES);
      g_array_set_size (detail->samples, samples->length);
      for (guint i = 0; i < samples->length; i++)
        {
          Path sample_path = JSR_JSON_ELEMENT (&samples_path, i);
          Node *element = jsr_json_read_element (samples, &sample_path, error);
          JsrReportSample *sample = &g_array_index (detail->samples, JsrReportSample, i);

          if (element == NULL
              || !parse_sample (element, &sample_path, detail->stacks->len,
                                detail->profile != NULL && !detail->profile->from_stacks ? n_nodes
                                                                                         : 0,
                                (guint) MIN (n_parts, G_MAXUINT), sample, error))
            return FALSE;
          /* An older report's sample: the node of its stack. */
          if (detail->profile != NULL && detail->profile->from_stacks && sample->stack >= 0)
            sample->node
                = ((JsrReportStack *) g_ptr_array_index (detail->stacks, sample->stack))->node;
        }
    }

  return TRUE;
}

/* The event's parts with their causes, in every mode (jankscope summary
 * and report show them). Their profiles and stacks index the event's
 * profile: read with it only (full loading and aggregating), and then only
 * a file's. */
static gboolean
parse_event_parts (Node *object, const Path *path, JsrReportEvent *event, GError **error)
{
  Path parts_path = JSR_JSON_MEMBER (path, "parts");
  const JsrProfile *profile = event->detail != NULL ? event->detail->profile : NULL;
  gboolean with_profiles = event->detail != NULL;
  guint n_nodes = profile != NULL && !profile->from_stacks ? profile->nodes->len : 0;
  Node *parts;

  if (!read_optional (object, path, "parts", JSR_JSON_ARRAY, &parts, error))
    return FALSE;
  event->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);
  if (event->detail != NULL)
    {
      g_ptr_array_unref (event->detail->parts);
      event->detail->parts = g_ptr_array_ref (event->parts);
    }
  if (parts == NULL)
    return TRUE;
  if (parts->length > JSR_REPORT_FULL_MAX_PARTS)
    return too_many (error, path, "parts", parts->length, JSR_REPORT_FULL_MAX_PARTS);
  for (guint i = 0; i < parts->length; i++)
    {
      Path part_path = JSR_JSON_ELEMENT (&parts_path, i);
      Node *element = jsr_json_read_element (parts, &part_path, error);
      JsrReportPart *part;

      if (element == NULL
          || (part = parse_part (element, &part_path, with_profiles, n_nodes, error)) == NULL)
        return FALSE;
      g_ptr_array_add (event->parts, part);
    }
  return TRUE;
}

/* ---- events ------------------------------------------------------------------ */

static JsrReportEvent *
parse_event (Node *object, const Path *path, JsrReportLoadFlags flags, GError **error)
{
  JsrReportEvent *event = g_new0 (JsrReportEvent, 1);

  event->top_stack = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
  if (read_count (object, path, "id", &event->id, error)
      && read_string (object, path, "type", FALSE, &event->type, error)
      && read_tier (object, path, &event->tier, error)
      && read_count (object, path, "start_ns", &event->start_ns, error)
      && read_count (object, path, "duration_ns", &event->duration_ns, error)
      && read_optional_count (object, path, "blocked_ns", &event->blocked_ns, error)
      && read_optional_count (object, path, "parts_count", &event->parts_count, error)
      && read_string (object, path, "source", TRUE, &event->source, error)
      && read_string (object, path, "callback", TRUE, &event->callback, error)
      && parse_event_analysis (object, path, event, flags, error)
      && (!(flags & JSR_REPORT_LOAD_FULL) || parse_event_detail (object, path, event, flags, error))
      && parse_event_parts (object, path, event, error))
    {
      if (event->parts_count == JSR_UNKNOWN)
        event->parts_count = 0;
      name_callbacks_by_source (event);
      return event;
    }

  event_free (event);
  return NULL;
}

static gboolean
parse_events (Node *root, JsrReport *report, JsrReportLoadFlags flags, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "events");
  Node *events = jsr_json_read_array (root, NULL, "events", error);

  if (events == NULL)
    return FALSE;

  for (guint i = 0; i < events->length; i++)
    {
      Path element_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (events, &element_path, error);
      JsrReportEvent *event;

      if (object == NULL || (event = parse_event (object, &element_path, flags, error)) == NULL)
        return FALSE;
      g_ptr_array_add (report->events, event);
    }

  return TRUE;
}

/* previous_run: optional; its hang is an event like those of "events". */
static gboolean
parse_previous_run (Node *root, JsrReport *report, JsrReportLoadFlags flags, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "previous_run");
  Path hang_path = JSR_JSON_MEMBER (&path, "hang");
  Node *previous;
  Node *hang;
  JsrReportPreviousRun *run;

  if (!read_optional (root, NULL, "previous_run", JSR_JSON_OBJECT, &previous, error))
    return FALSE;
  if (previous == NULL)
    return TRUE;

  run = report->previous_run = g_new0 (JsrReportPreviousRun, 1);
  if (!read_optional_count (previous, &path, "pid", &run->pid, error)
      || !read_string (previous, &path, "exe", TRUE, &run->exe, error))
    return FALSE;

  hang = jsr_json_read_object (previous, &path, "hang", error);
  if (hang == NULL)
    return FALSE;
  run->hang = parse_event (hang, &hang_path, flags, error);

  return run->hang != NULL;
}

/* An optional "0x…" member of at most 63 bits: JSR_UNKNOWN when absent. */
static gboolean
read_optional_hex (Node *object, const Path *path, const char *member, gint64 *out, GError **error)
{
  g_autofree char *text = NULL;
  char *end = NULL;
  guint64 value;

  *out = JSR_UNKNOWN;
  if (!read_string (object, path, member, TRUE, &text, error))
    return FALSE;
  if (text == NULL)
    return TRUE;
  if (!g_str_has_prefix (text, "0x") || !g_ascii_isxdigit (text[2]) || strlen (text) > 18)
    return jsr_json_invalid (error, path, member, _ ("a hex string (“0x…”) or null"),
                             jsr_json_object_get (object, member));
  value = g_ascii_strtoull (text + 2, &end, 16);
  if (*end != '\0' || value > G_MAXINT64)
    return jsr_json_invalid (error, path, member, _ ("a hex string (“0x…”) or null"),
                             jsr_json_object_get (object, member));
  *out = (gint64) value;
  return TRUE;
}

/* modules: optional (older reports have none); each entry checked, as the
 * exporters and `symbolize` open files by its paths. */
static gboolean
parse_modules (Node *root, JsrReport *report, GError **error)
{
  Path path = JSR_JSON_MEMBER (NULL, "modules");
  Node *modules;

  if (!read_optional (root, NULL, "modules", JSR_JSON_ARRAY, &modules, error))
    return FALSE;
  if (modules == NULL)
    return TRUE;
  if (modules->length > JSR_REPORT_MAX_MODULES)
    return too_many (error, NULL, "modules", modules->length, JSR_REPORT_MAX_MODULES);
  for (guint i = 0; i < modules->length; i++)
    {
      Path element_path = JSR_JSON_ELEMENT (&path, i);
      Node *object = jsr_json_read_element (modules, &element_path, error);
      JsrReportModule *m;

      if (object == NULL)
        return FALSE;
      m = g_new0 (JsrReportModule, 1);
      g_ptr_array_add (report->modules, m);
      if (!read_string (object, &element_path, "name", FALSE, &m->name, error)
          || !read_string (object, &element_path, "path", TRUE, &m->path, error)
          || !read_string (object, &element_path, "build_id", TRUE, &m->build_id, error)
          || !read_optional_hex (object, &element_path, "text_vaddr", &m->text_vaddr, error)
          || !read_optional_hex (object, &element_path, "text_offset", &m->text_offset, error))
        return FALSE;
      if ((m->text_vaddr == JSR_UNKNOWN) != (m->text_offset == JSR_UNKNOWN))
        return jsr_json_invalid (error, &element_path,
                                 m->text_vaddr == JSR_UNKNOWN ? "text_vaddr" : "text_offset",
                                 _ ("given with its pair"), NULL);
      if (m->name[0] == '\0' || strchr (m->name, '/') != NULL)
        return jsr_json_invalid (error, &element_path, "name", _ ("a file name"),
                                 jsr_json_object_get (object, "name"));
      /* JANKSCOPE_SCRUB writes a home folder as "~". */
      if (m->path != NULL && !g_path_is_absolute (m->path) && !g_str_has_prefix (m->path, "~/"))
        return jsr_json_invalid (error, &element_path, "path", _ ("an absolute path or null"),
                                 jsr_json_object_get (object, "path"));
      if (m->build_id != NULL && !jsr_is_build_id (m->build_id))
        return jsr_json_invalid (error, &element_path, "build_id",
                                 _ ("hex digits (a build-id) or null"),
                                 jsr_json_object_get (object, "build_id"));
    }
  return TRUE;
}

/* summary.sampler: null or absent without a watchdog. */
static gboolean
parse_sampler (Node *root, JsrReport *report, GError **error)
{
  Path summary_path = JSR_JSON_MEMBER (NULL, "summary");
  Path path = JSR_JSON_MEMBER (&summary_path, "sampler");
  Node *summary = jsr_json_object_get (root, "summary");
  Node *object;
  JsrReportSampler *sampler;
  Node *signal;

  if (!read_optional (summary, &summary_path, "sampler", JSR_JSON_OBJECT, &object, error))
    return FALSE;
  if (object == NULL)
    return TRUE;

  sampler = report->sampler = g_new0 (JsrReportSampler, 1);
  signal = jsr_json_object_get (object, "signal");
  if (signal != NULL && signal->type != JSR_JSON_NULL && signal->type != JSR_JSON_INT)
    return jsr_json_invalid (error, &path, "signal", _ ("an integer or null"), signal);
  sampler->sampling_off = signal != NULL && signal->type == JSR_JSON_NULL;

  return read_optional_bool (object, &path, "signal_lost", &sampler->signal_lost, error)
         && read_optional_count (object, &path, "stalls", &sampler->stalls, error)
         && read_optional_count (object, &path, "samples", &sampler->samples, error)
         && read_optional_count (object, &path, "signals_sent", &sampler->signals_sent, error)
         && read_optional_count (object, &path, "signal_timeouts", &sampler->signal_timeouts, error)
         && read_optional_count (object, &path, "syscalls_interrupted",
                                 &sampler->syscalls_interrupted, error)
         && read_string (object, &path, "sampling_path", TRUE, &sampler->sampling_path, error)
         && read_string (object, &path, "sampling_path_reason", TRUE,
                         &sampler->sampling_path_reason, error);
}

/* The installation's id: top level or in "process"; a string, else unknown. */
static void
parse_install_id (Node *root, JsrReport *report)
{
  Node *id = jsr_json_object_get (root, "install_id");

  if (id == NULL)
    id = jsr_json_object_get (jsr_json_object_get (root, "process"), "install_id");
  if (id != NULL && id->type == JSR_JSON_STRING && id->length > 0)
    report->install_id = jsr_json_copy_capped (id->v.string);
}

/* Is this a report at all, and one of a version we read? Checked before
 * anything else so that a wrong file gets a plain "not a report" error. */
static gboolean
check_format (Node *root, GError **error)
{
  Node *format;
  Node *version;

  if (root->type != JSR_JSON_OBJECT)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT,
                   _ ("not a jankscope report: the document is %s, not an object"),
                   jsr_json_describe (root));
      return FALSE;
    }

  format = jsr_json_object_get (root, "format");
  if (format == NULL || format->type != JSR_JSON_STRING
      || strcmp (format->v.string, REPORT_FORMAT) != 0)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_FORMAT,
                   _ ("not a jankscope report: its “format” is not “%s”"), REPORT_FORMAT);
      return FALSE;
    }

  version = jsr_json_object_get (root, "version");
  if (version == NULL || version->type != JSR_JSON_INT)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _ ("the report has no valid “version”"));
      return FALSE;
    }
  if (version->v.integer != REPORT_VERSION)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_VERSION,
                   _ ("report format version %lld is not supported (this jankscope reads "
                      "version %d)"),
                   (long long) version->v.integer, REPORT_VERSION);
      return FALSE;
    }

  return TRUE;
}

JsrReport *
jsr_report_load_from_json (const JsrJsonNode *root, JsrReportLoadFlags flags, GError **error)
{
  g_autoptr (JsrReport) report = NULL;

  if (!check_format (root, error))
    return NULL;

  report = g_new0 (JsrReport, 1);
  report->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  report->events = g_ptr_array_new_with_free_func ((GDestroyNotify) event_free);
  report->modules = g_ptr_array_new_with_free_func ((GDestroyNotify) module_free);
  report->report_ns = JSR_UNKNOWN;

  if (!read_string (root, NULL, "generator", FALSE, &report->generator, error)
      || !read_bool (root, NULL, "final", &report->final, error)
      || !parse_process (root, report, error) || !parse_config (root, report, error)
      || !parse_summary (root, report, flags, error) || !parse_sampler (root, report, error)
      || !parse_modules (root, report, error) || !parse_events (root, report, flags, error)
      || !parse_previous_run (root, report, flags, error))
    return NULL;
  parse_install_id (root, report);

  return g_steal_pointer (&report);
}

static JsrReport *
load_from_data (const char *data, gsize length, JsrReportLoadFlags flags, GError **error)
{
  g_autoptr (JsrJsonDoc) doc = NULL;

  if (length == 0)
    {
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_EMPTY, _ ("the file is empty"));
      return NULL;
    }

  doc = jsr_json_doc_parse (data, length, JSR_REPORT_MAX_JSON_DEPTH, error);
  if (doc == NULL)
    return NULL;

  return jsr_report_load_from_json (jsr_json_doc_get_root (doc), flags, error);
}

JsrReport *
jsr_report_load_from_data (const char *data, gsize length, GError **error)
{
  return load_from_data (data, length, JSR_REPORT_LOAD_SUMMARY, error);
}

JsrReport *
jsr_report_load_full_from_data (const char *data, gsize length, GError **error)
{
  return load_from_data (data, length, JSR_REPORT_LOAD_FULL, error);
}

static gboolean
errno_error (GError **error, int saved_errno)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s",
               g_strerror (saved_errno));
  return FALSE;
}

/* open, fstat, read: one path lookup per file (a merge reads thousands). A
 * FIFO or a device is refused before any read (O_NONBLOCK: opening a FIFO
 * without a writer does not wait). A report whose app still runs or was
 * killed comes with its journal folded in (jsr-report-journal.h). */
gboolean
jsr_report_read_file (const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *buffer = NULL;
  g_autofree char *journal = NULL;
  gsize journal_length = 0;
  struct stat st;
  gsize size, done = 0;
  int fd;

  /* The journal first: see jsr_report_journal_read. */
  journal = jsr_report_journal_read (path, &journal_length);
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0);
  if (fd < 0)
    return errno_error (error, errno);
  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      return errno_error (error, saved_errno);
    }

  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_NOT_REGULAR, "%s",
                   S_ISDIR (st.st_mode) ? _ ("is a directory") : _ ("not a regular file"));
      return FALSE;
    }

  if (st.st_size > JSR_REPORT_MAX_BYTES)
    {
      close (fd);
      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_TOO_LARGE,
                   _ ("the file is too large for a report (%lld bytes, at most %d)"),
                   (long long) st.st_size, JSR_REPORT_MAX_BYTES);
      return FALSE;
    }

  /* One byte more than the size: a file that grew since the fstat shows. */
  size = (gsize) st.st_size + 1;
  buffer = g_malloc (size + 1);
  for (;;)
    {
      gssize n = read (fd, buffer + done, size - done);

      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          return errno_error (error, saved_errno);
        }
      if (n == 0)
        break;
      done += (gsize) n;
      if (done == size)
        {
          /* It grew: read on, within the limit. */
          if (size > JSR_REPORT_MAX_BYTES)
            {
              close (fd);
              g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_TOO_LARGE,
                           _ ("the file is too large for a report"));
              return FALSE;
            }
          size = MIN (size * 2, (gsize) JSR_REPORT_MAX_BYTES + 1);
          buffer = g_realloc (buffer, size + 1);
        }
    }
  close (fd);

  buffer[done] = '\0';
  if (journal != NULL)
    {
      gsize folded_length;
      char *folded
          = jsr_report_journal_fold (buffer, done, journal, journal_length, &folded_length);

      if (folded != NULL)
        {
          g_free (buffer);
          buffer = folded;
          done = folded_length;
        }
    }
  *data = g_steal_pointer (&buffer);
  *length = done;
  return TRUE;
}

static JsrReport *
load_file (const char *path, JsrReportLoadFlags flags, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;
  JsrReport *report;

  if (!jsr_report_read_file (path, &data, &length, error))
    return NULL;

  report = load_from_data (data, length, flags, error);
  if (report != NULL)
    report->path = g_strdup (path);
  return report;
}

JsrReport *
jsr_report_load (const char *path, GError **error)
{
  return load_file (path, JSR_REPORT_LOAD_SUMMARY, error);
}

JsrReport *
jsr_report_load_full (const char *path, GError **error)
{
  return load_file (path, JSR_REPORT_LOAD_FULL, error);
}
