/* Unit tests of the iteration records (js-mainloop.c): a poll that may wait
 * is left out of the busy spans (the gap between one iteration's end and the
 * next one's start), a poll with timeout 0 is not (it never waits: the next
 * iteration starts where the last one ended), and the poll observers' time
 * is never the app's busy time, in a poll with timeout 0 either.
 *
 * The real poll function on this program's default context, records read
 * back from its ring. */
#include "js-mainloop.h"
#include "js-ring.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)

static JsRing *ring;

static void
drain (void)
{
  JsRecord r[64];

  while (js_ring_pop (ring, r, G_N_ELEMENTS (r)) > 0)
    ;
}

/* The iteration records pushed since the last drain, those carried by the
 * last dispatch of their iteration too. */
static GArray *
iterations (void)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JsRecord));
  JsRecord r[64];
  guint n;

  while ((n = js_ring_pop (ring, r, G_N_ELEMENTS (r))) > 0)
    for (guint i = 0; i < n; i++)
      {
        JsRecord it;

        if (r[i].kind == JS_RECORD_ITERATION)
          g_array_append_val (out, r[i]);
        else if (js_record_iteration_of (&r[i], &it))
          g_array_append_val (out, it);
      }
  return out;
}

static gboolean
keep_going (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* A ready idle: every iteration polls with timeout 0. */
static void
test_zero_timeout_is_busy (void)
{
  guint id = g_idle_add (keep_going, NULL);
  GArray *its;

  g_main_context_iteration (NULL, FALSE);
  drain ();
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  its = iterations ();
  g_assert_cmpuint (its->len, >=, 49);
  for (guint i = 1; i < its->len; i++)
    {
      const JsRecord *prev = &g_array_index (its, JsRecord, i - 1);
      const JsRecord *r = &g_array_index (its, JsRecord, i);

      g_assert_cmpint (r->start_ns, ==, prev->end_ns);
      g_assert_cmpint (r->end_ns, >=, r->start_ns);
    }
  g_source_remove (id);
  g_array_unref (its);
}

static gboolean
wake_once (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* The gaps between consecutive iteration records (the waits), and the
 * longest busy span. */
static gint64
gaps_of (GArray *its, gint64 *longest)
{
  gint64 gaps = 0;

  *longest = 0;
  for (guint i = 0; i < its->len; i++)
    {
      const JsRecord *r = &g_array_index (its, JsRecord, i);

      *longest = MAX (*longest, r->end_ns - r->start_ns);
      if (i > 0)
        gaps += r->start_ns - g_array_index (its, JsRecord, i - 1).end_ns;
    }
  return gaps;
}

/* A poll that waits for a 30 ms timeout: the wait is not busy. */
static void
test_wait_is_not_busy (void)
{
  gboolean fired = FALSE;
  GArray *its;
  gint64 longest;

  g_timeout_add (30, wake_once, &fired);
  g_main_context_iteration (NULL, FALSE);
  drain ();
  while (!fired)
    g_main_context_iteration (NULL, TRUE);
  g_main_context_iteration (NULL, FALSE);
  its = iterations ();
  g_assert_cmpuint (its->len, >=, 2);
  g_assert_cmpint (gaps_of (its, &longest), >=, 25 * NS_PER_MS);
  g_assert_cmpint (longest, <, 25 * NS_PER_MS);
  g_array_unref (its);
}

static gboolean observer_sleeps;

/* Sleeps 20 ms once asked to, as a slow observer would. */
static gint64
slow_observer (gint64 now_ns)
{
  if (observer_sleeps)
    {
      observer_sleeps = FALSE;
      g_usleep (20000);
    }
  return now_ns;
}

/* An observer's 20 ms inside a poll with timeout 0: not the app's. */
static void
test_observer_not_busy (void)
{
  guint id = g_idle_add (keep_going, NULL);
  GArray *its;
  gint64 longest;

  g_assert_true (js_mainloop_add_poll_observer (slow_observer));
  g_main_context_iteration (NULL, FALSE);
  drain ();
  observer_sleeps = TRUE;
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (observer_sleeps);
  its = iterations ();
  g_assert_cmpuint (its->len, >=, 4);
  g_assert_cmpint (gaps_of (its, &longest), >=, 20 * NS_PER_MS);
  g_assert_cmpint (longest, <, 20 * NS_PER_MS);
  g_source_remove (id);
  g_array_unref (its);
}

static JsBridge bridge = { .abi = JS_BRIDGE_ABI, .mode = JS_MODE_PRELOAD };

/* A source that is always ready, dispatched through the bridge's hook as
 * the preload's stand-in for GLib's own dispatch would. */
static gboolean
always_ready (GSource *source, gint *timeout)
{
  *timeout = 0;
  return TRUE;
}

static int
real_dispatch (void *source, void *callback, void *user_data)
{
  return ((GSourceFunc) callback) (user_data);
}

static gboolean
hooked_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  int (*hook) (JsDispatchFunc, void *, void *, void *) = bridge.dispatch;

  return hook (real_dispatch, source, (void *) callback, user_data);
}

static GSourceFuncs hooked_funcs = { .prepare = always_ready, .dispatch = hooked_dispatch };

static guint
add_hooked (GSourceFunc func, gpointer data)
{
  GSource *source = g_source_new (&hooked_funcs, sizeof (GSource));
  guint id;

  g_source_set_callback (source, func, data, NULL);
  id = g_source_attach (source, NULL);
  g_source_unref (source);
  return id;
}

static gboolean
iterate_once (gpointer data)
{
  gboolean *left = data;

  if (*left)
    {
      *left = FALSE;
      g_main_context_iteration (NULL, FALSE);
    }
  return G_SOURCE_CONTINUE;
}

/* An iteration of the outermost loop is told by the record of its last
 * dispatch (one ring write, not two); a nested loop's iterations still have
 * their own records; a dispatch that is over when the program exits is
 * pushed by js_mainloop_close_open_dispatches. */
static void
test_carried_by_last_dispatch (void)
{
  gboolean nest = FALSE;
  guint ids[3];
  JsRecord r[64];
  guint n, dispatches = 0, since = 0, carried = 0, nested = 0, plain = 0;
  gint64 first_start = 0, prev_end = 0;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    ids[i] = add_hooked (i == 0 ? iterate_once : keep_going, &nest);
  g_main_context_iteration (NULL, FALSE);
  drain ();
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  /* The records of the last iteration come with the next poll. */
  nest = TRUE;
  g_main_context_iteration (NULL, FALSE);
  g_assert_false (nest);
  while ((n = js_ring_pop (ring, r, G_N_ELEMENTS (r))) > 0)
    for (guint i = 0; i < n; i++)
      {
        JsRecord it;

        if (r[i].kind == JS_RECORD_ITERATION)
          {
            /* Only the nested loop's, inside the first dispatch. */
            g_assert_cmpuint (r[i].depth, ==, 1);
            nested++;
            continue;
          }
        if (r[i].kind != JS_RECORD_DISPATCH)
          continue;
        if (r[i].depth != 1)
          continue;
        if (since++ == 0)
          first_start = r[i].start_ns;
        dispatches++;
        if (!js_record_iteration_of (&r[i], &it))
          continue;
        /* The first: the warm-up iteration's last dispatch, drained before. */
        g_assert_cmpuint (it.count, ==, 3);
        g_assert_cmpuint (since, ==, carried++ == 0 ? 1 : 3);
        since = 0;
        g_assert_cmpint (it.start_ns, <=, first_start);
        g_assert_cmpint (it.end_ns, >=, r[i].end_ns);
        /* In order, apart (an earlier test's poll observer is called in
         * every poll: its time is in neither). */
        g_assert_cmpint (it.start_ns, >=, prev_end);
        prev_end = it.end_ns;
      }
  /* The warm-up's last, then 5 iterations of 3, then the sixth's (how many
   * its nested loop leaves to it is GLib's business), whose last comes with
   * the next poll. */
  g_assert_cmpuint (dispatches, >=, 1 + 5 * 3);
  g_assert_cmpuint (carried, ==, 1 + 5);
  g_assert_cmpuint (nested, ==, 1);

  /* Over but not pushed: the exit path pushes it, without an iteration. */
  for (guint i = 1; i < G_N_ELEMENTS (ids); i++)
    g_source_remove (ids[i]);
  g_main_context_iteration (NULL, FALSE);
  drain ();
  js_mainloop_close_open_dispatches ();
  while ((n = js_ring_pop (ring, r, G_N_ELEMENTS (r))) > 0)
    for (guint i = 0; i < n; i++)
      if (r[i].kind == JS_RECORD_DISPATCH)
        {
          g_assert_false (r[i].flags & JS_RECORD_ENDS_ITERATION);
          plain++;
        }
  g_assert_cmpuint (plain, ==, 1);
  g_source_remove (ids[0]);
}

int
main (int argc, char **argv)
{

  g_test_init (&argc, &argv, NULL);
  ring = js_ring_new (1024);
  js_mainloop_start (ring, &bridge, g_main_context_set_poll_func, g_main_context_get_poll_func);
  g_test_add_func ("/iterations/zero-timeout-is-busy", test_zero_timeout_is_busy);
  g_test_add_func ("/iterations/wait-is-not-busy", test_wait_is_not_busy);
  g_test_add_func ("/iterations/observer-not-busy", test_observer_not_busy);
  g_test_add_func ("/iterations/carried-by-last-dispatch", test_carried_by_last_dispatch);
  return g_test_run ();
}
