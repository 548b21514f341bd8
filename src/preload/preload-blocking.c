/* preload-blocking.c: the main thread's blocking calls, guarded against the
 * sampling signal.
 *
 * poll, select, epoll_wait, nanosleep & co. fail with EINTR when a signal
 * handler runs while they wait, SA_RESTART or not (signal(7)). The
 * watchdog signals the main thread only while it runs, so the one way its
 * signal could cut such a call short is a thread entering it right then.
 * These wrappers close that race with the handshake of js-call-guard.h: on
 * the watched thread, while sampling is on, each call says it is under way
 * before it starts and looks whether a sampling signal is in flight; if one
 * is, the call runs with that signal blocked (added to the mask of the calls
 * that take one), so the signal waits until the call returns. Otherwise the
 * call is made exactly as the app made it: the watchdog, seeing the thread
 * inside it, sends nothing. Either way the app gets the same return value,
 * errno and remaining time (nanosleep's `rem`, select's timeval) as without
 * jankscope, and its own signals interrupt these calls as before.
 *
 * Other threads, other processes (the preload is inherited by every child)
 * and a core that is not running pay one load, a compare of the thread
 * pointer and an indirect call. libc's own internal calls (usleep calls
 * nanosleep inside libc) do not come through here, which is why usleep and
 * sleep have their own wrappers; the fortified __poll_chk/__ppoll_chk (poll
 * on a local array with _FORTIFY_SOURCE) too. Not wrapped, and so still
 * exposed to the race of a few microseconds: calls that time out through a
 * socket option (SO_RCVTIMEO), System V IPC (msgrcv, semop), io_getevents,
 * futexes with a relative timeout (g_cond_wait_until, where EINTR is a
 * spurious wake-up GLib allows), and system calls made without libc
 * (syscall (SYS_poll)).
 *
 * The real functions are found with dlsym (RTLD_NEXT) in a constructor, not
 * at the first call, which could come from a signal handler.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#undef _FORTIFY_SOURCE /* we define poll & co.: no fortified inline versions */
#define _GNU_SOURCE
#include "preload-private.h"
#include "js-call-guard.h"
#include "preload-libc.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

/* glibc's fortified entry points: no header declares them without
 * _FORTIFY_SOURCE. */
JS_EXPORT int __poll_chk (struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen);
JS_EXPORT int __ppoll_chk (struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
                           const sigset_t *ss, size_t fdslen);

#define REAL_FUNCS(X)                                                                              \
  X (poll, int, (struct pollfd *, nfds_t, int) )                                                   \
  X (__poll_chk, int, (struct pollfd *, nfds_t, int, size_t))                                      \
  X (ppoll, int, (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *) )            \
  X (__ppoll_chk, int,                                                                             \
     (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *, size_t))                 \
  X (select, int, (int, fd_set *, fd_set *, fd_set *, struct timeval *) )                          \
  X (pselect, int,                                                                                 \
     (int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *) )              \
  X (epoll_wait, int, (int, struct epoll_event *, int, int) )                                      \
  X (epoll_pwait, int, (int, struct epoll_event *, int, int, const sigset_t *) )                   \
  X (epoll_pwait2, int,                                                                            \
     (int, struct epoll_event *, int, const struct timespec *, const sigset_t *) )                 \
  X (nanosleep, int, (const struct timespec *, struct timespec *) )                                \
  X (clock_nanosleep, int, (clockid_t, int, const struct timespec *, struct timespec *) )          \
  X (usleep, int, (useconds_t))                                                                    \
  X (sleep, unsigned, (unsigned) )                                                                 \
  X (pause, int, (void) )                                                                          \
  X (sigsuspend, int, (const sigset_t *) )                                                         \
  X (sigtimedwait, int, (const sigset_t *, siginfo_t *, const struct timespec *) )                 \
  X (sigwaitinfo, int, (const sigset_t *, siginfo_t *) )

#define DECLARE_REAL(name, ret, params)                                                            \
  typedef ret (*name##_func) params;                                                               \
  static name##_func real_##name JS_HOT_DATA;
REAL_FUNCS (DECLARE_REAL)

__attribute__ ((constructor)) static void
js_preload_blocking_init (void)
{
#define RESOLVE(name, ret, params) js_preload_libc_symbol ((void **) &real_##name, #name);
  REAL_FUNCS (RESOLVE)
#undef RESOLVE
}

/* The real function; NULL only if this libc lacks it (epoll_pwait2 before
 * glibc 2.35), and then the app could not have linked against it either. */
#define REAL(name) ((name##_func) js_preload_libc_symbol ((void **) &real_##name, #name))

static inline JsCallGuard *
guard (void)
{
  return js_call_guard_mine (
      __atomic_load_n ((JsCallGuard **) &js_preload_bridge.call_guard, __ATOMIC_ACQUIRE));
}

/* `ret = CALL` for a call without a mask of its own: as the app made it, or,
 * while a sampling signal is in flight, with that signal blocked around it.
 * EINTR_IF says how this call reports EINTR. */
#define GUARDED(g, ret, CALL, EINTR_IF)                                                            \
  do                                                                                               \
    {                                                                                              \
      if (!js_call_guard_enter (g))                                                                \
        ret = CALL;                                                                                \
      else                                                                                         \
        {                                                                                          \
          JsCallHold hold_;                                                                        \
                                                                                                   \
          js_call_guard_hold (g, &hold_);                                                          \
          ret = CALL;                                                                              \
          js_call_guard_release (g, &hold_);                                                       \
        }                                                                                          \
      js_call_guard_leave (g, EINTR_IF);                                                           \
    }                                                                                              \
  while (0)

/* The same for a call that installs the app's mask while it waits (ppoll,
 * pselect, epoll_pwait, sigsuspend): held back, the sampling signal is
 * blocked in the thread's mask and added to the app's (a copy: the app's
 * own mask is read here, an invalid pointer faults here instead of giving
 * EFAULT, a difference only while a sample is in flight). */
#define GUARDED_MASK(g, ret, app_mask, CALL_WITH_MASK, EINTR_IF)                                   \
  do                                                                                               \
    {                                                                                              \
      if (!js_call_guard_enter (g))                                                                \
        {                                                                                          \
          const sigset_t *mask_ = (app_mask);                                                      \
                                                                                                   \
          ret = CALL_WITH_MASK;                                                                    \
        }                                                                                          \
      else                                                                                         \
        {                                                                                          \
          JsCallHold hold_;                                                                        \
          sigset_t copy_;                                                                          \
          const sigset_t *mask_;                                                                   \
                                                                                                   \
          js_call_guard_hold (g, &hold_);                                                          \
          mask_ = js_call_guard_mask (&hold_, (app_mask), &copy_);                                 \
          ret = CALL_WITH_MASK;                                                                    \
          js_call_guard_release (g, &hold_);                                                       \
        }                                                                                          \
      js_call_guard_leave (g, EINTR_IF);                                                           \
    }                                                                                              \
  while (0)

#define FAILED_EINTR(ret) ((ret) < 0 && errno == EINTR)

static int
missing (void)
{
  errno = ENOSYS;
  return -1;
}

/* --- fd multiplexing ------------------------------------------------------- */

JS_EXPORT JS_HOT int
poll (struct pollfd *fds, nfds_t nfds, int timeout)
{
  poll_func real = REAL (poll);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (fds, nfds, timeout);
  GUARDED (g, ret, real (fds, nfds, timeout), FAILED_EINTR (ret));
  return ret;
}

/* poll's own address: a hidden alias binds here, where a reference to the
 * exported name would go through the GOT to whichever definition comes
 * first (the executable's own poll, say). */
extern __typeof (poll) js_preload_poll JS_HOT
    __attribute__ ((alias ("poll"), visibility ("hidden")));

int
js_preload_poll_wrapped (void)
{
  /* What every object of the global scope (GLib's among them, whose g_poll
   * is a call of poll through the PLT) binds `poll` to: this wrapper, unless
   * the preload came after libc (dlopened, not preloaded) or another
   * definition comes first. A library loaded with RTLD_DEEPBIND would
   * search its own dependencies first and miss it; GLib's main loop
   * retries g_poll's EINTR without a word (gmain.c), so even there the app
   * would see no more than an extra iteration. */
  return dlsym (RTLD_DEFAULT, "poll") == (void *) js_preload_poll;
}

JS_EXPORT int
__poll_chk (struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen)
{
  __poll_chk_func real = REAL (__poll_chk);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (fds, nfds, timeout, fdslen);
  GUARDED (g, ret, real (fds, nfds, timeout, fdslen), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
ppoll (struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask)
{
  ppoll_func real = REAL (ppoll);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (fds, nfds, timeout, sigmask);
  GUARDED_MASK (g, ret, sigmask, real (fds, nfds, timeout, mask_), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
__ppoll_chk (struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
             const sigset_t *sigmask, size_t fdslen)
{
  __ppoll_chk_func real = REAL (__ppoll_chk);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (fds, nfds, timeout, sigmask, fdslen);
  GUARDED_MASK (g, ret, sigmask, real (fds, nfds, timeout, mask_, fdslen), FAILED_EINTR (ret));
  return ret;
}

/* select itself, not pselect: Linux's select writes the time left back into
 * `timeout`, and the app may count on it. */
JS_EXPORT int
select (int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, struct timeval *timeout)
{
  select_func real = REAL (select);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (nfds, readfds, writefds, exceptfds, timeout);
  GUARDED (g, ret, real (nfds, readfds, writefds, exceptfds, timeout), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
pselect (int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
         const struct timespec *timeout, const sigset_t *sigmask)
{
  pselect_func real = REAL (pselect);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (nfds, readfds, writefds, exceptfds, timeout, sigmask);
  GUARDED_MASK (g, ret, sigmask, real (nfds, readfds, writefds, exceptfds, timeout, mask_),
                FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
epoll_wait (int epfd, struct epoll_event *events, int maxevents, int timeout)
{
  epoll_wait_func real = REAL (epoll_wait);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (epfd, events, maxevents, timeout);
  GUARDED (g, ret, real (epfd, events, maxevents, timeout), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
epoll_pwait (int epfd, struct epoll_event *events, int maxevents, int timeout,
             const sigset_t *sigmask)
{
  epoll_pwait_func real = REAL (epoll_pwait);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (epfd, events, maxevents, timeout, sigmask);
  GUARDED_MASK (g, ret, sigmask, real (epfd, events, maxevents, timeout, mask_),
                FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
epoll_pwait2 (int epfd, struct epoll_event *events, int maxevents, const struct timespec *timeout,
              const sigset_t *sigmask)
{
  epoll_pwait2_func real = REAL (epoll_pwait2);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (epfd, events, maxevents, timeout, sigmask);
  GUARDED_MASK (g, ret, sigmask, real (epfd, events, maxevents, timeout, mask_),
                FAILED_EINTR (ret));
  return ret;
}

/* --- sleeps ---------------------------------------------------------------- */

JS_EXPORT int
nanosleep (const struct timespec *req, struct timespec *rem)
{
  nanosleep_func real = REAL (nanosleep);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (req, rem);
  GUARDED (g, ret, real (req, rem), FAILED_EINTR (ret));
  return ret;
}

/* Returns the error number (errno is left alone). */
JS_EXPORT int
clock_nanosleep (clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
  clock_nanosleep_func real = REAL (clock_nanosleep);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return ENOSYS;
  if (g == NULL)
    return real (clock, flags, req, rem);
  GUARDED (g, ret, real (clock, flags, req, rem), ret == EINTR);
  return ret;
}

JS_EXPORT int
usleep (useconds_t usec)
{
  usleep_func real = REAL (usleep);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (usec);
  GUARDED (g, ret, real (usec), FAILED_EINTR (ret));
  return ret;
}

/* Returns the seconds left: nonzero only when a signal cut it short. */
JS_EXPORT unsigned
sleep (unsigned seconds)
{
  sleep_func real = REAL (sleep);
  JsCallGuard *g = guard ();
  unsigned ret;

  if (real == NULL)
    return seconds;
  if (g == NULL)
    return real (seconds);
  GUARDED (g, ret, real (seconds), ret != 0);
  return ret;
}

/* --- waiting for a signal -------------------------------------------------- */

JS_EXPORT int
pause (void)
{
  pause_func real = REAL (pause);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real ();
  GUARDED (g, ret, real (), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
sigsuspend (const sigset_t *mask)
{
  sigsuspend_func real = REAL (sigsuspend);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (mask);
  GUARDED_MASK (g, ret, mask, real (mask_), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
sigtimedwait (const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
  sigtimedwait_func real = REAL (sigtimedwait);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (set, info, timeout);
  GUARDED (g, ret, real (set, info, timeout), FAILED_EINTR (ret));
  return ret;
}

JS_EXPORT int
sigwaitinfo (const sigset_t *set, siginfo_t *info)
{
  sigwaitinfo_func real = REAL (sigwaitinfo);
  JsCallGuard *g = guard ();
  int ret;

  if (real == NULL)
    return missing ();
  if (g == NULL)
    return real (set, info);
  GUARDED (g, ret, real (set, info), FAILED_EINTR (ret));
  return ret;
}
