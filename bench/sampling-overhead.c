/* sampling-overhead.c: a main loop stalled by one long callback of fixed CPU
 * work, to measure what sampling that stall costs.
 *
 *   sampling-overhead --calibrate MS   prints the --loops count that takes
 *                                      about MS ms here (once per benchmark,
 *                                      so every run does identical work)
 *   sampling-overhead --loops N        runs a GMainLoop whose only callback
 *                                      (an idle) does N rounds of work and
 *                                      quits
 *   sampling-overhead --loops N --warmup W
 *                                      the same after a first stall of W
 *                                      rounds and 1.5 s of idle loop: what
 *                                      jankscope does once per run (loading
 *                                      the modules' symbols and debug
 *                                      information at the first stall) is
 *                                      then outside the measured stall
 *
 * The work is spread over a few noinline functions at different depths (as
 * real code is: consecutive samples rarely see the very same stack, so
 * jankscope's folding of identical stacks does not hide the sampling cost).
 *
 * Output (one line): RESULT loops=N wall_s=... cpu_s=... main_cpu_s=...
 * work_wall_s=... total_cpu_s=...
 *   wall_s, cpu_s, main_cpu_s: around g_main_loop_run (): wall time, process
 *     CPU time (getrusage RUSAGE_SELF user+sys: every thread, jankscope's
 *     watchdog and collector too) and the main thread's CPU time
 *     (CLOCK_THREAD_CPUTIME_ID: the signal handler's time is in it);
 *   work_wall_s: the callback alone;
 *   total_cpu_s: process CPU time from start to the end of main ().
 * Then one "RESULT kind=thread tid=... main=0|1 comm=... cpu_s=..." line per thread:
 * its on-CPU time around g_main_loop_run (/proc/self/task/TID/schedstat, ns).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* One round = CHUNK iterations of an xorshift mix in one of the leaves. */
#define CHUNK 4096

static volatile guint64 sink;
static guint64 n_loops;
static double work_wall_s;
static GMainLoop *loop;

static double
clock_s (clockid_t id)
{
  struct timespec ts;

  clock_gettime (id, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
process_cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec
         + ru.ru_stime.tv_usec / 1e6;
}

__attribute__ ((noinline)) static guint64
leaf_mix (guint64 x)
{
  for (int i = 0; i < CHUNK; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
  return x;
}

__attribute__ ((noinline)) static guint64
leaf_mul (guint64 x)
{
  for (int i = 0; i < CHUNK; i++)
    x = x * 6364136223846793005ull + 1442695040888963407ull + (x >> 29);
  return x;
}

__attribute__ ((noinline)) static guint64
middle (guint64 x, guint64 round)
{
  x = (round & 1) ? leaf_mix (x) : leaf_mul (x);
  __asm__ volatile("" : "+r"(x));
  return x + 1;
}

__attribute__ ((noinline)) static guint64
outer (guint64 x, guint64 round)
{
  x = (round % 3 == 0) ? middle (x, round) : leaf_mix (x);
  __asm__ volatile("" : "+r"(x));
  return x ^ round;
}

__attribute__ ((noinline)) static void
do_work (guint64 rounds)
{
  guint64 x = 88172645463325252ull;

  for (guint64 r = 0; r < rounds; r++)
    x = (r & 3) == 0 ? leaf_mul (x) : outer (x, r);
  sink = x;
}

/* Per-thread on-CPU time (schedstat, ns) and name, keyed by tid. */
static GHashTable *
thread_times (void)
{
  GHashTable *times = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  DIR *dir = opendir ("/proc/self/task");
  struct dirent *d;

  while (dir != NULL && (d = readdir (dir)) != NULL)
    {
      g_autofree char *sched_path = NULL, *comm_path = NULL, *sched = NULL, *comm = NULL;
      int tid = atoi (d->d_name);

      if (tid <= 0)
        continue;
      sched_path = g_strdup_printf ("/proc/self/task/%d/schedstat", tid);
      comm_path = g_strdup_printf ("/proc/self/task/%d/comm", tid);
      if (!g_file_get_contents (sched_path, &sched, NULL, NULL)
          || !g_file_get_contents (comm_path, &comm, NULL, NULL))
        continue;
      g_strstrip (comm);
      g_strdelimit (comm, " =\t", '_');
      g_hash_table_insert (
          times, GINT_TO_POINTER (tid),
          g_strdup_printf ("%s %llu", comm,
                           (unsigned long long) g_ascii_strtoull (sched, NULL, 10)));
    }
  if (dir != NULL)
    closedir (dir);
  return times;
}

static void
print_thread_deltas (GHashTable *before, GHashTable *after)
{
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, after);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const char *old = g_hash_table_lookup (before, key);
      char comm[64];
      unsigned long long now_ns = 0, then_ns = 0;

      if (sscanf (value, "%63s %llu", comm, &now_ns) != 2)
        continue;
      if (old != NULL)
        sscanf (strchr (old, ' ') + 1, "%llu", &then_ns);
      printf ("RESULT kind=thread tid=%d main=%d comm=%s cpu_s=%.6f\n", GPOINTER_TO_INT (key),
              GPOINTER_TO_INT (key) == getpid (), comm, (now_ns - then_ns) / 1e9);
    }
}

static gboolean
stall_callback (gpointer data)
{
  double t0 = clock_s (CLOCK_MONOTONIC);

  do_work (n_loops);
  work_wall_s = clock_s (CLOCK_MONOTONIC) - t0;
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
quit_callback (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* The warm-up stall, then an idle loop long enough for jankscope's collector
 * to finish with it (it symbolizes a stall's stacks when it ends). */
static gboolean
warmup_callback (gpointer data)
{
  do_work (GPOINTER_TO_SIZE (data));
  g_timeout_add (1500, quit_callback, NULL);
  return G_SOURCE_REMOVE;
}

static void
calibrate (double ms)
{
  guint64 rounds = 64;
  double best = 1e9;

  /* Grow until one run takes 100 ms, then take the fastest of three. */
  for (;;)
    {
      double t0 = clock_s (CLOCK_THREAD_CPUTIME_ID);

      do_work (rounds);
      if (clock_s (CLOCK_THREAD_CPUTIME_ID) - t0 >= 0.1)
        break;
      rounds *= 2;
    }
  for (int i = 0; i < 3; i++)
    {
      double t0 = clock_s (CLOCK_THREAD_CPUTIME_ID);
      double t;

      do_work (rounds);
      t = clock_s (CLOCK_THREAD_CPUTIME_ID) - t0;
      if (t < best)
        best = t;
    }
  printf ("%llu\n", (unsigned long long) (rounds * (ms / 1000.0) / best + 0.5));
}

int
main (int argc, char **argv)
{
  double wall0, cpu0, main0, wall1, cpu1, main1;
  GHashTable *threads0, *threads1;
  guint64 warmup = 0;

  if (argc == 3 && strcmp (argv[1], "--calibrate") == 0)
    {
      calibrate (g_ascii_strtod (argv[2], NULL));
      return 0;
    }
  if (argc == 5 && strcmp (argv[3], "--warmup") == 0)
    warmup = g_ascii_strtoull (argv[4], NULL, 10);
  else if (argc != 3)
    argc = 0;
  if (argc < 3 || strcmp (argv[1], "--loops") != 0)
    {
      fprintf (stderr, "usage: sampling-overhead --calibrate MS | --loops N [--warmup W]\n");
      return 2;
    }
  n_loops = g_ascii_strtoull (argv[2], NULL, 10);

  loop = g_main_loop_new (NULL, FALSE);
  if (warmup > 0)
    {
      g_idle_add (warmup_callback, GSIZE_TO_POINTER (warmup));
      g_main_loop_run (loop);
    }
  g_idle_add (stall_callback, NULL);
  threads0 = thread_times ();
  wall0 = clock_s (CLOCK_MONOTONIC);
  cpu0 = process_cpu_s ();
  main0 = clock_s (CLOCK_THREAD_CPUTIME_ID);
  g_main_loop_run (loop);
  wall1 = clock_s (CLOCK_MONOTONIC);
  cpu1 = process_cpu_s ();
  main1 = clock_s (CLOCK_THREAD_CPUTIME_ID);
  threads1 = thread_times ();
  printf ("RESULT loops=%llu wall_s=%.6f cpu_s=%.6f main_cpu_s=%.6f work_wall_s=%.6f "
          "total_cpu_s=%.6f\n",
          (unsigned long long) n_loops, wall1 - wall0, cpu1 - cpu0, main1 - main0, work_wall_s,
          process_cpu_s ());
  print_thread_deltas (threads0, threads1);
  g_hash_table_unref (threads0);
  g_hash_table_unref (threads1);
  g_main_loop_unref (loop);
  return 0;
}
