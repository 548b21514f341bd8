/* cmd-report.c: "jankscope report FILE...", jank of many runs by stack signature
 *
 * Reads reports and aggregates (jankscope merge), folds them into one
 * aggregate (jsr-aggregate.h) and prints: an overview, the top signatures (by
 * attributed stall time, events or runs affected), the kinds of mistake
 * (diagnoses) with their fixes, stall time per tier,
 * class and source, and the worst events with their culprit and their
 * attributed and unattributed time. --json writes the same numbers
 * (report-json.c); the tables' rows come from report-groups.c for both.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "analysis.h"
#include "cli-commands.h"
#include "cli-common.h"
#include "js-signature.h"
#include "js-tiers.h"
#include "jsr-saturate.h"
#include "report-diagnoses.h"
#include "report-groups.h"
#include "report-json.h"
#include "text-table.h"

#define INDENT "  "
#define DEFAULT_TOP 10
#define MAX_SIGNATURE_COLUMNS 90
#define MAX_NAME_COLUMNS 32

/* The t-th tier, mildest first, by its report name, which is also the msgid
 * of its label (summary-printer.c). */
static const char *
tier_at (guint t)
{
  return js_tier_name (js_tier_by_mildness (t));
}

typedef struct
{
  const JsrAggregate *agg;
  JsrAggSort sort;
  guint top;
  GString *out;
} Printer;

static char *
count_text (guint64 n)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

/* A mean of a sum over a count, "-" for none. */
static char *
mean_text (guint64 total, guint64 count)
{
  return count > 0 ? cli_format_duration (total / count) : g_strdup ("-");
}

static char *
runs_text (const JsrAggregate *agg, guint64 runs)
{
  /* Filtered aggregates: a run with several kinds of matching events was
   * counted once per kind. */
  if (agg->runs_upper_bound)
    return g_strdup_printf ("≤%" G_GUINT64_FORMAT, runs);
  return count_text (runs);
}

static const char *
sort_heading (JsrAggSort sort)
{
  switch (sort)
    {
    case JSR_AGG_SORT_EVENTS:
      return _ ("Top signatures by events");
    case JSR_AGG_SORT_RUNS:
      return _ ("Top signatures by runs affected");
    case JSR_AGG_SORT_SAMPLES:
      return _ ("Top signatures by samples");
    case JSR_AGG_SORT_TIME:
    default:
      return _ ("Top signatures by stall time");
    }
}

/* ---- overview ------------------------------------------------------------------ */

static char *
describe_apps (const JsrAggregate *agg)
{
  guint n = g_hash_table_size (agg->apps);
  GHashTableIter iter;
  gpointer name;

  if (n == 1 && agg->apps_other == 0)
    {
      g_hash_table_iter_init (&iter, agg->apps);
      g_hash_table_iter_next (&iter, &name, NULL);
      return g_strdup (name);
    }
  return g_strdup_printf (ngettext ("%u app", "%u apps", n + (agg->apps_other > 0)),
                          n + (agg->apps_other > 0));
}

static char *
describe_tiers (const Printer *p)
{
  guint64 by_tier[JS_N_EVENT_TIERS] = { 0 };
  g_autoptr (GPtrArray) groups = jsr_aggregate_sorted_groups (p->agg);
  g_autofree char *blocked = cli_format_duration (p->agg->stalls.total_ns);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < groups->len; i++)
    {
      const JsrAggGroup *group = g_ptr_array_index (groups, i);

      for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
        if (g_strcmp0 (group->key.tier, tier_at (t)) == 0)
          by_tier[t] = jsr_sat_add_u64 (by_tier[t], group->stats.events);
    }
  for (guint t = 1; t < JS_N_EVENT_TIERS; t++)
    g_string_append_printf (text, "%s%s %" G_GUINT64_FORMAT, t > 1 ? _ (", ") : "", _ (tier_at (t)),
                            by_tier[t]);
  {
    g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, p->agg->stalls.events);
    g_autofree char *tiers = g_string_free (text, FALSE);

    /* Translators: stall events in all, then by tier, then the main thread's
     * time blocked in them, e.g. "4 (noticeable 3, severe 1), 1.2 s blocked" */
    return g_strdup_printf (_ ("%s (%s), %s blocked"), total, tiers, blocked);
  }
}

static char *
describe_percentiles (const JsrHistogram *h, const char *unit_count)
{
  g_autofree char *p50 = cli_format_duration ((guint64) jsr_histogram_percentile (h, 0.50));
  g_autofree char *p95 = cli_format_duration ((guint64) jsr_histogram_percentile (h, 0.95));
  g_autofree char *p99 = cli_format_duration ((guint64) jsr_histogram_percentile (h, 0.99));

  return g_strdup_printf (_ ("P50 %s, P95 %s, P99 %s (%llu %s%s)"), p50, p95, p99,
                          (unsigned long long) h->count, unit_count,
                          h->approximate > 0 ? _ (", approximate: from reports without "
                                                  "histograms")
                                             : "");
}

static char *
join_filter (char **values)
{
  return values != NULL ? g_strjoinv (",", values) : NULL;
}

static void
format_overview (const Printer *p)
{
  const JsrAggregate *agg = p->agg;
  g_autoptr (CliTable) table = cli_table_new (2);
  g_autofree char *apps = describe_apps (agg);
  g_autofree char *monitored = cli_format_duration (agg->monitored_ns);
  g_autofree char *title = NULL;
  g_autofree char *clean = NULL;
  g_autofree char *stalls = describe_tiers (p);
  /* Every moment once: the stall events, and the frame events no stall
   * event covers (the only record of their stalls), as every export counts
   * them; to the millisecond: every export's total is this time (exports.md). */
  guint64 attributed_ns
      = jsr_sat_add_u64 (agg->stalls.attributed_ns, agg->frame_uncovered.attributed_ns);
  guint64 blocked_ns = jsr_sat_add_u64 (agg->stalls.total_ns, agg->frame_uncovered.total_ns);
  guint64 named = attributed_ns >= agg->signatures_other.total_ns
                      ? attributed_ns - agg->signatures_other.total_ns
                      : 0;
  g_autofree char *attributed = cli_format_duration_fine (attributed_ns);
  g_autofree char *share = cli_format_share (attributed_ns, blocked_ns);
  g_autofree char *unattributed = cli_format_duration_fine (
      jsr_sat_add_u64 (agg->stalls.unattributed_ns, agg->frame_uncovered.unattributed_ns));
  g_autofree char *attribution = NULL;
  guint n_installs = g_hash_table_size (agg->installs);
  guint64 frame_events = 0;

  title = g_strdup_printf (ngettext ("Jank report: %u run of %s", "Jank report: %u runs of %s",
                                     g_hash_table_size (agg->runs)),
                           g_hash_table_size (agg->runs), apps);
  clean = cli_text_sanitize (title);
  g_string_append_printf (p->out, "%s\n", clean);

  {
    g_autofree char *inputs = g_strdup_printf (
        ngettext ("%llu report", "%llu reports", (gulong) MIN (agg->reports, G_MAXULONG)),
        (unsigned long long) agg->reports);
    g_autofree char *line
        = n_installs > 0
              ? g_strdup_printf (ngettext ("%s, %s monitored, %u installation",
                                           "%s, %s monitored, %u installations", n_installs),
                                 inputs, monitored, n_installs)
              : g_strdup_printf (_ ("%s, %s monitored"), inputs, monitored);

    cli_table_add_row (table, _ ("Inputs"), line, NULL);
  }
  if (agg->filter != NULL)
    {
      g_autofree char *tiers = join_filter (agg->filter->tiers);
      g_autofree char *classes = join_filter (agg->filter->classes);
      g_autofree char *sources = join_filter (agg->filter->sources);
      g_autofree char *scenes = join_filter (agg->filter->scenes);
      GString *text = g_string_new (NULL);
      g_autofree char *line = NULL;

      if (tiers != NULL)
        g_string_append_printf (text, _ ("tier %s"), tiers);
      if (classes != NULL)
        g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", classes);
      if (sources != NULL)
        g_string_append_printf (text, _ ("%ssource %s"), text->len > 0 ? ", " : "", sources);
      if (scenes != NULL)
        g_string_append_printf (text, _ ("%sscene %s"), text->len > 0 ? ", " : "", scenes);
      g_string_append_printf (text, _ (" (%llu events left out)"),
                              (unsigned long long) agg->events_filtered_out);
      line = g_string_free (text, FALSE);
      cli_table_add_row (table, _ ("Filter"), line, NULL);
    }
  cli_table_add_row (table, _ ("Stall events"), stalls, NULL);
  {
    g_autofree char *named_text = cli_format_duration_fine (named);
    guint n_signatures = g_hash_table_size (agg->signatures);

    attribution = g_strdup_printf (
        ngettext ("%s (%s) to stacks, %s to %u signature; %s unattributed",
                  "%s (%s) to stacks, %s to %u signatures; %s unattributed", n_signatures),
        attributed, share, named_text, n_signatures, unattributed);
    cli_table_add_row (table, _ ("Attributed"), attribution, NULL);
  }
  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    frame_events = jsr_sat_add_u64 (frame_events, agg->frame_events_by_tier[t]);
  if (frame_events > 0 && agg->frame_uncovered.events > 0)
    {
      g_autofree char *time = cli_format_duration_fine (agg->frame_uncovered.attributed_ns);
      g_autofree char *line = g_strdup_printf (
          _ ("%llu, not counted above (frame events see the same stalls from the frame clock), but "
             "for %llu no stall event covers: their stacks (%s) are in the attributed time"),
          (unsigned long long) frame_events, (unsigned long long) agg->frame_uncovered.events,
          time);

      cli_table_add_row (table, _ ("Frame events"), line, NULL);
    }
  else if (frame_events > 0)
    {
      g_autofree char *line = g_strdup_printf (
          _ ("%llu, not counted above (frame events see the same stalls from the frame clock)"),
          (unsigned long long) frame_events);

      cli_table_add_row (table, _ ("Frame events"), line, NULL);
    }
  if (agg->iteration_busy.count > 0)
    {
      g_autofree char *line = describe_percentiles (&agg->iteration_busy, _ ("iterations"));

      cli_table_add_row (table, _ ("Iteration busy"), line, NULL);
    }
  if (agg->frame_time.count > 0)
    {
      g_autofree char *line = describe_percentiles (&agg->frame_time, _ ("frames"));
      g_autofree char *slow = cli_format_share (agg->frames_slow, agg->frames);
      g_autofree char *both = g_strdup_printf (_ ("%s; slow %s"), line, slow);

      cli_table_add_row (table, _ ("Frame time"), both, NULL);
    }
  if (agg->overflowed || agg->saturated)
    cli_table_add_row (table, _ ("Note"),
                       agg->saturated ? _ ("some sums reached 2^63 ns and stopped there")
                                      : _ ("a table bound was reached: the rest is counted in "
                                           "“other”"),
                       NULL);
  cli_table_format (table, INDENT, p->out);
}

/* ---- signatures ------------------------------------------------------------------ */

static void
format_signatures (const Printer *p)
{
  const JsrAggregate *agg = p->agg;
  g_autoptr (GPtrArray) sorted = jsr_aggregate_sorted_signatures (agg, p->sort);
  g_autoptr (CliTable) table = cli_table_new (8);
  guint shown = MIN (sorted->len, p->top);
  JsrAggStats rest = agg->signatures_other;
  guint64 rest_count = jsr_sat_add_u64 (agg->signatures_other_count,
                                        g_hash_table_size (agg->signatures_overflowed));

  for (guint c = 0; c < 7; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 7, MAX_SIGNATURE_COLUMNS);
  cli_table_add_row (table, "#", _ ("TOTAL"), _ ("MEAN"), _ ("MAX"), _ ("EVENTS"), _ ("SAMPLES"),
                     _ ("RUNS"), _ ("SIGNATURE"), NULL);
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
      {
        g_autofree char *rank = g_strdup_printf ("%u", i + 1);
        g_autofree char *total = cli_format_duration (sig->stats.total_ns);
        g_autofree char *mean = mean_text (sig->stats.total_ns, sig->stats.events);
        g_autofree char *max = cli_format_duration (sig->stats.max_ns);
        g_autofree char *events = count_text (sig->stats.events);
        g_autofree char *samples = count_text (sig->stats.samples);
        g_autofree char *runs = runs_text (agg, sig->stats.runs);

        cli_table_add_row (table, rank, total, mean, max, events, samples, runs,
                           cli_format_signature (sig->text), NULL);
      }
    }
  if (rest_count > 0 || rest.total_ns > 0)
    {
      g_autofree char *total = cli_format_duration (rest.total_ns);
      g_autofree char *events = count_text (rest.events);
      g_autofree char *samples = count_text (rest.samples);
      /* Time of stacks a report left out (stacks_omitted) has no signature. */
      g_autofree char *label
          = rest_count == 0
                ? g_strdup (_ ("(stacks left out of the reports)"))
                : g_strdup_printf (ngettext ("(%llu other signature)", "(%llu other signatures)",
                                             (gulong) MIN (rest_count, G_MAXULONG)),
                                   (unsigned long long) rest_count);

      cli_table_add_row (table, "", total, "", "", events, samples, "", label, NULL);
    }
  {
    g_autofree char *total = cli_format_duration (agg->stalls.unattributed_ns);

    cli_table_add_row (table, "", total, "", "", "", "", "",
                       _ ("(unattributed: before sampling started, or no stack)"), NULL);
  }

  g_string_append_printf (p->out, "\n%s (%u of %u)\n", sort_heading (p->sort), shown, sorted->len);
  cli_table_format (table, INDENT, p->out);
}

/* ---- tiers, classes, sources ----------------------------------------------------- */

static void
format_rows (const Printer *p, const char *heading, const char *first_column, GPtrArray *rows,
             gboolean with_callback, guint limit)
{
  g_autoptr (CliTable) table = cli_table_new (with_callback ? 7 : 6);
  guint c0 = with_callback ? 2 : 1;

  if (rows->len == 0)
    return;
  cli_table_set_max_width (table, 0, MAX_NAME_COLUMNS);
  if (with_callback)
    cli_table_set_max_width (table, 1, MAX_NAME_COLUMNS);
  for (guint c = c0; c < c0 + 5; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  if (with_callback)
    cli_table_add_row (table, first_column, _ ("CALLBACK"), _ ("EVENTS"), _ ("BLOCKED"), _ ("MEAN"),
                       _ ("MAX"), _ ("ATTRIBUTED"), NULL);
  else
    cli_table_add_row (table, first_column, _ ("EVENTS"), _ ("BLOCKED"), _ ("MEAN"), _ ("MAX"),
                       _ ("ATTRIBUTED"), NULL);
  for (guint i = 0; i < MIN (rows->len, limit); i++)
    {
      const CliReportRow *row = g_ptr_array_index (rows, i);
      g_autofree char *events = count_text (row->stats.events);
      g_autofree char *blocked = cli_format_duration (row->stats.total_ns);
      g_autofree char *mean = mean_text (row->stats.total_ns, row->stats.events);
      g_autofree char *max = cli_format_duration (row->stats.max_ns);
      g_autofree char *share = cli_format_share (row->stats.attributed_ns, row->stats.total_ns);

      if (with_callback)
        cli_table_add_row (table, row->label, row->callback != NULL ? row->callback : "-", events,
                           blocked, mean, max, share, NULL);
      else
        cli_table_add_row (table, row->label, events, blocked, mean, max, share, NULL);
    }
  if (rows->len > limit)
    g_string_append_printf (p->out, "\n%s (%u of %u)\n", heading, limit, rows->len);
  else
    g_string_append_printf (p->out, "\n%s\n", heading);
  cli_table_format (table, INDENT, p->out);
}

static void
format_groups (const Printer *p)
{
  CliReportGroups g;

  cli_report_groups_build (p->agg, &g);
  format_rows (p, _ ("By tier"), _ ("TIER"), g.ordered_tiers, FALSE, G_MAXUINT);
  format_rows (p, _ ("By class"), _ ("CLASS"), g.classes, FALSE, G_MAXUINT);
  format_rows (p, _ ("By source"), _ ("SOURCE"), g.sources, TRUE, p->top);
  /* Apps that label scenes (include/jankscope.h) get theirs. */
  if (g.any_scene)
    format_rows (p, _ ("By scene"), _ ("SCENE"), g.scenes, FALSE, p->top);
  cli_report_groups_clear (&g);
}

/* ---- posting sites ------------------------------------------------------------ */

/* The slow dispatches by where their sources were posted from
 * (docs/report-format.md, "Posting sites"). */
static void
format_postings (const Printer *p)
{
  const JsrAggPostings *postings = &p->agg->postings;
  g_autoptr (GPtrArray) sorted = jsr_agg_postings_sorted (postings);
  g_autoptr (CliTable) table = cli_table_new (6);
  guint shown = MIN (sorted->len, p->top);

  if (sorted->len == 0)
    return;
  cli_table_set_max_width (table, 0, MAX_NAME_COLUMNS);
  cli_table_set_max_width (table, 1, MAX_NAME_COLUMNS);
  for (guint c = 2; c < 5; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 5, MAX_SIGNATURE_COLUMNS);
  cli_table_add_row (table, _ ("POSTED FROM"), _ ("CALLBACK"), _ ("EVENTS"), _ ("BLOCKED"),
                     _ ("RUNS"), _ ("POSTING SIGNATURE"), NULL);
  for (guint i = 0; i < shown; i++)
    {
      const JsrAggPosting *e = g_ptr_array_index (sorted, i);
      g_autofree char *events = count_text (e->events);
      g_autofree char *blocked = cli_format_duration (e->total_ns);
      g_autofree char *runs = runs_text (p->agg, e->runs);

      cli_table_add_row (table, e->posted_from != NULL ? e->posted_from : "-",
                         e->callback != NULL ? e->callback : "-", events, blocked, runs,
                         cli_format_signature (e->signature), NULL);
    }
  if (postings->other_parts > 0)
    {
      g_autofree char *blocked = cli_format_duration (postings->other_ns);

      cli_table_add_row (table, _ ("(other posting sites)"), "", "", blocked, "", "", NULL);
    }
  g_string_append_printf (p->out, "\n%s (%u of %u)\n", _ ("Slow callbacks by posting site"), shown,
                          sorted->len);
  cli_table_format (table, INDENT, p->out);
}

/* ---- worst events ------------------------------------------------------------ */

/* A culprit with where its dispatch was posted from, when known (takes
 * `culprit`); `inherited`: that name came from an earlier attach's stack. */
static char *
with_posted_from (char *culprit, const char *posted_from, gboolean inherited)
{
  char *out;

  if (posted_from == NULL)
    return culprit;
  if (inherited)
    /* Translators: a culprit, then the function that posted the callback it
     * ran in, found on a stack inherited from an earlier post from the same
     * place, e.g. "gtk_text_layout_validate (posted from load_big_text,
     * inherited stack)" */
    out = g_strdup_printf (_ ("%s (posted from %s, inherited stack)"), culprit, posted_from);
  else
    /* Translators: a culprit, then the function that posted the callback it
     * ran in, e.g. "gtk_text_layout_validate (posted from load_big_text)" */
    out = g_strdup_printf (_ ("%s (posted from %s)"), culprit, posted_from);
  g_free (culprit);
  return out;
}

/* A part's class, as a group's: "compute", "wait (sleep)", "unknown". */
static char *
part_class (const JsrAggPart *part)
{
  JsrAggKey key = { .klass = part->klass, .wait = part->wait };

  return cli_format_class (&key);
}

/* The parts of a worst event under its row, each with its own cause
 * (docs/report-format.md, "Causes per part"): its callback, duration,
 * tier, class, culprit, attributed and unattributed time. */
static void
add_part_rows (CliTable *table, const JsrAggEvent *e)
{
  guint shown = e->parts != NULL ? e->parts->len : 0;

  if (shown < 2 && e->parts_count < 2)
    return;
  for (guint i = 0; i < shown; i++)
    {
      const JsrAggPart *part = g_ptr_array_index (e->parts, i);
      const char *what = jsr_dispatch_label (part->callback, part->source);
      g_autofree char *label = g_strdup_printf ("  %s", what != NULL         ? what
                                                        : part->type != NULL ? part->type
                                                                             : "?");
      g_autofree char *duration = cli_format_duration (part->duration_ns);
      g_autofree char *klass = part_class (part);
      g_autofree char *culprit
          = with_posted_from (cli_format_culprit (part->culprit, part->culprit_callback),
                              part->posted_from, part->posted_from_inherited);
      g_autofree char *attributed = part->attributed_ns >= 0
                                        ? cli_format_duration ((guint64) part->attributed_ns)
                                        : g_strdup ("-");
      g_autofree char *unattributed
          = part->attributed_ns >= 0 ? cli_format_duration (
                part->duration_ns - MIN ((guint64) part->attributed_ns, part->duration_ns))
                                     : g_strdup ("-");

      /* Translators: the first column of a part's row under its event:
       * "part" and the part's callback */
      cli_table_add_row (table, label, C_ ("worst events", "part"), duration,
                         part->tier != NULL ? part->tier : "-", klass, culprit, attributed,
                         unattributed, NULL);
    }
  if (e->parts_count > shown)
    {
      g_autofree char *more
          = g_strdup_printf (ngettext ("  … %llu more part", "  … %llu more parts",
                                       (gulong) MIN (e->parts_count - shown, G_MAXULONG)),
                             (unsigned long long) (e->parts_count - shown));

      cli_table_add_row (table, more, "", "", "", "", "", "", "", NULL);
    }
}

static void
format_worst (const Printer *p)
{
  const JsrAggregate *agg = p->agg;
  g_autoptr (CliTable) table = cli_table_new (8);
  guint shown = MIN (agg->worst->len, p->top);

  if (shown == 0)
    return;
  for (guint c = 1; c < 3; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_set_align (table, 6, CLI_ALIGN_RIGHT);
  cli_table_set_align (table, 7, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 0, MAX_NAME_COLUMNS);
  cli_table_set_max_width (table, 5, 50);
  cli_table_add_row (table, _ ("APP (PID)"), _ ("EVENT"), _ ("DURATION"), _ ("TIER"), _ ("CLASS"),
                     _ ("CULPRIT"), _ ("ATTRIBUTED"), _ ("UNATTRIBUTED"), NULL);
  for (guint i = 0; i < shown; i++)
    {
      const JsrAggEvent *e = g_ptr_array_index (agg->worst, i);
      g_autofree char *app
          = g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", e->app != NULL ? e->app : "?", e->pid);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, e->event_id);
      g_autofree char *duration = cli_format_duration (e->duration_ns);
      g_autofree char *klass = cli_format_class (&e->key);
      g_autofree char *culprit
          = with_posted_from (cli_format_culprit (e->culprit, e->culprit_callback), e->posted_from,
                              e->posted_from_inherited);
      g_autofree char *attributed = cli_format_duration (e->attributed_ns);
      g_autofree char *unattributed = cli_format_duration (e->unattributed_ns);

      cli_table_add_row (table, app, id, duration, e->key.tier, klass, culprit, attributed,
                         unattributed, NULL);
      add_part_rows (table, e);
    }
  g_string_append_printf (p->out, _ ("\nWorst events (%u of %llu)\n"), shown,
                          (unsigned long long) agg->stalls.events);
  cli_table_format (table, INDENT, p->out);
}

/* ---- the command ------------------------------------------------------------ */

static char **
split_list (const char *text)
{
  g_auto (GStrv) parts = NULL;
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);

  if (text == NULL)
    return NULL;
  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] != '\0')
        g_ptr_array_add (out, g_strdup (parts[i]));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

static gboolean
parse_sort (const char *text, JsrAggSort *out)
{
  static const struct
  {
    const char *name;
    JsrAggSort sort;
  } sorts[] = {
    { "time", JSR_AGG_SORT_TIME },       { "count", JSR_AGG_SORT_EVENTS },
    { "events", JSR_AGG_SORT_EVENTS },   { "runs", JSR_AGG_SORT_RUNS },
    { "samples", JSR_AGG_SORT_SAMPLES },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sorts); i++)
    if (g_strcmp0 (text, sorts[i].name) == 0)
      {
        *out = sorts[i].sort;
        return TRUE;
      }
  return FALSE;
}

static gboolean
check_tiers (char **tiers, char **bad)
{
  for (guint i = 0; tiers != NULL && tiers[i] != NULL; i++)
    {
      JsTier tier;

      if (!js_tier_from_name (tiers[i], &tier))
        {
          *bad = tiers[i];
          return FALSE;
        }
    }
  return TRUE;
}

int
cli_cmd_report (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsrAggregate) agg = NULL;
  g_autoptr (GString) out = NULL;
  g_auto (GStrv) files = NULL;
  g_autofree char *sort_text = NULL, *top_text = NULL, *frames_text = NULL, *jobs_text = NULL;
  g_autofree char *tier_text = NULL, *class_text = NULL, *source_text = NULL;
  g_autofree char *scene_text = NULL;
  JsrAggFilter filter = { 0 };
  CliFoldOptions options = { 0 };
  Printer printer = { .sort = JSR_AGG_SORT_TIME, .top = DEFAULT_TOP };
  guint signature_frames = JS_SIGNATURE_DEFAULT_FRAMES;
  guint folded;
  char *bad = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort_text,
      N_ ("Order the signatures by stall time (default), count (events) or runs affected"),
      "time|count|runs" },
    { "top", 'n', 0, G_OPTION_ARG_STRING, &top_text, N_ ("Rows per table (default 10)"), "N" },
    { "tier", 0, 0, G_OPTION_ARG_STRING, &tier_text,
      N_ ("Only events of these tiers (noticeable, severe, frozen, hang)"), "TIER[,TIER…]" },
    { "class", 0, 0, G_OPTION_ARG_STRING, &class_text,
      N_ ("Only events of these classes (compute, wait, mixed, unknown) or wait kinds (lock, "
          "io, sleep, poll, ipc, child, other)"),
      "CLASS[,CLASS…]" },
    { "source", 0, 0, G_OPTION_ARG_STRING, &source_text,
      N_ ("Only events whose source or callback matches one of these patterns (* and ?)"),
      "PATTERN[,PATTERN…]" },
    { "scene", 0, 0, G_OPTION_ARG_STRING, &scene_text,
      N_ ("Only events in a scene (the app's labels) that matches one of these patterns"),
      "PATTERN[,PATTERN…]" },
    { "signature-frames", 0, 0, G_OPTION_ARG_STRING, &frames_text,
      N_ ("Frames per signature (1-64, default 5); reports only: aggregates keep theirs"), "N" },
    { "keep-going", 'k', 0, G_OPTION_ARG_NONE, &options.keep_going,
      N_ ("Skip unreadable files with a warning instead of failing"), NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_STRING, &jobs_text,
      N_ ("Threads that read files (default: one per processor, at most 8)"), "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Write the report as JSON (docs/cli-json.md)"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };

  context = cli_option_context_new ("report", _ ("FILE…"),
                                    _ ("Ranks the stack signatures of the jank in reports and "
                                       "aggregates (jankscope merge) of many runs: stall time, "
                                       "events and runs per signature, per tier, class and "
                                       "source, and the worst events. A folder stands for its "
                                       "*.json files."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* Options may follow the files (no app arguments here to protect). */
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (files == NULL || files[0] == NULL)
    return cli_usage_error (context, _ ("no report file given"));
  if (sort_text != NULL && !parse_sort (sort_text, &printer.sort))
    {
      g_autofree char *value = jsr_display (sort_text);

      return cli_usage_error (context, _ ("--sort must be time, count or runs, not “%s”"), value);
    }
  if (top_text != NULL && !cli_parse_count (top_text, 1, 100000, &printer.top))
    {
      g_autofree char *value = jsr_display (top_text);

      return cli_usage_error (context, _ ("--top must be a number from 1 to 100000, not “%s”"),
                              value);
    }
  if (frames_text != NULL
      && !cli_parse_count (frames_text, 1, JS_SIGNATURE_MAX_FRAMES, &signature_frames))
    {
      g_autofree char *value = jsr_display (frames_text);

      return cli_usage_error (context,
                              _ ("--signature-frames must be a number from 1 to %d, not “%s”"),
                              JS_SIGNATURE_MAX_FRAMES, value);
    }
  if (jobs_text != NULL && !cli_parse_count (jobs_text, 1, 64, &options.threads))
    {
      g_autofree char *value = jsr_display (jobs_text);

      return cli_usage_error (context, _ ("--jobs must be a number from 1 to 64, not “%s”"), value);
    }

  filter.tiers = split_list (tier_text);
  filter.classes = split_list (class_text);
  filter.sources = split_list (source_text);
  filter.scenes = split_list (scene_text);
  if (!check_tiers (filter.tiers, &bad))
    {
      g_autofree char *value = jsr_display (bad);
      int status = cli_usage_error (context,
                                    _ ("--tier must be noticeable, severe, frozen or hang, not "
                                       "“%s”"),
                                    value);

      g_strfreev (filter.tiers);
      g_strfreev (filter.classes);
      g_strfreev (filter.sources);
      g_strfreev (filter.scenes);
      return status;
    }

  agg = jsr_aggregate_new (signature_frames, JSR_AGGREGATE_DEFAULT_MAX_SIGNATURES);
  jsr_aggregate_set_filter (agg, &filter);
  g_strfreev (filter.tiers);
  g_strfreev (filter.classes);
  g_strfreev (filter.sources);
  g_strfreev (filter.scenes);

  if (!cli_fold_files (agg, files, &options, &folded, NULL))
    return CLI_EXIT_FAILURE;
  if (folded == 0)
    {
      cli_error (_ ("no report could be read"));
      return CLI_EXIT_FAILURE;
    }

  out = g_string_new (NULL);
  printer.agg = agg;
  printer.out = out;
  if (json)
    {
      cli_report_write_json (agg, printer.sort, printer.top, out);
      return cli_print (out->str) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    }
  format_overview (&printer);
  cli_report_format_diagnoses (agg, printer.top, out);
  format_signatures (&printer);
  format_groups (&printer);
  format_postings (&printer);
  format_worst (&printer);

  return cli_print (out->str) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
