/* pollfunc-before.c - the app's poll function is in place before jankscope
 *
 * libearly-poll's constructor installs it (see early-poll.c): a use of the
 * main loop before main (), which must not start jankscope (the program
 * prints whether its core is mapped at the top of main). A 10 ms ticker
 * keeps the loop polling; a 200 ms stall runs at 300 ms; the program prints
 * what it saw and quits 300 ms later.
 */
#include "early-poll.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static GMainLoop *loop;
static guint calls_at_stall;

static gboolean
ticker_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
end_cb (gpointer data)
{
  printf ("poll_calls_at_stall=%u\n", calls_at_stall);
  printf ("poll_calls_at_end=%u\n", early_poll_get_calls ());
  printf ("get_poll_func_is_app=%d\n",
          g_main_context_get_poll_func (NULL) == early_poll_get_func ());
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* Not static: jankscope names it, the test checks the name. */
gboolean pollfunc_before_stall_cb (gpointer data);

gboolean
pollfunc_before_stall_cb (gpointer data)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 200 * 1000;
  gint64 now;

  calls_at_stall = early_poll_get_calls ();
  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
  g_source_set_name_by_id (g_timeout_add (300, end_cb, NULL), "pollfunc-end");
  return G_SOURCE_REMOVE;
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: pollfunc-before did not end within 30 s\n");
  _exit (99);
  return NULL;
}

int
main (void)
{
  char *maps = NULL;

  if (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    printf ("core_mapped_at_main=%d\n", strstr (maps, "libjankscope-core") != NULL);
  g_free (maps);
  loop = g_main_loop_new (NULL, FALSE);
  printf ("get_poll_func_is_app_at_start=%d\n",
          g_main_context_get_poll_func (NULL) == early_poll_get_func ());
  g_source_set_name_by_id (g_timeout_add (10, ticker_cb, NULL), "pollfunc-ticker");
  g_source_set_name_by_id (g_timeout_add (300, pollfunc_before_stall_cb, NULL), "pollfunc-before");
  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  return 0;
}
