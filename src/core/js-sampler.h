/* js-sampler.h: the main thread writes its own stack when signalled.
 *
 * A free real-time signal (SIG_DFL, from SIGRTMIN+3 up) gets a handler with
 * SA_RESTART. The watchdog asks for one sample at a time: it picks a slot of
 * a small preallocated ring, sends the signal to the main thread with the
 * request's sequence number (rt_tgsigqueueinfo), and waits for the slot with
 * a timeout. The handler, async-signal-safe, checks the sequence, writes the
 * return addresses with libunwind's unw_backtrace (dlopened RTLD_LOCAL, so it
 * never takes over the app's C++ exceptions; never unw_step in a handler: it
 * costs 80-100 µs there, docs/background.md, "Signal sampling") and its own
 * cost, and wakes the watchdog (futex).
 *
 * The watchdog only signals a thread that is running: a thread blocked in a
 * system call is read from /proc instead (js-thread-probe.h), so its sleep or
 * poll is never cut short. A thread entering poll, nanosleep & co. between
 * that look and the signal is covered by a handshake with those calls
 * (js-call-guard.h): the signal is either not sent (JS_SAMPLER_IN_CALL) or
 * held back until the call returns.
 *
 * Thread contract: js_sampler_init on the main thread (it warms libunwind's
 * per-thread state there, outside any handler); js_sampler_take from one
 * other thread (the watchdog); js_sampler_fork_child in a fork child.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include "js-call-guard.h"

G_BEGIN_DECLS

typedef enum
{
  JS_SAMPLER_OK,
  JS_SAMPLER_TIMEOUT, /* no answer in time (the thread is not scheduled, or blocks the signal) */
  JS_SAMPLER_SIGNAL_LOST, /* the app replaced our handler: sampling is off for good */
  JS_SAMPLER_OFF,         /* not initialised, or disabled */
  JS_SAMPLER_SEND_FAILED,
  JS_SAMPLER_IN_CALL, /* the thread is in a blocking call the signal would cut short: not sent */
} JsSamplerStatus;

typedef struct
{
  guint64 requested;
  guint64 taken;
  guint64 timeouts;
  guint64 late;           /* answers that came after their timeout (discarded) */
  guint64 withheld;       /* not sent: the thread was in a guarded blocking call */
  guint64 deferred;       /* arrived while a guarded call held the signal back */
  guint64 blocking_eintr; /* EINTR returned by the preload's guarded calls (the app's signals) */
  guint64 truncated;
  int signal;           /* the signal in use, 0 if none */
  gboolean lost;        /* the app took the signal over */
  const char *unwinder; /* "libunwind", "glibc backtrace" */
} JsSamplerCounters;

/* Main thread. `signal_offset` >= 0 forces SIGRTMIN+offset (it must still be
 * SIG_DFL); -1 picks the first free one from SIGRTMIN+3. FALSE (with a
 * warning) when no signal or unwinder is available. */
gboolean js_sampler_init (pid_t main_tid, int signal_offset);

/* The watchdog: one sample of the main thread. `frames` gets code addresses,
 * leaf first ([0] = the interrupted pc); `handler_ns` what the handler cost
 * the main thread. */
JsSamplerStatus js_sampler_take (guint64 *frames, guint max, guint *n_frames, gboolean *truncated,
                                 gint64 timeout_ns, gint64 *handler_ns);

/* The guard of the main thread's blocking calls (js-call-guard.h); its
 * signal is 0 while sampling is off. */
extern JsCallGuard js_sampler_guard;

/* Is the handler still ours? (FALSE once the app replaced it.) */
gboolean js_sampler_check_handler (void);

int js_sampler_signal (void);

/* The unwinder the handler uses (unw_backtrace, else glibc's backtrace),
 * once js_sampler_init succeeded; else NULL. Any thread. */
typedef int (*JsBacktraceFunc) (void **buffer, int size);
JsBacktraceFunc js_sampler_backtrace (void);
void js_sampler_get_counters (JsSamplerCounters *counters);

/* The handler's frames and the signal trampoline come first in a backtrace
 * taken inside it: a buffer for js_sampler_unwind holds this many more. */
#define JS_SAMPLER_EXTRA_FRAMES 16

/* Inside the handler only (async-signal-safe): the interrupted thread's
 * return addresses into `frames` (capacity JS_STACK_SAMPLE_MAX_FRAMES +
 * JS_SAMPLER_EXTRA_FRAMES), leaf first from the interrupted pc of
 * `context` (the handler's ucontext); returns how many (at most
 * JS_STACK_SAMPLE_MAX_FRAMES). */
guint js_sampler_unwind (void **frames, guint capacity, void *context, gboolean *truncated);

/* In a fork child: puts the signal's previous disposition back. Async-signal-safe. */
void js_sampler_fork_child (void);

G_END_DECLS
