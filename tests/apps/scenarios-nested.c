/* scenarios-nested.c - dispatches that run a nested main loop
 *
 * A nested g_main_loop_run () inside a dispatch (a modal dialog, GtkApplication
 * start-up) makes the outer dispatch long in wall time while it does little
 * work itself: jankscope must count only the dispatch's own time.
 */
#include "scenario.h"

static GMainLoop *loop;

static gboolean
quit_nested_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* Runs a nested loop on the default context for @ms milliseconds. */
static void
run_nested_loop (guint ms, const char *inner_name, GSourceFunc inner_func, guint inner_after_ms)
{
  GMainLoop *nested = g_main_loop_new (NULL, FALSE);

  add_named_timeout ("nested-quit", ms, quit_nested_cb, nested);
  if (inner_func != NULL)
    add_named_timeout (inner_name, inner_after_ms, inner_func, NULL);
  g_main_loop_run (nested);
  g_main_loop_unref (nested);
}

/* nested: 10 ms of own work, then 300 ms waiting in a nested loop. */

gboolean
nested_outer_cb (gpointer data)
{
  busy_wait_ms (10);
  run_nested_loop (300, NULL, NULL, 0);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
scenario_nested (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("nested-outer", 50, nested_outer_cb, NULL);
  run_loop (loop);
  return 0;
}

/* nested-slow: the nested loop dispatches a 120 ms callback. */

gboolean
nested_inner_slow_cb (gpointer data)
{
  busy_wait_ms (120);
  return G_SOURCE_REMOVE;
}

gboolean
nested_slow_outer_cb (gpointer data)
{
  run_nested_loop (300, "nested-inner", nested_inner_slow_cb, 50);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
scenario_nested_slow (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("nested-outer", 50, nested_slow_outer_cb, NULL);
  run_loop (loop);
  return 0;
}

/* nested-iteration: the modal-wait idiom of many GTK3 apps: 10 ms of own
 * work, then g_main_context_iteration () until a timer fires 300 ms later. */

static gboolean nested_flag;

gboolean
nested_flag_cb (gpointer data)
{
  nested_flag = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
nested_iteration_outer_cb (gpointer data)
{
  busy_wait_ms (10);
  add_named_timeout ("nested-quit", 300, nested_flag_cb, NULL);
  while (!nested_flag)
    g_main_context_iteration (NULL, TRUE);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

int
scenario_nested_iteration (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("nested-outer", 50, nested_iteration_outer_cb, NULL);
  run_loop (loop);
  return 0;
}
