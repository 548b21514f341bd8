/* js-call-guard.h: the sampling signal never interrupts a blocking call.
 *
 * poll, select, epoll_wait, nanosleep and the other calls that wait with a
 * timeout (or for a signal) fail with EINTR when any signal handler runs
 * while they wait, SA_RESTART or not (signal(7)). The watchdog signals the
 * main thread only when /proc says it runs, but a thread can enter such a
 * call between that look and the signal's arrival: the app would see EINTR
 * because jankscope sampled. So the blocking calls the main thread makes
 * (the preload's wrappers, src/preload/preload-blocking.c; the core's poll
 * function, src/core/js-mainloop.c, for the polls no wrapper guards) and
 * the watchdog's send (src/core/js-sampler.c) follow this handshake:
 *
 *   main thread (a wrapped call)          watchdog (js_sampler_take)
 *   depth += 1        (seq_cst)           in_flight += 1   (seq_cst)
 *   in_flight != 0 ?  (seq_cst)           depth != 0 ?     (seq_cst)
 *     no:  the call, as the app made it     yes: in_flight -= 1, no signal
 *     yes: the call with the signal         no:  send; the handler does
 *          blocked (it arrives after)            in_flight -= 1 when it runs
 *   depth -= 1
 *
 * Each side writes its own counter, then reads the other's (Dekker, with
 * sequentially consistent atomics): at least one of them sees the other.
 * Either the watchdog sees the thread inside a call and sends nothing (it
 * reads /proc instead), or the thread sees a signal in flight, sent or about
 * to be, and makes its call with that signal blocked: the kernel keeps it
 * pending and delivers it when the call returns, so the sample is taken
 * right after. A signal counts as in flight from before the watchdog looks
 * until its handler has run, however late (after a timeout too). So no
 * sampling signal can arrive during a call that started with in_flight == 0.
 *
 * Costs: the common case (no sample under way, which is nearly always) adds
 * one locked add, one load and a store to the call, and never changes the
 * call itself. A design that always added the signal to the call's mask
 * (poll -> ppoll with mask, nanosleep between two pthread_sigmask) would
 * pay one or two extra system calls every time; bench/poll-cost.c measures
 * both. Retrying a call cut short by our signal with the time left cannot
 * tell whether an app signal arrived as well (both handlers run before the
 * call returns) and would swallow the app's own EINTR.
 *
 * `depth` counts, not flags: an app signal handler that runs during a
 * wrapped call may make one itself.
 *
 * Plain C, no GLib: the preload includes it. The core owns the one guard
 * (js-sampler.c) and publishes it in JsBridge.call_guard.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <errno.h>
#include <pthread.h>
#include <signal.h>

typedef struct JsCallGuard
{
  /* Set once before `signal` (release); `signal` back to 0 turns the guard
   * off for good (a fork child, the app took the signal over). */
  pthread_t thread;     /* the watched (main) thread */
  void *thread_pointer; /* its thread pointer, where the compiler reads one (below) */
  int signal;           /* the sampling signal; 0: off, calls are forwarded */

  int depth;     /* the watched thread is inside this many guarded calls */
  int in_flight; /* signals the watchdog sent (or is about to) whose handler has not run */

  /* The handler's: how many times it ran on the watched thread. */
  unsigned long handled;

  /* Written by the watched thread, read by the collector (relaxed). */
  unsigned long deferred; /* signals that arrived during a call that held them back */
  unsigned long eintr;    /* EINTR returned by guarded calls (the app's own signals) */
} JsCallGuard;

/* Which thread this is, without a call where the compiler can read the
 * thread pointer (x86-64, AArch64): the address of the thread's control
 * block, unique among live threads (glibc's pthread_self is that address,
 * or a fixed offset from it), and the watched thread outlives the others.
 * One register read instead of a call of pthread_self through the PLT. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
#define JS_CALL_GUARD_THREAD_POINTER 1
#endif

/* On the watched thread, before `signal` is set (release). */
static inline void
js_call_guard_set_thread (JsCallGuard *g)
{
  __atomic_store_n (&g->thread, pthread_self (), __ATOMIC_RELAXED);
#ifdef JS_CALL_GUARD_THREAD_POINTER
  __atomic_store_n (&g->thread_pointer, __builtin_thread_pointer (), __ATOMIC_RELAXED);
#endif
}

/* Is the caller `g`'s thread? Only the watched thread itself wrote these
 * fields, so it reads its own writes; another thread may read them stale,
 * but never as its own thread. */
static inline int
js_call_guard_on_thread (JsCallGuard *g)
{
#ifdef JS_CALL_GUARD_THREAD_POINTER
  return __atomic_load_n (&g->thread_pointer, __ATOMIC_RELAXED) == __builtin_thread_pointer ();
#else
  return pthread_equal (__atomic_load_n (&g->thread, __ATOMIC_RELAXED), pthread_self ());
#endif
}

/* NULL unless `g` is on and this is its thread: the only check other threads
 * pay (two loads and a compare with the thread pointer). */
static inline JsCallGuard *
js_call_guard_mine (JsCallGuard *g)
{
  if (g == NULL || !js_call_guard_on_thread (g)
      || __atomic_load_n (&g->signal, __ATOMIC_ACQUIRE) == 0)
    return NULL;
  return g;
}

/* Entering a guarded call: nonzero when it must hold the signal back. */
static inline int
js_call_guard_enter (JsCallGuard *g)
{
  __atomic_add_fetch (&g->depth, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n (&g->in_flight, __ATOMIC_SEQ_CST) != 0;
}

/* Leaving it; `failed_eintr`: the call failed with EINTR. */
static inline void
js_call_guard_leave (JsCallGuard *g, int failed_eintr)
{
  if (failed_eintr)
    __atomic_store_n (&g->eintr, __atomic_load_n (&g->eintr, __ATOMIC_RELAXED) + 1,
                      __ATOMIC_RELAXED);
  /* Not a locked subtract: a load and a release store. `depth` has one
   * writer, the watched thread (the watchdog only reads it), so no other
   * thread's write can fall between the two. A signal handler on this
   * thread can (between the load and the store), but it returns with
   * `depth` as it found it: each guarded call it makes leaves what it
   * entered. So the store writes what a read-modify-write would have, and
   * the release keeps the call before it, as before. The watchdog reads a
   * plain value either way: at worst the old one, a moment longer, and
   * then it sends nothing (the safe side). (A handler that siglongjmps
   * out from between the two leaves `depth` one too high, as one that
   * leaves a guarded call that way always did: sampling is withheld, the
   * safe side too.) Enter keeps its locked add: its store must be ordered
   * before the load of `in_flight` (Dekker), which only a full barrier
   * does on x86-64, the locked add being the cheapest. */
  __atomic_store_n (&g->depth, __atomic_load_n (&g->depth, __ATOMIC_RELAXED) - 1, __ATOMIC_RELEASE);
}

/* The slow path: blocks the sampling signal around the call (only its bit:
 * the rest of the thread's mask is left as it is). The signal number is
 * read once: the watchdog may turn the guard off meanwhile. */
typedef struct
{
  int signal;
  int was_blocked; /* the thread blocked it itself: release leaves it blocked */
  unsigned long handled;
} JsCallHold;

static inline void
js_call_guard_hold (JsCallGuard *g, JsCallHold *hold)
{
  sigset_t set, old;

  hold->signal = __atomic_load_n (&g->signal, __ATOMIC_RELAXED);
  hold->was_blocked = 1;
  if (hold->signal == 0)
    return;
  sigemptyset (&set);
  sigaddset (&set, hold->signal);
  if (pthread_sigmask (SIG_BLOCK, &set, &old) != 0)
    return;
  hold->was_blocked = sigismember (&old, hold->signal) == 1;
  /* From here until release, the handler cannot run on this thread. */
  hold->handled = __atomic_load_n (&g->handled, __ATOMIC_RELAXED);
}

/* Adds the held signal to a mask the call itself installs (ppoll, pselect,
 * epoll_pwait, sigsuspend): the app's mask with that one bit more. */
static inline const sigset_t *
js_call_guard_mask (const JsCallHold *hold, const sigset_t *app_mask, sigset_t *copy)
{
  if (app_mask == NULL || hold->signal == 0)
    return app_mask;
  *copy = *app_mask;
  sigaddset (copy, hold->signal);
  return copy;
}

/* Unblocks: a signal that arrived meanwhile is delivered now, before this
 * returns, and counted (errno is kept). */
static inline void
js_call_guard_release (JsCallGuard *g, const JsCallHold *hold)
{
  int saved_errno = errno;
  sigset_t set;

  if (hold->was_blocked)
    return;
  sigemptyset (&set);
  sigaddset (&set, hold->signal);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
  if (__atomic_load_n (&g->handled, __ATOMIC_RELAXED) != hold->handled)
    __atomic_store_n (&g->deferred, __atomic_load_n (&g->deferred, __ATOMIC_RELAXED) + 1,
                      __ATOMIC_RELAXED);
  errno = saved_errno;
}
