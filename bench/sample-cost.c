/* sample-cost.c: what one stack sample costs the main thread.
 *
 * The main thread spins at the bottom of a 30-deep chain of noinline calls.
 * A second thread (the "watchdog") asks it for a stack about once per
 * millisecond, in alternating blocks of 1,000 requests:
 *
 *  - jankscope: js_sampler_take () of the core (its signal handler writes the
 *    return addresses with libunwind's unw_backtrace, or glibc's backtrace ()
 *    when libunwind is missing, and reports its own cost, `handler_ns`);
 *  - baseline: a handler of this file on another free real-time signal, sent
 *    and awaited the same way (rt_tgsigqueueinfo, a futex, a 20 ms timeout),
 *    that calls glibc's backtrace () and times itself with clock_gettime.
 *
 * Printed per side: the in-handler cost (what the main thread loses per
 * sample), the request -> answer latency seen by the watchdog, and frames per
 * stack (from the interrupted pc on; "reference" is backtrace () called
 * directly at the bottom of the chain, so a complete stack has that many).
 *
 *   sample-cost [--samples N] [--block N] [--interval-us N] [--warmup N]
 *
 * --warmup: requests per side sent first and not recorded (default 250).
 * BENCH_QUICK=1: 2,000 samples per side (default 10,000). Prints a table and
 * "RESULT side=... key=value" lines; exit status 1 when jankscope's sampler
 * cannot start or a side got no sample at all.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-sampler.h"

#include <errno.h>
#include <execinfo.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define CHAIN_DEPTH 30
#define MAX_FRAMES 128
#define EXTRA_FRAMES 16
#define TIMEOUT_NS (20 * 1000000LL)

static int64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* --- the main thread's chain -------------------------------------------- */

static volatile int stop_spinning;
static volatile uint64_t spin_sink;
static int reference_frames;

static int chain (int depth);
/* Through a volatile pointer: the compiler cannot turn the recursion into a
 * loop, and the work after the call keeps it from being a tail call. */
static int (*volatile next_link) (int) = chain;

__attribute__ ((noinline)) static int
leaf_spin (void)
{
  void *frames[MAX_FRAMES];
  uint64_t x = 88172645463325252ull;

  reference_frames = backtrace (frames, MAX_FRAMES);
  while (!stop_spinning)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      spin_sink = x;
    }
  return (int) (x & 1);
}

__attribute__ ((noinline)) static int
chain (int depth)
{
  int r;

  if (depth <= 1)
    r = leaf_spin ();
  else
    r = next_link (depth - 1);
  __asm__ volatile("" : "+r"(r));
  return r + 1;
}

/* --- the baseline: glibc backtrace () in our own handler ------------------ */

enum
{
  SLOT_FREE,
  SLOT_REQUESTED,
  SLOT_WRITING,
  SLOT_DONE
};

static struct
{
  int state; /* futex word */
  uint32_t seq;
  int n;
  int64_t cost_ns;
  void *frames[MAX_FRAMES + EXTRA_FRAMES];
} base_slot;

static int base_signal;
static pid_t main_pid, main_tid;
static uint32_t base_seq;

static void
trim_to_pc (void **frames, int *n, uintptr_t pc)
{
  int first = -1;

  for (int i = 0; i < *n && i < EXTRA_FRAMES; i++)
    if ((uintptr_t) frames[i] == pc)
      {
        first = i;
        break;
      }
  if (first <= 0)
    return;
  memmove (frames, frames + first, (size_t) (*n - first) * sizeof frames[0]);
  *n -= first;
}

static void
base_handler (int sig, siginfo_t *info, void *context)
{
  int saved_errno = errno;
  int expected = SLOT_REQUESTED;
  struct timespec a, b;
  int n;

  if (info->si_code != SI_QUEUE || info->si_pid != main_pid
      || (uint32_t) info->si_value.sival_int != __atomic_load_n (&base_slot.seq, __ATOMIC_ACQUIRE)
      || !__atomic_compare_exchange_n (&base_slot.state, &expected, SLOT_WRITING, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    goto out;
  clock_gettime (CLOCK_MONOTONIC, &a);
  n = backtrace (base_slot.frames, MAX_FRAMES + EXTRA_FRAMES);
  /* The same bookkeeping as jankscope's handler: keep from the interrupted pc on. */
  trim_to_pc (base_slot.frames, &n,
              (uintptr_t) ((ucontext_t *) context)->uc_mcontext.gregs[REG_RIP]);
  base_slot.n = n;
  clock_gettime (CLOCK_MONOTONIC, &b);
  base_slot.cost_ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
  __atomic_store_n (&base_slot.state, SLOT_DONE, __ATOMIC_RELEASE);
  syscall (SYS_futex, &base_slot.state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
out:
  errno = saved_errno;
}

static int
base_install (int avoid)
{
  struct sigaction current, action;

  for (int sig = SIGRTMIN + 4; sig < SIGRTMAX; sig++)
    {
      if (sig == avoid || sigaction (sig, NULL, &current) != 0 || (current.sa_flags & SA_SIGINFO)
          || current.sa_handler != SIG_DFL)
        continue;
      memset (&action, 0, sizeof action);
      action.sa_sigaction = base_handler;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigfillset (&action.sa_mask);
      if (sigaction (sig, &action, NULL) == 0)
        return sig;
    }
  return 0;
}

/* 0 ok, 1 timeout, 2 send failed. */
static int
base_take (int *n_frames, int64_t *handler_ns)
{
  siginfo_t info;
  int64_t deadline;
  int expected;

  base_seq++;
  __atomic_store_n (&base_slot.state, SLOT_FREE, __ATOMIC_RELAXED);
  __atomic_store_n (&base_slot.seq, base_seq, __ATOMIC_RELEASE);
  __atomic_store_n (&base_slot.state, SLOT_REQUESTED, __ATOMIC_RELEASE);
  memset (&info, 0, sizeof info);
  info.si_signo = base_signal;
  info.si_code = SI_QUEUE;
  info.si_pid = main_pid;
  info.si_uid = getuid ();
  info.si_value.sival_int = (int) base_seq;
  if (syscall (SYS_rt_tgsigqueueinfo, main_pid, main_tid, base_signal, &info) != 0)
    return 2;
  deadline = now_ns () + TIMEOUT_NS;
  for (;;)
    {
      int state = __atomic_load_n (&base_slot.state, __ATOMIC_ACQUIRE);
      int64_t left = deadline - now_ns ();
      struct timespec ts;

      if (state == SLOT_DONE)
        break;
      if (left <= 0)
        {
          expected = SLOT_REQUESTED;
          if (__atomic_compare_exchange_n (&base_slot.state, &expected, SLOT_FREE, 0,
                                           __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return 1;
          deadline = now_ns () + TIMEOUT_NS; /* being written: it is short */
          continue;
        }
      ts.tv_sec = left / 1000000000;
      ts.tv_nsec = left % 1000000000;
      syscall (SYS_futex, &base_slot.state, FUTEX_WAIT_PRIVATE, state, &ts, NULL, 0);
    }
  *n_frames = base_slot.n;
  *handler_ns = base_slot.cost_ns;
  __atomic_store_n (&base_slot.state, SLOT_FREE, __ATOMIC_RELEASE);
  return 0;
}

/* --- the watchdog thread --------------------------------------------------- */

typedef struct
{
  const char *name;
  int64_t *handler_ns, *latency_ns;
  int *frames;
  int n, timeouts, failed, complete;
  int64_t mean_handler_ns;
  int *block_end; /* samples recorded at the end of each block */
  int n_blocks;
} Side;

static Side sides[2];
static int n_samples = 10000, block = 1000, interval_us = 1000, warmup = 250;

static void
record (Side *s, int status, int64_t handler, int64_t latency, int frames)
{
  if (status == 1)
    {
      s->timeouts++;
      return;
    }
  if (status != 0)
    {
      s->failed++;
      return;
    }
  s->handler_ns[s->n] = handler;
  s->latency_ns[s->n] = latency;
  s->frames[s->n] = frames;
  s->complete += frames >= reference_frames;
  s->n++;
}

static void *
watchdog_thread (void *data)
{
  struct timespec next;
  int done[2] = { 0, 0 };
  int side = 0;

  (void) data;
  while (reference_frames == 0)
    usleep (1000); /* the main thread has reached the bottom of its chain */
  clock_gettime (CLOCK_MONOTONIC, &next);
  /* Warm-up, not recorded: both handlers' first unwinds (caches, page
   * faults) and the scheduler's first placement of this thread. */
  for (int k = 0; k < 2 * warmup; k++)
    {
      int64_t handler;
      int frames;

      next.tv_nsec += interval_us * 1000L;
      while (next.tv_nsec >= 1000000000L)
        {
          next.tv_nsec -= 1000000000L;
          next.tv_sec++;
        }
      clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
      if (k % 2 == 0)
        {
          guint64 addrs[MAX_FRAMES];
          guint n;
          gboolean truncated;

          js_sampler_take (addrs, MAX_FRAMES, &n, &truncated, TIMEOUT_NS, &handler);
        }
      else
        base_take (&frames, &handler);
    }
  while (done[0] < n_samples || done[1] < n_samples)
    {
      if (done[side] >= n_samples)
        side = !side;
      for (int k = 0; k < block && done[side] < n_samples; k++, done[side]++)
        {
          int64_t t0, t1, handler = 0;
          int status, frames = 0;

          next.tv_nsec += interval_us * 1000L;
          while (next.tv_nsec >= 1000000000L)
            {
              next.tv_nsec -= 1000000000L;
              next.tv_sec++;
            }
          clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
          if (side == 0)
            {
              guint64 addrs[MAX_FRAMES];
              guint n = 0;
              gboolean truncated = FALSE;
              JsSamplerStatus st;

              t0 = now_ns ();
              st = js_sampler_take (addrs, MAX_FRAMES, &n, &truncated, TIMEOUT_NS, &handler);
              t1 = now_ns ();
              status = st == JS_SAMPLER_OK ? 0 : st == JS_SAMPLER_TIMEOUT ? 1 : 2;
              frames = (int) n;
            }
          else
            {
              t0 = now_ns ();
              status = base_take (&frames, &handler);
              t1 = now_ns ();
            }
          record (&sides[side], status, handler, t1 - t0, frames);
        }
      sides[side].block_end[sides[side].n_blocks++] = sides[side].n;
      side = !side;
    }
  stop_spinning = 1;
  return NULL;
}

/* --- statistics -------------------------------------------------------------- */

static int
cmp_i64 (const void *a, const void *b)
{
  int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
  return (x > y) - (x < y);
}

static int
cmp_int (const void *a, const void *b)
{
  return *(const int *) a - *(const int *) b;
}

static int64_t
pct (const int64_t *sorted, int n, double p)
{
  int i;

  if (n == 0)
    return 0;
  i = (int) (p * (n - 1) + 0.5);
  return sorted[i < n ? i : n - 1];
}

static void
usage (void)
{
  fprintf (stderr, "usage: sample-cost [--samples N] [--block N] [--interval-us N] [--warmup N]\n");
  exit (2);
}

int
main (int argc, char **argv)
{
  const char *quick = getenv ("BENCH_QUICK");
  JsSamplerCounters counters;
  pthread_t thread;
  int js_signal;
  void *warm[8];

  if (quick != NULL && *quick != '\0' && strcmp (quick, "0") != 0)
    n_samples = 2000;
  for (int i = 1; i < argc; i++)
    {
      if (i + 1 >= argc)
        usage ();
      if (strcmp (argv[i], "--samples") == 0)
        n_samples = atoi (argv[++i]);
      else if (strcmp (argv[i], "--block") == 0)
        block = atoi (argv[++i]);
      else if (strcmp (argv[i], "--interval-us") == 0)
        interval_us = atoi (argv[++i]);
      else if (strcmp (argv[i], "--warmup") == 0)
        warmup = atoi (argv[++i]);
      else
        usage ();
    }
  if (n_samples < 1 || block < 1 || interval_us < 1 || warmup < 0)
    usage ();

  main_pid = getpid ();
  main_tid = (pid_t) syscall (SYS_gettid);
  if (!js_sampler_init (main_tid, -1))
    {
      fprintf (stderr, "sample-cost: js_sampler_init failed\n");
      return 1;
    }
  js_signal = js_sampler_signal ();
  /* glibc's backtrace () dlopens libgcc_s on first use: never in a handler. */
  backtrace (warm, 8);
  base_signal = base_install (js_signal);
  if (base_signal == 0)
    {
      fprintf (stderr, "sample-cost: no free real-time signal for the baseline\n");
      return 1;
    }
  js_sampler_get_counters (&counters);

  sides[0].name = "jankscope";
  sides[1].name = "baseline";
  for (int s = 0; s < 2; s++)
    {
      sides[s].handler_ns = calloc (n_samples, sizeof (int64_t));
      sides[s].latency_ns = calloc (n_samples, sizeof (int64_t));
      sides[s].frames = calloc (n_samples, sizeof (int));
      sides[s].block_end = calloc (n_samples / block + 2, sizeof (int));
    }

  printf ("sample-cost: %d samples per side at one per %d us, alternating blocks of %d "
          "(after %d unrecorded per side); main thread spinning %d calls deep\n",
          n_samples, interval_us, block, warmup, CHAIN_DEPTH);
  printf ("jankscope: js_sampler_take, signal %d (SIGRTMIN+%d), unwinder %s\n", js_signal,
          js_signal - SIGRTMIN, counters.unwinder ? counters.unwinder : "?");
  printf ("baseline:  own handler, signal %d (SIGRTMIN+%d), glibc backtrace ()\n", base_signal,
          base_signal - SIGRTMIN);
  fflush (stdout);

  pthread_create (&thread, NULL, watchdog_thread, NULL);
  chain (CHAIN_DEPTH);
  pthread_join (thread, NULL);

  /* Per block, before the arrays are sorted: the latency depends on where
   * the scheduler puts the two threads (see README). */
  printf ("\nrequest->answer p90 per block of %d, in time order (us):\n", block);
  for (int s = 0; s < 2; s++)
    {
      Side *d = &sides[s];
      int from = 0;

      printf ("  %-10s", d->name);
      for (int b = 0; b < d->n_blocks; b++)
        {
          int to = d->block_end[b], m = to - from;
          int64_t *tmp = malloc ((m > 0 ? m : 1) * sizeof (int64_t));

          memcpy (tmp, d->latency_ns + from, m * sizeof (int64_t));
          qsort (tmp, m, sizeof (int64_t), cmp_i64);
          printf (" %6.0f", pct (tmp, m, 0.9) / 1e3);
          free (tmp);
          from = to;
        }
      printf ("\n");
    }

  printf ("\n%-10s %7s %5s %5s | %-34s | %-27s | %s\n", "", "", "", "", "in-handler cost (us)",
          "request->answer (us)", "frames per stack");
  printf ("%-10s %7s %5s %5s | %6s %6s %6s %6s %6s | %6s %6s %6s %6s | %6s %4s %4s %9s\n", "side",
          "samples", "t/o", "fail", "mean", "p50", "p90", "p99", "max", "p50", "p90", "p99", "max",
          "median", "min", "max", "complete");
  for (int s = 0; s < 2; s++)
    {
      Side *d = &sides[s];
      int64_t mean_h = 0;

      for (int i = 0; i < d->n; i++)
        mean_h += d->handler_ns[i];
      mean_h = d->n ? mean_h / d->n : 0;
      qsort (d->handler_ns, d->n, sizeof (int64_t), cmp_i64);
      qsort (d->latency_ns, d->n, sizeof (int64_t), cmp_i64);
      qsort (d->frames, d->n, sizeof (int), cmp_int);
      printf ("%-10s %7d %5d %5d | %6.1f %6.1f %6.1f %6.1f %6.1f | %6.1f %6.1f %6.1f %6.1f | %6d "
              "%4d %4d %8.1f%%\n",
              d->name, d->n, d->timeouts, d->failed, mean_h / 1e3,
              pct (d->handler_ns, d->n, 0.5) / 1e3, pct (d->handler_ns, d->n, 0.9) / 1e3,
              pct (d->handler_ns, d->n, 0.99) / 1e3, pct (d->handler_ns, d->n, 1.0) / 1e3,
              pct (d->latency_ns, d->n, 0.5) / 1e3, pct (d->latency_ns, d->n, 0.9) / 1e3,
              pct (d->latency_ns, d->n, 0.99) / 1e3, pct (d->latency_ns, d->n, 1.0) / 1e3,
              d->n ? d->frames[d->n / 2] : 0, d->n ? d->frames[0] : 0,
              d->n ? d->frames[d->n - 1] : 0, d->n ? 100.0 * d->complete / d->n : 0.0);
      d->mean_handler_ns = mean_h;
    }
  printf ("\nreference: backtrace () called at the bottom of the chain sees %d frames "
          "(complete = a sample with at least that many).\n",
          reference_frames);
  printf ("in-handler cost: clock_gettime around the unwind inside the handler (jankscope: its "
          "handler_ns); request->answer: the watchdog's wall time from before the signal is sent "
          "to after the answer is read.\n");
  for (int s = 0; s < 2; s++)
    {
      Side *d = &sides[s];

      printf ("RESULT side=%s samples=%d timeouts=%d failed=%d handler_p50_ns=%lld "
              "handler_p99_ns=%lld handler_max_ns=%lld latency_p50_ns=%lld latency_p99_ns=%lld "
              "handler_mean_ns=%lld frames_median=%d complete_pct=%.1f\n",
              d->name, d->n, d->timeouts, d->failed, (long long) pct (d->handler_ns, d->n, 0.5),
              (long long) pct (d->handler_ns, d->n, 0.99),
              (long long) pct (d->handler_ns, d->n, 1.0),
              (long long) pct (d->latency_ns, d->n, 0.5),
              (long long) pct (d->latency_ns, d->n, 0.99), (long long) d->mean_handler_ns,
              d->n ? d->frames[d->n / 2] : 0, d->n ? 100.0 * d->complete / d->n : 0.0);
    }
  js_sampler_get_counters (&counters);
  printf ("jankscope counters: requested %llu, taken %llu, timeouts %llu, late %llu, "
          "truncated %llu\n",
          (unsigned long long) counters.requested, (unsigned long long) counters.taken,
          (unsigned long long) counters.timeouts, (unsigned long long) counters.late,
          (unsigned long long) counters.truncated);
  return sides[0].n > 0 && sides[1].n > 0 ? 0 : 1;
}
