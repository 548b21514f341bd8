/* episode-app.c - long episodes for bench/run-episode-cost.py
 *
 *   episode-app sustained SECONDS   every 16 ms a timeout does 30-60 ms of
 *                                   work: sustained jank, one episode of
 *                                   many stalls, for SECONDS
 *   episode-app hang SECONDS        one callback works for SECONDS: one
 *                                   stall
 *   episode-app intermittent SECONDS
 *                                   an animation that janks by itself: every
 *                                   16 ms a timeout does 1.5 ms of work, and
 *                                   every 60th (about once a second) 52-84 ms
 *                                   instead, each time through other stacks:
 *                                   one short episode a second, for SECONDS
 *
 * The work goes through recursions of varying depth (1-12) into four leaf
 * functions, so that the stacks sampled differ (many distinct stacks, as
 * in a real app). After the episode the program idles 4 s (jankscope folds
 * and freezes the event: 3 s after it closed) and exits. Prints
 * "RESULT scenario=... seconds=... work_ms=...".
 */
#include <glib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__ ((noinline, noclone))

volatile guint64 bench_sink;
static GMainLoop *loop;
static gint64 end_us;
static guint rounds;
static gint64 work_us;

NOINLINE void
bench_leaf_a (guint n)
{
  for (guint i = 0; i < n; i++)
    bench_sink = bench_sink * 6364136223846793005ULL + 1;
}

NOINLINE void
bench_leaf_b (guint n)
{
  for (guint i = 0; i < n; i++)
    bench_sink ^= bench_sink << 13 ^ i;
}

NOINLINE void
bench_leaf_c (guint n)
{
  for (guint i = 0; i < n; i++)
    bench_sink += (bench_sink >> 7) | i;
}

NOINLINE void
bench_leaf_d (guint n)
{
  for (guint i = 0; i < n; i++)
    bench_sink = (bench_sink + i) * 31;
}

NOINLINE void
bench_descend (guint depth, guint which)
{
  if (depth > 0)
    {
      bench_descend (depth - 1, which);
      bench_sink++; /* no tail call */
      return;
    }
  switch (which % 4)
    {
    case 0:
      bench_leaf_a (20000);
      break;
    case 1:
      bench_leaf_b (20000);
      break;
    case 2:
      bench_leaf_c (20000);
      break;
    default:
      bench_leaf_d (20000);
      break;
    }
}

/* Works until `until_us`, through stacks that keep changing (the k-th
 * descent of a call is bench_descend (1 + (k * 7) % 12, k / 3), k from
 * `first`). */
NOINLINE void
bench_work (gint64 until_us, guint first)
{
  gint64 start = g_get_monotonic_time ();
  guint k = first;

  while (g_get_monotonic_time () < until_us)
    {
      bench_descend (1 + (k * 7) % 12, k / 3);
      k++;
    }
  work_us += g_get_monotonic_time () - start;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* The load's end: the program idles 4 s more (jankscope folds and freezes
 * the last event), then quits. */
static gboolean
over (gint64 now)
{
  if (now < end_us)
    return FALSE;
  g_timeout_add (4000, quit_cb, NULL);
  return TRUE;
}

static gboolean
frame_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (over (now))
    return G_SOURCE_REMOVE;
  bench_work (now + (30 + (rounds++ * 13) % 31) * 1000, 0);
  return G_SOURCE_CONTINUE;
}

/* The same steady load and jank in every run: a counter, no clock or random
 * numbers decides which tick is slow, how slow, and through which stacks. */
static gboolean
intermittent_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (over (now))
    return G_SOURCE_REMOVE;
  if (++rounds % 60 == 0)
    {
      guint jank = rounds / 60;

      bench_work (now + (52 + (jank * 13) % 33) * 1000, jank * 5);
    }
  else
    bench_work (now + 1500, rounds);
  return G_SOURCE_CONTINUE;
}

static gboolean
hang_cb (gpointer data)
{
  bench_work (end_us, 0);
  g_timeout_add (4000, quit_cb, NULL);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  const char *scenario = argc > 1 ? argv[1] : "";
  int seconds = argc > 2 ? atoi (argv[2]) : 0;

  if (seconds <= 0
      || (strcmp (scenario, "sustained") != 0 && strcmp (scenario, "hang") != 0
          && strcmp (scenario, "intermittent") != 0))
    {
      fprintf (stderr, "usage: episode-app sustained|hang|intermittent SECONDS\n");
      return 2;
    }
  loop = g_main_loop_new (NULL, FALSE);
  end_us = g_get_monotonic_time () + 100000 + seconds * G_USEC_PER_SEC;
  if (strcmp (scenario, "sustained") == 0)
    g_timeout_add (16, frame_cb, NULL);
  else if (strcmp (scenario, "intermittent") == 0)
    g_timeout_add (16, intermittent_cb, NULL);
  else
    g_timeout_add (100, hang_cb, NULL);
  g_main_loop_run (loop);
  printf ("RESULT scenario=%s seconds=%d work_ms=%" G_GINT64_FORMAT "\n", scenario, seconds,
          work_us / 1000);
  return 0;
}
