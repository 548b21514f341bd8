/* Unit tests of when the collector owes a reader the next live snapshot
 * (js_live_due_in_ns): never while nobody asks, at once for the first one
 * and for one that is overdue, else the rest of the period. */
#include "js-clock.h"
#include "js-live.h"

#define MS JS_NS_PER_MS

static void
publish_at (gint64 when_ns)
{
  js_live_publish (g_bytes_new_static ("{}", 2), when_ns);
}

static void
test_due (void)
{
  gint64 now = js_now_ns ();

  /* Nobody asked yet: nothing is due, however old the last snapshot. */
  g_assert_cmpint (js_live_due_in_ns (now), ==, -1);

  /* A reader asks (the live server's tick, the window's timer). */
  jankscope_live_api_v1.want ();
  now = js_now_ns ();
  g_assert_true (js_live_wanted (now));
  /* None published yet: the first one is due now. */
  g_assert_cmpint (js_live_due_in_ns (now), ==, 0);

  /* Published 100 ms ago: due in the rest of the period. */
  publish_at (now - 100 * MS);
  g_assert_cmpint (js_live_due_in_ns (now), ==, (JS_LIVE_PERIOD_MS - 100) * MS);

  /* Exactly one period ago: due now. */
  publish_at (now - JS_LIVE_PERIOD_MS * MS);
  g_assert_cmpint (js_live_due_in_ns (now), ==, 0);

  /* Overdue (the collector was busy symbolizing a stall past the period):
   * still due now, not a negative wait, which the collector took for "no
   * reader" and parked through a whole hang. */
  publish_at (now - (JS_LIVE_PERIOD_MS + 189) * MS);
  g_assert_cmpint (js_live_due_in_ns (now), ==, 0);

  /* The reader stops asking: past the linger time nothing is due. */
  g_assert_cmpint (js_live_due_in_ns (now + (JS_LIVE_LINGER_MS + 1) * MS), ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Live/due", test_due);
  return g_test_run ();
}
