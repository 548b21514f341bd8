/* Unit tests of the per-source statistics and the cache in front of their
 * table (js-loop-stats.c): every dispatch counts to its own (name, code)
 * entry, whatever the order and however the keys share cache slots. */
#include "js-loop-stats.h"
#include "js-names.h"

static void
add (JsLoopStats *stats, guint32 name_id, gsize code, gint64 own_ns)
{
  JsRecord r = {
    .kind = JS_RECORD_DISPATCH,
    .start_ns = 1000,
    .end_ns = 1000 + own_ns,
    .code = GSIZE_TO_POINTER (code),
    .name_id = name_id,
  };

  js_loop_stats_add_dispatch (stats, &r, own_ns);
}

/* The table's entry for a key, looked up without the cache. */
static const JsSourceStats *
entry (JsLoopStats *stats, guint32 name_id, gsize code)
{
  g_autoptr (GPtrArray) all = js_loop_stats_sorted_sources (stats);

  for (guint i = 0; i < all->len; i++)
    {
      const JsSourceStats *s = g_ptr_array_index (all, i);

      if (s->name_id == name_id && s->code == GSIZE_TO_POINTER (code))
        return s;
    }
  return NULL;
}

/* Keys that differ by name only, by code only, and many more than the
 * cache holds, interleaved: each entry gets exactly its own dispatches. */
static void
test_alternating_keys (void)
{
  JsLoopStats stats;
  const guint n_codes = 40, n_names = 5, rounds = 7;

  js_loop_stats_init (&stats);
  for (guint round = 0; round < rounds; round++)
    for (guint c = 0; c < n_codes; c++)
      for (guint n = 0; n < n_names; n++)
        /* Code addresses 16 bytes apart (as functions are aligned), names
         * 2-6: neighbours in every direction. */
        add (&stats, 2 + n, 0x400000 + c * 16, (gint64) (1 + c * n_names + n));
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, n_codes * n_names);
  g_assert_cmpuint (stats.dispatches, ==, n_codes * n_names * rounds);
  for (guint c = 0; c < n_codes; c++)
    for (guint n = 0; n < n_names; n++)
      {
        const JsSourceStats *s = entry (&stats, 2 + n, 0x400000 + c * 16);
        gint64 own = (gint64) (1 + c * n_names + n);

        g_assert_nonnull (s);
        g_assert_cmpuint (s->hist.count, ==, rounds);
        g_assert_cmpint (s->total_ns, ==, own * rounds);
        g_assert_cmpint (s->hist.min_ns, ==, own);
        g_assert_cmpint (s->hist.max_ns, ==, own);
      }
  js_loop_stats_clear (&stats);
}

/* Two sources, one name, two callbacks, taking turns: the case a cache
 * keyed on the code alone (or on the name alone) gets wrong. */
static void
test_same_name_other_code (void)
{
  JsLoopStats stats;

  js_loop_stats_init (&stats);
  for (guint i = 0; i < 100; i++)
    {
      add (&stats, 7, 0x1000, 10);
      add (&stats, 7, 0x2000, 1000);
      add (&stats, 8, 0x1000, 100000);
    }
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, 3);
  g_assert_cmpint (entry (&stats, 7, 0x1000)->total_ns, ==, 100 * 10);
  g_assert_cmpint (entry (&stats, 7, 0x2000)->total_ns, ==, 100 * 1000);
  g_assert_cmpint (entry (&stats, 8, 0x1000)->total_ns, ==, 100 * 100000);
  js_loop_stats_clear (&stats);
}

/* More keys than the cache has entries that share their code (or their
 * name), taking turns: some share a cache slot whatever the slot function
 * (pigeonhole), so a cache that compares the code alone (or the name
 * alone) counts one's dispatch to the other. */
static void
test_more_keys_than_slots (void)
{
  JsLoopStats stats;
  const guint n = JS_LOOP_STATS_CACHE * 2 + 1, rounds = 5;

  js_loop_stats_init (&stats);
  for (guint round = 0; round < rounds; round++)
    for (guint i = 0; i < n; i++)
      {
        add (&stats, 2 + i, 0x7000, (gint64) (1 + i));         /* one code, many names */
        add (&stats, 5000, 0x9000 + i * 16, (gint64) (1 + i)); /* one name, many codes */
      }
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, 2 * n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (entry (&stats, 2 + i, 0x7000)->total_ns, ==, (gint64) (1 + i) * rounds);
      g_assert_cmpint (entry (&stats, 5000, 0x9000 + i * 16)->total_ns, ==,
                       (gint64) (1 + i) * rounds);
    }
  js_loop_stats_clear (&stats);
}

/* A table cleared and made again starts empty: nothing the cache held
 * before counts (it would point into the freed table). */
static void
test_cleared_and_reused (void)
{
  JsLoopStats stats;

  js_loop_stats_init (&stats);
  add (&stats, 3, 0x1000, 50);
  add (&stats, 3, 0x1000, 50);
  js_loop_stats_clear (&stats);
  js_loop_stats_init (&stats);
  add (&stats, 3, 0x1000, 70);
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, 1);
  g_assert_cmpuint (entry (&stats, 3, 0x1000)->hist.count, ==, 1);
  g_assert_cmpint (entry (&stats, 3, 0x1000)->total_ns, ==, 70);
  js_loop_stats_clear (&stats);
}

/* Past the cap, new keys count to "(other)", again and again (never a
 * cached entry of another key), and the keys seen before keep theirs. */
static void
test_past_the_cap (void)
{
  JsLoopStats stats;
  const JsSourceStats *other;

  js_loop_stats_init (&stats);
  for (guint i = 0; i < JS_LOOP_STATS_MAX_SOURCES - 1; i++)
    add (&stats, 2, 0x10000 + i * 16, 1);
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, JS_LOOP_STATS_MAX_SOURCES - 1);
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < 10; i++)
      {
        add (&stats, 3, 0x90000 + i * 16, 1000);
        add (&stats, 2, 0x10000 + i * 16, 1);
      }
  g_assert_cmpuint (g_hash_table_size (stats.sources), ==, JS_LOOP_STATS_MAX_SOURCES);
  other = entry (&stats, JS_NAME_OVERFLOW, 0);
  g_assert_nonnull (other);
  g_assert_cmpuint (other->hist.count, ==, 30);
  g_assert_cmpint (other->total_ns, ==, 30 * 1000);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (entry (&stats, 2, 0x10000 + i * 16)->total_ns, ==, 4);
  g_assert_null (entry (&stats, 3, 0x90000));
  js_loop_stats_clear (&stats);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/LoopStats/alternating-keys", test_alternating_keys);
  g_test_add_func ("/LoopStats/same-name-other-code", test_same_name_other_code);
  g_test_add_func ("/LoopStats/more-keys-than-slots", test_more_keys_than_slots);
  g_test_add_func ("/LoopStats/cleared-and-reused", test_cleared_and_reused);
  g_test_add_func ("/LoopStats/past-the-cap", test_past_the_cap);
  return g_test_run ();
}
