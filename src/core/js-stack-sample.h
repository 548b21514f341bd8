/* js-stack-sample.h: one stack sample of the main thread, taken during a
 * stall (a value type; the signal that takes one is js-sampler.h).
 *
 * Made by the watchdog thread (js-watchdog.c): either the main thread wrote
 * its own return addresses in the sampler's signal handler (it was running),
 * or it was blocked in a system call and the watchdog copied its stack
 * without interrupting it (`copy`, unwound later by the symbolizer).
 * Identical consecutive samples are folded into one with a count.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-stack-copy.h" /* JsStackCopy: src/symbols/ unwinds it */

G_BEGIN_DECLS

#define JS_STACK_SAMPLE_MAX_FRAMES 128

typedef enum
{
  JS_THREAD_UNKNOWN,
  JS_THREAD_RUNNING, /* on a CPU or runnable (on-CPU time) */
  JS_THREAD_WAITING, /* blocked in a system call (off-CPU time) */
} JsThreadState;

/* What a waiting thread waits for, from the system call it is blocked in. */
typedef enum
{
  JS_WAIT_NONE,  /* not waiting */
  JS_WAIT_LOCK,  /* futex: a mutex, condition, GCond, g_thread_join... */
  JS_WAIT_SLEEP, /* nanosleep, clock_nanosleep (usleep, g_usleep) */
  JS_WAIT_IO,    /* read/write/open/fsync... on files, or uninterruptible (D) */
  JS_WAIT_POLL,  /* poll, select, epoll: waiting for any of several fds */
  JS_WAIT_IPC,   /* sockets and pipes: D-Bus, X11/Wayland round trips, child pipes */
  JS_WAIT_CHILD, /* waitpid & co. */
  JS_WAIT_OTHER,
  JS_N_WAITS
} JsWaitKind;

enum
{
  /* the stack had more than JS_STACK_SAMPLE_MAX_FRAMES frames */
  JS_STACK_SAMPLE_TRUNCATED = 1 << 0,
  /* state only: the stack could not be taken (see the sampler's counters) */
  JS_STACK_SAMPLE_NO_STACK = 1 << 1,
  /* unwound from a copy of a blocked thread's stack */
  JS_STACK_SAMPLE_FROM_COPY = 1 << 2,
};

typedef struct
{
  gint64 time_ns; /* CLOCK_MONOTONIC, when taken (the first, for folded ones) */
  gint64 last_ns; /* the last identical sample folded into this one */
  gint64 cpu_ns;  /* the main thread's CPU clock when taken; -1 unknown */
  guint32 count;  /* 1 + identical consecutive samples folded in */
  guint8 state;   /* JsThreadState */
  guint8 wait;    /* JsWaitKind */
  guint8 flags;
  gint16 syscall; /* waiting: the system call's number; -1 otherwise */
  guint16 n_frames;
  guint64 unloads;   /* js_modules_unloads () before it was taken */
  JsStackCopy *copy; /* waiting: owned until unwound into `frames`, else NULL */
  /* Code addresses, leaf first: [0] is where the thread was (its pc), the
   * others are return addresses (look up address - 1 for the call). */
  guint64 frames[JS_STACK_SAMPLE_MAX_FRAMES];
  /* The JsModules id of each frame, resolved when the sample was taken (0:
   * unknown, resolve later). */
  guint16 modules[JS_STACK_SAMPLE_MAX_FRAMES];
} JsStackSample;

const char *js_wait_kind_name (JsWaitKind kind);

G_END_DECLS
