/* watchdog-miss.c: stalls of known lengths at random phases, to measure
 * which ones a periodic ping watchdog catches (its miss rate P(X, T) is
 * derived in docs/background.md, "Watchdogs").
 *
 *   watchdog-miss --period-ms T [--factors 0.5,1,1.25,1.5,1.75,2,3]
 *                 [--trials M] [--seed S]
 *
 * A GMainLoop runs M stalls of X = f·T ms for each factor f, in a shuffled
 * order. Each stall is one timeout callback spinning on the CPU for X ms; it
 * comes after a random idle gap uniform in [2T, 4T] (a whole number of
 * periods wide, so the stall's phase against any T-periodic ping is uniform).
 *
 * Output: per stall "RESULT kind=stall i=N factor=f x_ms=X start_ns=...
 * end_ns=..." (CLOCK_MONOTONIC, the clock of the report's *_ns), then
 * "RESULT kind=done stalls=N".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile guint64 sink;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int period_ms = 100;
static GArray *factors; /* double, one entry per stall, shuffled */
static guint next_stall;
static GRand *rng;
static GMainLoop *loop;

static gboolean stall (gpointer data);

static gboolean
quit (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
schedule_next (void)
{
  /* Microsecond resolution: g_timeout_add takes ms, so wait with a
   * ready-time source instead. */
  gint64 gap_us = g_rand_int_range (rng, 2 * period_ms * 1000, 4 * period_ms * 1000 + 1);
  GSource *source = g_timeout_source_new (0);

  g_source_set_ready_time (source, g_get_monotonic_time () + gap_us);
  g_source_set_callback (source, next_stall < factors->len ? stall : quit, NULL, NULL);
  g_source_attach (source, NULL);
  g_source_unref (source);
}

static gboolean
stall (gpointer data)
{
  double f = g_array_index (factors, double, next_stall);
  gint64 x_ns = (gint64) (f * period_ms * 1e6 + 0.5);
  gint64 start = now_ns (), end;
  guint64 x = 88172645463325252ull;

  do
    {
      for (int i = 0; i < 256; i++)
        {
          x ^= x << 13;
          x ^= x >> 7;
          x ^= x << 17;
        }
      sink = x;
      end = now_ns ();
    }
  while (end - start < x_ns);
  next_stall++;
  printf ("RESULT kind=stall i=%u factor=%g x_ms=%g start_ns=%" G_GINT64_FORMAT
          " end_ns=%" G_GINT64_FORMAT "\n",
          next_stall, f, f * period_ms, start, end);
  fflush (stdout);
  schedule_next ();
  return G_SOURCE_REMOVE;
}

static void
usage (void)
{
  fprintf (stderr, "usage: watchdog-miss --period-ms T [--factors F,F,...] [--trials M] "
                   "[--seed S]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  const char *factor_list = "0.5,1,1.25,1.5,1.75,2,3";
  int trials = 40;
  guint32 seed = 1;
  char **parts;

  for (int i = 1; i < argc; i++)
    {
      if (i + 1 >= argc)
        usage ();
      if (strcmp (argv[i], "--period-ms") == 0)
        period_ms = atoi (argv[++i]);
      else if (strcmp (argv[i], "--factors") == 0)
        factor_list = argv[++i];
      else if (strcmp (argv[i], "--trials") == 0)
        trials = atoi (argv[++i]);
      else if (strcmp (argv[i], "--seed") == 0)
        seed = (guint32) strtoul (argv[++i], NULL, 10);
      else
        usage ();
    }
  if (period_ms < 1 || trials < 1)
    usage ();

  rng = g_rand_new_with_seed (seed);
  factors = g_array_new (FALSE, FALSE, sizeof (double));
  parts = g_strsplit (factor_list, ",", -1);
  for (int t = 0; t < trials; t++)
    for (char **p = parts; *p != NULL; p++)
      {
        double f = g_ascii_strtod (*p, NULL);

        if (f <= 0)
          usage ();
        g_array_append_val (factors, f);
      }
  g_strfreev (parts);
  /* Fisher-Yates: the factors in random order. */
  for (guint i = factors->len; i > 1; i--)
    {
      guint j = (guint) g_rand_int_range (rng, 0, (gint32) i);
      double tmp = g_array_index (factors, double, i - 1);

      g_array_index (factors, double, i - 1) = g_array_index (factors, double, j);
      g_array_index (factors, double, j) = tmp;
    }

  loop = g_main_loop_new (NULL, FALSE);
  schedule_next ();
  g_main_loop_run (loop);
  printf ("RESULT kind=done stalls=%u\n", next_stall);
  g_main_loop_unref (loop);
  g_array_free (factors, TRUE);
  g_rand_free (rng);
  return 0;
}
