/* playground-stalls.c: ways to block the calling thread, for the jank playground
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "playground-stalls.h"

#include <errno.h>
#include <unistd.h>
#include <glib-unix.h>

/* The result of the busy loops goes here, so the compiler cannot drop the work. */
static volatile guint64 cpu_sink;

/* Busy work: a xorshift generator feeding a running sum, until @ms have passed.
 * The clock is read only every 4096 rounds, so almost all the time is spent computing. */
void
playground_stall_cpu (guint ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  guint64 x = 88172645463325252ull ^ cpu_sink;
  guint64 sum = 0;

  do
    {
      for (guint i = 0; i < 4096; i++)
        {
          x ^= x << 13;
          x ^= x >> 7;
          x ^= x << 17;
          sum += x % 1000003;
        }
    }
  while (g_get_monotonic_time () < deadline);

  cpu_sink = sum;
}

void
playground_stall_sleep (guint ms)
{
  g_usleep ((gulong) ms * 1000);
}

typedef struct
{
  int fd;
  guint ms;
} PipeFiller;

static gpointer
pipe_filler_thread (gpointer data)
{
  PipeFiller *filler = data;
  ssize_t n;

  g_usleep ((gulong) filler->ms * 1000);
  do
    n = write (filler->fd, "x", 1);
  while (n < 0 && errno == EINTR);
  close (filler->fd);
  return NULL;
}

/* A blocking read() on a pipe that another thread writes to after @ms. */
void
playground_stall_io (guint ms)
{
  g_autoptr (GError) error = NULL;
  PipeFiller filler;
  GThread *thread;
  int fds[2];
  char byte;
  ssize_t n;

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, &error))
    {
      g_warning ("Cannot create a pipe: %s", error->message);
      return;
    }

  filler.fd = fds[1];
  filler.ms = ms;
  thread = g_thread_new ("playground-io", pipe_filler_thread, &filler);

  do
    n = read (fds[0], &byte, 1);
  while (n < 0 && errno == EINTR);

  g_thread_join (thread);
  close (fds[0]);
}

typedef struct
{
  GMutex mutex;
  gint held; /* atomic: the worker owns the mutex */
  guint ms;
} LockHolder;

static gpointer
lock_holder_thread (gpointer data)
{
  LockHolder *holder = data;

  g_mutex_lock (&holder->mutex);
  g_atomic_int_set (&holder->held, TRUE);
  g_usleep ((gulong) holder->ms * 1000);
  g_mutex_unlock (&holder->mutex);
  return NULL;
}

/* A worker thread takes a mutex and keeps it for @ms; the caller then waits to take it. */
void
playground_stall_lock (guint ms)
{
  LockHolder holder = { .held = FALSE, .ms = ms };
  GThread *thread;

  g_mutex_init (&holder.mutex);
  thread = g_thread_new ("playground-lock", lock_holder_thread, &holder);

  /* Make sure the worker won the race for the mutex: this takes microseconds. */
  while (!g_atomic_int_get (&holder.held))
    g_thread_yield ();

  g_mutex_lock (&holder.mutex);
  g_mutex_unlock (&holder.mutex);

  g_thread_join (thread);
  g_mutex_clear (&holder.mutex);
}
