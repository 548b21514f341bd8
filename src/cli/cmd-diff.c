/* cmd-diff.c: "jankscope diff BASE NEW [--threshold=5%] [--json] [--strict]", a CI gate
 *
 * Compares two runs (reports, aggregates, or folders of them, each side
 * merged): P95 and P99 of the main loop's iteration busy time (the time it
 * spent dispatching: every dispatch of an iteration plus its overhead) and
 * of frame time, the jank rate (stall events per minute of monitored time)
 * and the slow-frame rate. Exit status: 1 when a metric regressed by more
 * than the threshold (5%: docs/background.md, "The regression gate"), 0
 * otherwise, 2 on bad input, 3 with --strict when the two sides are runs of
 * different programs (no app name in common: a gnome-calculator run against
 * a gedit one says nothing about a regression; without --strict a warning).
 * --json writes the same table as JSON (docs/cli-json.md).
 *
 * Not failing on noise (docs/aggregate-format.md, "jankscope diff"):
 *  - a percentile is judged only with enough values on both sides (P95:
 *    200, P99: 1000), a rate with enough events (10 on both sides together)
 *    and monitored time (10 s per side), a slow-frame rate with 200 frames
 *    per side and 10 slow frames together; otherwise it says so;
 *  - a change beyond the threshold fails only when it is also beyond
 *    sampling noise: for a percentile, the new side's value at the lower
 *    end of its rank's 90% confidence interval must exceed the base side's
 *    at the upper end, in another histogram bucket; for a rate, a one-sided
 *    test at 95% (events as Poisson counts, slow frames as proportions).
 * Percentiles come from the histograms, read by interpolation inside the
 * bucket (jsr-histogram.h), so a small shift reads as a small change.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "analysis.h"
#include "cli-commands.h"
#include "cli-common.h"
#include "js-percentile.h"
#include "js-signature.h"
#include "js-json-writer.h"
#include "jsr-saturate.h"
#include "text-table.h"

#define INDENT "  "
#define DEFAULT_THRESHOLD 0.05
#define Z_ONE_SIDED_95 1.645
#define MIN_VALUES_P95 200
#define MIN_VALUES_P99 1000
#define MIN_EVENTS 10
#define MIN_MONITORED_NS (10 * G_GINT64_CONSTANT (1000000000))
#define MIN_FRAMES 200
#define MIN_SLOW_FRAMES 10
/* Exit status of --strict when the sides are different programs: not 1
 * (regressed) nor 2 (bad input). */
#define EXIT_DIFFERENT_PROGRAMS 3

typedef enum
{
  VERDICT_OK,
  VERDICT_IMPROVED,
  VERDICT_REGRESSED,
  VERDICT_NOISE,
  VERDICT_TOO_FEW,
  VERDICT_NONE, /* no values on either side: not shown */
} Verdict;

typedef enum
{
  UNIT_NS,
  UNIT_PER_MINUTE,
  UNIT_FRACTION,
} Unit;

typedef struct
{
  const char *id; /* the JSON's name of the metric */
  const char *name;
  Unit unit;
  double base;
  double new;
  double change; /* (new - base) / base; INFINITY from 0 */
  Verdict verdict;
  char *why; /* for noise and too few */
  gboolean approximate;
} Metric;

static void
metric_clear (Metric *m)
{
  g_free (m->why);
}

static double
relative_change (double base, double new)
{
  if (base > 0)
    return (new - base) / base;
  return new > 0 ? INFINITY : 0;
}

static char *
format_value (Unit unit, double value)
{
  switch (unit)
    {
    case UNIT_PER_MINUTE:
      return g_strdup_printf (_ ("%.2f/min"), value);
    case UNIT_FRACTION:
      return g_strdup_printf ("%.2f%%", 100 * value);
    case UNIT_NS:
    default:
      return cli_format_duration (jsr_double_to_uint64 (round (value)));
    }
}

static char *
format_change (double change)
{
  if (isinf (change))
    return g_strdup (_ ("new"));
  return g_strdup_printf ("%+.1f%%", 100 * change);
}

/* Verdict of a change that is not noise. */
static Verdict
judge (double change, double threshold)
{
  if (change > threshold)
    return VERDICT_REGRESSED;
  if (change < -threshold)
    return VERDICT_IMPROVED;
  return VERDICT_OK;
}

static void
compare_percentile (Metric *m, const char *id, const char *name, const char *values_name,
                    const JsrHistogram *a, const JsrHistogram *b, double q, double threshold)
{
  guint64 needed = q >= 0.99 ? MIN_VALUES_P99 : MIN_VALUES_P95;
  double sigma_a, sigma_b, base_high, new_low;
  guint bucket_a, bucket_b;

  m->id = id;
  m->name = name;
  m->unit = UNIT_NS;
  m->approximate = a->approximate > 0 || b->approximate > 0;
  if (a->count == 0 && b->count == 0)
    {
      m->verdict = VERDICT_NONE;
      return;
    }
  m->base = jsr_histogram_value_at_rank (a, q * (double) a->count);
  m->new = jsr_histogram_value_at_rank (b, q * (double) b->count);
  m->change = relative_change (m->base, m->new);
  if (a->count < needed || b->count < needed)
    {
      m->verdict = VERDICT_TOO_FEW;
      m->why = g_strdup_printf (_ ("too few %s to judge (%llu base, %llu new; %llu needed)"),
                                values_name, (unsigned long long) a->count,
                                (unsigned long long) b->count, (unsigned long long) needed);
      return;
    }
  m->verdict = judge (m->change, threshold);
  if (m->verdict != VERDICT_REGRESSED || m->approximate)
    return;

  /* Beyond noise: the 90% confidence intervals of the rank (binomial, normal
   * approximation) do not overlap, and the values are in other buckets. */
  sigma_a = sqrt ((double) a->count * q * (1 - q));
  sigma_b = sqrt ((double) b->count * q * (1 - q));
  base_high = jsr_histogram_value_at_rank (a, q * (double) a->count + Z_ONE_SIDED_95 * sigma_a);
  new_low = jsr_histogram_value_at_rank (b, q * (double) b->count - Z_ONE_SIDED_95 * sigma_b);
  bucket_a = jsr_histogram_bucket_of_rank (a, js_percentile_rank (a->count, q));
  bucket_b = jsr_histogram_bucket_of_rank (b, js_percentile_rank (b->count, q));
  if (!(new_low > base_high) || bucket_a == bucket_b)
    {
      g_autofree char *low = format_value (UNIT_NS, new_low);
      g_autofree char *high = format_value (UNIT_NS, base_high);

      m->verdict = VERDICT_NOISE;
      m->why = bucket_a == bucket_b
                   ? g_strdup (_ ("within noise: both in the same histogram bucket"))
                   : g_strdup_printf (_ ("within noise: new could be as low as %s, base as high "
                                         "as %s"),
                                      low, high);
    }
}

/* One-sided z of "the second rate is higher" for Poisson counts k_a over
 * t_a and k_b over t_b (conditional binomial test). */
static double
poisson_z (double k_a, double t_a, double k_b, double t_b)
{
  double total = k_a + k_b;
  double p = t_b / (t_a + t_b);

  return (k_b - total * p) / sqrt (total * p * (1 - p));
}

static void
compare_jank_rate (Metric *m, const JsrAggregate *a, const JsrAggregate *b, double threshold)
{
  double k_a = (double) a->events_total, k_b = (double) b->events_total;
  double t_a = (double) a->monitored_ns, t_b = (double) b->monitored_ns;

  m->id = "jank_rate";
  m->name = _ ("jank rate (events per minute)");
  m->unit = UNIT_PER_MINUTE;
  if (t_a <= 0 && t_b <= 0)
    {
      m->verdict = VERDICT_NONE;
      return;
    }
  m->base = t_a > 0 ? k_a / t_a * 60e9 : 0;
  m->new = t_b > 0 ? k_b / t_b * 60e9 : 0;
  m->change = relative_change (m->base, m->new);
  if (t_a < MIN_MONITORED_NS || t_b < MIN_MONITORED_NS)
    {
      g_autofree char *base = cli_format_duration (jsr_double_to_uint64 (t_a));
      g_autofree char *new = cli_format_duration (jsr_double_to_uint64 (t_b));

      m->verdict = VERDICT_TOO_FEW;
      m->why = g_strdup_printf (_ ("too little monitored time to judge (%s base, %s new; 10 s "
                                   "needed on each side)"),
                                base, new);
      return;
    }
  if (k_a + k_b < MIN_EVENTS)
    {
      m->verdict = VERDICT_TOO_FEW;
      m->why = g_strdup_printf (_ ("too few jank events to judge (%.0f base, %.0f new; %d "
                                   "needed in all)"),
                                k_a, k_b, MIN_EVENTS);
      return;
    }
  m->verdict = judge (m->change, threshold);
  if (m->verdict == VERDICT_REGRESSED && poisson_z (k_a, t_a, k_b, t_b) < Z_ONE_SIDED_95)
    {
      m->verdict = VERDICT_NOISE;
      m->why = g_strdup_printf (_ ("within noise for %.0f and %.0f events (not significant "
                                   "at 95%%)"),
                                k_a, k_b);
    }
}

static void
compare_slow_frames (Metric *m, const JsrAggregate *a, const JsrAggregate *b, double threshold)
{
  double f_a = (double) a->frames, f_b = (double) b->frames;
  double s_a = (double) a->frames_slow, s_b = (double) b->frames_slow;
  double pooled, z;

  m->id = "slow_frames";
  m->name = _ ("slow frames");
  m->unit = UNIT_FRACTION;
  if (f_a == 0 && f_b == 0)
    {
      m->verdict = VERDICT_NONE;
      return;
    }
  m->base = f_a > 0 ? s_a / f_a : 0;
  m->new = f_b > 0 ? s_b / f_b : 0;
  m->change = relative_change (m->base, m->new);
  if (f_a < MIN_FRAMES || f_b < MIN_FRAMES || s_a + s_b < MIN_SLOW_FRAMES)
    {
      m->verdict = VERDICT_TOO_FEW;
      m->why = g_strdup_printf (_ ("too few frames to judge (%.0f base, %.0f new, %.0f slow in "
                                   "all; %d per side and %d slow needed)"),
                                f_a, f_b, s_a + s_b, MIN_FRAMES, MIN_SLOW_FRAMES);
      return;
    }
  m->verdict = judge (m->change, threshold);
  pooled = (s_a + s_b) / (f_a + f_b);
  z = (m->new - m->base) / sqrt (pooled * (1 - pooled) * (1 / f_a + 1 / f_b));
  if (m->verdict == VERDICT_REGRESSED && !(z >= Z_ONE_SIDED_95))
    {
      m->verdict = VERDICT_NOISE;
      m->why = g_strdup (_ ("within noise (not significant at 95%)"));
    }
}

static const char *
verdict_label (Verdict verdict)
{
  switch (verdict)
    {
    case VERDICT_IMPROVED:
      return _ ("improved");
    case VERDICT_REGRESSED:
      return _ ("REGRESSED");
    case VERDICT_NOISE:
      return _ ("noise");
    case VERDICT_TOO_FEW:
      return _ ("not judged");
    case VERDICT_OK:
    default:
      return _ ("ok");
    }
}

/* The verdict's name in the JSON (docs/cli-json.md), not translated. */
static const char *
verdict_id (Verdict verdict)
{
  switch (verdict)
    {
    case VERDICT_IMPROVED:
      return "improved";
    case VERDICT_REGRESSED:
      return "regressed";
    case VERDICT_NOISE:
      return "noise";
    case VERDICT_TOO_FEW:
      return "not_judged";
    case VERDICT_OK:
    default:
      return "ok";
    }
}

static const char *
unit_id (Unit unit)
{
  switch (unit)
    {
    case UNIT_PER_MINUTE:
      return "per_minute";
    case UNIT_FRACTION:
      return "fraction";
    case UNIT_NS:
    default:
      return "ns";
    }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The app names of a side, sorted; "(unknown)" (a report without a
 * process name or exe) is left out: it tells nothing. */
static GPtrArray *
side_apps (const JsrAggregate *agg)
{
  GPtrArray *apps = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer name;

  g_hash_table_iter_init (&iter, agg->apps);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    if (strcmp (name, "(unknown)") != 0)
      g_ptr_array_add (apps, name);
  g_ptr_array_sort (apps, compare_names);
  return apps;
}

/* Different programs: both sides name their apps and no name is on both
 * (an app beyond the aggregate's table of names is not known: it does not
 * count). */
static gboolean
different_programs (GPtrArray *base_apps, GPtrArray *new_apps)
{
  if (base_apps->len == 0 || new_apps->len == 0)
    return FALSE;
  for (guint i = 0; i < base_apps->len; i++)
    for (guint j = 0; j < new_apps->len; j++)
      if (strcmp (g_ptr_array_index (base_apps, i), g_ptr_array_index (new_apps, j)) == 0)
        return FALSE;
  return TRUE;
}

static char *
join_apps (GPtrArray *apps)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < apps->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? ", " : "",
                            (const char *) g_ptr_array_index (apps, i));
  return g_string_free (text, FALSE);
}

static void
write_apps (JsJsonWriter *w, const char *member, GPtrArray *apps)
{
  js_json_writer_member (w, member);
  js_json_writer_begin_array (w);
  for (guint i = 0; i < apps->len; i++)
    js_json_writer_string (w, g_ptr_array_index (apps, i));
  js_json_writer_end_array (w);
}

/* A metric's value: integer ns for times (as the text rounds them), a
 * number for rates and fractions. */
static void
write_value (JsJsonWriter *w, Unit unit, double value)
{
  if (unit == UNIT_NS)
    js_json_writer_uint (w, jsr_double_to_uint64 (round (value)));
  else
    js_json_writer_double (w, value);
}

static void
write_metric (JsJsonWriter *w, const Metric *m)
{
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "id");
  js_json_writer_string (w, m->id);
  js_json_writer_member (w, "name");
  js_json_writer_string (w, m->name);
  js_json_writer_member (w, "unit");
  js_json_writer_string (w, unit_id (m->unit));
  js_json_writer_member (w, "base");
  write_value (w, m->unit, m->base);
  js_json_writer_member (w, "new");
  write_value (w, m->unit, m->new);
  /* From 0 to more: no ratio (the text's "new"). */
  js_json_writer_member (w, "change");
  if (isinf (m->change))
    js_json_writer_null (w);
  else
    js_json_writer_double (w, m->change);
  js_json_writer_member (w, "verdict");
  js_json_writer_string (w, verdict_id (m->verdict));
  js_json_writer_member (w, "why");
  js_json_writer_string (w, m->why);
  js_json_writer_member (w, "approximate");
  js_json_writer_bool (w, m->approximate);
  js_json_writer_end_object (w);
}

/* "5%", "5", "2.5%": a percentage above 0, at most 1000. */
static gboolean
parse_threshold (const char *text, double *out)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  gsize length = strlen (copy);
  char *end;
  double value;

  if (length > 0 && copy[length - 1] == '%')
    copy[--length] = '\0';
  if (length == 0)
    return FALSE;
  value = g_ascii_strtod (copy, &end);
  if (*end != '\0' || !(value > 0 && value <= 1000))
    return FALSE;
  *out = value / 100;
  return TRUE;
}

static gboolean
fold_side (JsrAggregate *agg, const char *path, const CliFoldOptions *options)
{
  char *arguments[] = { (char *) path, NULL };
  guint folded;

  if (!cli_fold_files (agg, arguments, options, &folded, NULL))
    return FALSE;
  if (folded == 0)
    {
      g_autofree char *name = jsr_display_filename (path);

      cli_error (_ ("%s: no report could be read"), name);
      return FALSE;
    }
  return TRUE;
}

int
cli_cmd_diff (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsrAggregate) base = NULL;
  g_autoptr (JsrAggregate) new = NULL;
  g_autoptr (CliTable) table = NULL;
  g_autoptr (GString) out = NULL;
  g_auto (GStrv) files = NULL;
  g_autofree char *threshold_text = NULL;
  g_autofree char *base_name = NULL, *new_name = NULL;
  g_autoptr (GPtrArray) base_apps = NULL;
  g_autoptr (GPtrArray) new_apps = NULL;
  gboolean json = FALSE, strict = FALSE, different = FALSE;
  int status;
  CliFoldOptions options = { .threads = 0 };
  double threshold = DEFAULT_THRESHOLD;
  Metric metrics[6] = { { 0 } };
  guint regressions = 0, unjudged = 0;
  const GOptionEntry entries[]
      = { { "threshold", 't', 0, G_OPTION_ARG_STRING, &threshold_text,
            N_ ("Largest accepted increase of a metric (default 5%)"), N_ ("PERCENT") },
          { "json", 0, 0, G_OPTION_ARG_NONE, &json,
            N_ ("Write the comparison as JSON (docs/cli-json.md)"), NULL },
          { "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
            N_ ("Exit with 3 when BASE and NEW are runs of different programs"), NULL },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
          G_OPTION_ENTRY_NULL };

  context = cli_option_context_new ("diff", _ ("BASE NEW"),
                                    _ ("Compares two runs (reports, aggregates, or folders of "
                                       "them) and exits with 1 when P95 or P99 of iteration "
                                       "busy time or frame time, the jank rate or the slow-frame "
                                       "rate regressed by more than the threshold, 0 otherwise, "
                                       "2 on bad input or when the result cannot be written, 3 "
                                       "with --strict when the two sides are runs of different "
                                       "programs (no app name in common)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* Options may follow the files (no app arguments here to protect). */
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (files == NULL || files[0] == NULL || files[1] == NULL)
    return cli_usage_error (context, _ ("two files are needed: BASE and NEW"));
  if (files[2] != NULL)
    return cli_usage_error (context, _ ("only two files can be compared: BASE and NEW"));
  if (threshold_text != NULL && !parse_threshold (threshold_text, &threshold))
    {
      g_autofree char *value = jsr_display (threshold_text);

      return cli_usage_error (context,
                              _ ("--threshold must be a percentage above 0 and at most 1000, like "
                                 "5%%, not “%s”"),
                              value);
    }

  base = jsr_aggregate_new (JS_SIGNATURE_DEFAULT_FRAMES, JSR_AGGREGATE_DEFAULT_MAX_SIGNATURES);
  new = jsr_aggregate_new (JS_SIGNATURE_DEFAULT_FRAMES, JSR_AGGREGATE_DEFAULT_MAX_SIGNATURES);
  if (!fold_side (base, files[0], &options) || !fold_side (new, files[1], &options))
    return CLI_EXIT_USAGE;

  compare_percentile (&metrics[0], "iteration_busy_p95", _ ("iteration busy P95"), _ ("iterations"),
                      &base->iteration_busy, &new->iteration_busy, 0.95, threshold);
  compare_percentile (&metrics[1], "iteration_busy_p99", _ ("iteration busy P99"), _ ("iterations"),
                      &base->iteration_busy, &new->iteration_busy, 0.99, threshold);
  compare_percentile (&metrics[2], "frame_time_p95", _ ("frame time P95"), _ ("frames"),
                      &base->frame_time, &new->frame_time, 0.95, threshold);
  compare_percentile (&metrics[3], "frame_time_p99", _ ("frame time P99"), _ ("frames"),
                      &base->frame_time, &new->frame_time, 0.99, threshold);
  compare_jank_rate (&metrics[4], base, new, threshold);
  compare_slow_frames (&metrics[5], base, new, threshold);

  base_name = g_filename_display_name (files[0]);
  new_name = g_filename_display_name (files[1]);

  /* Runs of two programs compare nothing: said on stderr, one line. */
  base_apps = side_apps (base);
  new_apps = side_apps (new);
  different = different_programs (base_apps, new_apps);
  if (different)
    {
      g_autofree char *base_list = join_apps (base_apps);
      g_autofree char *new_list = join_apps (new_apps);
      g_autofree char *base_shown = jsr_display (base_list);
      g_autofree char *new_shown = jsr_display (new_list);

      cli_warning (_ ("BASE and NEW are runs of different programs (%s, %s): the comparison "
                      "says nothing about a regression"),
                   base_shown, new_shown);
    }

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      if (metrics[i].verdict == VERDICT_REGRESSED)
        regressions++;
      if (metrics[i].verdict == VERDICT_TOO_FEW)
        unjudged++;
    }
  if (strict && different)
    status = EXIT_DIFFERENT_PROGRAMS;
  else
    status = regressions > 0 ? CLI_EXIT_FAILURE : CLI_EXIT_OK;

  out = g_string_new (NULL);
  if (json)
    {
      JsJsonWriter w;

      js_json_writer_init (&w, out, JS_JSON_WRITER_PRETTY);
      js_json_writer_begin_object (&w);
      js_json_writer_member (&w, "format");
      js_json_writer_string (&w, "jankscope-diff-json");
      js_json_writer_member (&w, "version");
      js_json_writer_int (&w, 1);
      js_json_writer_member (&w, "base");
      js_json_writer_string (&w, base_name);
      js_json_writer_member (&w, "new");
      js_json_writer_string (&w, new_name);
      {
        char percent[G_ASCII_DTOSTR_BUF_SIZE];

        /* As the text says it ("%g%%"): 5, not 0.05 with binary noise. */
        js_json_writer_member (&w, "threshold_percent");
        js_json_writer_number (&w,
                               g_ascii_formatd (percent, sizeof percent, "%g", threshold * 100));
      }
      write_apps (&w, "base_apps", base_apps);
      write_apps (&w, "new_apps", new_apps);
      js_json_writer_member (&w, "different_programs");
      js_json_writer_bool (&w, different);
      js_json_writer_member (&w, "metrics");
      js_json_writer_begin_array (&w);
      for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
        if (metrics[i].verdict != VERDICT_NONE)
          write_metric (&w, &metrics[i]);
      js_json_writer_end_array (&w);
      js_json_writer_member (&w, "regressions");
      js_json_writer_uint (&w, regressions);
      js_json_writer_member (&w, "not_judged");
      js_json_writer_uint (&w, unjudged);
      js_json_writer_member (&w, "regressed");
      js_json_writer_bool (&w, regressions > 0);
      js_json_writer_member (&w, "exit_status");
      js_json_writer_int (&w, status);
      js_json_writer_end_object (&w);
      g_string_append_c (out, '\n');
      for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
        metric_clear (&metrics[i]);
      if (!cli_print (out->str))
        return CLI_EXIT_USAGE;
      return status;
    }
  {
    g_autofree char *title = g_strdup_printf (_ ("jankscope diff: %s → %s (threshold %g%%)"),
                                              base_name, new_name, threshold * 100);
    g_autofree char *clean = cli_text_sanitize (title);

    g_string_append_printf (out, "%s\n\n", clean);
  }

  table = cli_table_new (6);
  for (guint c = 1; c < 4; c++)
    cli_table_set_align (table, c, CLI_ALIGN_RIGHT);
  cli_table_add_row (table, _ ("METRIC"), _ ("BASE"), _ ("NEW"), _ ("CHANGE"), _ ("VERDICT"),
                     _ ("WHY"), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      Metric *m = &metrics[i];
      g_autofree char *base_text = NULL, *new_text = NULL, *change = NULL, *why = NULL;

      if (m->verdict == VERDICT_NONE)
        continue;
      base_text = format_value (m->unit, m->base);
      new_text = format_value (m->unit, m->new);
      change = format_change (m->change);
      if (m->approximate)
        why = g_strdup_printf ("%s%s%s", m->why != NULL ? m->why : "", m->why != NULL ? " " : "",
                               _ ("(approximate: from reports without histograms)"));
      else
        why = g_strdup (m->why != NULL ? m->why : "");
      cli_table_add_row (table, m->name, base_text, new_text, change, verdict_label (m->verdict),
                         why, NULL);
    }
  cli_table_format (table, INDENT, out);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      Metric *m = &metrics[i];

      if (m->verdict == VERDICT_REGRESSED)
        {
          g_autofree char *base_text = format_value (m->unit, m->base);
          g_autofree char *new_text = format_value (m->unit, m->new);
          g_autofree char *change = format_change (m->change);

          g_string_append_printf (out, _ ("Regressed: %s %s → %s (%s, more than %g%%)\n"), m->name,
                                  base_text, new_text, change, threshold * 100);
        }
    }
  if (regressions > 0)
    g_string_append_printf (out,
                            ngettext ("Result: %u metric regressed by more than %g%%\n",
                                      "Result: %u metrics regressed by more than %g%%\n",
                                      regressions),
                            regressions, threshold * 100);
  else
    g_string_append_printf (out, _ ("Result: no regression beyond %g%%\n"), threshold * 100);
  if (unjudged > 0)
    g_string_append_printf (out,
                            ngettext ("(%u metric could not be judged: see WHY)\n",
                                      "(%u metrics could not be judged: see WHY)\n", unjudged),
                            unjudged);

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    metric_clear (&metrics[i]);
  /* Exit 1 says "regressed": a result that could not be written is 2, like
   * any other comparison that did not happen. */
  if (!cli_print (out->str))
    return CLI_EXIT_USAGE;
  return status;
}
