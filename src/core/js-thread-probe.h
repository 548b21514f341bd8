/* js-thread-probe.h: what another thread can learn about the main thread
 * without touching it.
 *
 * /proc/self/task/TID/{status,syscall} (state, blocked signals, voluntary
 * context switches, the system call it is blocked in with its stack pointer
 * and pc) and its CPU clock. Nothing here sends a signal or stops the thread:
 * a thread blocked in nanosleep/poll/futex stays blocked (a signal would make
 * usleep return early: signal(7); docs/background.md, "Main loop").
 *
 * Used by the watchdog thread only (not thread-safe).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <pthread.h>
#include <sys/types.h>
#include "js-stack-sample.h"

G_BEGIN_DECLS

typedef struct
{
  pid_t tid;
  int status_fd;
  int syscall_fd;
  int schedstat_fd; /* -1 without CONFIG_SCHED_INFO */
  clockid_t cpu_clock;
  gboolean has_cpu_clock;
  guint64 stack_lo, stack_hi; /* the thread's stack mapping, 0 if unknown */
} JsThreadProbe;

typedef struct
{
  char state;          /* 'R', 'S', 'D', 'T', ...; 0 if unknown */
  guint64 sig_blocked; /* SigBlk: bit n-1 for signal n */
  guint64 sig_pending; /* SigPnd (the thread's own pending signals); all set if unknown */
  guint64 nvcsw;       /* voluntary context switches: changes whenever it blocks */
  gboolean blocked;    /* in a system call and not running ("syscall" gave a number) */
  long syscall_nr;     /* -1 when blocked outside a system call (page fault...) */
  guint64 args[6];
  guint64 sp, pc;
} JsThreadSnapshot;

/* Opens the /proc files of `tid` (a thread of this process) and its CPU
 * clock. `stack_lo`/`stack_hi` bound stack copies (0: the copy is bounded by
 * its size only). Returns FALSE when /proc is not readable. */
gboolean js_thread_probe_open (JsThreadProbe *probe, pid_t tid, pthread_t thread, guint64 stack_lo,
                               guint64 stack_hi);
void js_thread_probe_close (JsThreadProbe *probe);

/* Reads status and syscall. FALSE if either could not be read or parsed. */
gboolean js_thread_probe_read (JsThreadProbe *probe, JsThreadSnapshot *out);

/* The thread's CPU time in ns, or -1; and (schedstat) how long it has been
 * runnable but waiting for a CPU, or -1 when the kernel does not say. */
gint64 js_thread_probe_cpu_ns (JsThreadProbe *probe, gint64 *runnable_ns);

/* What a blocked thread waits for (JS_WAIT_NONE if it runs). For read/write
 * style calls the file descriptor's type tells files from sockets and pipes. */
JsWaitKind js_thread_probe_wait_kind (const JsThreadSnapshot *snap);

/* The longest file path js_thread_probe_file_path gives, with its NUL. */
#define JS_THREAD_PROBE_MAX_PATH 1024

/* The file a blocked thread's system call is about, into `out`: the path
 * of its fd (read, write, pread, fstat, fsync... : /proc/self/fd/N) or its
 * path argument (openat, newfstatat, statx...: copied from its memory with
 * process_vm_readv, never dereferenced; a relative one joined to its
 * directory). FALSE for other calls, sockets, pipes, or what cannot be read.
 * Bounded, never blocks on the call: any thread. */
gboolean js_thread_probe_file_path (const JsThreadSnapshot *snap, char *out, gsize size);

/* Copies up to `max` bytes of the blocked thread's stack from snap->sp
 * (process_vm_readv: a bad address gives an error, never a fault). Returns a
 * new copy or NULL. */
JsStackCopy *js_thread_probe_copy_stack (JsThreadProbe *probe, const JsThreadSnapshot *snap,
                                         gsize max);

/* Parsers, exposed for the unit tests. */
gboolean js_thread_probe_parse_status (const char *text, JsThreadSnapshot *out);
gboolean js_thread_probe_parse_syscall (const char *text, JsThreadSnapshot *out);

G_END_DECLS
