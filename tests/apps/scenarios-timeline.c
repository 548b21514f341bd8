/* scenarios-timeline.c - several stalls spread over time
 *
 * A "plan" is a list of stalls: each one spins for stall_ms, then the next
 * one starts gap_ms after the previous one ended. The process quits
 * quit_after_ms after the last stall.
 */
#include "scenario.h"

#include <stdio.h>

typedef struct
{
  const char *name;
  const guint *stalls_ms;
  guint n_stalls;
  guint gap_ms;
  guint quit_after_ms;
  guint next;
  GMainLoop *loop;
} Plan;

gboolean
timeline_stall_cb (gpointer data)
{
  Plan *plan = data;

  busy_wait_ms (plan->stalls_ms[plan->next++]);
  if (plan->next < plan->n_stalls)
    add_named_timeout (plan->name, plan->gap_ms, timeline_stall_cb, plan);
  else
    quit_loop_after (plan->loop, plan->quit_after_ms);
  return G_SOURCE_REMOVE;
}

static int
run_plan (const char *name, const guint *stalls_ms, guint n_stalls, guint gap_ms,
          guint quit_after_ms)
{
  Plan plan = { name, stalls_ms, n_stalls, gap_ms, quit_after_ms, 0, NULL };

  plan.loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout (name, 100, timeline_stall_cb, &plan);
  run_loop (plan.loop);
  g_main_loop_unref (plan.loop);
  printf ("stalls=%u\n", plan.next);
  return 0;
}

/* Three 80 ms stalls 200 ms apart: one episode of three parts. */
int
scenario_merge (void)
{
  static const guint stalls[] = { 80, 80, 80 };

  return run_plan ("merge", stalls, G_N_ELEMENTS (stalls), 200, 100);
}

/* Two 80 ms stalls 1 s apart: two episodes. */
int
scenario_merge_apart (void)
{
  static const guint stalls[] = { 80, 80 };

  return run_plan ("merge-apart", stalls, G_N_ELEMENTS (stalls), 1000, 100);
}

/* An 80 ms stall, then a 200 ms stall 1 s later (for threshold tests). */
int
scenario_threshold_mix (void)
{
  static const guint stalls[] = { 80, 200 };

  return run_plan ("threshold-mix", stalls, G_N_ELEMENTS (stalls), 1000, 100);
}

/* A 120 ms stall, then 5 s of an idle loop (the test kills it earlier). */
int
scenario_sigterm (void)
{
  static const guint stalls[] = { 120 };

  return run_plan ("sigterm", stalls, G_N_ELEMENTS (stalls), 0, 5000);
}

/* Eight 60 ms stalls 700 ms apart: eight episodes, so the report file is
 * rewritten again and again while the test reads it. */
int
scenario_json_stream (void)
{
  static const guint stalls[] = { 60, 60, 60, 60, 60, 60, 60, 60 };

  return run_plan ("json-stream", stalls, G_N_ELEMENTS (stalls), 700, 1500);
}

/* A 45 ms stall (below the default 50 ms threshold), then a 51 ms one. */
int
scenario_boundary (void)
{
  static const guint stalls[] = { 45, 51 };

  return run_plan ("boundary", stalls, G_N_ELEMENTS (stalls), 1000, 100);
}

/* 70 stalls of 55 ms back to back, each in its own iteration: one episode
 * with more parts than the default max_parts (64). */
int
scenario_many_parts (void)
{
  static guint stalls[70];

  for (guint i = 0; i < G_N_ELEMENTS (stalls); i++)
    stalls[i] = 55;
  return run_plan ("many-parts", stalls, G_N_ELEMENTS (stalls), 0, 100);
}
