/* timer-precision.c: how late GLib timers fire, in µs.
 *
 * jankscope installs a poll function; while the poll function is not g_poll
 * GLib rounds poll timeouts to whole milliseconds (it uses nanosecond ppoll
 * only with g_poll), so timers may fire later.  run-timer-bench.py runs this
 * with and without the preload to show that effect.  Nothing here is judged.
 *
 * Cases (each runs alone on the default main context for --seconds):
 *   timeout-N    g_timeout_add_full (N ms), repeating: GLib re-arms it at
 *                "dispatch time + N", the ideal time is the source's ready
 *                time, read inside the callback;
 *   readytime-N  a custom GSource whose ready time follows a fixed grid
 *                start + k·N ms of g_get_monotonic_time (no drift).
 * Lateness = g_get_monotonic_time () in the callback − ideal time.
 *
 * One machine-readable line per case: "RESULT case=... p50_us=... ...".
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct
{
  const char *name;
  gboolean grid; /* readytime-N: fixed grid; timeout-N: g_timeout_add */
  guint interval_ms;
} CaseSpec;

typedef struct
{
  const CaseSpec *spec;
  GArray *lateness; /* gint64 µs */
  gint64 end;       /* monotonic µs */
  gint64 next;      /* grid cases: the ideal time of the next callback */
  gint64 skipped;   /* grid slots that passed unserved */
  gboolean bad_ready_time;
  GMainLoop *loop;
} Run;

static const CaseSpec cases[] = {
  { "timeout-1", FALSE, 1 },  { "timeout-10", FALSE, 10 },  { "timeout-16", FALSE, 16 },
  { "readytime-1", TRUE, 1 }, { "readytime-16", TRUE, 16 },
};

static gboolean
finish_if_done (Run *run, gint64 now)
{
  if (now < run->end)
    return FALSE;
  g_main_loop_quit (run->loop);
  return TRUE;
}

static gboolean
on_timeout (gpointer data)
{
  Run *run = data;
  gint64 now = g_get_monotonic_time ();
  gint64 ready = g_source_get_ready_time (g_main_current_source ());
  gint64 late = now - ready;

  /* GLib keeps a timeout's expiration as its ready time; if some GLib
   * stops doing that, say so instead of printing nonsense. */
  if (ready <= 0 || late < 0)
    run->bad_ready_time = TRUE;
  else
    g_array_append_val (run->lateness, late);
  return finish_if_done (run, now) ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static gboolean
grid_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  Run *run = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 late = now - run->next;
  gint64 step = (gint64) run->spec->interval_ms * 1000;

  g_array_append_val (run->lateness, late);
  if (finish_if_done (run, now))
    return G_SOURCE_REMOVE;
  /* Stay on the grid; slots that already passed are counted, not served. */
  run->next += step;
  while (run->next <= now)
    {
      run->next += step;
      run->skipped++;
    }
  g_source_set_ready_time (source, run->next);
  return G_SOURCE_CONTINUE;
}

/* No prepare/check: the source is driven by its ready time alone. */
static GSourceFuncs grid_funcs = {
  NULL, NULL, grid_dispatch, NULL, NULL, NULL,
};

static int
cmp_gint64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array. */
static gint64
percentile (GArray *sorted, double p)
{
  guint n = sorted->len;
  guint rank = (guint) (p / 100.0 * n + 0.999999);

  rank = CLAMP (rank, 1, n);
  return g_array_index (sorted, gint64, rank - 1);
}

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec
         + ru.ru_stime.tv_usec / 1e6;
}

static gboolean
run_case (const CaseSpec *spec, double seconds)
{
  Run run = { spec };
  double cpu0, cpu;
  double mean = 0;
  GSource *source = NULL;

  run.lateness = g_array_new (FALSE, FALSE, sizeof (gint64));
  run.loop = g_main_loop_new (NULL, FALSE);
  cpu0 = cpu_seconds ();
  run.end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  if (spec->grid)
    {
      source = g_source_new (&grid_funcs, sizeof (GSource));
      g_source_set_name (source, "[bench] grid timer");
      g_source_set_callback (source, NULL, &run, NULL);
      run.next = g_get_monotonic_time () + spec->interval_ms * 1000;
      g_source_set_ready_time (source, run.next);
      g_source_attach (source, NULL);
    }
  else
    g_timeout_add_full (G_PRIORITY_DEFAULT, spec->interval_ms, on_timeout, &run, NULL);

  g_main_loop_run (run.loop);
  cpu = cpu_seconds () - cpu0;
  if (source)
    {
      g_source_destroy (source);
      g_source_unref (source);
    }
  g_main_loop_unref (run.loop);

  if (run.bad_ready_time || run.lateness->len == 0)
    {
      fprintf (stderr, "timer-precision: %s: no usable ready time from GLib\n", spec->name);
      g_array_unref (run.lateness);
      return FALSE;
    }

  for (guint i = 0; i < run.lateness->len; i++)
    mean += g_array_index (run.lateness, gint64, i);
  mean /= run.lateness->len;
  qsort (run.lateness->data, run.lateness->len, sizeof (gint64), cmp_gint64);

  printf ("%-13s %7u %9.1f %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT " %8" G_GINT64_FORMAT
          " %8" G_GINT64_FORMAT " %8.3f\n",
          spec->name, run.lateness->len, mean, percentile (run.lateness, 50),
          percentile (run.lateness, 95), percentile (run.lateness, 99),
          percentile (run.lateness, 100), cpu);
  printf ("RESULT case=%s callbacks=%u skipped=%" G_GINT64_FORMAT
          " mean_us=%.1f p50_us=%" G_GINT64_FORMAT " p95_us=%" G_GINT64_FORMAT
          " p99_us=%" G_GINT64_FORMAT " max_us=%" G_GINT64_FORMAT " cpu_s=%.4f\n",
          spec->name, run.lateness->len, run.skipped, mean, percentile (run.lateness, 50),
          percentile (run.lateness, 95), percentile (run.lateness, 99),
          percentile (run.lateness, 100), cpu);
  fflush (stdout);
  g_array_unref (run.lateness);
  return TRUE;
}

int
main (int argc, char **argv)
{
  double seconds = 3.0;
  char *only = NULL;
  gboolean list = FALSE;
  GOptionEntry entries[] = {
    { "seconds", 't', 0, G_OPTION_ARG_DOUBLE, &seconds, "Duration of each case (3)", "S" },
    { "case", 'c', 0, G_OPTION_ARG_STRING, &only, "Run only this case", "NAME" },
    { "list", 'l', 0, G_OPTION_ARG_NONE, &list, "List the cases", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- lateness of GLib timers");
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE, found = FALSE;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "timer-precision: %s\n", error->message);
      return 2;
    }
  if (list)
    {
      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        printf ("%s\n", cases[i].name);
      return 0;
    }
  if (!(seconds > 0 && seconds <= 3600))
    {
      fprintf (stderr, "timer-precision: --seconds must be in (0, 3600]\n");
      return 2;
    }

  printf ("%-13s %7s %9s %8s %8s %8s %8s %8s\n", "case", "n", "mean_us", "p50_us", "p95_us",
          "p99_us", "max_us", "cpu_s");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (!only || g_strcmp0 (only, cases[i].name) == 0)
      {
        found = TRUE;
        ok = run_case (&cases[i], seconds) && ok;
      }
  if (!found)
    {
      fprintf (stderr, "timer-precision: unknown case \"%s\" (see --list)\n", only);
      ok = FALSE;
    }
  g_free (only);
  return ok ? 0 : 1;
}
