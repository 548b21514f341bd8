/* Unit tests of the sleepers' timers (js-mainloop.h): a parked sleeper that
 * waits for a long busy span (the watchdog) has its timer armed to fire
 * delay_ns after each return from a poll and never while the main thread
 * waits in one; a poll that ends by its timeout costs one timer call (at its
 * entry), one woken early or without a timeout two; a sleeper that woke
 * meanwhile is left without a timer.
 *
 * The real poll function on this program's default context (preload mode:
 * the bridge's hooks are filled, no preload reads them), a real timerfd. The
 * cases share them and run in order; timing bounds are wide (they state what
 * the timer must do, not how fast the machine is). */
#include "js-mainloop.h"
#include "js-ring.h"
#include "js-wake-timer.h"

#include <sys/timerfd.h>
#include <unistd.h>

#define MS G_GINT64_CONSTANT (1000000)
#define DELAY_NS (200 * MS)

static JsWakeTimer timer;
static int park;
static int park_number;

/* The timer's time left, ns; 0 when disarmed. */
static gint64
time_left (void)
{
  struct itimerspec its;

  g_assert_cmpint (timerfd_gettime (timer.timer_fd, &its), ==, 0);
  return its.it_value.tv_sec * G_GINT64_CONSTANT (1000000000) + its.it_value.tv_nsec;
}

/* Has the timer fired since the last look? (Non-blocking read.) */
static gboolean
fired (void)
{
  guint64 count;

  return read (timer.timer_fd, &count, sizeof count) == sizeof count;
}

static void
park_again (void)
{
  js_mainloop_park (&park, ++park_number);
}

typedef struct
{
  gint64 left; /* the timer's time left in the dispatch after the return */
  gboolean fired;
  gint64 at_ns; /* when the dispatch looked */
} Look;

static gboolean
look_cb (gpointer data)
{
  Look *look = data;

  look->left = time_left ();
  look->fired = fired ();
  look->at_ns = g_get_monotonic_time () * 1000;
  return G_SOURCE_REMOVE;
}

/* One iteration that polls with a timeout of `ms` and ends by it. */
static Look
iterate_timeout (guint ms)
{
  Look look = { -1, FALSE, 0 };

  g_timeout_add (ms, look_cb, &look);
  while (look.left < 0)
    g_main_context_iteration (NULL, TRUE);
  return look;
}

/* Did the poll of iterate_timeout (ms), started at `start_ns`, return
 * later than the sleepers' early margin (2 ms) after its timeout (a loaded
 * machine)? Then the return finds the timer off and arms it again, rightly:
 * one more call. What the dispatch took to look counts in: at worst a call
 * allowed that did not come. */
static gboolean
returned_late (const Look *look, gint64 start_ns, guint ms)
{
  return look->at_ns - start_ns - ms * MS > 3 * MS / 2;
}

/* The first return after a park arms the timer for delay_ns; every later
 * poll that ends by its timeout keeps it right with one call, at its entry,
 * and the timer never fires in the wait. */
static void
test_timeout_polls (void)
{
  guint64 calls;
  guint late = 0;
  Look look;

  park_again ();
  look = iterate_timeout (20);
  g_assert_false (look.fired);
  g_assert_cmpint (look.left, >, DELAY_NS - 50 * MS);
  g_assert_cmpint (look.left, <=, DELAY_NS);
  calls = js_mainloop_sleeper_timer_calls ();
  for (int i = 0; i < 5; i++)
    {
      gint64 start = g_get_monotonic_time () * 1000;

      look = iterate_timeout (30);
      late += returned_late (&look, start, 30);
      g_assert_false (look.fired);
      /* Fires about delay_ns after the return: within the early margin
       * (2 ms) and what the dispatch took to look. */
      g_assert_cmpint (look.left, >, DELAY_NS - 50 * MS);
      g_assert_cmpint (look.left, <=, DELAY_NS + 1 * MS);
    }
  /* One call per poll (the entry), none at the returns but those of polls
   * the machine woke late. */
  g_assert_cmpuint (js_mainloop_sleeper_timer_calls () - calls, >=, 5);
  g_assert_cmpuint (js_mainloop_sleeper_timer_calls () - calls, <=, 5 + late);
}

static gpointer
wake_context_later (gpointer data)
{
  g_usleep (GPOINTER_TO_UINT (data) * 1000);
  g_main_context_wakeup (NULL);
  return NULL;
}

static gboolean
never_cb (gpointer data)
{
  g_assert_not_reached ();
  return G_SOURCE_REMOVE;
}

/* One iteration whose poll a thread wakes after `ms`: the timer must be
 * armed again for delay_ns after the return (not fired in the wait), with
 * two calls (at the entry and at the return). */
static void
iterate_woken_after (guint ms)
{
  guint64 calls = js_mainloop_sleeper_timer_calls ();
  GThread *waker = g_thread_new ("waker", wake_context_later, GUINT_TO_POINTER (ms));
  gint64 left;

  g_main_context_iteration (NULL, TRUE);
  g_thread_join (waker);
  left = time_left ();
  g_assert_false (fired ());
  g_assert_cmpint (left, >, DELAY_NS - 50 * MS);
  g_assert_cmpint (left, <=, DELAY_NS);
  g_assert_cmpuint (js_mainloop_sleeper_timer_calls () - calls, ==, 2);
}

/* A poll woken long before its timeout: the timer moved past that timeout
 * at the entry would fire far too late, so the return arms it again. */
static void
test_woken_early (void)
{
  guint id = g_timeout_add (5000, never_cb, NULL);

  iterate_woken_after (30);
  g_source_remove (id);
}

/* A poll without a timeout (no source at all: GLib polls with timeout -1
 * until the wake-up, which comes after the armed delay, so a timer left
 * armed would have fired): disarmed at the entry, armed at the return. */
static void
test_no_timeout (void)
{
  iterate_woken_after (300);
}

static gpointer
unpark_later (gpointer data)
{
  g_usleep (20 * 1000);
  __atomic_store_n (&park, 0, __ATOMIC_SEQ_CST);
  return NULL;
}

/* The sleeper wakes (and stays up) while the main thread waits: its timer,
 * moved at the entry, is disarmed at the return, and nothing arms it again
 * until it parks anew. */
static void
test_sleeper_woke (void)
{
  GThread *unparker = g_thread_new ("unparker", unpark_later, NULL);
  Look look;

  look = iterate_timeout (60);
  g_thread_join (unparker);
  g_assert_false (look.fired);
  g_assert_cmpint (look.left, ==, 0);
  look = iterate_timeout (10);
  g_assert_cmpint (look.left, ==, 0);
  /* Parked again: armed at the next return. */
  park_again ();
  look = iterate_timeout (10);
  g_assert_cmpint (look.left, >, DELAY_NS - 50 * MS);
}

int
main (int argc, char **argv)
{
  JsBridge bridge = { .abi = JS_BRIDGE_ABI, .mode = JS_MODE_PRELOAD };
  JsRing *ring;

  g_test_init (&argc, &argv, NULL);
  g_assert_true (js_wake_timer_open (&timer));
  ring = js_ring_new (1024);
  js_mainloop_start (ring, &bridge, g_main_context_set_poll_func, g_main_context_get_poll_func);
  g_assert_true (js_mainloop_add_sleeper (&park, &timer, DELAY_NS, TRUE));
  g_test_add_func ("/Sleepers/timeout-polls", test_timeout_polls);
  g_test_add_func ("/Sleepers/woken-early", test_woken_early);
  g_test_add_func ("/Sleepers/no-timeout", test_no_timeout);
  g_test_add_func ("/Sleepers/sleeper-woke", test_sleeper_woke);
  return g_test_run ();
}
