/* slow-dispatch.c: a GLib program with one slow idle, for the CLI's
 * end-to-end test. The idle busy-waits STALL_MS then quits the loop; the
 * program prints one line on stdout, which must reach the caller untouched.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>

#define STALL_MS 120

/* Not static, and the executable is linked with --export-dynamic, so that
 * jankscope can name the callback. */
gboolean slow_dispatch_busy_idle (gpointer user_data);

gboolean
slow_dispatch_busy_idle (gpointer user_data)
{
  GMainLoop *loop = user_data;
  gint64 end = g_get_monotonic_time () + STALL_MS * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    ;

  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (void)
{
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  GSource *idle = g_idle_source_new ();

  g_source_set_name (idle, "[cli-test] slow idle");
  g_source_set_callback (idle, slow_dispatch_busy_idle, loop, NULL);
  g_source_attach (idle, NULL);
  g_source_unref (idle);

  g_main_loop_run (loop);
  g_main_loop_unref (loop);

  printf ("slow-dispatch done\n");
  return 0;
}
