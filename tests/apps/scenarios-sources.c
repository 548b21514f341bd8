/* scenarios-sources.c - sources that jankscope must leave working as before
 *
 * idle-remove: GLib and apps find sources by their GSourceFuncs pointer
 * (g_idle_remove_by_data, g_source_remove_by_funcs_user_data,
 * g_main_context_find_source_by_funcs_user_data). A monitor that swaps a
 * source's funcs breaks them, so check them before and after the sources
 * were dispatched.
 *
 * worker-thread: a stall on another thread's own context is not main-loop
 * jank.
 *
 * spawn-child, fork-child: child processes inherit jankscope's environment
 * (and, after a bare fork, its state).
 */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static GMainLoop *loop;

gboolean
removed_source_cb (gpointer data)
{
  scenario_fail ("a removed source was dispatched (data %p)", data);
}

static gboolean
always_prepare (GSource *source, gint *timeout)
{
  *timeout = 0;
  return TRUE;
}

static gboolean
callback_dispatch (GSource *source, GSourceFunc callback, gpointer data)
{
  return callback (data);
}

static GSourceFuncs my_funcs = {
  .prepare = always_prepare,
  .dispatch = callback_dispatch,
};

static GSource *
attach_my_source (GSourceFunc func, gpointer data)
{
  GSource *source = g_source_new (&my_funcs, sizeof (GSource));

  g_source_set_name (source, "idle-remove-custom");
  g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, NULL);
  return source;
}

/* Removal of sources that were never dispatched. */
static void
check_remove_fresh (void)
{
  static int tag_idle, tag_timeout, tag_custom;
  GSource *custom;

  g_idle_add (removed_source_cb, &tag_idle);
  scenario_check (g_main_context_find_source_by_funcs_user_data (NULL, &g_idle_funcs, &tag_idle));
  scenario_check (g_idle_remove_by_data (&tag_idle));
  scenario_check (!g_idle_remove_by_data (&tag_idle));

  g_timeout_add (10, removed_source_cb, &tag_timeout);
  scenario_check (g_source_remove_by_funcs_user_data (&g_timeout_funcs, &tag_timeout));

  custom = attach_my_source (removed_source_cb, &tag_custom);
  scenario_check (g_main_context_find_source_by_funcs_user_data (NULL, &my_funcs, &tag_custom)
                  == custom);
  scenario_check (g_source_remove_by_funcs_user_data (&my_funcs, &tag_custom));
  scenario_check (g_source_is_destroyed (custom));
  g_source_unref (custom);
  printf ("remove_fresh_ok=1\n");
}

/* Removal of sources that have been dispatched a few times already. */

typedef struct
{
  guint idle, timeout, custom;
} Counts;

static Counts counts, counts_at_removal;
static GSource *dispatched_custom;

gboolean
count_idle_cb (gpointer data)
{
  counts.idle++;
  return G_SOURCE_CONTINUE;
}

gboolean
count_timeout_cb (gpointer data)
{
  counts.timeout++;
  return G_SOURCE_CONTINUE;
}

gboolean
count_custom_cb (gpointer data)
{
  counts.custom++;
  return G_SOURCE_CONTINUE;
}

gboolean
idle_remove_verify_cb (gpointer data)
{
  /* None of the removed sources ran after its removal. */
  scenario_check (counts.idle == counts_at_removal.idle);
  scenario_check (counts.timeout == counts_at_removal.timeout);
  scenario_check (counts.custom == counts_at_removal.custom);
  printf ("remove_dispatched_ok=1\n");
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

gboolean
idle_remove_now_cb (gpointer data)
{
  scenario_check (counts.idle >= 3 && counts.timeout >= 3 && counts.custom >= 3);
  printf ("dispatched_before_removal=%u,%u,%u\n", counts.idle, counts.timeout, counts.custom);

  scenario_check (g_main_context_find_source_by_funcs_user_data (NULL, &g_idle_funcs, &counts));
  scenario_check (g_idle_remove_by_data (&counts));
  scenario_check (g_source_remove_by_funcs_user_data (&g_timeout_funcs, &counts.timeout));
  scenario_check (g_main_context_find_source_by_funcs_user_data (NULL, &my_funcs, &counts.custom)
                  == dispatched_custom);
  scenario_check (g_source_remove_by_funcs_user_data (&my_funcs, &counts.custom));
  scenario_check (g_source_is_destroyed (dispatched_custom));
  counts_at_removal = counts;

  add_named_timeout ("idle-remove-verify", 100, idle_remove_verify_cb, NULL);
  return G_SOURCE_REMOVE;
}

int
scenario_idle_remove (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  check_remove_fresh ();

  g_idle_add (count_idle_cb, &counts);
  g_timeout_add (5, count_timeout_cb, &counts.timeout);
  dispatched_custom = attach_my_source (count_custom_cb, &counts.custom);
  add_named_timeout ("idle-remove-now", 100, idle_remove_now_cb, NULL);
  run_loop (loop);
  g_source_unref (dispatched_custom);
  return 0;
}

/* worker-thread: a 200 ms dispatch on a worker thread's own context. */

gboolean
worker_done_cb (gpointer data)
{
  printf ("worker_stalled=1\n");
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

gboolean
worker_stall_cb (gpointer data)
{
  busy_wait_ms (200);
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static gpointer
worker_thread (gpointer data)
{
  GMainContext *context = g_main_context_new ();
  GMainLoop *worker_loop = g_main_loop_new (context, FALSE);
  GSource *source = g_timeout_source_new (50);

  g_main_context_push_thread_default (context);
  g_source_set_name (source, "worker-stall");
  g_source_set_callback (source, worker_stall_cb, worker_loop, NULL);
  g_source_attach (source, context);
  g_source_unref (source);
  g_main_loop_run (worker_loop);
  g_main_context_pop_thread_default (context);
  g_main_loop_unref (worker_loop);
  g_main_context_unref (context);

  g_main_context_invoke (NULL, worker_done_cb, NULL);
  return NULL;
}

int
scenario_worker_thread (void)
{
  GThread *thread;

  loop = g_main_loop_new (NULL, FALSE);
  thread = g_thread_new ("worker", worker_thread, NULL);
  run_loop (loop);
  g_thread_join (thread);
  return 0;
}

/* spawn-child: the child runs "single-200ms"; the parent then stalls for
 * 120 ms. Each process must write its own report. */

gboolean
spawn_parent_stall_cb (gpointer data)
{
  busy_wait_ms (120);
  quit_loop_after (loop, 100);
  return G_SOURCE_REMOVE;
}

static void
child_exited_cb (GPid pid, gint status, gpointer data)
{
  GError *error = NULL;

  if (!g_spawn_check_wait_status (status, &error))
    scenario_fail ("child failed: %s", error->message);
  g_spawn_close_pid (pid);
  add_named_timeout ("spawn-parent-stall", 50, spawn_parent_stall_cb, NULL);
}

int
scenario_spawn_child (void)
{
  GError *error = NULL;
  char *self = g_file_read_link ("/proc/self/exe", &error);
  char *child_argv[] = { self, (char *) "single-200ms", NULL };
  GPid pid;

  scenario_check (self != NULL);
  loop = g_main_loop_new (NULL, FALSE);
  if (!g_spawn_async (NULL, child_argv, NULL,
                      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, &pid,
                      &error))
    scenario_fail ("spawn failed: %s", error->message);
  printf ("child_pid=%d\n", (int) pid);
  g_child_watch_add (pid, child_exited_cb, NULL);
  run_loop (loop);
  g_free (self);
  return 0;
}

/* fork-child: fork () without exec while jankscope runs; the child sleeps
 * 100 ms and exit ()s (atexit handlers run in it); the parent then stalls
 * for 120 ms. The child must end promptly and not write over the parent's
 * report. */

static void
forked_child_exited_cb (GPid pid, gint status, gpointer data)
{
  GError *error = NULL;

  if (!g_spawn_check_wait_status (status, &error))
    scenario_fail ("forked child: %s", error->message);
  printf ("forked_child_ok=1\n");
  add_named_timeout ("fork-parent-stall", 50, spawn_parent_stall_cb, NULL);
}

gboolean
fork_cb (gpointer data)
{
  pid_t pid;

  fflush (stdout);
  pid = fork ();
  scenario_check (pid >= 0);
  if (pid == 0)
    {
      /* No watchdog thread here: a hang ends with SIGALRM, which the
       * parent sees as a failure. */
      alarm (10);
      g_usleep (100 * 1000);
      exit (0);
    }
  printf ("child_pid=%d\n", (int) pid);
  g_child_watch_add (pid, forked_child_exited_cb, NULL);
  return G_SOURCE_REMOVE;
}

int
scenario_fork_child (void)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("fork", 50, fork_cb, NULL);
  run_loop (loop);
  return 0;
}
