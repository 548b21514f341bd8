/* js-sampler.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-sampler.h"
#include "js-hot.h"
#include "js-clock.h"
#include "js-futex.h"
#include "js-log.h"
#include "js-sample-timer.h"
#include "js-stack-sample.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* The handler's own frames and the signal trampoline come first in a
 * backtrace taken inside it; they are cut off at the interrupted pc. */
#define N_SLOTS 8

enum
{
  SLOT_FREE,
  SLOT_REQUESTED,
  SLOT_WRITING,
  SLOT_DONE,
};

typedef struct
{
  int state; /* futex word */
  guint32 seq;
  guint16 n;
  guint16 truncated;
  gint64 cost_ns;
  void *frames[JS_STACK_SAMPLE_MAX_FRAMES + JS_SAMPLER_EXTRA_FRAMES];
} Slot;

typedef int (*BacktraceFunc) (void **buffer, int size);

/* Read-only after init. */
static int the_signal;
static pid_t main_pid, the_main_tid;
static BacktraceFunc backtrace_func;
static const char *unwinder_name;
static struct sigaction previous_action;
static gboolean ready;

/* Shared with the handler. */
static Slot slots[N_SLOTS];
static guint64 late;
static int in_handler; /* set while the handler runs (its mask blocks the signal) */

/* The watchdog's. */
static guint32 next_seq;
static guint64 requested, taken, timeouts, truncated_count, withheld;
static gboolean lost;

/* The handshake with the main thread's blocking calls (js-call-guard.h).
 * Published to the preload in JsBridge.call_guard (js-mainloop.c). */
JsCallGuard js_sampler_guard JS_HOT_DATA;

#if defined(__x86_64__)
static guintptr
interrupted_pc (const ucontext_t *uc)
{
  return (guintptr) uc->uc_mcontext.gregs[REG_RIP];
}
#else
static guintptr
interrupted_pc (const ucontext_t *uc)
{
  return 0;
}
#endif

guint
js_sampler_unwind (void **frames, guint capacity, void *context, gboolean *truncated)
{
  int n = backtrace_func (frames, (int) capacity);
  guintptr pc = interrupted_pc (context);
  int first = -1;

  *truncated = n == (int) capacity;
  /* Keep from the interrupted frame on. */
  for (int i = 0; i < n && i < JS_SAMPLER_EXTRA_FRAMES; i++)
    if ((guintptr) frames[i] == pc)
      {
        first = i;
        break;
      }
  if (first < 0 && pc != 0)
    {
      /* The unwinder did not step through the trampoline: keep the pc. */
      frames[0] = (void *) pc;
      n = 1;
      first = 0;
    }
  else if (first < 0)
    first = 0;
  memmove (frames, frames + first, (gsize) (n - first) * sizeof (void *));
  *truncated |= (n - first) > JS_STACK_SAMPLE_MAX_FRAMES;
  return (guint) MIN (n - first, JS_STACK_SAMPLE_MAX_FRAMES);
}

/* Async-signal-safe: no locks, no allocation, no stdio; errno saved. It
 * touches only what it owns: the slots, its counters, the guard, and the
 * ucontext the kernel handed it (never the code or stack around the
 * interrupted pc). */
static void
on_signal (int sig, siginfo_t *info, void *context)
{
  int saved_errno = errno;
  Slot *slot;
  guint32 seq;
  int expected = SLOT_REQUESTED;
  gint64 start;
  gboolean trunc = FALSE;

  __atomic_store_n (&in_handler, 1, __ATOMIC_RELAXED);
  if (info->si_code == SI_TIMER)
    {
      /* The CPU-time timer's (js-sample-timer.h), if it is ours. */
      js_sample_timer_on_signal (info, context);
      goto out;
    }
  if (info->si_code != SI_QUEUE || info->si_pid != main_pid)
    goto out; /* not ours: someone else's sigqueue/kill of this number */
  /* One of the watchdog's signals has arrived, late or not: it is no longer
   * in flight, the main thread's blocking calls need not hold it back. */
  __atomic_store_n (&js_sampler_guard.handled,
                    __atomic_load_n (&js_sampler_guard.handled, __ATOMIC_RELAXED) + 1,
                    __ATOMIC_RELAXED);
  __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
  seq = (guint32) info->si_value.sival_int;
  slot = &slots[seq % N_SLOTS];
  if (__atomic_load_n (&slot->seq, __ATOMIC_ACQUIRE) != seq
      || !__atomic_compare_exchange_n (&slot->state, &expected, SLOT_WRITING, FALSE,
                                       __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    {
      __atomic_add_fetch (&late, 1, __ATOMIC_RELAXED);
      goto out;
    }
  start = js_now_ns ();
  slot->n
      = (guint16) js_sampler_unwind (slot->frames, G_N_ELEMENTS (slot->frames), context, &trunc);
  slot->truncated = trunc;
  slot->cost_ns = js_now_ns () - start;
  __atomic_store_n (&slot->state, SLOT_DONE, __ATOMIC_RELEASE);
  js_futex_wake (&slot->state);
out:
  errno = saved_errno;
  __atomic_store_n (&in_handler, 0, __ATOMIC_RELEASE);
}

static gboolean
load_unwinder (void)
{
  /* RTLD_LOCAL: libunwind's unversioned _Unwind_* symbols must not take
   * over C++ exception unwinding of libraries loaded later (measured:
   * docs/background.md, "Interposition"; test safety/cxx-exceptions). */
  void *lib = dlopen ("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);

  if (lib != NULL)
    {
      void (*set_caching) (void *, int)
          = (void (*) (void *, int)) dlsym (lib, "_ULx86_64_set_caching_policy");
      void **local_space = dlsym (lib, "_ULx86_64_local_addr_space");

      backtrace_func = (BacktraceFunc) dlsym (lib, "unw_backtrace");
      if (set_caching != NULL && local_space != NULL)
        set_caching (*local_space, 2 /* UNW_CACHE_PER_THREAD */);
      if (backtrace_func != NULL)
        {
          unwinder_name = "libunwind";
          return TRUE;
        }
    }
  /* glibc's backtrace () (libgcc's unwinder): it dlopens libgcc_s on first
   * use, so the warm-up call below must come first, outside any handler. */
  backtrace_func = backtrace;
  unwinder_name = "glibc backtrace";
  js_log_debug ("libunwind.so.8 not available, sampling with glibc backtrace ()");
  return TRUE;
}

static int
pick_signal (int offset)
{
  struct sigaction current;
  int first = offset >= 0 ? SIGRTMIN + offset : SIGRTMIN + 3;
  int last = offset >= 0 ? first : SIGRTMAX - 1;

  for (int sig = first; sig <= last && sig <= SIGRTMAX; sig++)
    if (sigaction (sig, NULL, &current) == 0 && !(current.sa_flags & SA_SIGINFO)
        && current.sa_handler == SIG_DFL)
      return sig;
  return 0;
}

gboolean
js_sampler_init (pid_t main_tid, int signal_offset)
{
  struct sigaction action;
  void *warm[8];

  if (ready)
    return TRUE;
  if (!load_unwinder ())
    return FALSE;
  /* Per-thread unwinder state (and libgcc_s for glibc's) is set up here, on
   * the main thread, never inside the handler. */
  backtrace_func (warm, G_N_ELEMENTS (warm));

  the_signal = pick_signal (signal_offset);
  if (the_signal == 0)
    {
      if (signal_offset >= 0)
        js_log_warning ("signal SIGRTMIN+%d is in use by the app; stack sampling is off",
                        signal_offset);
      else
        js_log_warning ("no free real-time signal; stack sampling is off");
      return FALSE;
    }
  memset (&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset (&action.sa_mask);
  if (sigaction (the_signal, &action, &previous_action) != 0)
    {
      js_log_warning ("cannot install the sampling signal handler: %s; stack sampling is off",
                      g_strerror (errno));
      the_signal = 0;
      return FALSE;
    }
  main_pid = getpid ();
  the_main_tid = main_tid;
  ready = TRUE;
  /* The thread first: a blocking call that sees the signal set compares it. */
  js_call_guard_set_thread (&js_sampler_guard);
  __atomic_store_n (&js_sampler_guard.signal, the_signal, __ATOMIC_RELEASE);
  return TRUE;
}

JsBacktraceFunc
js_sampler_backtrace (void)
{
  return ready ? backtrace_func : NULL;
}

gboolean
js_sampler_check_handler (void)
{
  struct sigaction current;

  if (!ready || lost)
    return FALSE;
  if (sigaction (the_signal, NULL, &current) != 0 || !(current.sa_flags & SA_SIGINFO)
      || current.sa_sigaction != on_signal)
    {
      lost = TRUE;
      /* The app's own uses of that signal must interrupt its calls as usual. */
      __atomic_store_n (&js_sampler_guard.signal, 0, __ATOMIC_RELEASE);
      js_log_warning ("the app took over signal %d that jankscope samples stacks with; "
                      "stack sampling is off from now on",
                      the_signal);
      return FALSE;
    }
  return TRUE;
}

static gboolean
wait_done (Slot *slot, gint64 deadline_ns)
{
  for (;;)
    {
      int state = __atomic_load_n (&slot->state, __ATOMIC_ACQUIRE);
      gint64 left = deadline_ns - js_now_ns ();

      if (state == SLOT_DONE)
        return TRUE;
      if (left <= 0)
        return FALSE;
      js_futex_wait (&slot->state, state, left);
    }
}

JsSamplerStatus
js_sampler_take (guint64 *frames, guint max, guint *n_frames, gboolean *truncated,
                 gint64 timeout_ns, gint64 *handler_ns)
{
  Slot *slot;
  guint32 seq;
  siginfo_t info;
  int expected;

  *n_frames = 0;
  *truncated = FALSE;
  if (!ready || lost)
    return JS_SAMPLER_OFF;
  if (!js_sampler_check_handler ())
    return JS_SAMPLER_SIGNAL_LOST;

  /* The handshake (js-call-guard.h): the signal counts as in flight from
   * now; if the main thread is inside a blocking call it could cut short,
   * send nothing. */
  __atomic_add_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&js_sampler_guard.depth, __ATOMIC_SEQ_CST) != 0)
    {
      __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
      withheld++;
      return JS_SAMPLER_IN_CALL;
    }

  seq = ++next_seq;
  slot = &slots[seq % N_SLOTS];
  /* A slot still being written by a late handler is skipped (never waited on). */
  if (__atomic_load_n (&slot->state, __ATOMIC_ACQUIRE) == SLOT_WRITING)
    {
      __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
      return JS_SAMPLER_TIMEOUT;
    }
  __atomic_store_n (&slot->state, SLOT_FREE, __ATOMIC_RELAXED);
  __atomic_store_n (&slot->seq, seq, __ATOMIC_RELEASE);
  __atomic_store_n (&slot->state, SLOT_REQUESTED, __ATOMIC_RELEASE);

  memset (&info, 0, sizeof info);
  info.si_signo = the_signal;
  info.si_code = SI_QUEUE;
  info.si_pid = main_pid;
  info.si_uid = getuid ();
  info.si_value.sival_int = (int) seq;
  requested++;
  if (syscall (SYS_rt_tgsigqueueinfo, main_pid, the_main_tid, the_signal, &info) != 0)
    {
      __atomic_sub_fetch (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
      __atomic_store_n (&slot->state, SLOT_FREE, __ATOMIC_RELEASE);
      return JS_SAMPLER_SEND_FAILED;
    }
  if (!wait_done (slot, js_now_ns () + timeout_ns))
    {
      expected = SLOT_REQUESTED;
      if (__atomic_compare_exchange_n (&slot->state, &expected, SLOT_FREE, FALSE, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE))
        {
          timeouts++;
          /* The signal stays in flight until its handler runs. If the app's
           * handler got it instead (it took the signal over), ours never
           * will: find that out now, not at the next stall, so that the
           * main thread's calls stop holding the app's signal back. */
          js_sampler_check_handler ();
          return JS_SAMPLER_TIMEOUT;
        }
      /* The handler started writing just now: it is short, wait for it. */
      if (!wait_done (slot, js_now_ns () + timeout_ns))
        {
          timeouts++;
          return JS_SAMPLER_TIMEOUT;
        }
    }
  *n_frames = MIN (slot->n, max);
  for (guint i = 0; i < *n_frames; i++)
    frames[i] = (guint64) (guintptr) slot->frames[i];
  *truncated = slot->truncated || slot->n > max;
  if (*truncated)
    truncated_count++;
  *handler_ns = slot->cost_ns;
  __atomic_store_n (&slot->state, SLOT_FREE, __ATOMIC_RELEASE);
  taken++;
  /* Let the handler return before the next look at the thread's signal
   * mask (it blocks the signal while it runs): a few instructions, unless
   * the thread was preempted right there. Bounded. */
  for (int i = 0; i < 100 && __atomic_load_n (&in_handler, __ATOMIC_ACQUIRE); i++)
    sched_yield ();
  return JS_SAMPLER_OK;
}

int
js_sampler_signal (void)
{
  return ready && !lost ? the_signal : 0;
}

void
js_sampler_get_counters (JsSamplerCounters *c)
{
  memset (c, 0, sizeof *c);
  c->requested = requested;
  c->taken = taken;
  c->timeouts = timeouts;
  c->late = __atomic_load_n (&late, __ATOMIC_RELAXED);
  c->withheld = withheld;
  c->deferred = __atomic_load_n (&js_sampler_guard.deferred, __ATOMIC_RELAXED);
  c->blocking_eintr = __atomic_load_n (&js_sampler_guard.eintr, __ATOMIC_RELAXED);
  c->truncated = truncated_count;
  c->signal = ready ? the_signal : 0;
  c->lost = lost;
  c->unwinder = unwinder_name;
}

void
js_sampler_fork_child (void)
{
  if (!ready)
    return;
  ready = FALSE;
  /* The child's blocking calls are forwarded untouched. */
  __atomic_store_n (&js_sampler_guard.signal, 0, __ATOMIC_RELAXED);
  sigaction (the_signal, &previous_action, NULL);
}
