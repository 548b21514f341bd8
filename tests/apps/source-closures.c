/* source-closures.c - GClosures on GLib's built-in sources
 *
 * g_source_set_closure () (libgobject) accepts a source without a
 * closure_callback only when its funcs are GLib's own idle, timeout,
 * child-watch, io-watch, unix-fd or unix-signal tables, compared by address.
 * A monitor that replaces those tables or swaps a source's funcs breaks
 * this: GLib then prints a critical (fatal here) and the closure never runs.
 */
#include <glib-object.h>
#include <glib-unix.h>
#include <stdio.h>
#include <unistd.h>

static GMainLoop *loop;
static guint ran;

static gboolean
closure_cb (gpointer data)
{
  ran++;
  if (ran == 4)
    g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
io_closure_cb (GIOChannel *channel, GIOCondition condition, gpointer data)
{
  return closure_cb (data);
}

static void
attach_with_closure (GSource *source, GCallback callback)
{
  g_source_set_closure (source, g_cclosure_new (callback, NULL, NULL));
  g_source_attach (source, NULL);
  g_source_unref (source);
}

int
main (void)
{
  int fds[2];
  GIOChannel *channel;

  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  loop = g_main_loop_new (NULL, FALSE);
  g_assert (pipe (fds) == 0);
  g_assert (write (fds[1], "x", 1) == 1);
  channel = g_io_channel_unix_new (fds[0]);

  attach_with_closure (g_idle_source_new (), G_CALLBACK (closure_cb));
  attach_with_closure (g_timeout_source_new (10), G_CALLBACK (closure_cb));
  attach_with_closure (g_io_create_watch (channel, G_IO_IN), G_CALLBACK (io_closure_cb));
  attach_with_closure (g_unix_fd_source_new (fds[0], G_IO_IN), G_CALLBACK (closure_cb));
  g_main_loop_run (loop);

  printf ("closures_ran=%u\n", ran);
  g_io_channel_unref (channel);
  g_main_loop_unref (loop);
  return ran == 4 ? 0 : 2;
}
