/* kernel-entry-cost.c: what a system call costs the code that runs after it.
 *
 * A system call's own time is what strace and perf show; on some virtual
 * machines every kernel entry also flushes the TLB (no PCID, or a guest
 * kernel that runs in the host's user mode), and the app's code after it
 * pays the page walks. This times the same memory work (reads spread over
 * `--pages` pages, 4096 by default, in a fixed random order: one read per
 * page, so each read needs a TLB entry) right after:
 *   none      nothing;
 *   timerfd   a timerfd armed and disarmed (two timerfd_settime calls: what
 *             the main thread does for a parked jankscope thread as it
 *             leaves and re-enters a poll that may sleep, js-wake-timer.c);
 *   getppid   two getppid calls (the cheapest system calls there are).
 * The work is timed alone, not the calls: the difference is what the calls
 * left behind for the code after them. The cases alternate round by round;
 * prints the median and the fastest round per case, and never judges them.
 *
 *   kernel-entry-cost [--rounds N] [--pages N] [--reads N]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-clock.h"

#include <glib.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define ITERS 3000

enum
{
  CASE_NONE,
  CASE_TIMERFD,
  CASE_GETPPID,
  N_CASES
};

static const char *const case_names[N_CASES] = { "none", "timerfd", "getppid" };

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  gint rounds = 9, pages = 4096, reads = 512;
  GOptionEntry entries[] = {
    { "rounds", 'r', 0, G_OPTION_ARG_INT, &rounds, "Rounds per case (9)", "N" },
    { "pages", 'p', 0, G_OPTION_ARG_INT, &pages, "Pages the work reads from (4096)", "N" },
    { "reads", 'n', 0, G_OPTION_ARG_INT, &reads, "Reads after each call (512)", "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx
      = g_option_context_new ("- what a system call costs the code after it");
  g_autoptr (GError) error = NULL;
  struct itimerspec arm = { { 0, 0 }, { 0, 16000000 } }, disarm = { { 0, 0 }, { 0, 0 } };
  volatile char *buf;
  guint *order;
  double *results[N_CASES];
  long sum = 0;
  int tfd;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "kernel-entry-cost: %s\n", error->message);
      return 2;
    }
  if (rounds < 1 || pages < 1 || pages > 1 << 20 || reads < 1)
    {
      fprintf (stderr, "kernel-entry-cost: --rounds, --pages and --reads must be positive "
                       "(--pages at most 1048576)\n");
      return 2;
    }
  if (g_getenv ("BENCH_QUICK") != NULL && g_strcmp0 (g_getenv ("BENCH_QUICK"), "0") != 0)
    rounds = MIN (rounds, 3);
  tfd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (tfd < 0)
    {
      fprintf (stderr, "kernel-entry-cost: no timerfd\n");
      return 77;
    }
  buf = g_malloc0 ((gsize) pages * PAGE);
  for (gsize i = 0; i < (gsize) pages * PAGE; i += 64)
    buf[i] = 1; /* every page faulted in before timing */
  order = g_new (guint, pages);
  for (gint i = 0; i < pages; i++)
    order[i] = (guint) i;
  {
    GRand *rand = g_rand_new_with_seed (1);

    for (gint i = pages - 1; i > 0; i--)
      {
        guint j = (guint) g_rand_int_range (rand, 0, i + 1), t = order[i];

        order[i] = order[j];
        order[j] = t;
      }
    g_rand_free (rand);
  }
  for (int c = 0; c < N_CASES; c++)
    results[c] = g_new (double, rounds);

  for (gint r = 0; r < rounds; r++)
    for (int c = 0; c < N_CASES; c++)
      {
        gint64 work = 0;

        for (int it = 0; it < ITERS; it++)
          {
            gint64 t0;

            if (c == CASE_TIMERFD)
              {
                timerfd_settime (tfd, 0, &arm, NULL);
                timerfd_settime (tfd, 0, &disarm, NULL);
              }
            else if (c == CASE_GETPPID)
              {
                syscall (SYS_getppid);
                syscall (SYS_getppid);
              }
            t0 = js_now_ns ();
            for (gint k = 0; k < reads; k++)
              {
                gsize page = order[((gsize) it * (gsize) reads + (gsize) k) % (gsize) pages];

                sum += buf[page * PAGE + (gsize) (k % 64) * 64];
              }
            work += js_now_ns () - t0;
          }
        results[c][r] = (double) work / ITERS;
      }

  printf ("kernel-entry-cost: %d reads over %d pages after each case, %d iterations a round, "
          "%d rounds\n",
          reads, pages, ITERS, rounds);
  printf ("%-10s %14s %14s %16s\n", "case", "median ns", "fastest ns", "added (median)");
  for (int c = 0; c < N_CASES; c++)
    qsort (results[c], rounds, sizeof (double), compare_double);
  for (int c = 0; c < N_CASES; c++)
    printf ("%-10s %14.0f %14.0f %+16.0f\n", case_names[c], results[c][rounds / 2], results[c][0],
            results[c][rounds / 2] - results[CASE_NONE][rounds / 2]);
  printf ("(the time of the reads alone, per iteration; the system calls' own time is not in "
          "it)\n");
  close (tfd);
  return sum == -1 ? 1 : 0;
}
