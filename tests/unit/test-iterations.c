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

/* The iteration records pushed since the last drain. */
static GArray *
iterations (void)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JsRecord));
  JsRecord r[64];
  guint n;

  while ((n = js_ring_pop (ring, r, G_N_ELEMENTS (r))) > 0)
    for (guint i = 0; i < n; i++)
      if (r[i].kind == JS_RECORD_ITERATION)
        g_array_append_val (out, r[i]);
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

int
main (int argc, char **argv)
{
  JsBridge bridge = { .abi = JS_BRIDGE_ABI, .mode = JS_MODE_PRELOAD };

  g_test_init (&argc, &argv, NULL);
  ring = js_ring_new (1024);
  js_mainloop_start (ring, &bridge, g_main_context_set_poll_func, g_main_context_get_poll_func);
  g_test_add_func ("/iterations/zero-timeout-is-busy", test_zero_timeout_is_busy);
  g_test_add_func ("/iterations/wait-is-not-busy", test_wait_is_not_busy);
  g_test_add_func ("/iterations/observer-not-busy", test_observer_not_busy);
  return g_test_run ();
}
