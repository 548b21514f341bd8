/* Unit tests of the poll observers (js-mainloop.h): the poll function calls
 * them in the order they were added, with the time the main thread entered
 * it, first at the next poll, then once the time each asked for has come;
 * one that is done is not called again, nor from a poll it makes itself;
 * the list is bounded and main-thread only; a disabled main loop calls none.
 *
 * The real poll function, installed on this program's default context (in
 * preload mode: the bridge's hooks are filled, no preload reads them). The
 * cases share it and run in order. */
#include "js-clock.h"
#include "js-mainloop.h"
#include "js-ring.h"

#include <string.h>

static GString *calls; /* one letter per observer call */
static gint64 last_now_ns;
static guint b_calls;

static void
note (char who, gint64 now_ns)
{
  g_assert_cmpint (now_ns, >=, last_now_ns);
  g_assert_cmpint (now_ns, <=, js_now_ns ());
  last_now_ns = now_ns;
  g_string_append_c (calls, who);
}

/* At every poll. */
static gint64
observer_a (gint64 now_ns)
{
  note ('a', now_ns);
  return now_ns;
}

/* At every poll, done after its second call. */
static gint64
observer_b (gint64 now_ns)
{
  note ('b', now_ns);
  return ++b_calls < 2 ? now_ns : JS_POLL_OBSERVER_DONE;
}

static gint64
observer_c (gint64 now_ns)
{
  note ('c', now_ns);
  return now_ns;
}

/* Once an hour. */
static gint64
observer_slow (gint64 now_ns)
{
  note ('s', now_ns);
  return now_ns + 3600 * G_GINT64_CONSTANT (1000000000);
}

/* Polls once more from inside the poll function, as a nested main loop
 * would, then is done. */
static gint64
observer_nests (gint64 now_ns)
{
  GPollFunc poll_func = g_main_context_get_poll_func (NULL);

  note ('n', now_ns);
  poll_func (NULL, 0, 0);
  return JS_POLL_OBSERVER_DONE;
}

static void
iterate (guint n)
{
  for (guint i = 0; i < n; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_order_and_done (void)
{
  g_assert_true (js_mainloop_add_poll_observer (observer_a));
  g_assert_true (js_mainloop_add_poll_observer (observer_b));
  g_assert_true (js_mainloop_add_poll_observer (observer_c));
  g_string_truncate (calls, 0);
  iterate (4);
  /* b said it was done at its second call: not called again. */
  g_assert_cmpstr (calls->str, ==, "abcabcacac");
}

static void
test_throttled (void)
{
  g_assert_true (js_mainloop_add_poll_observer (observer_slow));
  g_string_truncate (calls, 0);
  iterate (3);
  /* Due at the first poll, then not before the time it asked for. */
  g_assert_cmpstr (calls->str, ==, "acsacac");
}

static void
test_nested_poll (void)
{
  g_assert_true (js_mainloop_add_poll_observer (observer_nests));
  g_string_truncate (calls, 0);
  iterate (2);
  /* The inner poll calls the others that are due, not the one running. */
  g_assert_cmpstr (calls->str, ==, "acnacac");
}

static gpointer
add_from_thread (gpointer data)
{
  return GINT_TO_POINTER (js_mainloop_add_poll_observer (observer_a));
}

static void
test_main_thread_only (void)
{
  GThread *thread = g_thread_new ("not-main", add_from_thread, NULL);

  g_assert_false (GPOINTER_TO_INT (g_thread_join (thread)));
  g_string_truncate (calls, 0);
  iterate (1);
  g_assert_cmpstr (calls->str, ==, "ac");
}

static void
test_bounded (void)
{
  /* a, b (done, its slot is not reused), c, slow, nests (done): 5 taken. */
  for (guint i = 5; i < JS_MAINLOOP_MAX_POLL_OBSERVERS; i++)
    g_assert_true (js_mainloop_add_poll_observer (observer_c));
  g_assert_false (js_mainloop_add_poll_observer (observer_a));
  g_string_truncate (calls, 0);
  iterate (1);
  /* a, c and the ones just added (slow is not due). */
  g_assert_cmpuint (calls->len, ==, JS_MAINLOOP_MAX_POLL_OBSERVERS - 3);
  g_assert_cmpint (calls->str[0], ==, 'a');
  g_assert_null (strchr (calls->str + 1, 'a'));
  g_assert_null (strchr (calls->str, 's'));
}

static void
test_disabled_calls_none (void)
{
  js_mainloop_disable ();
  g_string_truncate (calls, 0);
  iterate (3);
  g_assert_cmpstr (calls->str, ==, "");
}

int
main (int argc, char **argv)
{
  JsBridge bridge = { .abi = JS_BRIDGE_ABI, .mode = JS_MODE_PRELOAD };
  JsRing *ring;
  int ret;

  g_test_init (&argc, &argv, NULL);
  calls = g_string_new (NULL);
  /* Before the main loop starts: refused (it knows no main thread yet). */
  g_assert_false (js_mainloop_add_poll_observer (observer_a));
  ring = js_ring_new (1024);
  js_mainloop_start (ring, &bridge, g_main_context_set_poll_func, g_main_context_get_poll_func);
  g_test_add_func ("/PollObservers/order-and-done", test_order_and_done);
  g_test_add_func ("/PollObservers/throttled", test_throttled);
  g_test_add_func ("/PollObservers/nested-poll", test_nested_poll);
  g_test_add_func ("/PollObservers/main-thread-only", test_main_thread_only);
  g_test_add_func ("/PollObservers/bounded", test_bounded);
  g_test_add_func ("/PollObservers/disabled-calls-none", test_disabled_calls_none);
  ret = g_test_run ();
  g_string_free (calls, TRUE);
  return ret;
}
