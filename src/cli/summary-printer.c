/* summary-printer.c: the human-readable summary of a report
 *
 * Aligned columns, one unit per column, every string from the report
 * sanitized by the table (see text-table.c). The output is plain text for
 * people; scripts should read the JSON report itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "summary-printer.h"
#include "text-table.h"

#define INDENT           "  "
#define MAX_NAME_COLUMNS 40

static const char *const tier_labels[CLI_N_EVENT_TIERS] = {
  [CLI_TIER_NOTICEABLE] = N_("noticeable"),
  [CLI_TIER_SEVERE] = N_("severe"),
  [CLI_TIER_FROZEN] = N_("frozen"),
  [CLI_TIER_HANG] = N_("hang"),
  [CLI_TIER_LIGHT] = N_("light"),
};

static char *
format_ms (gint64 ns)
{
  double ms = ns / 1e6;

  /* Two decimals below 1 ms, so that short p95s do not all read 0.0. */
  return g_strdup_printf (ms < 1.0 ? _("%.2f ms") : _("%.1f ms"), ms);
}

static char *
format_count (gint64 n)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, n);
}

static const char *
source_label (const char *source)
{
  return source != NULL ? source : _("(unnamed)");
}

static const char *
or_dash (const char *text)
{
  return text != NULL ? text : "-";
}

/* ---- overview ------------------------------------------------------------ */

static char *
describe_toolkit (const CliReport *report)
{
  const char *toolkit = report->toolkit != NULL ? report->toolkit : "?";
  const char *mode = report->mode != NULL ? report->mode : "?";

  if (report->gtk_version != NULL)
    return g_strdup_printf (_("%s %s, %s mode"), toolkit, report->gtk_version, mode);

  return g_strdup_printf (_("%s, %s mode"), toolkit, mode);
}

static char *
describe_events (const CliReport *report)
{
  g_autofree char *threshold = format_ms (report->threshold_ns);
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%" G_GINT64_FORMAT " (", report->events_total);
  for (CliTier tier = 0; tier < CLI_N_TIERS; tier++)
    g_string_append_printf (text, "%s%s %" G_GINT64_FORMAT, tier > 0 ? ", " : "",
                            _(tier_labels[tier]), report->events_by_tier[tier]);
  g_string_append_printf (text, _("), threshold %s"), threshold);

  return g_string_free (text, FALSE);
}

static char *
describe_frames (const CliReport *report)
{
  g_autofree char *p50 = format_ms (report->frame_p50_ns);
  g_autofree char *p95 = format_ms (report->frame_p95_ns);
  g_autofree char *p99 = format_ms (report->frame_p99_ns);
  g_autofree char *count = format_count (report->frames);
  g_autofree char *fps = report->frames_fps >= 0
                           ? g_strdup_printf (_(", %.1f fps while animating"), report->frames_fps)
                           : g_strdup ("");

  return g_strdup_printf (_("%s (slow %lld, frozen %lld), P50 %s, P95 %s, P99 %s%s"), count,
                          (long long) report->frames_slow, (long long) report->frames_frozen,
                          p50, p95, p99, fps);
}

static void
format_overview (const CliReport *report,
                 GString         *out)
{
  g_autoptr (CliTable) table = cli_table_new (2);
  g_autofree char *title = NULL;
  g_autofree char *clean_title = NULL;
  g_autofree char *toolkit = describe_toolkit (report);
  g_autofree char *monitored = g_strdup_printf (_("%.1f s"), report->monitored_ns / 1e9);
  g_autofree char *iterations = format_count (report->iterations);
  g_autofree char *dispatches = format_count (report->dispatches);
  g_autofree char *busy = NULL;
  g_autofree char *events = describe_events (report);

  title = g_strdup_printf (_("Jank summary: %s (pid %" G_GINT64_FORMAT ")"),
                           report->name != NULL ? report->name : _("(unknown)"), report->pid);
  clean_title = cli_text_sanitize (title);
  g_string_append_printf (out, "%s\n", clean_title);

  if (report->monitored_ns > 0)
    busy = g_strdup_printf (_("%.1f %% of the monitored time"),
                            100.0 * report->busy_ns / report->monitored_ns);
  else
    busy = g_strdup (_("n/a"));

  cli_table_add_row (table, _("Toolkit"), toolkit, NULL);
  cli_table_add_row (table, _("Monitored"), monitored, NULL);
  cli_table_add_row (table, _("Iterations"), iterations, NULL);
  cli_table_add_row (table, _("Dispatches"), dispatches, NULL);
  cli_table_add_row (table, _("Busy"), busy, NULL);
  cli_table_add_row (table, _("Jank events"), events, NULL);
  if (report->frames > 0)
    {
      g_autofree char *frames = describe_frames (report);

      cli_table_add_row (table, _("Frames"), frames, NULL);
    }

  if (report->events_dropped > 0)
    {
      g_autofree char *dropped =
        g_strdup_printf (_("%" G_GINT64_FORMAT " events did not fit in the report "
                           "(JANKSCOPE_MAX_EVENTS)"), report->events_dropped);

      cli_table_add_row (table, _("Dropped"), dropped, NULL);
    }
  if (report->records_dropped > 0)
    {
      g_autofree char *lost =
        g_strdup_printf (_("%" G_GINT64_FORMAT " records: the statistics are incomplete"),
                         report->records_dropped);

      cli_table_add_row (table, _("Lost"), lost, NULL);
    }
  if (!report->final)
    cli_table_add_row (table, _("Note"),
                       _("not the final report: the app ended before it could write one"),
                       NULL);

  cli_table_format (table, INDENT, out);
}

/* ---- sources ------------------------------------------------------------- */

static int
compare_sources_by_total (gconstpointer a,
                          gconstpointer b)
{
  const CliReportSource *sa = *(CliReportSource *const *) a;
  const CliReportSource *sb = *(CliReportSource *const *) b;

  if (sa->total_ns != sb->total_ns)
    return sa->total_ns < sb->total_ns ? 1 : -1;
  if (sa->max_ns != sb->max_ns)
    return sa->max_ns < sb->max_ns ? 1 : -1;
  return 0;
}

static int
compare_sources_by_max (gconstpointer a,
                        gconstpointer b)
{
  const CliReportSource *sa = *(CliReportSource *const *) a;
  const CliReportSource *sb = *(CliReportSource *const *) b;

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

static void
format_sources (const CliReport *report,
                const char      *heading,
                GCompareFunc     compare,
                GString         *out)
{
  g_autoptr (GPtrArray) sorted = borrow_array (report->sources);
  g_autoptr (CliTable) table = cli_table_new (6);

  /* g_ptr_array_sort is a stable merge sort: ties keep the file's order. */
  g_ptr_array_sort (sorted, compare);

  cli_table_set_max_width (table, 0, MAX_NAME_COLUMNS);
  cli_table_set_max_width (table, 1, MAX_NAME_COLUMNS);
  for (guint c = 2; c < 6; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);

  cli_table_add_row (table, _("SOURCE"), _("CALLBACK"), _("COUNT"), _("TOTAL"), _("MAX"),
                     _("P95"), NULL);
  for (guint i = 0; i < MIN (sorted->len, CLI_SUMMARY_TOP_N); i++)
    {
      const CliReportSource *source = g_ptr_array_index (sorted, i);
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

/* ---- events -------------------------------------------------------------- */

static int
compare_events_by_duration (gconstpointer a,
                            gconstpointer b)
{
  const CliReportEvent *ea = *(CliReportEvent *const *) a;
  const CliReportEvent *eb = *(CliReportEvent *const *) b;

  if (ea->duration_ns != eb->duration_ns)
    return ea->duration_ns < eb->duration_ns ? 1 : -1;
  return 0;
}

static void
format_events (const CliReport *report,
               GString         *out)
{
  g_autoptr (GPtrArray) sorted = borrow_array (report->events);
  g_autoptr (CliTable) table = cli_table_new (7);
  guint shown = MIN (sorted->len, CLI_SUMMARY_TOP_N);

  g_ptr_array_sort (sorted, compare_events_by_duration);

  for (guint c = 0; c < 3; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 5, MAX_NAME_COLUMNS);
  cli_table_set_max_width (table, 6, MAX_NAME_COLUMNS);

  cli_table_add_row (table, _("#"), _("START"), _("DURATION"), _("TIER"), _("TYPE"), _("SOURCE"),
                     _("CALLBACK"), NULL);
  for (guint i = 0; i < shown; i++)
    {
      const CliReportEvent *event = g_ptr_array_index (sorted, i);
      g_autofree char *id = format_count (event->id);
      g_autofree char *start = NULL;
      g_autofree char *duration = format_ms (event->duration_ns);
      const char *source = or_dash (event->source);

      /* Both are >= 0 (checked on load): the difference cannot overflow. */
      start = g_strdup_printf (_("%.3f s"), (event->start_ns - report->start_ns) / 1e9);
      if (event->source == NULL && g_strcmp0 (event->type, "dispatch") == 0)
        source = source_label (NULL);

      cli_table_add_row (table, id, start, duration, _(tier_labels[event->tier]), event->type,
                         source, or_dash (event->callback), NULL);
    }

  g_string_append_c (out, '\n');
  if (shown < report->events->len)
    g_string_append_printf (out, _("Worst events (%u of %u)\n"), shown, report->events->len);
  else
    g_string_append_printf (out, "%s\n", _("Worst events"));
  cli_table_format (table, INDENT, out);
}

void
cli_summary_format (const CliReport *report,
                    GString         *out)
{
  g_return_if_fail (report != NULL);
  g_return_if_fail (out != NULL);

  format_overview (report, out);

  if (report->sources->len > 0)
    {
      format_sources (report, _("Top sources by total time"), compare_sources_by_total, out);
      format_sources (report, _("Top sources by longest dispatch"), compare_sources_by_max, out);
    }
  else
    g_string_append_printf (out, "\n%s\n", _("No dispatches were recorded."));

  if (report->events->len > 0)
    format_events (report, out);
  else
    g_string_append_printf (out, "\n%s\n", _("No jank events."));
}
