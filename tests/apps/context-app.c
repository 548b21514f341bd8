/* context-app.c - a GLib program annotated with the public API
 * (include/jankscope.h): scenes, marks, and stalls whose context the checks
 * compare with the report (tests/check_context.py).
 *
 *   context-app annotate        the main timeline (below), about 7.5 s
 *   context-app quick           one 80 ms stall, then quit
 *   context-app labels SCENE SOURCE
 *                               an 80 ms stall in a source named SOURCE,
 *                               inside a scene named SCENE
 *   context-app limits          more labels and deeper nesting than kept
 *   context-app animated        an app that animates (a timeout every 16
 *                               ms): an 80 ms stall inside mark "late-end",
 *                               which ends 300 ms after it; 3 s later the
 *                               program kills itself (SIGKILL: its journal
 *                               stays)
 *
 * It prints "step=..." lines, which must be the same with and without
 * jankscope (the API is a no-op without it), "api_active=0|1", and
 * "stall.NAME=START_NS,END_NS" for each stall (CLOCK_MONOTONIC, as in
 * reports).
 */
#include <jankscope.h>

#include "scenario.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static GMainLoop *loop;

static void
step (const char *what)
{
  printf ("step=%s\n", what);
}

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
stall (const char *name, guint ms, gboolean sleep)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + (gint64) ms * 1000;
  gint64 cpu_start = thread_cpu_ns ();
  gint64 now;

  if (sleep)
    g_usleep ((gulong) ms * 1000);
  else
    while (g_get_monotonic_time () < end)
      ;
  now = g_get_monotonic_time ();
  printf ("stall.%s=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", name, start * 1000, now * 1000);
  /* What the machine gave this thread meanwhile (a loaded one gives less). */
  printf ("stall_cpu.%s=%" G_GINT64_FORMAT "\n", name, thread_cpu_ns () - cpu_start);
}

static gpointer
other_thread (gpointer data)
{
  /* Not the main thread: ignored, counted. */
  jankscope_scene_push ("worker");
  jankscope_mark_begin ("worker-mark");
  jankscope_mark_end ();
  jankscope_scene_pop ();
  return NULL;
}

/* --- annotate ------------------------------------------------------------ */

gboolean ctx_boot_cb (gpointer data);
gboolean ctx_enter_chat_cb (gpointer data);
gboolean ctx_history_begin_cb (gpointer data);
gboolean ctx_chat_stall_cb (gpointer data);
gboolean ctx_history_end_cb (gpointer data);
gboolean ctx_leave_chat_cb (gpointer data);
gboolean ctx_cpu_stall_cb (gpointer data);
gboolean ctx_sleep_stall_cb (gpointer data);
gboolean ctx_finish_cb (gpointer data);

/* 100 ms: the first event (start-up), in scene "boot", inside mark
 * "load-config". */
gboolean
ctx_boot_cb (gpointer data)
{
  step ("boot");
  jankscope_scene_push ("boot");
  jankscope_mark_begin ("load-config");
  stall ("boot", 120, FALSE);
  jankscope_mark_end ();
  return G_SOURCE_REMOVE;
}

/* 800 ms: scenes "chat-list" > "chat-view"; "boot" is left. */
gboolean
ctx_enter_chat_cb (gpointer data)
{
  step ("enter-chat");
  jankscope_scene_pop ();
  jankscope_scene_push ("chat-list");
  jankscope_scene_push ("chat-view");
  return G_SOURCE_REMOVE;
}

/* 900 ms: mark "history" begins; it ends at 1400 ms. */
gboolean
ctx_history_begin_cb (gpointer data)
{
  step ("history-begin");
  jankscope_mark_begin ("history");
  return G_SOURCE_REMOVE;
}

/* 1000 ms: a stall that starts in "chat-view" and pushes "inside" while it
 * runs: the event's scene is the one active when it started. */
gboolean
ctx_chat_stall_cb (gpointer data)
{
  step ("chat-stall");
  jankscope_scene_push ("inside");
  stall ("chat", 100, FALSE);
  jankscope_scene_pop ();
  return G_SOURCE_REMOVE;
}

gboolean
ctx_history_end_cb (gpointer data)
{
  step ("history-end");
  jankscope_mark_end ();
  return G_SOURCE_REMOVE;
}

/* 5600 ms: back to "chat-list", out of start-up (first 5 s). */
gboolean
ctx_leave_chat_cb (gpointer data)
{
  step ("leave-chat");
  jankscope_scene_pop ();
  return G_SOURCE_REMOVE;
}

gboolean
ctx_cpu_stall_cb (gpointer data)
{
  step ("cpu-stall");
  stall ("cpu", 400, FALSE);
  return G_SOURCE_REMOVE;
}

gboolean
ctx_sleep_stall_cb (gpointer data)
{
  step ("sleep-stall");
  stall ("sleep", 400, TRUE);
  return G_SOURCE_REMOVE;
}

gboolean
ctx_finish_cb (gpointer data)
{
  step ("finish");
  jankscope_scene_pop (); /* "chat-list" */
  jankscope_scene_pop (); /* nothing left: unbalanced */
  jankscope_mark_end ();  /* nothing open: unbalanced */
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
scenario_annotate (void)
{
  g_thread_join (g_thread_new ("other", other_thread, NULL));
  add_named_timeout ("ctx-boot", 100, ctx_boot_cb, NULL);
  add_named_timeout ("ctx-enter-chat", 800, ctx_enter_chat_cb, NULL);
  add_named_timeout ("ctx-history-begin", 900, ctx_history_begin_cb, NULL);
  add_named_timeout ("ctx-chat-stall", 1000, ctx_chat_stall_cb, NULL);
  add_named_timeout ("ctx-history-end", 1400, ctx_history_end_cb, NULL);
  add_named_timeout ("ctx-leave-chat", 5600, ctx_leave_chat_cb, NULL);
  add_named_timeout ("ctx-cpu-stall", 5700, ctx_cpu_stall_cb, NULL);
  add_named_timeout ("ctx-sleep-stall", 6700, ctx_sleep_stall_cb, NULL);
  add_named_timeout ("ctx-finish", 7700, ctx_finish_cb, NULL);
  run_loop (loop);
  return 0;
}

/* --- quick, labels --------------------------------------------------------- */

gboolean ctx_quick_cb (gpointer data);

gboolean
ctx_quick_cb (gpointer data)
{
  step ("quick");
  stall ("quick", 80, FALSE);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
scenario_quick (void)
{
  add_named_timeout ("ctx-quick", 100, ctx_quick_cb, NULL);
  run_loop (loop);
  return 0;
}

static int
scenario_labels (const char *scene, const char *source)
{
  jankscope_scene_push (scene);
  jankscope_mark_begin (scene);
  add_named_timeout (source, 100, ctx_quick_cb, NULL);
  run_loop (loop);
  jankscope_mark_end ();
  jankscope_scene_pop ();
  return 0;
}

/* --- limits ------------------------------------------------------------------ */

gboolean ctx_limits_cb (gpointer data);

gboolean
ctx_limits_cb (gpointer data)
{
  char label[32];
  char long_label[200];

  /* 199 bytes: 63 are kept. Entered first, so the stall below (which
   * starts outside any scene) is named after it. */
  memset (long_label, 'x', sizeof long_label - 1);
  long_label[sizeof long_label - 1] = '\0';
  jankscope_scene_push (long_label);
  /* 300 more distinct labels: 254 fit in all (ids 0 and 1 are taken), the
   * rest are "(other)". The buffer is reused for each one: labels are
   * copied. */
  for (int i = 0; i < 300; i++)
    {
      g_snprintf (label, sizeof label, "scene-%03d", i);
      jankscope_scene_push (label);
      jankscope_scene_pop ();
    }
  /* 40 levels: 32 are kept in all, the rest ignored with their pops. */
  for (int i = 0; i < 40; i++)
    jankscope_scene_push ("deep");
  for (int i = 0; i < 40; i++)
    jankscope_scene_pop ();
  step ("limits");
  stall ("limits", 80, FALSE);
  jankscope_scene_pop ();
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
scenario_limits (void)
{
  add_named_timeout ("ctx-limits", 100, ctx_limits_cb, NULL);
  run_loop (loop);
  return 0;
}

/* --- animated ------------------------------------------------------------------ */

gboolean ctx_animation_cb (gpointer data);
gboolean ctx_animated_stall_cb (gpointer data);
gboolean ctx_late_end_cb (gpointer data);
gboolean ctx_kill_cb (gpointer data);

gboolean
ctx_animation_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
ctx_kill_cb (gpointer data)
{
  step ("killed");
  fflush (stdout);
  raise (SIGKILL);
  return G_SOURCE_REMOVE;
}

gboolean
ctx_late_end_cb (gpointer data)
{
  jankscope_mark_end ();
  add_named_timeout ("ctx-kill", 3000, ctx_kill_cb, NULL);
  return G_SOURCE_REMOVE;
}

gboolean
ctx_animated_stall_cb (gpointer data)
{
  jankscope_mark_begin ("late-end");
  stall ("animated", 80, FALSE);
  add_named_timeout ("ctx-late-end", 300, ctx_late_end_cb, NULL);
  return G_SOURCE_REMOVE;
}

static int
scenario_animated (void)
{
  add_named_timeout ("ctx-animation", 16, ctx_animation_cb, NULL);
  add_named_timeout ("ctx-animated", 1500, ctx_animated_stall_cb, NULL);
  run_loop (loop);
  return 0;
}

int
main (int argc, char **argv)
{
  int status;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s annotate|quick|labels SCENE SOURCE|limits|animated\n", argv[0]);
      return 2;
    }
  loop = g_main_loop_new (NULL, FALSE);
  print_common_facts ();
  printf ("api_active=%d\n", jankscope_is_active ());
  if (strcmp (argv[1], "annotate") == 0)
    status = scenario_annotate ();
  else if (strcmp (argv[1], "quick") == 0)
    status = scenario_quick ();
  else if (strcmp (argv[1], "labels") == 0 && argc == 4)
    status = scenario_labels (argv[2], argv[3]);
  else if (strcmp (argv[1], "limits") == 0)
    status = scenario_limits ();
  else if (strcmp (argv[1], "animated") == 0)
    status = scenario_animated ();
  else
    {
      fprintf (stderr, "unknown scenario %s\n", argv[1]);
      return 2;
    }
  step ("end");
  g_main_loop_unref (loop);
  return status;
}
