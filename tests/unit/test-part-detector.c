/* Unit tests of the record -> part -> episode pipeline (part detector + event store),
 * fed with synthetic records: exact, independent of timing. */
#include "js-config.h"
#include "js-event-store.h"
#include "js-loop-stats.h"
#include "js-names.h"
#include "js-part-detector.h"

#define MS ((gint64) 1000000)

typedef struct
{
  JsConfig config;
  JsLoopStats stats;
  JsEventStore store;
  JsPartDetector detector;
} Fixture;

static const char *
no_env (const char *name)
{
  return NULL;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  js_config_load (&f->config, no_env);
  js_loop_stats_init (&f->stats);
  js_event_store_init (&f->store, &f->config);
  js_part_detector_init (&f->detector, &f->config, &f->stats, &f->store);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  js_event_store_clear (&f->store);
  js_loop_stats_clear (&f->stats);
  js_config_clear (&f->config);
}

static void
dispatch (Fixture *f, gint64 start_ms, gint64 end_ms, gint64 inner_ms, guint8 depth)
{
  JsRecord r = {
    .kind = JS_RECORD_DISPATCH,
    .start_ns = start_ms * MS,
    .end_ns = end_ms * MS,
    .inner_ns = inner_ms * MS,
    .code = (void *) 0x1234,
    .name_id = 0,
    .depth = depth,
  };
  js_part_detector_feed (&f->detector, &r);
}

static void
iteration (Fixture *f, gint64 start_ms, gint64 end_ms, guint32 count, gint64 inner_ms)
{
  JsRecord r = {
    .kind = JS_RECORD_ITERATION,
    .start_ns = start_ms * MS,
    .end_ns = end_ms * MS,
    .count = count,
    .inner_ns = inner_ms * MS,
  };
  js_part_detector_feed (&f->detector, &r);
}

static guint
n_events (Fixture *f)
{
  return f->store.events->len + (f->store.open ? 1 : 0);
}

static JsEvent *
event (Fixture *f, guint i)
{
  return i < f->store.events->len ? g_ptr_array_index (f->store.events, i) : f->store.open;
}

static void
test_one_slow_dispatch (Fixture *f, gconstpointer data)
{
  dispatch (f, 1000, 1200, 0, 1);
  iteration (f, 999, 1201, 1, 0); /* 202 ms busy, 200 explained: no iteration part */
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_cmpint (event (f, 0)->duration_ns, ==, 200 * MS);
  g_assert_cmpint (event (f, 0)->longest.type, ==, JS_RECORD_DISPATCH);
  g_assert_cmpint (event (f, 0)->longest.tier, ==, JS_TIER_SEVERE);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 1);
  g_assert_cmpuint (f->stats.dispatches, ==, 1);
  g_assert_cmpuint (f->stats.iterations, ==, 1);
}

static void
test_fast_dispatches_no_event (Fixture *f, gconstpointer data)
{
  for (gint64 i = 0; i < 1000; i++)
    {
      dispatch (f, i * 2, i * 2 + 1, 0, 1);
      iteration (f, i * 2, i * 2 + 1, 1, 0);
    }
  g_assert_cmpuint (n_events (f), ==, 0);
  g_assert_cmpuint (f->stats.dispatches, ==, 1000);
}

static void
test_small_dispatches_add_up (Fixture *f, gconstpointer data)
{
  /* Ten 30 ms dispatches in one iteration: no slow dispatch, one slow iteration. */
  for (gint64 i = 0; i < 10; i++)
    dispatch (f, 100 + i * 30, 130 + i * 30, 0, 1);
  iteration (f, 100, 401, 10, 0);
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_cmpint (event (f, 0)->longest.type, ==, JS_RECORD_ITERATION);
  g_assert_cmpint (event (f, 0)->duration_ns, ==, 301 * MS);
  g_assert_cmpuint (event (f, 0)->longest.dispatches, ==, 10);
  /* Named after the source that took the time. */
  g_assert_true (event (f, 0)->longest.code == (void *) 0x1234);
  g_assert_cmpint (event (f, 0)->longest.top_ns, ==, 300 * MS);
}

static void
test_nested_loop_not_double_counted (Fixture *f, gconstpointer data)
{
  /* Outer dispatch 0..320 runs a nested loop (polls 10..310, waiting), with
   * 10 ms of own work: not jank. The nested iterations are recorded with
   * the open dispatch's share in inner_ns. */
  iteration (f, 0, 10, 0, 5);    /* outer iteration ends in the nested poll */
  iteration (f, 310, 311, 1, 0); /* nested iteration, quit dispatched */
  dispatch (f, 5, 320, 305, 1);  /* own: 315 - 305 = 10 ms */
  iteration (f, 311, 321, 1, 0);
  g_assert_cmpuint (n_events (f), ==, 0);
  g_assert_cmpuint (f->stats.dispatches, ==, 1);
}

static void
test_nested_slow_inner_callback (Fixture *f, gconstpointer data)
{
  /* Outer dispatch 5..330 runs a nested loop: waits 10..90, a 120 ms inner
   * callback (depth 2) at 100..220, waits 221..320, quits. The 120 ms is the
   * inner callback's, not the outer's (own: 325 - 80 - 120 - 99 - 0 = 26 ms). */
  iteration (f, 0, 10, 0, 5);    /* outer iteration, ends in the nested poll */
  dispatch (f, 100, 220, 0, 2);  /* slow inner callback */
  iteration (f, 90, 221, 1, 0);  /* nested iteration: explained by it */
  dispatch (f, 320, 320, 0, 2);  /* the callback that quits the nested loop */
  dispatch (f, 5, 330, 299, 1);  /* outer: 325 wall, 299 inner */
  iteration (f, 320, 331, 2, 0); /* outer iteration after the nested loop */
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_cmpint (event (f, 0)->duration_ns, ==, 120 * MS);
  g_assert_cmpint (event (f, 0)->longest.depth, ==, 2);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 1);
}

static void
test_merge_gap (Fixture *f, gconstpointer data)
{
  /* 80 ms parts 200 ms apart: one episode; then 1 s later a new one. */
  for (gint64 i = 0; i < 3; i++)
    dispatch (f, 1000 + i * 280, 1080 + i * 280, 0, 1);
  dispatch (f, 2640 + 1000, 2720 + 1000, 0, 1);
  g_assert_cmpuint (n_events (f), ==, 2);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 3);
  g_assert_cmpint (event (f, 0)->duration_ns, ==, 240 * MS);
  g_assert_cmpint (event (f, 0)->start_ns, ==, 1000 * MS);
  g_assert_cmpint (event (f, 0)->end_ns, ==, 1640 * MS);
  g_assert_cmpuint (event (f, 1)->parts_count, ==, 1);
}

static void
test_tick_closes_only_when_nothing_can_join (Fixture *f, gconstpointer data)
{
  dispatch (f, 1000, 1100, 0, 1);
  js_event_store_tick (&f->store, 1400 * MS, 0, FALSE); /* gap not over */
  g_assert_nonnull (f->store.open);
  js_event_store_tick (&f->store, 1700 * MS, 1500 * MS, FALSE); /* iteration since 1500 under way */
  g_assert_nonnull (f->store.open);
  js_event_store_tick (&f->store, 1700 * MS, 0, FALSE);
  g_assert_null (f->store.open);
  g_assert_cmpuint (f->store.events->len, ==, 1);
}

/* A part that started less than the merge gap after an event the tick has
 * closed (its record came late: a frame due before it ran) joins it again. */
static void
test_late_part_reopens (Fixture *f, gconstpointer data)
{
  dispatch (f, 1000, 1100, 0, 1);
  js_event_store_tick (&f->store, 1700 * MS, 0, FALSE);
  g_assert_null (f->store.open);
  dispatch (f, 1550, 1650, 0, 1); /* 450 ms after the event's end */
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_nonnull (f->store.open);
  g_assert_cmpint (f->store.open->closed_ns, ==, 0);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 2);
  g_assert_cmpint (event (f, 0)->end_ns, ==, 1650 * MS);
  /* Closed again; one 600 ms after its end makes a new event. */
  js_event_store_tick (&f->store, 2200 * MS, 0, FALSE);
  dispatch (f, 2250, 2350, 0, 1);
  g_assert_cmpuint (n_events (f), ==, 2);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 2);
  g_assert_cmpuint (event (f, 1)->parts_count, ==, 1);
}

static void
test_bounded_store_counts_drops (Fixture *f, gconstpointer data)
{
  guint64 by_tier[JS_N_EVENT_TIERS], dropped;

  f->config.max_events = 3;
  for (gint64 i = 0; i < 5; i++) /* five noticeable episodes, 1 s apart */
    dispatch (f, i * 1000, i * 1000 + 60, 0, 1);
  dispatch (f, 10000, 10800, 0, 1); /* a frozen one evicts a noticeable one */
  js_event_store_tick (&f->store, 20000 * MS, 0, FALSE);
  g_assert_cmpuint (f->store.events->len, ==, 3);
  js_event_store_count (&f->store, by_tier, &dropped);
  g_assert_cmpuint (dropped, ==, 3);
  g_assert_cmpuint (by_tier[JS_TIER_NOTICEABLE], ==, 5);
  g_assert_cmpuint (by_tier[JS_TIER_FROZEN], ==, 1);
  g_assert_cmpint (((JsEvent *) g_ptr_array_index (f->store.events, 2))->longest.tier, ==,
                   JS_TIER_FROZEN);
  g_assert_cmpint (((JsEvent *) g_ptr_array_index (f->store.events, 2))->tier, ==, JS_TIER_FROZEN);
}

/* Back-to-back noticeable callbacks make one episode whose tier follows the
 * time they blocked together (1.2 s: frozen), counted and kept as such. */
static void
test_episode_tier_from_blocked_time (Fixture *f, gconstpointer data)
{
  guint64 by_tier[JS_N_EVENT_TIERS], dropped;

  for (gint64 i = 0; i < 10; i++) /* 120 ms each, 30 ms apart */
    dispatch (f, i * 150, i * 150 + 120, 0, 1);
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_cmpint (event (f, 0)->longest.tier, ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (event (f, 0)->blocked_ns, ==, 1200 * MS);
  g_assert_cmpint (event (f, 0)->tier, ==, JS_TIER_FROZEN);
  /* A lone severe stall later, apart. */
  dispatch (f, 10000, 10300, 0, 1);
  js_event_store_tick (&f->store, 20000 * MS, 0, FALSE);
  g_assert_cmpuint (n_events (f), ==, 2);
  g_assert_cmpint (event (f, 1)->tier, ==, JS_TIER_SEVERE);
  js_event_store_count (&f->store, by_tier, &dropped);
  g_assert_cmpuint (by_tier[JS_TIER_FROZEN], ==, 1);
  g_assert_cmpuint (by_tier[JS_TIER_SEVERE], ==, 1);
  g_assert_cmpuint (by_tier[JS_TIER_NOTICEABLE], ==, 0);
  /* Store full: the frozen episode outranks a new severe one, which goes. */
  f->config.max_events = 2;
  dispatch (f, 30000, 30250, 0, 1);
  js_event_store_tick (&f->store, 40000 * MS, 0, FALSE);
  g_assert_cmpuint (f->store.events->len, ==, 2);
  g_assert_cmpint (event (f, 0)->tier, ==, JS_TIER_FROZEN);
  js_event_store_count (&f->store, by_tier, &dropped);
  g_assert_cmpuint (dropped, ==, 1);
}

static void
test_parts_capped_time_exact (Fixture *f, gconstpointer data)
{
  f->config.max_parts = 4;
  for (gint64 i = 0; i < 10; i++)
    dispatch (f, i * 100, i * 100 + 60, 0, 1);
  g_assert_cmpuint (n_events (f), ==, 1);
  g_assert_cmpuint (event (f, 0)->parts->len, ==, 4);
  g_assert_cmpuint (event (f, 0)->parts_count, ==, 10);
  g_assert_cmpint (event (f, 0)->duration_ns, ==, 600 * MS);
}

/* jankscope's own sources are left out, one dispatch at a time: the name
 * checked last is remembered, so taking turns with an app's source (and
 * with JS_NAME_NONE, an id below every interned one) must switch the
 * answer each time. */
static void
test_own_sources_taking_turns (Fixture *f, gconstpointer data)
{
  guint32 own = js_names_intern ("[jankscope] test source");
  guint32 app = js_names_intern ("app source");
  const guint32 order[] = { own, app, own, own, JS_NAME_NONE, own, app, app, own };
  guint counted = 0;

  g_assert_true (js_names_is_own (own));
  g_assert_false (js_names_is_own (app));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      /* Slow: an own dispatch would also leave a part. */
      JsRecord r = {
        .kind = JS_RECORD_DISPATCH,
        .start_ns = (gint64) (i * 1000) * MS,
        .end_ns = (gint64) (i * 1000 + 300) * MS,
        .code = (void *) 0x1234,
        .name_id = order[i],
        .depth = 1,
      };

      js_part_detector_feed (&f->detector, &r);
      counted += order[i] != own;
      g_assert_cmpuint (f->stats.dispatches, ==, counted);
      g_assert_cmpuint (g_hash_table_size (f->stats.sources), ==, (counted > 0) + (i >= 4));
    }
  {
    guint parts = 0;

    for (guint i = 0; i < n_events (f); i++)
      parts += event (f, i)->parts_count;
    g_assert_cmpuint (parts, ==, counted);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/PartDetector/one-slow-dispatch", test_one_slow_dispatch);
  ADD ("/PartDetector/fast-dispatches", test_fast_dispatches_no_event);
  ADD ("/PartDetector/small-dispatches-add-up", test_small_dispatches_add_up);
  ADD ("/PartDetector/nested-loop", test_nested_loop_not_double_counted);
  ADD ("/PartDetector/nested-slow-inner", test_nested_slow_inner_callback);
  ADD ("/EventStore/merge-gap", test_merge_gap);
  ADD ("/EventStore/tick", test_tick_closes_only_when_nothing_can_join);
  ADD ("/EventStore/late-part-reopens", test_late_part_reopens);
  ADD ("/EventStore/bounded", test_bounded_store_counts_drops);
  ADD ("/EventStore/parts-capped", test_parts_capped_time_exact);
  ADD ("/EventStore/episode-tier", test_episode_tier_from_blocked_time);
  ADD ("/PartDetector/own-sources-taking-turns", test_own_sources_taking_turns);
#undef ADD
  return g_test_run ();
}
