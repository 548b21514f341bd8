/* summary-printer.c: the human-readable summary of a report
 *
 * Aligned columns, one unit per column, every string from the report
 * sanitized by the table (see text-table.c). The output is plain text for
 * people; scripts read `jankscope summary --json` (summary-json.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "summary-printer.h"
#include "text-table.h"

#define INDENT "  "
#define STACK_INDENT "    "
#define MAX_NAME_COLUMNS 40
#define MAX_EVENT_NAME_COLUMNS 30 /* source and callback in the events table */
#define MAX_CULPRIT_COLUMNS 50
#define MAX_DETAIL_COLUMNS 160 /* a culprit or a frame on a line of its own */
#define MAX_RULE_COLUMNS 120
#define STACKS_SHOWN 3 /* events whose top stack is printed */

static const char *const tier_labels[JS_N_EVENT_TIERS] = {
  [JS_TIER_NOTICEABLE] = N_ ("noticeable"), [JS_TIER_SEVERE] = N_ ("severe"),
  [JS_TIER_FROZEN] = N_ ("frozen"),         [JS_TIER_HANG] = N_ ("hang"),
  [JS_TIER_LIGHT] = N_ ("light"),
};

static char *
format_ms (gint64 ns)
{
  double ms = ns / 1e6;

  /* Two decimals below 1 ms, so that short p95s do not all read 0.0. */
  return g_strdup_printf (ms < 1.0 ? _ ("%.2f ms") : _ ("%.1f ms"), ms);
}

static char *
format_count (gint64 n)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, n);
}

/* Seconds from 1 s on ("3.2 s"), else milliseconds. */
char *
cli_summary_format_duration (gint64 ns)
{
  if (ns >= G_GINT64_CONSTANT (1000000000))
    return g_strdup_printf (_ ("%.1f s"), ns / 1e9);

  return format_ms (ns);
}

/* The n of ngettext, which takes an unsigned long. */
static gulong
plural_n (gint64 n)
{
  return n < 0 ? 0 : (gulong) MIN ((guint64) n, (guint64) G_MAXULONG);
}

static const char *
source_label (const char *source)
{
  return source != NULL ? source : _ ("(unnamed)");
}

static const char *
or_dash (const char *text)
{
  return text != NULL ? text : "-";
}

/* ---- overview ------------------------------------------------------------ */

static char *
describe_toolkit (const JsrReport *report)
{
  const char *toolkit = report->toolkit != NULL ? report->toolkit : "?";
  const char *mode = report->mode != NULL ? report->mode : "?";

  if (report->gtk_version != NULL)
    return g_strdup_printf (_ ("%s %s, %s mode"), toolkit, report->gtk_version, mode);

  return g_strdup_printf (_ ("%s, %s mode"), toolkit, mode);
}

static char *
describe_events (const JsrReport *report)
{
  g_autofree char *threshold = format_ms (report->threshold_ns);
  g_autofree char *total = g_strdup_printf ("%" G_GINT64_FORMAT, report->events_total);
  g_autoptr (GString) tiers = g_string_new (NULL);

  for (JsTier tier = 0; tier < JS_N_TIERS; tier++)
    g_string_append_printf (tiers, "%s%s %" G_GINT64_FORMAT, tier > 0 ? _ (", ") : "",
                            _ (tier_labels[tier]), report->events_by_tier[tier]);
  /* Translators: events in all, then by tier ("noticeable 2, severe 1, …"),
   * then the jank threshold, e.g. "3 (noticeable 2, severe 1), threshold 50 ms" */
  return g_strdup_printf (_ ("%s (%s), threshold %s"), total, tiers->str, threshold);
}

/* The frame events' row: NULL when there are none and no frames. */
static char *
describe_frame_events (const JsrReport *report)
{
  gint64 by_tier[JS_N_EVENT_TIERS];
  gint64 total = jsr_report_frame_events (report, by_tier);
  g_autoptr (GString) tiers = g_string_new (NULL);

  if (total == 0 && report->frames <= 0)
    return NULL;
  for (guint i = 0; i + 1 < JS_N_EVENT_TIERS; i++) /* light .. frozen: frames never hang */
    {
      JsTier tier = js_tier_by_mildness (i);

      g_string_append_printf (tiers, "%s%s %" G_GINT64_FORMAT, i > 0 ? _ (", ") : "",
                              _ (tier_labels[tier]), by_tier[tier]);
    }
  /* Translators: frame events in all, then by tier, e.g. "2 (light 1, noticeable 0, severe 0,
   * frozen 1)" */
  return g_strdup_printf (_ ("%lld (%s)"), (long long) total, tiers->str);
}

static char *
describe_frames (const JsrReport *report)
{
  g_autofree char *p50 = format_ms (report->frame_p50_ns);
  g_autofree char *p95 = format_ms (report->frame_p95_ns);
  g_autofree char *p99 = format_ms (report->frame_p99_ns);
  g_autofree char *count = format_count (report->frames);
  g_autofree char *fps
      = report->frames_fps >= 0
            ? g_strdup_printf (_ (", %.1f fps while animating"), report->frames_fps)
            : g_strdup ("");

  return g_strdup_printf (_ ("%s (slow %lld, frozen %lld), P50 %s, P95 %s, P99 %s%s"), count,
                          (long long) report->frames_slow, (long long) report->frames_frozen, p50,
                          p95, p99, fps);
}

static void
append_item (GString *text, const char *item)
{
  if (text->len > 0)
    g_string_append (text, _ (", "));
  g_string_append (text, item);
}

static char *
describe_sampler (const JsrReportSampler *sampler)
{
  GString *text = g_string_new (NULL);
  const char *reason = sampler->sampling_path_reason;
  g_autofree char *path = NULL;

  /* Which way the stacks were taken (summary.sampler.sampling_path), said
   * when it is not the usual one: the main thread's CPU-time timer. */
  if (sampler->sampling_off || g_strcmp0 (sampler->sampling_path, "off") == 0)
    path = reason != NULL ? g_strdup_printf (_ ("stack sampling off (%s)"), reason)
                          : g_strdup (_ ("stack sampling off"));
  else if (g_strcmp0 (sampler->sampling_path, "watchdog") == 0)
    path = reason != NULL ? g_strdup_printf (_ ("sampled by the watchdog (%s)"), reason)
                          : g_strdup (_ ("sampled by the watchdog"));
  if (path != NULL)
    append_item (text, path);
  if (sampler->samples >= 0)
    {
      g_autofree char *item
          = g_strdup_printf (ngettext ("%lld sample", "%lld samples", plural_n (sampler->samples)),
                             (long long) sampler->samples);

      append_item (text, item);
    }
  if (sampler->stalls >= 0)
    {
      g_autofree char *item
          = g_strdup_printf (ngettext ("%lld stall", "%lld stalls", plural_n (sampler->stalls)),
                             (long long) sampler->stalls);

      append_item (text, item);
    }
  if (sampler->signals_sent >= 0)
    {
      g_autofree char *item = g_strdup_printf (
          ngettext ("%lld signal", "%lld signals", plural_n (sampler->signals_sent)),
          (long long) sampler->signals_sent);

      append_item (text, item);
    }
  if (sampler->signal_timeouts >= 0)
    {
      g_autofree char *item = g_strdup_printf (
          ngettext ("%lld timeout", "%lld timeouts", plural_n (sampler->signal_timeouts)),
          (long long) sampler->signal_timeouts);

      append_item (text, item);
    }
  if (sampler->syscalls_interrupted > 0)
    {
      g_autofree char *item = g_strdup_printf (_ ("interrupted system calls: %lld"),
                                               (long long) sampler->syscalls_interrupted);

      append_item (text, item);
    }
  if (sampler->signal_lost)
    append_item (text, _ ("sampling signal taken over by the app"));
  if (text->len == 0)
    g_string_append (text, _ ("no counts"));

  return g_string_free (text, FALSE);
}

static void
format_overview (const JsrReport *report, GString *out)
{
  g_autoptr (CliTable) table = cli_table_new (2);
  g_autofree char *title = NULL;
  g_autofree char *clean_title = NULL;
  g_autofree char *toolkit = describe_toolkit (report);
  g_autofree char *monitored = g_strdup_printf (_ ("%.1f s"), report->monitored_ns / 1e9);
  g_autofree char *iterations = format_count (report->iterations);
  g_autofree char *dispatches = format_count (report->dispatches);
  g_autofree char *busy = NULL;
  g_autofree char *events = describe_events (report);
  g_autofree char *frame_events = describe_frame_events (report);

  title = g_strdup_printf (_ ("Jank summary: %s (pid %lld)"),
                           report->name != NULL ? report->name : _ ("(unknown)"),
                           (long long) report->pid);
  clean_title = cli_text_sanitize (title);
  g_string_append_printf (out, "%s\n", clean_title);

  if (report->monitored_ns > 0)
    busy = g_strdup_printf (_ ("%.1f %% of the monitored time"),
                            100.0 * report->busy_ns / report->monitored_ns);
  else
    busy = g_strdup (_ ("n/a"));

  cli_table_add_row (table, _ ("Toolkit"), toolkit, NULL);
  cli_table_add_row (table, _ ("Monitored"), monitored, NULL);
  cli_table_add_row (table, _ ("Iterations"), iterations, NULL);
  cli_table_add_row (table, _ ("Dispatches"), dispatches, NULL);
  cli_table_add_row (table, _ ("Busy"), busy, NULL);
  /* The two kinds of jank events apart, as everywhere (jsr-report.h): a
   * stall and the slow frame it caused are one stutter seen twice. */
  cli_table_add_row (table, _ ("Stall events"), events, NULL);
  if (frame_events != NULL)
    cli_table_add_row (table, _ ("Frame events"), frame_events, NULL);
  if (report->frames > 0)
    {
      g_autofree char *frames = describe_frames (report);

      cli_table_add_row (table, _ ("Frames"), frames, NULL);
    }

  if (report->events_dropped > 0)
    {
      g_autofree char *dropped
          = g_strdup_printf (_ ("%lld events did not fit in the report (JANKSCOPE_MAX_EVENTS)"),
                             (long long) report->events_dropped);

      cli_table_add_row (table, _ ("Dropped"), dropped, NULL);
    }
  if (report->records_dropped > 0)
    {
      g_autofree char *lost = g_strdup_printf (_ ("%lld records: the statistics are incomplete"),
                                               (long long) report->records_dropped);

      cli_table_add_row (table, _ ("Lost"), lost, NULL);
    }
  if (report->sampler != NULL)
    {
      g_autofree char *sampling = describe_sampler (report->sampler);

      cli_table_add_row (table, _ ("Sampling"), sampling, NULL);
    }
  if (!report->final)
    cli_table_add_row (table, _ ("Note"),
                       _ ("not the final report: the app ended before it could write one"), NULL);

  cli_table_format (table, INDENT, out);
}

/* ---- sources ------------------------------------------------------------- */

static int
compare_sources_by_total (gconstpointer a, gconstpointer b)
{
  const JsrReportSource *sa = *(JsrReportSource *const *) a;
  const JsrReportSource *sb = *(JsrReportSource *const *) b;

  if (sa->total_ns != sb->total_ns)
    return sa->total_ns < sb->total_ns ? 1 : -1;
  if (sa->max_ns != sb->max_ns)
    return sa->max_ns < sb->max_ns ? 1 : -1;
  return 0;
}

static int
compare_sources_by_max (gconstpointer a, gconstpointer b)
{
  const JsrReportSource *sa = *(JsrReportSource *const *) a;
  const JsrReportSource *sb = *(JsrReportSource *const *) b;

  if (sa->max_ns != sb->max_ns)
    return sa->max_ns < sb->max_ns ? 1 : -1;
  if (sa->total_ns != sb->total_ns)
    return sa->total_ns < sb->total_ns ? 1 : -1;
  return 0;
}

/* A copy of the array that does not own (free) the elements. */
static GPtrArray *
borrow_array (GPtrArray *array)
{
  GPtrArray *copy = g_ptr_array_copy (array, NULL, NULL);

  g_ptr_array_set_free_func (copy, NULL);
  return copy;
}

GPtrArray *
cli_summary_sorted_sources (const JsrReport *report, gboolean by_longest)
{
  GPtrArray *sorted = borrow_array (report->sources);

  /* g_ptr_array_sort is a stable merge sort: ties keep the file's order. */
  g_ptr_array_sort (sorted, by_longest ? compare_sources_by_max : compare_sources_by_total);
  return sorted;
}

static void
format_sources (const JsrReport *report, const char *heading, gboolean by_longest, GString *out)
{
  g_autoptr (GPtrArray) sorted = cli_summary_sorted_sources (report, by_longest);
  g_autoptr (CliTable) table = cli_table_new (6);

  cli_table_set_max_width (table, 0, MAX_NAME_COLUMNS);
  cli_table_set_max_width (table, 1, MAX_NAME_COLUMNS);
  for (guint c = 2; c < 6; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);

  cli_table_add_row (table, _ ("SOURCE"), _ ("CALLBACK"), _ ("COUNT"), _ ("TOTAL"), _ ("MAX"),
                     _ ("P95"), NULL);
  for (guint i = 0; i < MIN (sorted->len, CLI_SUMMARY_TOP_N); i++)
    {
      const JsrReportSource *source = g_ptr_array_index (sorted, i);
      g_autofree char *count = format_count (source->count);
      g_autofree char *total = format_ms (source->total_ns);
      g_autofree char *max = format_ms (source->max_ns);
      g_autofree char *p95 = format_ms (source->p95_ns);

      cli_table_add_row (table, source_label (source->source), or_dash (source->callback), count,
                         total, max, p95, NULL);
    }

  g_string_append_printf (out, "\n%s\n", heading);
  cli_table_format (table, INDENT, out);
}

/* ---- stacks and classification ------------------------------------------ */

static const char *
file_base_name (const char *file)
{
  const char *slash = strrchr (file, '/');

  return slash != NULL && slash[1] != '\0' ? slash + 1 : file;
}

/* "function (file:line)", "function (file)" or "function"; NULL without a
 * function name. */
static char *
describe_location (const char *function, const char *file, gint64 line)
{
  if (function == NULL)
    return NULL;
  if (file != NULL && line > 0)
    return g_strdup_printf (_ ("%s (%s:%lld)"), function, file_base_name (file), (long long) line);
  if (file != NULL)
    return g_strdup_printf (_ ("%s (%s)"), function, file_base_name (file));

  return g_strdup (function);
}

/* "function (file:line) [module]", or "module+0xOFFSET" without a symbol. */
static char *
describe_frame (const JsrReportFrame *frame)
{
  g_autofree char *location = describe_location (frame->function, frame->file, frame->line);
  g_autofree char *text = NULL;

  if (location != NULL && frame->module != NULL)
    text = g_strdup_printf (_ ("%s [%s]"), location, frame->module);
  else if (location != NULL)
    text = g_steal_pointer (&location);
  else if (frame->offset != NULL)
    text = g_strdup_printf ("%s+%s", frame->module != NULL ? frame->module : "??", frame->offset);
  else
    text = g_strdup_printf (_ ("?? [%s]"), frame->module != NULL ? frame->module : "??");

  if (frame->inlined)
    return g_strdup_printf (_ ("%s (inlined)"), text);

  return g_steal_pointer (&text);
}

/* The culprit's name; "callback → name" when it is not the app's own code
 * and the report names the callback the loop dispatched. */
static char *
describe_culprit_name (const JsrReportCulprit *culprit)
{
  g_autofree char *callback = jsr_culprit_callback_name (culprit);
  g_autofree char *location = describe_location (culprit->function, culprit->file, culprit->line);
  g_autofree char *name = NULL;

  if (location != NULL)
    name = g_steal_pointer (&location);
  else if (culprit->module != NULL)
    name = g_strdup_printf (_ ("?? in %s"), culprit->module);
  else
    name = g_strdup ("??");
  if (callback != NULL)
    /* Translators: the callback the main loop dispatched, then the library
     * function that took the time in it, e.g. "on_load → gtk_text_layout_validate" */
    return g_strdup_printf (_ ("%s → %s"), callback, name);

  return g_steal_pointer (&name);
}

/* The culprit cell of the events table: the name, cut so that the
 * confidence stays visible. */
static char *
describe_culprit_cell (const JsrReportCulprit *culprit)
{
  g_autofree char *name = NULL;
  g_autofree char *cut = NULL;

  if (culprit == NULL)
    return g_strdup ("-");

  name = describe_culprit_name (culprit);
  if (culprit->confidence < 0)
    return cli_text_truncate (name, MAX_CULPRIT_COLUMNS);

  cut = cli_text_truncate (name, MAX_CULPRIT_COLUMNS - strlen (" 100%"));
  /* Translators: a culprit and its confidence, e.g. "main_loop_cb 85%" */
  return g_strdup_printf (C_ ("culprit in a table", "%s %.0f%%"), cut, 100.0 * culprit->confidence);
}

static const char *
reason_label (const char *reason)
{
  if (g_strcmp0 (reason, "app-code") == 0)
    return _ ("in the app's own code");
  if (g_strcmp0 (reason, "library") == 0)
    return _ ("in a library");
  if (g_strcmp0 (reason, "leaf") == 0)
    return _ ("where the thread was");

  return reason;
}

/* "wait_for_lock (app.c:42), 85% confidence, 17 of 20 samples, in the app's own code" */
static char *
describe_culprit (const JsrReportCulprit *culprit)
{
  g_autofree char *name = describe_culprit_name (culprit);
  GString *text = g_string_new (name);

  if (culprit->confidence >= 0)
    {
      g_autofree char *item
          = g_strdup_printf (_ ("%.0f%% confidence"), 100.0 * culprit->confidence);

      g_string_append (text, _ (", "));
      g_string_append (text, item);
    }
  if (culprit->samples >= 0 && culprit->of_samples >= 0)
    {
      g_autofree char *item = g_strdup_printf (
          ngettext ("%lld of %lld sample", "%lld of %lld samples", plural_n (culprit->of_samples)),
          (long long) culprit->samples, (long long) culprit->of_samples);

      g_string_append (text, _ (", "));
      g_string_append (text, item);
    }
  if (culprit->reason != NULL)
    {
      g_string_append (text, _ (", "));
      g_string_append (text, reason_label (culprit->reason));
    }

  return g_string_free (text, FALSE);
}

static const char *
class_label (const char *klass)
{
  if (g_strcmp0 (klass, "compute") == 0)
    return C_ ("class", "compute");
  if (g_strcmp0 (klass, "wait") == 0)
    return C_ ("class", "wait");
  if (g_strcmp0 (klass, "mixed") == 0)
    return C_ ("class", "mixed");

  return klass;
}

static const char *
wait_label (const char *wait)
{
  if (g_strcmp0 (wait, "lock") == 0)
    return C_ ("wait", "lock");
  if (g_strcmp0 (wait, "sleep") == 0)
    return C_ ("wait", "sleep");
  if (g_strcmp0 (wait, "io") == 0)
    return C_ ("wait", "io");
  if (g_strcmp0 (wait, "poll") == 0)
    return C_ ("wait", "poll");
  if (g_strcmp0 (wait, "ipc") == 0)
    return C_ ("wait", "ipc");
  if (g_strcmp0 (wait, "child") == 0)
    return C_ ("wait", "child");
  if (g_strcmp0 (wait, "other") == 0)
    return C_ ("wait", "other");

  return wait;
}

/* "compute", "wait: sleep", "mixed: lock"; NULL when unknown. */
static char *
describe_class (const JsrReportEvent *event)
{
  if (event->klass == NULL)
    return NULL;
  if (event->wait == NULL)
    return g_strdup (class_label (event->klass));

  /* Translators: a class of stall and what it waited for, e.g. "wait: sleep" */
  return g_strdup_printf (C_ ("class: wait kind", "%s: %s"), class_label (event->klass),
                          wait_label (event->wait));
}

/* The class with the on- and off-CPU times when known. */
static char *
describe_class_with_times (const JsrReportEvent *event)
{
  g_autofree char *klass = describe_class (event);

  if (klass == NULL)
    return NULL;
  if (event->cpu_ns >= 0 && event->off_cpu_ns >= 0)
    {
      g_autofree char *cpu = cli_summary_format_duration (event->cpu_ns);
      g_autofree char *off = cli_summary_format_duration (event->off_cpu_ns);

      return g_strdup_printf (_ ("%s (on CPU %s, waiting %s)"), klass, cpu, off);
    }

  return g_steal_pointer (&klass);
}

static gboolean
has_stack (const JsrReportEvent *event)
{
  return event->top_stack->len > 0;
}

/* "12 of 15 samples" (the top stack's share), "12 samples", or NULL when
 * unknown. */
static char *
describe_stack_share (const JsrReportEvent *event)
{
  if (event->top_stack_count >= 0 && event->samples_total >= 0)
    return g_strdup_printf (
        ngettext ("%lld of %lld sample", "%lld of %lld samples", plural_n (event->samples_total)),
        (long long) event->top_stack_count, (long long) event->samples_total);
  if (event->top_stack_count >= 0)
    return g_strdup_printf (
        ngettext ("%lld sample", "%lld samples", plural_n (event->top_stack_count)),
        (long long) event->top_stack_count);

  return NULL;
}

/* The top stack, leaf first, one frame a line. */
static void
format_stack (const JsrReportEvent *event, GString *out)
{
  g_autoptr (CliTable) table = cli_table_new (2);
  guint more = event->top_stack_frames_total - event->top_stack->len;

  cli_table_set_align (table, 0, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 1, MAX_DETAIL_COLUMNS);
  for (guint i = 0; i < event->top_stack->len; i++)
    {
      g_autofree char *number = g_strdup_printf ("#%u", i);
      g_autofree char *frame = describe_frame (g_ptr_array_index (event->top_stack, i));

      cli_table_add_row (table, number, frame, NULL);
    }
  if (more > 0)
    {
      g_autofree char *text
          = g_strdup_printf (ngettext ("… %u more frame", "… %u more frames", more), more);

      cli_table_add_row (table, "", text, NULL);
    }
  if (event->top_stack_truncated)
    cli_table_add_row (table, "", _ ("(the sampler cut this stack short)"), NULL);

  cli_table_format (table, STACK_INDENT, out);
}

/* A stall block: heading, class, culprit and top stack. */
static void
format_stall_block (const char *heading, gboolean rule, const JsrReportEvent *event,
                    const char *program, GString *out)
{
  g_autofree char *clean_heading = cli_text_truncate (heading, 0);
  g_autoptr (CliTable) table = cli_table_new (2);
  g_autofree char *klass = describe_class_with_times (event);

  g_string_append_printf (out, "%s\n", clean_heading);
  if (rule)
    {
      guint width = MIN (cli_text_width (clean_heading), MAX_RULE_COLUMNS);

      for (guint i = 0; i < width; i++)
        g_string_append_c (out, '=');
      g_string_append_c (out, '\n');
    }

  cli_table_set_max_width (table, 1, MAX_DETAIL_COLUMNS);
  if (program != NULL)
    cli_table_add_row (table, _ ("Program"), program, NULL);
  if (event->source != NULL || event->callback != NULL)
    {
      g_autofree char *dispatch = g_strdup_printf (
          _ ("%s, callback %s"), source_label (event->source), or_dash (event->callback));

      cli_table_add_row (table, _ ("Dispatch"), dispatch, NULL);
    }
  cli_table_add_row (table, _ ("Class"), klass != NULL ? klass : _ ("unknown"), NULL);
  if (event->culprit != NULL)
    {
      g_autofree char *culprit = describe_culprit (event->culprit);

      cli_table_add_row (table, _ ("Culprit"), culprit, NULL);
    }
  else
    cli_table_add_row (table, _ ("Culprit"), _ ("unknown"), NULL);
  if (has_stack (event))
    {
      g_autofree char *share = describe_stack_share (event);

      /* Translators: the share of the samples that found the top stack */
      cli_table_add_row (table, _ ("Top stack"), share != NULL ? share : "", NULL);
    }
  else
    cli_table_add_row (table, _ ("Top stack"), _ ("no stack was sampled"), NULL);

  cli_table_format (table, INDENT, out);
  if (has_stack (event))
    format_stack (event, out);
}

static void
format_ongoing_hang (const JsrReportEvent *hang, GString *out)
{
  g_autofree char *duration = cli_summary_format_duration (hang->duration_ns);
  g_autofree char *heading = g_strdup_printf (
      _ ("Main thread stuck for %s when the report was last written (the app was "
         "killed or is still hung)"),
      duration);

  format_stall_block (heading, TRUE, hang, NULL, out);
  g_string_append_c (out, '\n');
}

static void
format_previous_run (const JsrReportPreviousRun *previous, GString *out)
{
  g_autofree char *duration = cli_summary_format_duration (previous->hang->duration_ns);
  g_autofree char *heading = NULL;

  if (previous->pid > 0)
    heading = g_strdup_printf (_ ("The previous run (pid %lld) ended during a hang of %s"),
                               (long long) previous->pid, duration);
  else
    heading = g_strdup_printf (_ ("The previous run ended during a hang of %s"), duration);

  g_string_append_c (out, '\n');
  format_stall_block (heading, FALSE, previous->hang,
                      previous->exe != NULL && previous->exe[0] != '\0' ? previous->exe : NULL,
                      out);
}

/* ---- events -------------------------------------------------------------- */

static int
compare_events_by_duration (gconstpointer a, gconstpointer b)
{
  const JsrReportEvent *ea = *(JsrReportEvent *const *) a;
  const JsrReportEvent *eb = *(JsrReportEvent *const *) b;

  if (ea->duration_ns != eb->duration_ns)
    return ea->duration_ns < eb->duration_ns ? 1 : -1;
  return 0;
}

/* "compute", "wait: sleep" of a part; NULL when unknown. */
static char *
describe_part_class (const JsrReportPart *part)
{
  if (part->klass == NULL)
    return NULL;
  if (part->wait == NULL)
    return g_strdup (class_label (part->klass));
  return g_strdup_printf (C_ ("class: wait kind", "%s: %s"), class_label (part->klass),
                          wait_label (part->wait));
}

/* The parts of an episode, each with its own cause (docs/report-format.md,
 * "Causes per part"), when it has more than one. */
static void
format_parts (const JsrReportEvent *event, GString *out)
{
  g_autoptr (CliTable) table = cli_table_new (7);
  GPtrArray *parts = event->parts;
  gint64 count = MAX (event->parts_count, parts != NULL ? (gint64) parts->len : 0);

  if (parts == NULL || parts->len < 2)
    return;
  for (guint c = 0; c < 3; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_align (table, 6, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 3, MAX_EVENT_NAME_COLUMNS);
  cli_table_set_max_width (table, 5, MAX_CULPRIT_COLUMNS);
  cli_table_add_row (table, _ ("PART"), _ ("START"), _ ("DURATION"), _ ("CALLBACK"), _ ("CLASS"),
                     _ ("CULPRIT"), _ ("ATTRIBUTED"), NULL);
  for (guint i = 0; i < parts->len; i++)
    {
      const JsrReportPart *part = g_ptr_array_index (parts, i);
      g_autofree char *number = g_strdup_printf ("%u", i + 1);
      /* Both are >= 0 (checked on load). */
      g_autofree char *start
          = g_strdup_printf (_ ("+%.3f s"), (part->start_ns - event->start_ns) / 1e9);
      g_autofree char *duration = format_ms (part->duration_ns);
      g_autofree char *klass = describe_part_class (part);
      g_autofree char *culprit = describe_culprit_cell (part->culprit);
      g_autofree char *attributed
          = part->attributed_ns >= 0 ? format_ms (part->attributed_ns) : g_strdup ("-");

      cli_table_add_row (table, number, start, duration,
                         or_dash (jsr_dispatch_label (part->callback, part->source)),
                         or_dash (klass), culprit, attributed, NULL);
    }
  g_string_append_printf (out, "%s%s\n", STACK_INDENT,
                          count > (gint64) parts->len ? _ ("Parts (the report lists some of them):")
                                                      : _ ("Parts:"));
  cli_table_format (table, STACK_INDENT, out);
}

/* The top stacks of the worst events that have one. */
static void
format_event_stacks (GPtrArray *sorted, GString *out)
{
  guint printed = 0;

  for (guint i = 0; i < sorted->len && printed < STACKS_SHOWN; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (sorted, i);
      g_autofree char *duration = NULL;
      g_autofree char *share = NULL;
      g_autofree char *heading = NULL;

      if (!has_stack (event))
        continue;
      if (printed++ == 0)
        g_string_append_printf (out, "\n%s\n", _ ("Stacks of the worst events"));

      duration = format_ms (event->duration_ns);
      share = describe_stack_share (event);
      if (share != NULL)
        heading = g_strdup_printf (_ ("Event %lld (%s), top stack in %s:"), (long long) event->id,
                                   duration, share);
      else
        heading
            = g_strdup_printf (_ ("Event %lld (%s), top stack:"), (long long) event->id, duration);
      g_string_append_printf (out, "%s%s\n", INDENT, heading);
      format_parts (event, out);
      format_stack (event, out);
    }
}

GPtrArray *
cli_summary_sorted_events (const JsrReport *report)
{
  GPtrArray *sorted = g_ptr_array_new ();

  /* The stall under way has a block of its own. */
  for (guint i = 0; i < report->events->len; i++)
    {
      JsrReportEvent *event = g_ptr_array_index (report->events, i);

      if (!event->ongoing)
        g_ptr_array_add (sorted, event);
    }
  g_ptr_array_sort (sorted, compare_events_by_duration);
  return sorted;
}

static void
format_events (const JsrReport *report, GString *out)
{
  g_autoptr (GPtrArray) sorted = cli_summary_sorted_events (report);
  g_autoptr (CliTable) table = cli_table_new (9);
  guint shown;

  if (sorted->len == 0)
    {
      g_string_append_printf (out, "\n%s\n", _ ("No other jank events."));
      return;
    }

  shown = MIN (sorted->len, CLI_SUMMARY_TOP_N);

  for (guint c = 0; c < 3; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 5, MAX_EVENT_NAME_COLUMNS);
  cli_table_set_max_width (table, 6, MAX_EVENT_NAME_COLUMNS);
  cli_table_set_max_width (table, 7, MAX_EVENT_NAME_COLUMNS);
  cli_table_set_max_width (table, 8, MAX_CULPRIT_COLUMNS);

  cli_table_add_row (table, _ ("#"), _ ("START"), _ ("DURATION"), _ ("TIER"), _ ("TYPE"),
                     _ ("SOURCE"), _ ("CALLBACK"), _ ("CLASS"), _ ("CULPRIT"), NULL);
  for (guint i = 0; i < shown; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (sorted, i);
      g_autofree char *id = format_count (event->id);
      g_autofree char *start = NULL;
      g_autofree char *duration = format_ms (event->duration_ns);
      g_autofree char *klass = describe_class (event);
      g_autofree char *culprit = describe_culprit_cell (event->culprit);
      const char *source = or_dash (event->source);

      /* Both are >= 0 (checked on load): the difference cannot overflow. */
      start = g_strdup_printf (_ ("%.3f s"), (event->start_ns - report->start_ns) / 1e9);
      if (event->source == NULL && g_strcmp0 (event->type, "dispatch") == 0)
        source = source_label (NULL);

      cli_table_add_row (table, id, start, duration, _ (tier_labels[event->tier]), event->type,
                         source, or_dash (event->callback), or_dash (klass), culprit, NULL);
    }

  g_string_append_c (out, '\n');
  if (shown < sorted->len)
    g_string_append_printf (out, _ ("Worst events (%u of %u)\n"), shown, sorted->len);
  else
    g_string_append_printf (out, "%s\n", _ ("Worst events"));
  cli_table_format (table, INDENT, out);

  format_event_stacks (sorted, out);
}

void
cli_summary_format (const JsrReport *report, GString *out)
{
  const JsrReportEvent *hang;

  g_return_if_fail (report != NULL);
  g_return_if_fail (out != NULL);

  /* A stall under way comes first: it is why the app was killed. */
  hang = jsr_report_get_ongoing_hang (report);
  if (hang != NULL)
    format_ongoing_hang (hang, out);

  format_overview (report, out);

  if (report->previous_run != NULL)
    format_previous_run (report->previous_run, out);

  if (report->sources->len > 0)
    {
      format_sources (report, _ ("Top sources by total time"), FALSE, out);
      format_sources (report, _ ("Top sources by longest dispatch"), TRUE, out);
    }
  else
    g_string_append_printf (out, "\n%s\n", _ ("No dispatches were recorded."));

  if (report->events->len > 0)
    format_events (report, out);
  else
    g_string_append_printf (out, "\n%s\n", _ ("No jank events."));
}
