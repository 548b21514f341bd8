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

static gboolean
stdin_line_cb (GIOChannel *channel, GIOCondition condition, gpointer data)
{
  printf ("quitting\n");
  fflush (stdout);
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static gboolean
announce_cb (gpointer data)
{
  printf ("ready\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

/* A 120 ms stall at 100 ms, "ready" on stdout 1.5 s later (the stall is on
 * disk by then), then an idle loop until a line arrives on stdin: the test
 * decides when the app exits. */
int
scenario_quit_on_stdin (void)
{
  static const guint stalls[] = { 120 };
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  GIOChannel *in = g_io_channel_unix_new (0);
  Plan plan = { "quit-on-stdin", stalls, 1, 0, 30000, 0, loop };

  add_named_timeout ("quit-on-stdin", 100, timeline_stall_cb, &plan);
  add_named_timeout ("announce", 1600, announce_cb, NULL);
  g_io_add_watch (in, G_IO_IN | G_IO_HUP, stdin_line_cb, loop);
  run_loop (loop);
  g_io_channel_unref (in);
  g_main_loop_unref (loop);
  return 0;
}

/* Recursion of a depth that differs from stall to stall: each stall's
 * samples have stacks of their own (noinline, and the sink defeats tail
 * calls). */
static volatile guint recursion_sink;

G_GNUC_NO_INLINE static void
event_stream_recurse (guint depth, guint ms)
{
  if (depth == 0)
    busy_wait_ms (ms);
  else
    event_stream_recurse (depth - 1, ms);
  recursion_sink++;
}

static GMainLoop *event_stream_loop;

static gboolean
event_stream_cb (gpointer data)
{
  guint *left = data;

  event_stream_recurse (*left % 100, 55);
  if (--*left == 0)
    quit_loop_after (event_stream_loop, 100);
  return *left > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* 200 stalls of 55 ms, 30 ms apart, each at one of 100 recursion depths:
 * with JANKSCOPE_MERGE_MS=0, 200 events with 100 kinds of stacks in 12 s. */
int
scenario_event_stream (void)
{
  static guint left = 200;

  event_stream_loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("event-stream", 30, event_stream_cb, &left);
  run_loop (event_stream_loop);
  g_main_loop_unref (event_stream_loop);
  return 0;
}
