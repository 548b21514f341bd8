/* posting-app.c - a GLib program whose slow callbacks were posted from
 * elsewhere (tests/check_posting.py)
 *
 *   posting-app SCENARIO
 *
 * Scenarios:
 *   chain   main calls js_test_start_timer, which adds a 100 ms timeout; the
 *           timeout calls js_test_schedule_work, which adds an idle that
 *           spins 150 ms: the idle was posted from js_test_schedule_work,
 *           and the chain names js_test_start_timer
 *   task    js_test_start_task makes a GTask and runs it in a thread; its
 *           completion callback spins 150 ms: posted from js_test_start_task
 *   flood   a worker thread adds 10,000 idles a second for 2 s, all with
 *           js_test_flood_cb, which was slow once first (so every attach
 *           wants a full stack): the budget holds. Prints seconds=S, the
 *           span the attaches took, and attaches=N
 *
 *   stall-stack  js_test_post_stuck adds an idle that spins 1500 ms while a
 *           worker thread adds 100 idles every 10 ms (during a stall every
 *           attach wants a full stack: more than the ring of 256 holds);
 *           the idle's site keeps its own stack. Prints attaches=N
 * Each spin prints work=START_NS,END_NS; done=1 at the end. The functions
 * the checks look for (js_test_*) are non-static and noinline.
 */
#include <gio/gio.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

volatile guint64 js_test_sink;

static GMainLoop *loop;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
spin_ms (int ms)
{
  gint64 start = mono_ns (), end = start + ms * NS_PER_MS;
  guint64 acc = js_test_sink;

  while (mono_ns () < end)
    for (int i = 0; i < 2000; i++)
      acc = acc * G_GUINT64_CONSTANT (2862933555777941757) + (guint64) i;
  js_test_sink = acc;
  printf ("work=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, mono_ns ());
  fflush (stdout);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
quit_soon (void)
{
  g_timeout_add (300, quit_cb, NULL);
}

/* --- chain --------------------------------------------------------------- */

JS_TEST_FUNC gboolean
js_test_slow_idle (gpointer data)
{
  spin_ms (150);
  quit_soon ();
  return G_SOURCE_REMOVE;
}

/* The id is used: a tail call to g_idle_add would leave this function off
 * the stack (its caller would be named). */
JS_TEST_FUNC void
js_test_schedule_work (void)
{
  js_test_sink += g_idle_add (js_test_slow_idle, NULL);
}

JS_TEST_FUNC gboolean
js_test_on_timer (gpointer data)
{
  js_test_schedule_work ();
  return G_SOURCE_REMOVE;
}

JS_TEST_FUNC void
js_test_start_timer (void)
{
  js_test_sink += g_timeout_add (100, js_test_on_timer, NULL);
}

/* --- task ---------------------------------------------------------------- */

static void
task_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_usleep (20 * 1000);
  g_task_return_boolean (task, TRUE);
}

JS_TEST_FUNC void
js_test_task_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_task_propagate_boolean (G_TASK (result), NULL);
  spin_ms (150);
  quit_soon ();
}

JS_TEST_FUNC void
js_test_start_task (void)
{
  GTask *task = g_task_new (NULL, NULL, js_test_task_done, NULL);

  g_task_run_in_thread (task, task_thread);
  g_object_unref (task);
}

/* --- flood --------------------------------------------------------------- */

static int flood_ready;

JS_TEST_FUNC gboolean
js_test_flood_cb (gpointer data)
{
  if (data != NULL)
    {
      spin_ms (80);
      g_atomic_int_set (&flood_ready, 1);
    }
  return G_SOURCE_REMOVE;
}

static gpointer
flood_thread (gpointer data)
{
  gint64 start, end;
  guint n = 0;

  while (!g_atomic_int_get (&flood_ready))
    g_usleep (1000);
  g_usleep (300 * 1000);
  start = mono_ns ();
  for (int slice = 0; slice < 200; slice++)
    {
      /* 100 attaches every 10 ms. */
      for (int i = 0; i < 100; i++, n++)
        g_idle_add (js_test_flood_cb, NULL);
      g_usleep (10 * 1000);
    }
  end = mono_ns ();
  printf ("seconds=%.3f\nattaches=%u\n", (end - start) / 1e9, n);
  fflush (stdout);
  g_idle_add ((GSourceFunc) quit_cb, NULL);
  return NULL;
}

/* --- stall-stack ---------------------------------------------------------- */

static int stuck_running;

static gboolean
noop_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

static gpointer
busy_poster_thread (gpointer data)
{
  guint n = 0;

  while (!g_atomic_int_get (&stuck_running))
    g_usleep (1000);
  for (int slice = 0; slice < 130 && g_atomic_int_get (&stuck_running); slice++)
    {
      for (int i = 0; i < 100; i++, n++)
        g_idle_add (noop_cb, NULL);
      g_usleep (10 * 1000);
    }
  printf ("attaches=%u\n", n);
  fflush (stdout);
  return NULL;
}

JS_TEST_FUNC gboolean
js_test_stuck_idle (gpointer data)
{
  g_atomic_int_set (&stuck_running, 1);
  spin_ms (1500);
  g_atomic_int_set (&stuck_running, 0);
  quit_soon ();
  return G_SOURCE_REMOVE;
}

JS_TEST_FUNC void
js_test_post_stuck (void)
{
  js_test_sink += g_idle_add (js_test_stuck_idle, NULL);
}

int
main (int argc, char **argv)
{
  GThread *thread = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "usage: posting-app chain|task|flood|stall-stack\n");
      return 2;
    }
  loop = g_main_loop_new (NULL, FALSE);
  if (strcmp (argv[1], "chain") == 0)
    js_test_start_timer ();
  else if (strcmp (argv[1], "task") == 0)
    js_test_start_task ();
  else if (strcmp (argv[1], "stall-stack") == 0)
    {
      js_test_post_stuck ();
      thread = g_thread_new ("poster", busy_poster_thread, NULL);
    }
  else if (strcmp (argv[1], "flood") == 0)
    {
      g_idle_add (js_test_flood_cb, GINT_TO_POINTER (1));
      thread = g_thread_new ("flood", flood_thread, NULL);
    }
  else
    {
      fprintf (stderr, "unknown scenario %s\n", argv[1]);
      return 2;
    }
  g_main_loop_run (loop);
  if (thread != NULL)
    g_thread_join (thread);
  g_main_loop_unref (loop);
  printf ("done=1\n");
  return 0;
}
