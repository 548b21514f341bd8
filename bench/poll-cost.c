/* poll-cost.c: what the guard of the main thread's blocking calls against
 * the sampling signal (src/bridge/js-call-guard.h) costs per call.
 *
 * Run it without the preload, with it, and with it but JANKSCOPE_SAMPLING=0
 * (no sampling signal: the guard is off and the calls are only forwarded);
 * run-poll-cost.py does all three, in turn. On the main thread, in batches
 * of BATCH calls:
 *
 *   iteration     g_main_context_iteration (NULL, FALSE) with nothing ready:
 *                 one 0-timeout poll through jankscope's poll function and
 *                 the preload's poll wrapper (which guards it)
 *   poll0         poll (NULL, 0, 0): the preload's wrapper around libc's (the
 *                 other wrappers, nanosleep & co., are the same code)
 *   raw-poll0     syscall (SYS_poll, ...): no wrapper on either side, the
 *                 cost of the system call itself
 *   masked-ppoll0 the design not taken, for comparison (no wrapper on either
 *                 side): read the thread's mask, then ppoll with that mask
 *                 plus a real-time signal, as a wrapper that always added
 *                 the sampling signal to the mask would
 *   blocked-poll0 the other one: block the signal, poll, unblock
 *
 * Between batches one iteration of the default context keeps jankscope's
 * heartbeat going (a batch is far shorter than the 16 ms pre-trigger), so no
 * stall is sampled: what is measured is the common case, no sample under
 * way. The last lines are machine-readable ("RESULT case=... ns_per_call=...").
 */
#define _GNU_SOURCE
#include <glib.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BATCH 1000

typedef enum
{
  CASE_ITERATION,
  CASE_POLL0,
  CASE_RAW_POLL0,
  CASE_MASKED_PPOLL0,
  CASE_BLOCKED_POLL0,
  N_CASES,
} Case;

static const char *const case_names[]
    = { "iteration", "poll0", "raw-poll0", "masked-ppoll0", "blocked-poll0" };

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
one_call (Case c, int sig)
{
  static const struct timespec zero = { 0, 0 };
  sigset_t mask, set;

  switch (c)
    {
    case CASE_ITERATION:
      g_main_context_iteration (NULL, FALSE);
      break;
    case CASE_POLL0:
      poll (NULL, 0, 0);
      break;
    case CASE_RAW_POLL0:
      syscall (SYS_poll, NULL, 0, 0);
      break;
    case CASE_MASKED_PPOLL0:
      syscall (SYS_rt_sigprocmask, SIG_BLOCK, NULL, &mask, _NSIG / 8);
      sigaddset (&mask, sig);
      syscall (SYS_ppoll, NULL, 0, &zero, &mask, _NSIG / 8);
      break;
    case CASE_BLOCKED_POLL0:
      sigemptyset (&set);
      sigaddset (&set, sig);
      syscall (SYS_rt_sigprocmask, SIG_BLOCK, &set, &mask, _NSIG / 8);
      syscall (SYS_poll, NULL, 0, 0);
      if (!sigismember (&mask, sig))
        syscall (SYS_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, _NSIG / 8);
      break;
    default:
      g_assert_not_reached ();
    }
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Nanoseconds per call: the median over `batches` batches (a batch that
 * another process preempted does not count more than any other). */
static double
measure (Case c, guint batches, int sig)
{
  double *per_call = g_new (double, batches);
  double median;

  for (guint b = 0; b < batches; b++)
    {
      gint64 start;

      g_main_context_iteration (NULL, FALSE); /* the heartbeat, untimed */
      start = now_ns ();
      for (guint i = 0; i < BATCH; i++)
        one_call (c, sig);
      per_call[b] = (double) (now_ns () - start) / BATCH;
    }
  qsort (per_call, batches, sizeof *per_call, compare_doubles);
  median = per_call[batches / 2];
  g_free (per_call);
  return median;
}

int
main (int argc, char **argv)
{
  guint batches = argc > 1 ? (guint) atoi (argv[1]) : 200;
  int sig = SIGRTMIN + 3; /* jankscope's usual signal; only masked here */

  if (batches == 0)
    {
      fprintf (stderr, "usage: %s [BATCHES of %d calls]\n", argv[0], BATCH);
      return 2;
    }
  printf ("poll-cost: %u batches of %d calls per case\n", batches, BATCH);
  for (Case c = 0; c < N_CASES; c++)
    measure (c, 2, sig); /* warm-up */
  for (Case c = 0; c < N_CASES; c++)
    printf ("RESULT case=%s ns_per_call=%.1f\n", case_names[c], measure (c, batches, sig));
  return 0;
}
