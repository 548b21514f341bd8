/* Unit tests of an event's JSON built again (js-report.c): its text up to
 * its context is kept between builds (js_event_keep_body) and copied while
 * only its context changed or it closed, and what that gives is the text
 * built afresh, byte for byte. */
#include "js-callback-names.h"
#include "js-config.h"
#include "js-context.h"
#include "js-event-store.h"
#include "js-report.h"
#include "js-stall-store.h"

#include <string.h>

#define MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  JsConfig config;
  JsEventStore store;
  JsContext *context;
  JsCallbackNames *names;
  JsReportInput in;
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
  f->context = g_new0 (JsContext, 1);
  js_context_init (f->context, &f->config, 0);
  f->names = js_callback_names_new ();
  f->in = (JsReportInput){
    .config = &f->config,
    .store = &f->store,
    .callback_names = f->names,
    .context = f->context,
  };
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  js_callback_names_free (f->names);
  g_free (f->context);
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
    .depth = 1,
  };

  js_event_store_add_part (&f->store, &part);
}

/* A mark from `start_ms`, ended at `end_ms` (0: not yet). */
static void
feed_mark (Fixture *f, JsRecordKind kind, gint64 start_ms, gint64 end_ms)
{
  JsRecord r = {
    .kind = kind,
    .start_ns = start_ms * MS,
    .end_ns = end_ms * MS,
    .name_id = 3,
    .count = 1,
    .depth = 1,
  };

  js_context_feed (f->context, &r);
}

/* Its text built afresh: the kept one let go first. */
static GBytes *
fresh_json (Fixture *f, JsEvent *e)
{
  g_clear_pointer (&e->body, g_bytes_unref);
  return js_report_event_json (&f->in, e);
}

static void
test_context_only (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) open = NULL, open_again = NULL, closed = NULL, closed_fresh = NULL;
  g_autofree char *text = NULL;
  JsEvent *e;

  feed_mark (f, JS_RECORD_MARK_BEGIN, 900, 0);
  add_part (f, 1000, 1200);
  e = f->store.open;
  open = js_report_event_json (&f->in, e);
  g_assert_nonnull (js_event_kept_body (e, 0));
  open_again = js_report_event_json (&f->in, e);
  g_assert_true (g_bytes_equal (open, open_again));

  /* The mark ends, the event closes and gets its context: the text up to
   * it is kept, the rest is new. */
  feed_mark (f, JS_RECORD_MARK_END, 900, 1300);
  js_event_store_tick (&f->store, 10000 * MS, 0, TRUE);
  js_context_annotate (f->context, &f->store);
  g_assert_true (g_ptr_array_index (f->store.events, 0) == e);
  g_assert_nonnull (e->context);
  g_assert_nonnull (js_event_kept_body (e, 0));
  g_assert_false (js_event_journal_is_current (e)); /* the journal writes it again */
  closed = js_report_event_json (&f->in, e);
  g_assert_false (g_bytes_equal (open, closed));
  text = g_strndup (g_bytes_get_data (closed, NULL), g_bytes_get_size (closed));
  g_assert_nonnull (strstr (text, "\"end_ns\":1300000000"));
  closed_fresh = fresh_json (f, e);
  g_assert_true (g_bytes_equal (closed, closed_fresh));
}

static void
test_changes_build_afresh (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) one = NULL, two = NULL, two_fresh = NULL, frozen = NULL;
  JsEvent *e;

  add_part (f, 1000, 1200);
  e = f->store.open;
  one = js_report_event_json (&f->in, e);
  /* Another part: not the text kept. */
  add_part (f, 1250, 1400);
  g_assert_true (f->store.open == e);
  g_assert_null (js_event_kept_body (e, 0));
  two = js_report_event_json (&f->in, e);
  g_assert_false (g_bytes_equal (one, two));
  two_fresh = fresh_json (f, e);
  g_assert_true (g_bytes_equal (two, two_fresh));

  /* Touched (a stall folded in, a frame's count of dispatches that delayed
   * it): built again. */
  g_assert_nonnull (js_event_kept_body (e, 0));
  js_event_store_touch (&f->store, e);
  g_assert_null (js_event_kept_body (e, 0));
  g_clear_pointer (&two, g_bytes_unref);
  two = js_report_event_json (&f->in, e);
  g_assert_true (g_bytes_equal (two, two_fresh));

  /* Frames named better since (a debug file came): built again. */
  g_assert_nonnull (js_event_kept_body (e, 0));
  g_assert_null (js_event_kept_body (e, 1));

  /* Frozen: its text is kept as a whole, the part up to its context let go. */
  js_event_store_tick (&f->store, 10000 * MS, 0, TRUE);
  frozen = js_report_event_json (&f->in, e);
  js_event_store_freeze (&f->store, e, g_bytes_ref (frozen));
  g_assert_null (e->body);
  g_assert_null (js_event_kept_body (e, 0));
}

static JsStall *
stall (gint64 start_ms, gint64 end_ms)
{
  JsStall *s = g_new0 (JsStall, 1);

  s->ref = 1;
  s->h.start_ns = start_ms * MS;
  s->h.end_ns = end_ms * MS;
  s->h.last_seen_ns = end_ms * MS;
  s->h.ping_latency_ns = -1;
  s->samples = g_array_new (FALSE, FALSE, sizeof (JsStallSampleInfo));
  return s;
}

/* A stall it showed pending, folded in as it was (the settled stall's
 * samples are the ones it showed): the text is kept. Anything else the
 * watchdog says of it since, or another order of folding: built again. */
static void
test_fold_of_pending (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) text = g_bytes_new_static ("\"id\":1", 6);
  JsStall *a = stall (1000, 1100), *b = stall (1100, 1150);
  JsEvent *e;

  add_part (f, 1000, 1200);
  e = f->store.open;
  e->stalls = g_ptr_array_new_with_free_func (js_stall_unref);
  g_ptr_array_add (e->stalls, js_stall_ref (a));
  js_event_keep_body (e, text, 0);
  g_assert_true (js_event_kept_body (e, 0) == text);
  g_ptr_array_remove (e->stalls, a);
  js_event_store_touch_folded (&f->store, e, a);
  g_assert_true (js_event_kept_body (e, 0) == text);
  g_assert_false (js_event_journal_is_current (e)); /* a journal line all the same */

  /* Pending, its ping answered after it ended, then folded. */
  g_ptr_array_add (e->stalls, js_stall_ref (b));
  js_event_keep_body (e, text, 0);
  b->h.ping_latency_ns = 60 * MS;
  g_ptr_array_remove (e->stalls, b);
  js_event_store_touch_folded (&f->store, e, b);
  g_assert_null (js_event_kept_body (e, 0));

  /* Two pending, folded in the other order. */
  g_ptr_array_add (e->stalls, js_stall_ref (a));
  g_ptr_array_add (e->stalls, js_stall_ref (b));
  js_event_keep_body (e, text, 0);
  g_ptr_array_remove (e->stalls, b);
  js_event_store_touch_folded (&f->store, e, b);
  g_ptr_array_remove (e->stalls, a);
  js_event_store_touch_folded (&f->store, e, a);
  g_assert_null (js_event_kept_body (e, 0));
  js_stall_unref (a);
  js_stall_unref (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/EventJson/context-only", test_context_only);
  ADD ("/EventJson/changes-build-afresh", test_changes_build_afresh);
  ADD ("/EventJson/fold-of-pending", test_fold_of_pending);
  return g_test_run ();
}
