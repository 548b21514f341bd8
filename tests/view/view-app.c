/* view-app: a plain GLib program driven from its stdin, for the live
 * stream's checks (tests/view/check_view.py) and benchmark
 * (bench/run-live-slow-viewer.py).
 *
 * Commands, one per line:
 *   hang MS        the main thread computes for MS ms in view_app_hang_cpu ()
 *                  (prints "hang=START_NS,END_NS", CLOCK_MONOTONIC)
 *   idle-hang MS   the same in an idle that view_app_post_hang () adds
 *   task-hang MS   the same in the completion of a GTask that
 *                  view_app_start_task () creates and runs in a thread
 *   steady S       for S seconds: every 4 ms a dispatch with a fixed amount
 *                  of work, and every 150 ms a 60 ms stall (jank events for
 *                  the snapshots); then prints the work dispatches' wall time
 *                  and the timer's lateness: "work_p50_us=", "work_p99_us=",
 *                  "late_p50_us=", "late_p99_us=", "dispatches="
 *   fork           forks a child that runs a main loop for 500 ms and
 *                  calls exit () (atexit handlers run); prints "child=PID",
 *                  then "child-exit=STATUS"
 *   quit           ends the main loop
 *
 * Prints "ready=1" once its main loop runs.
 */
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static GMainLoop *loop;
static GArray *work_us, *late_us;
static gint64 steady_end_us, next_due_us;
static volatile guint64 sink;

/* Not static: jankscope names it (the culprit of the hang). */
void view_app_hang_cpu (guint ms);
void view_app_work (void);

void
view_app_hang_cpu (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_GINT64_CONSTANT (1000);

  while (g_get_monotonic_time () < end)
    for (guint i = 0; i < 1000; i++)
      sink = sink * 6364136223846793005ULL + i;
}

void
view_app_work (void)
{
  for (guint i = 0; i < 200000; i++)
    sink = sink * 6364136223846793005ULL + i;
}

static int
cmp_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
percentile (GArray *a, double p)
{
  if (a->len == 0)
    return -1;
  g_array_sort (a, cmp_gint64);
  return g_array_index (a, gint64, MIN (a->len - 1, (guint) (p * a->len)));
}

static gboolean
steady_work (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 late = now - next_due_us, done;

  view_app_work ();
  done = g_get_monotonic_time ();
  g_array_append_val (work_us, (gint64){ done - now });
  g_array_append_val (late_us, late);
  next_due_us = now + 4000;
  if (done < steady_end_us)
    return G_SOURCE_CONTINUE;
  printf ("work_p50_us=%" G_GINT64_FORMAT "\nwork_p99_us=%" G_GINT64_FORMAT "\n"
          "late_p50_us=%" G_GINT64_FORMAT "\nlate_p99_us=%" G_GINT64_FORMAT "\n"
          "dispatches=%u\nsteady-done=1\n",
          percentile (work_us, 0.5), percentile (work_us, 0.99), percentile (late_us, 0.5),
          percentile (late_us, 0.99), work_us->len);
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static gboolean
steady_stall (gpointer data)
{
  if (g_get_monotonic_time () >= steady_end_us)
    return G_SOURCE_REMOVE;
  view_app_hang_cpu (60);
  /* The work timer's next dispatch is late because of us: not its lateness. */
  next_due_us = g_get_monotonic_time () + 4000;
  return G_SOURCE_CONTINUE;
}

static gboolean
child_quit (gpointer child_loop)
{
  g_main_loop_quit (child_loop);
  return G_SOURCE_REMOVE;
}

static gboolean
hang_idle (gpointer data)
{
  gint64 start = g_get_monotonic_time ();

  view_app_hang_cpu (GPOINTER_TO_UINT (data));
  printf ("hang=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000,
          g_get_monotonic_time () * 1000);
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

/* Not static: the posting site of the idle that hangs. */
void view_app_post_hang (guint ms);
volatile guint view_app_posted;

__attribute__ ((noinline)) void
view_app_post_hang (guint ms)
{
  /* Kept after the call: no tail call, so this function is the caller. */
  view_app_posted = g_idle_add (hang_idle, GUINT_TO_POINTER (ms));
}

/* The GTask's thread returns at once; its completion, back on the main
 * thread (attached by GIO), hangs. */
static void
task_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  g_task_return_boolean (task, TRUE);
}

static void
task_done (GObject *source, GAsyncResult *result, gpointer data)
{
  gint64 start = g_get_monotonic_time ();

  g_task_propagate_boolean (G_TASK (result), NULL);
  view_app_hang_cpu (GPOINTER_TO_UINT (data));
  printf ("hang=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000,
          g_get_monotonic_time () * 1000);
  fflush (stdout);
}

/* Not static: where the task whose completion hangs was created. */
void view_app_start_task (guint ms);

__attribute__ ((noinline)) void
view_app_start_task (guint ms)
{
  GTask *task = g_task_new (NULL, NULL, task_done, GUINT_TO_POINTER (ms));

  g_task_run_in_thread (task, task_thread);
  g_object_unref (task);
}

static gboolean
stdin_cb (GIOChannel *channel, GIOCondition condition, gpointer data)
{
  g_autofree char *line = NULL;
  GIOStatus status = g_io_channel_read_line (channel, &line, NULL, NULL, NULL);
  guint arg = 0;

  if (status != G_IO_STATUS_NORMAL)
    {
      g_main_loop_quit (loop);
      return G_SOURCE_REMOVE;
    }
  g_strstrip (line);
  if (sscanf (line, "hang %u", &arg) == 1)
    {
      gint64 start = g_get_monotonic_time ();

      view_app_hang_cpu (arg);
      printf ("hang=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000,
              g_get_monotonic_time () * 1000);
      fflush (stdout);
    }
  else if (sscanf (line, "idle-hang %u", &arg) == 1)
    view_app_post_hang (arg);
  else if (sscanf (line, "task-hang %u", &arg) == 1)
    view_app_start_task (arg);
  else if (sscanf (line, "steady %u", &arg) == 1)
    {
      work_us = g_array_new (FALSE, FALSE, sizeof (gint64));
      late_us = g_array_new (FALSE, FALSE, sizeof (gint64));
      steady_end_us = g_get_monotonic_time () + arg * G_USEC_PER_SEC;
      next_due_us = g_get_monotonic_time () + 4000;
      g_source_set_name_by_id (g_timeout_add (4, steady_work, NULL), "view-app work");
      g_source_set_name_by_id (g_timeout_add (150, steady_stall, NULL), "view-app stall");
    }
  else if (strcmp (line, "fork") == 0)
    {
      pid_t child = fork ();
      int child_status = 0;

      if (child == 0)
        {
          GMainLoop *child_loop = g_main_loop_new (NULL, FALSE);

          g_timeout_add (500, child_quit, child_loop);
          g_main_loop_run (child_loop);
          exit (0);
        }
      printf ("child=%d\n", (int) child);
      fflush (stdout);
      waitpid (child, &child_status, 0);
      printf ("child-exit=%d\n", child_status);
      fflush (stdout);
    }
  else if (strcmp (line, "quit") == 0)
    g_main_loop_quit (loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
ready_cb (gpointer data)
{
  printf ("ready=1\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  GIOChannel *in = g_io_channel_unix_new (0);

  loop = g_main_loop_new (NULL, FALSE);
  g_io_add_watch (in, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_cb, NULL);
  g_idle_add (ready_cb, NULL);
  g_main_loop_run (loop);
  g_io_channel_unref (in);
  return 0;
}
