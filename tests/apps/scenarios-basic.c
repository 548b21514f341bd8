/* scenarios-basic.c - one kind of dispatch per scenario
 *
 * The callbacks are deliberately not static: jankscope names them from the
 * dynamic symbol table and the test driver checks those names.
 */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>

static GMainLoop *loop;

/* single-200ms: one timeout dispatch that spins for 200 ms. */

gboolean
single_200ms_cb (gpointer data)
{
  busy_wait_ms (200);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
scenario_single_200ms (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("single-200ms", 50, single_200ms_cb, NULL);
  run_loop (loop);
  return 0;
}

/* fast-1000: 1000 dispatches of an idle that spins for 50 µs each. */

gboolean
fast_idle_cb (gpointer data)
{
  guint *count = data;
  gint64 end = g_get_monotonic_time () + 50;

  while (g_get_monotonic_time () < end)
    ;
  if (++*count < 1000)
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
scenario_fast_1000 (void)
{
  guint count = 0;

  loop = g_main_loop_new (NULL, FALSE);
  g_source_set_name_by_id (g_idle_add (fast_idle_cb, &count), "fast-1000");
  run_loop (loop);
  printf ("dispatched=%u\n", count);
  return 0;
}

/* idle-150: an idle handler, added before the loop runs, spins 150 ms. */

gboolean
idle_150_cb (gpointer data)
{
  busy_wait_ms (150);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
scenario_idle_150 (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  g_source_set_name_by_id (g_idle_add (idle_150_cb, NULL), "idle-150");
  run_loop (loop);
  return 0;
}

/* idle-wait: for 6.5 s the loop sleeps in poll, but for a timeout that
 * does nothing twice a second (an idle desktop app wakes about as often:
 * a cursor, a clock); the test counts what jankscope's threads do meanwhile. */

static gboolean
idle_wait_tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
idle_wait_ready_cb (gpointer data)
{
  printf ("ready\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static int
run_wait (guint tick_ms)
{
  loop = g_main_loop_new (NULL, FALSE);
  g_source_set_name_by_id (g_idle_add (idle_wait_ready_cb, NULL), "idle-wait-ready");
  add_named_timeout ("idle-wait-tick", tick_ms, idle_wait_tick_cb, NULL);
  quit_loop_after (loop, 6500);
  run_loop (loop);
  return 0;
}

int
scenario_idle_wait (void)
{
  return run_wait (500);
}

/* active-wait: the same with a timeout every 16 ms (a frame at 60 Hz). */
int
scenario_active_wait (void)
{
  return run_wait (16);
}

/* active-events: the same, with a dispatch that spins 60 ms (an event) 0.6
 * s and 2.6 s after the start: an animation with a slow frame now and then. */

static gboolean
active_event_cb (gpointer data)
{
  busy_wait_ms (60);
  return G_SOURCE_REMOVE;
}

int
scenario_active_events (void)
{
  add_named_timeout ("active-event", 600, active_event_cb, NULL);
  add_named_timeout ("active-event", 2600, active_event_cb, NULL);
  return run_wait (16);
}

/* seeded-random: the app seeds GLib's global random numbers before its
 * main loop starts jankscope, runs the loop for 1.5 s (a 300 ms stall in
 * it: an event, the report written) and then draws from the global
 * generator: the numbers must be those of a generator of its own seeded
 * the same (a guest that drew from the app's generator would shift them). */

gboolean
seeded_random_stall_cb (gpointer data)
{
  busy_wait_ms (300);
  return G_SOURCE_REMOVE;
}

int
scenario_seeded_random (void)
{
  GRand *mine = g_rand_new_with_seed (20261206);
  guint same = 0;

  g_random_set_seed (20261206);
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("seeded-random", 200, seeded_random_stall_cb, NULL);
  quit_loop_after (loop, 1500);
  run_loop (loop);
  for (guint i = 0; i < 1000; i++)
    same += g_random_int () == g_rand_int (mine);
  printf ("random_same=%u\n", same);
  g_rand_free (mine);
  g_main_loop_unref (loop);
  return 0;
}

/* iteration-loop: no GMainLoop, the app iterates the context itself. */

static gboolean iteration_loop_done;

gboolean
iteration_loop_quit_cb (gpointer data)
{
  iteration_loop_done = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
iteration_loop_stall_cb (gpointer data)
{
  busy_wait_ms (200);
  add_named_timeout ("scenario-quit", 100, iteration_loop_quit_cb, NULL);
  return G_SOURCE_REMOVE;
}

int
scenario_iteration_loop (void)
{
  add_named_timeout ("iteration-loop", 50, iteration_loop_stall_cb, NULL);
  start_watchdog ();
  while (!iteration_loop_done)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

/* custom-source: a source with its own GSourceFuncs and no callback; it
 * becomes ready 50 ms after creation and its dispatch spins for 120 ms. */

typedef struct
{
  GSource source;
  gint64 ready_at;
} TestCustomSource;

static gboolean
test_custom_prepare (GSource *source, gint *timeout)
{
  gint64 left = ((TestCustomSource *) source)->ready_at - g_source_get_time (source);

  *timeout = left > 0 ? (gint) ((left + 999) / 1000) : 0;
  return left <= 0;
}

static gboolean
test_custom_check (GSource *source)
{
  return g_source_get_time (source) >= ((TestCustomSource *) source)->ready_at;
}

gboolean
test_custom_dispatch (GSource *source, GSourceFunc callback, gpointer data)
{
  busy_wait_ms (120);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

static GSourceFuncs test_custom_funcs = {
  .prepare = test_custom_prepare,
  .check = test_custom_check,
  .dispatch = test_custom_dispatch,
};

int
scenario_custom_source (void)
{
  GSource *source = g_source_new (&test_custom_funcs, sizeof (TestCustomSource));

  loop = g_main_loop_new (NULL, FALSE);
  ((TestCustomSource *) source)->ready_at = g_get_monotonic_time () + 50 * 1000;
  g_source_set_name (source, "test-custom");
  g_source_attach (source, NULL);
  g_source_unref (source);
  run_loop (loop);
  return 0;
}

/* many-small: ten 30 ms idles at the same priority are all ready at once,
 * so GLib dispatches them in one iteration: 300 ms of busy time made of
 * dispatches that are each below the threshold. */

gboolean
many_small_idle_cb (gpointer data)
{
  guint *left = data;

  busy_wait_ms (30);
  if (--*left == 0)
    quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

gboolean
many_small_start_cb (gpointer data)
{
  for (guint i = 0; i < 10; i++)
    g_source_set_name_by_id (g_idle_add (many_small_idle_cb, data), "many-small");
  return G_SOURCE_REMOVE;
}

int
scenario_many_small (void)
{
  guint left = 10;

  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("many-small-start", 50, many_small_start_cb, &left);
  run_loop (loop);
  printf ("idles_left=%u\n", left);
  return 0;
}

/* stall-then-quit: the slow dispatch is the last one: it quits the loop, so
 * no poll call follows it. */

gboolean
stall_then_quit_cb (gpointer data)
{
  busy_wait_ms (200);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
scenario_stall_then_quit (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("stall-then-quit", 50, stall_then_quit_cb, NULL);
  run_loop (loop);
  return 0;
}

/* exit-in-dispatch: a callback stalls, then calls exit (4) itself. */

gboolean
exit_in_dispatch_cb (gpointer data)
{
  busy_wait_ms (120);
  printf ("scenario=exit-in-dispatch exiting\n");
  exit (4);
}

int
scenario_exit_in_dispatch (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("exit-in-dispatch", 50, exit_in_dispatch_cb, NULL);
  run_loop (loop);
  return 1;
}

/* iteration-gap: the app itself stalls for 200 ms between two
 * g_main_context_iteration () calls, outside any dispatch. */

static gboolean gap_stall_now, gap_done;

gboolean
gap_request_cb (gpointer data)
{
  gap_stall_now = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
gap_quit_cb (gpointer data)
{
  gap_done = TRUE;
  return G_SOURCE_REMOVE;
}

int
scenario_iteration_gap (void)
{
  add_named_timeout ("iteration-gap-request", 50, gap_request_cb, NULL);
  start_watchdog ();
  while (!gap_done)
    {
      g_main_context_iteration (NULL, TRUE);
      if (gap_stall_now)
        {
          gap_stall_now = FALSE;
          busy_wait_ms (200);
          add_named_timeout ("scenario-quit", 100, gap_quit_cb, NULL);
        }
    }
  return 0;
}

/* first-iteration-gap: the same, right after the program's very first
 * g_main_context_iteration (): that first iteration must be timed too
 * (jankscope starts at that call, before it runs). */

gboolean
first_iteration_idle_cb (gpointer data)
{
  gap_stall_now = TRUE;
  return G_SOURCE_REMOVE;
}

int
scenario_first_iteration_gap (void)
{
  g_source_set_name_by_id (g_idle_add (first_iteration_idle_cb, NULL), "first-iteration-idle");
  start_watchdog ();
  while (!gap_done)
    {
      g_main_context_iteration (NULL, TRUE);
      if (gap_stall_now)
        {
          gap_stall_now = FALSE;
          busy_wait_ms (200);
          add_named_timeout ("scenario-quit", 100, gap_quit_cb, NULL);
        }
    }
  return 0;
}

/* many-sources: 250 idles with distinct names, each dispatched once. */

gboolean
many_sources_cb (gpointer data)
{
  guint *left = data;

  if (--*left == 0)
    quit_loop_after (loop, 50);
  return G_SOURCE_REMOVE;
}

int
scenario_many_sources (void)
{
  guint left = 250;

  loop = g_main_loop_new (NULL, FALSE);
  for (guint i = 0; i < 250; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "many-sources-%03u", i);
      g_source_set_name_by_id (g_idle_add (many_sources_cb, &left), name);
    }
  run_loop (loop);
  printf ("idles_left=%u\n", left);
  return 0;
}

/* no-loop: a GLib program that never runs a main loop. */

int
scenario_no_loop (void)
{
  char *text = g_strdup_printf ("%s-%d", "no-loop", 42);

  printf ("text=%s\n", text);
  g_free (text);
  return 0;
}
