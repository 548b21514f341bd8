/* attribution.c: stalls whose cause is known, to measure how often the
 * stack sampler names it (the sampler's hit rate: docs/background.md).
 *
 *   attribution --calibrate            prints work rounds per millisecond
 *   attribution --rounds-per-ms R [--stalls K] [--target-ms 160]
 *               [--other-ms 40] [--gap-ms 200-400] [--seed S] [--other-first]
 *
 * A GMainLoop runs K stalls, each one timeout callback that calls
 * bench_target () (target-ms of CPU work) and then bench_other () (other-ms),
 * so with the defaults the right answer, bench_target, covers 80% of each
 * 200 ms stall. Stalls are separated by random idle gaps (uniform in
 * gap-ms). Both functions are global, noinline and do their work in their
 * own body (no inlined helper, so the leaf frame is theirs); build with -g.
 * --other-first calls bench_other () first (the right answer is then the
 * stall's end, not its start: the sampler starts at a fixed delay after the
 * stall's start, so the order matters when there are few samples).
 *
 * Output: per stall "RESULT kind=stall i=N start_ns=... split_ns=... end_ns=..."
 * (CLOCK_MONOTONIC, the report's clock; split = the end of the first
 * function), then
 * "RESULT kind=done stalls=K".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Exported so that symbol tables (and a -g build's DWARF) name them. */
guint64 bench_target (guint64 rounds);
guint64 bench_other (guint64 rounds);

static volatile guint64 sink;

/* One round of work: a few dozen instructions, so samples land on many
 * different pcs (as in real code) and consecutive stacks seldom match. */
#define WORK_ROUNDS(rounds, x)                                                                     \
  for (guint64 r_ = 0; r_ < (rounds); r_++)                                                        \
    for (int k_ = 0; k_ < 64; k_++)                                                                \
      {                                                                                            \
        x ^= x << 13;                                                                              \
        x ^= x >> 7;                                                                               \
        x ^= x << 17;                                                                              \
        x = x * 6364136223846793005ull + 1442695040888963407ull + (x >> 29);                       \
        __asm__ volatile("" : "+r"(x));                                                            \
      }

__attribute__ ((noinline, noclone)) guint64
bench_target (guint64 rounds)
{
  guint64 x = rounds ^ 88172645463325252ull;

  WORK_ROUNDS (rounds, x);
  return x;
}

__attribute__ ((noinline, noclone)) guint64
bench_other (guint64 rounds)
{
  guint64 x = rounds ^ 2463534242ull;

  WORK_ROUNDS (rounds, x);
  return x;
}

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double rounds_per_ms;
static int n_stalls = 50, done_stalls;
static int target_ms = 160, other_ms = 40, gap_min = 200, gap_max = 400;
static gboolean other_first;
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
  guint gap = (guint) g_rand_int_range (rng, gap_min, gap_max + 1);

  if (done_stalls < n_stalls)
    g_timeout_add (gap, stall, NULL);
  else
    g_timeout_add (gap, quit, NULL); /* the last stall ends at a poll, as the others */
}

static gboolean
stall (gpointer data)
{
  gint64 start = now_ns (), split, end;

  if (other_first)
    {
      sink = bench_other ((guint64) (other_ms * rounds_per_ms + 0.5));
      split = now_ns ();
      sink = bench_target ((guint64) (target_ms * rounds_per_ms + 0.5));
    }
  else
    {
      sink = bench_target ((guint64) (target_ms * rounds_per_ms + 0.5));
      split = now_ns ();
      sink = bench_other ((guint64) (other_ms * rounds_per_ms + 0.5));
    }
  end = now_ns ();
  done_stalls++;
  printf ("RESULT kind=stall i=%d start_ns=%" G_GINT64_FORMAT " split_ns=%" G_GINT64_FORMAT
          " end_ns=%" G_GINT64_FORMAT "\n",
          done_stalls, start, split, end);
  fflush (stdout);
  schedule_next ();
  return G_SOURCE_REMOVE;
}

static void
calibrate (void)
{
  guint64 rounds = 16;
  double best = 1e18;

  for (;;)
    {
      gint64 t0 = thread_cpu_ns ();

      sink = bench_target (rounds);
      if (thread_cpu_ns () - t0 >= 50 * 1000000)
        break;
      rounds *= 2;
    }
  for (int i = 0; i < 3; i++)
    {
      gint64 t0 = thread_cpu_ns ();
      double t;

      sink = bench_target (rounds);
      t = (double) (thread_cpu_ns () - t0);
      if (t < best)
        best = t;
    }
  printf ("%.3f\n", rounds / (best / 1e6));
}

static void
usage (void)
{
  fprintf (stderr, "usage: attribution --calibrate | --rounds-per-ms R [--stalls K] "
                   "[--target-ms MS] [--other-ms MS] [--gap-ms MIN-MAX] [--seed S] "
                   "[--other-first]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  guint32 seed = 1;

  if (argc == 2 && strcmp (argv[1], "--calibrate") == 0)
    {
      calibrate ();
      return 0;
    }
  for (int i = 1; i < argc; i++)
    {
      const char *v;

      if (strcmp (argv[i], "--other-first") == 0)
        {
          other_first = TRUE;
          continue;
        }
      if (i + 1 >= argc)
        usage ();
      v = argv[++i];
      if (strcmp (argv[i - 1], "--rounds-per-ms") == 0)
        rounds_per_ms = g_ascii_strtod (v, NULL);
      else if (strcmp (argv[i - 1], "--stalls") == 0)
        n_stalls = atoi (v);
      else if (strcmp (argv[i - 1], "--target-ms") == 0)
        target_ms = atoi (v);
      else if (strcmp (argv[i - 1], "--other-ms") == 0)
        other_ms = atoi (v);
      else if (strcmp (argv[i - 1], "--gap-ms") == 0)
        {
          if (sscanf (v, "%d-%d", &gap_min, &gap_max) != 2)
            usage ();
        }
      else if (strcmp (argv[i - 1], "--seed") == 0)
        seed = (guint32) strtoul (v, NULL, 10);
      else
        usage ();
    }
  if (rounds_per_ms <= 0 || n_stalls < 1 || gap_min < 1 || gap_max < gap_min)
    usage ();

  rng = g_rand_new_with_seed (seed);
  loop = g_main_loop_new (NULL, FALSE);
  schedule_next ();
  g_main_loop_run (loop);
  printf ("RESULT kind=done stalls=%d\n", done_stalls);
  g_main_loop_unref (loop);
  g_rand_free (rng);
  return 0;
}
