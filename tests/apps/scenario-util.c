/* scenario-util.c - helpers shared by the GLib test scenarios */
#include "scenario.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void
busy_wait_ms (guint ms)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + (gint64) ms * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  /* In ns on CLOCK_MONOTONIC, like the report's timestamps. */
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
}

static gboolean
quit_loop_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
quit_loop_after (GMainLoop *loop, guint ms)
{
  add_named_timeout ("scenario-quit", ms, quit_loop_cb, loop);
}

guint
add_named_timeout (const char *name, guint ms, GSourceFunc func, gpointer data)
{
  guint id = g_timeout_add (ms, func, data);

  g_source_set_name_by_id (id, name);
  return id;
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: scenario did not end within 30 s\n");
  _exit (99);
  return NULL;
}

void
start_watchdog (void)
{
  static gsize started = 0;

  /* The watchdog is a plain thread, not a GSource: it must not show up in
   * what jankscope measures on the main context. */
  if (g_once_init_enter (&started))
    {
      g_thread_unref (g_thread_new ("scenario-watchdog", watchdog_thread, NULL));
      g_once_init_leave (&started, 1);
    }
}

void
run_loop (GMainLoop *loop)
{
  start_watchdog ();
  g_main_loop_run (loop);
}

void
print_common_facts (void)
{
  printf ("glib_version=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
  printf ("pid=%d\n", (int) getpid ());
  fflush (stdout);
}

void
scenario_fail (const char *format, ...)
{
  va_list args;

  fputs ("FAIL: ", stderr);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  exit (2);
}
