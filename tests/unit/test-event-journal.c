/* Unit tests of an event's journal bookkeeping (js-event-store.h): the text
 * last journaled is offered for reuse (the frozen form, no new build) only
 * while nothing changed since it was written. */
#include "js-config.h"
#include "js-event-store.h"

#include <string.h>

#define MS ((gint64) 1000000)

typedef struct
{
  JsConfig config;
  JsEventStore store;
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
  js_event_store_init (&f->store, &f->config);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  js_event_store_clear (&f->store);
  js_config_clear (&f->config);
}

static void
add_part (Fixture *f, gint64 start_ms, gint64 end_ms)
{
  JsPart part = {
    .type = JS_RECORD_DISPATCH,
    .start_ns = start_ms * MS,
    .end_ns = end_ms * MS,
    .duration_ns = (end_ms - start_ms) * MS,
    .tier = js_config_tier (&f->config, (end_ms - start_ms) * MS),
    .code = (void *) 0x1234,
    .depth = 1,
  };

  js_event_store_add_part (&f->store, &part);
}

static GBytes *
text (const char *s)
{
  return g_bytes_new (s, strlen (s));
}

static void
test_current_until_changed (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) one = text ("{\"id\":1}");
  g_autoptr (GBytes) two = text ("{\"id\":1,\"parts\":2}");
  JsEvent *e;

  add_part (f, 1000, 1200);
  e = f->store.open;
  g_assert_nonnull (e);
  g_assert_false (js_event_journal_is_current (e)); /* never written */
  g_assert_null (js_event_journaled_json (e));

  js_event_note_journaled (e, one, 1300 * MS);
  g_assert_true (js_event_journal_is_current (e));
  g_assert_true (js_event_journaled_json (e) == one);
  g_assert_cmpint (e->journaled_ns, ==, 1300 * MS);

  /* A new part joins it: the text is stale. */
  add_part (f, 1250, 1400);
  g_assert_true (f->store.open == e);
  g_assert_false (js_event_journal_is_current (e));
  g_assert_null (js_event_journaled_json (e));

  js_event_note_journaled (e, two, 1500 * MS);
  g_assert_true (js_event_journaled_json (e) == two);
  /* Touched (a stall folded in, its context set). */
  js_event_store_touch (&f->store, e);
  g_assert_null (js_event_journaled_json (e));

  /* Closed: closing changes it too. */
  js_event_note_journaled (e, two, 1600 * MS);
  js_event_store_tick (&f->store, 10000 * MS, 0, TRUE);
  g_assert_null (f->store.open);
  g_assert_cmpuint (f->store.events->len, ==, 1);
  g_assert_true (g_ptr_array_index (f->store.events, 0) == e);
  g_assert_null (js_event_journaled_json (e));
}

static void
test_snapshot_forgets_text (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) one = text ("{\"id\":1}");
  JsEvent *e;

  add_part (f, 1000, 1200);
  e = f->store.open;
  js_event_note_journaled (e, one, 1300 * MS);
  js_event_store_touch (&f->store, e);
  /* Written whole in a snapshot, built afresh there: current, but the text
   * journaled before is not its text any more. */
  js_event_note_journaled (e, NULL, 1400 * MS);
  g_assert_true (js_event_journal_is_current (e));
  g_assert_null (js_event_journaled_json (e));
}

static void
test_frozen_keeps_no_copy (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) one = text ("{\"id\":1}");
  JsEvent *e;

  add_part (f, 1000, 1200);
  js_event_store_tick (&f->store, 10000 * MS, 0, TRUE);
  e = g_ptr_array_index (f->store.events, 0);
  js_event_note_journaled (e, one, 10100 * MS);
  js_event_store_freeze (&f->store, e, g_bytes_ref (js_event_journaled_json (e)));
  g_assert_true (e->frozen == one);
  g_assert_false (js_event_journal_is_current (e)); /* freezing changes it */
  js_event_note_journaled (e, e->frozen, 10200 * MS);
  g_assert_true (js_event_journal_is_current (e));
  g_assert_null (e->journaled_json); /* the frozen text is the one kept */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/EventJournal/current-until-changed", test_current_until_changed);
  ADD ("/EventJournal/snapshot-forgets-text", test_snapshot_forgets_text);
  ADD ("/EventJournal/frozen-keeps-no-copy", test_frozen_keeps_no_copy);
  return g_test_run ();
}
