/* test-views.c: the inspector's views (src/gtk4-ui/): the frame details,
 * the sources page, the bottom-up tree, the samples strip, the timeline's
 * zoom and range selection, with the synthetic snapshot snapshot.json (a
 * real gtk4-stall report, two made-up events, a `live` member whose frames
 * carry their dispatches). The /views/pure/ paths need no display; the
 * others are skipped without one (run under xvfb-run).
 *
 * Environment: JSUI_TEST_SNAPSHOT (the JSON file).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "jsui-format.h"
#include "jsui-frame-details.h"
#include "jsui-frame-stats.h"
#include "jsui-items.h"
#include "jsui-panel.h"
#include "jsui-parts-view.h"
#include "jsui-samples-strip.h"
#include "jsui-sources-view.h"
#include "jsui-stack-tree.h"
#include "ui-test-util.h"

/* The snapshot with its live member edited by `edit`. */
static JsuiSnapshot *
load_edited (void (*edit) (JsonObject *live, gpointer data), gpointer data)
{
  gsize length;
  g_autofree char *text = ui_test_snapshot_text (&length);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  JsonObject *root;

  json_parser_load_from_data (parser, text, (gssize) length, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  edit (json_object_get_object_member (root, "live"), data);
  out = json_to_string (json_parser_get_root (parser), FALSE);
  return ui_test_parse (out, strlen (out));
}

/* The snapshot with its whole document edited by `edit`. */
static JsuiSnapshot *
load_edited_root (void (*edit) (JsonObject *root, gpointer data), gpointer data)
{
  gsize length;
  g_autofree char *text = ui_test_snapshot_text (&length);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;

  json_parser_load_from_data (parser, text, (gssize) length, &error);
  g_assert_no_error (error);
  edit (json_node_get_object (json_parser_get_root (parser)), data);
  out = json_to_string (json_parser_get_root (parser), FALSE);
  return ui_test_parse (out, strlen (out));
}

static const JsuiStackNode *
child (const JsuiStackNode *node, guint i)
{
  g_assert_cmpuint (i, <, node->children->len);
  return g_ptr_array_index (node->children, i);
}

/* The node's samples (a tree of counts weighs them: its weight too). */
static void
assert_node (const JsuiStackNode *node, const char *name, gint64 total, gint64 self)
{
  g_assert_cmpstr (node->name, ==, name);
  g_assert_cmpint (node->total_samples, ==, total);
  g_assert_cmpint (node->self_samples, ==, self);
}

/* ---- pure: no display ------------------------------------------------ */

static void
test_bottom_up (void)
{
  /* Top-down: all(10) ─ a(6) ─ c(4)
   *                  │      └─ d(2)
   *                  └─ b(4)
   * plus a recursive stack x > y > x (3). */
  g_autoptr (JsuiStackTree) tree = jsui_stack_tree_new ("all");
  g_autoptr (JsuiStackTree) up = NULL;
  g_autoptr (JsuiStackTree) merged = jsui_stack_tree_new ("all");
  const char *ac[] = { "a", "c" }, *ad[] = { "a", "d" }, *b[] = { "b" };
  const char *xyx[] = { "x", "y", "x" };
  const JsuiStackNode *c, *d, *x;

  jsui_stack_tree_add (tree, b, NULL, 1, 4);
  jsui_stack_tree_add (tree, ac, NULL, 2, 4);
  jsui_stack_tree_add (tree, ad, NULL, 2, 2);
  jsui_stack_tree_add (tree, xyx, NULL, 3, 3);
  jsui_stack_tree_sort (tree);
  up = jsui_stack_tree_bottom_up (tree);

  /* First level: where samples ended, with their self counts; below:
   * their callers. Ties by name. */
  assert_node (up->root, "all", 13, 0);
  g_assert_cmpuint (up->root->children->len, ==, 4);
  assert_node (child (up->root, 0), "b", 4, 4);
  g_assert_cmpuint (child (up->root, 0)->children->len, ==, 0);
  c = child (up->root, 1);
  assert_node (c, "c", 4, 0);
  assert_node (child (c, 0), "a", 4, 4);
  x = child (up->root, 2);
  assert_node (x, "x", 3, 0);
  assert_node (child (x, 0), "y", 3, 0);
  assert_node (child (child (x, 0), 0), "x", 3, 3); /* the recursion, read upwards */
  d = child (up->root, 3);
  assert_node (d, "d", 2, 0);
  assert_node (child (d, 0), "a", 2, 2);
  g_assert_cmpuint (child (d, 0)->depth, ==, 2);

  /* Merging sums the samples, path by path. */
  jsui_stack_tree_merge (merged, tree);
  jsui_stack_tree_merge (merged, tree);
  jsui_stack_tree_sort (merged);
  assert_node (merged->root, "all", 26, 0);
  assert_node (child (merged->root, 0), "a", 12, 0);
  assert_node (child (child (merged->root, 0), 0), "c", 8, 8);

  /* An empty tree has an empty bottom-up. */
  {
    g_autoptr (JsuiStackTree) empty = jsui_stack_tree_new ("all");
    g_autoptr (JsuiStackTree) empty_up = jsui_stack_tree_bottom_up (empty);

    assert_node (empty_up->root, "all", 0, 0);
    g_assert_cmpuint (empty_up->root->children->len, ==, 0);
  }
}

static const JsuiFrame *
frame (JsuiSnapshot *snap, guint i)
{
  g_assert_cmpuint (i, <, snap->frames->len);
  return &g_array_index (snap->frames, JsuiFrame, i);
}

static void
test_snapshot_frames (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  const JsuiFrame *f;
  guint first, last;

  g_assert_cmpuint (snap->strings->len, ==, 7);
  /* Frame 29: event 1's stall, the slow frame. */
  f = frame (snap, 29);
  g_assert_cmpuint (f->flags, ==, 1);
  g_assert_cmpint (f->phase_ns[JSUI_PHASE_PAINT], ==, 214139000);
  g_assert_cmpint (f->phase_ns[JSUI_PHASE_LAYOUT], ==, 2000000);
  g_assert_cmpint (f->phase_ns[JSUI_PHASE_UPDATE], ==, 0);
  g_assert_cmpuint (f->n_dispatches, ==, 2);
  g_assert_cmpstr (f->dispatches[0].source, ==, "gtk4-stall");
  g_assert_cmpstr (f->dispatches[0].callback, ==, "gtk4_stall_cb");
  g_assert_cmpint (f->dispatches[0].duration_ns, ==, 200031000);
  g_assert_cmpint (f->dispatches[0].offset_ns, ==, 16200000);
  /* Frame 144: an unnamed callback (-1). */
  f = frame (snap, 144);
  g_assert_cmpstr (f->dispatches[0].source, ==, "GDK X11 Event source (:99)");
  g_assert_null (f->dispatches[0].callback);
  g_assert_cmpuint (frame (snap, 0)->flags, ==, 4);
  g_assert_cmpuint (frame (snap, 0)->n_dispatches, ==, 1);

  /* Frames by end time. */
  g_assert_true (jsui_snapshot_frames_between (snap, frame (snap, 10)->end_ns,
                                               frame (snap, 20)->end_ns, &first, &last));
  g_assert_cmpuint (first, ==, 10);
  g_assert_cmpuint (last, ==, 20);
  g_assert_true (jsui_snapshot_frames_between (snap, frame (snap, 10)->end_ns + 1,
                                               frame (snap, 20)->end_ns - 1, &first, &last));
  g_assert_cmpuint (first, ==, 11);
  g_assert_cmpuint (last, ==, 19);
  g_assert_false (jsui_snapshot_frames_between (snap, 0, 1000, &first, &last));
  g_assert_false (jsui_snapshot_frames_between (snap, G_MAXINT64 - 1, G_MAXINT64, &first, &last));

  /* Stacks aggregated with the snapshot: events 1 and 2, none for 3. */
  g_assert_nonnull (jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 1), FALSE));
  /* Weighted by attributed time (900 ms), with their samples (10). */
  g_assert_cmpint (
      jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), TRUE)->root->total, ==,
      900 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (
      jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), TRUE)->root->total_samples,
      ==, 10);
  assert_node (
      child (jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), TRUE)->root, 0),
      "read", 7, 0);
  g_assert_null (jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 3), FALSE));
}

/* Untrusted input: bad strings, bad indices, bad numbers. */
static void
break_live (JsonObject *live, gpointer data)
{
  JsonArray *strings = json_object_get_array_member (live, "strings");
  JsonArray *frames = json_object_get_array_member (live, "frames");
  JsonArray *f0 = json_array_get_array_element (frames, 0);
  JsonArray *f1 = json_array_get_array_element (frames, 1);
  JsonArray *d = json_array_new ();
  JsonArray *bad = json_array_new ();
  JsonArray *neg = json_array_new ();

  json_array_add_int_element (strings, 42); /* not a string: reads as null */
  /* frame 0: a source index past the end and the number above */
  json_array_add_int_element (bad, 9999);
  json_array_add_int_element (bad, (gint64) json_array_get_length (strings) - 1);
  json_array_add_int_element (bad, 1000);
  json_array_add_int_element (bad, 5);
  json_array_add_array_element (d, bad);
  /* a negative time: left out */
  json_array_add_int_element (neg, 0);
  json_array_add_int_element (neg, 1);
  json_array_add_int_element (neg, -5);
  json_array_add_int_element (neg, 0);
  json_array_add_array_element (d, neg);
  json_array_add_string_element (d, "junk");
  json_array_remove_element (f0, 6);
  json_array_add_array_element (f0, d);
  /* frame 1: dispatches is not an array, phases are strings */
  json_array_remove_element (f1, 6);
  json_array_remove_element (f1, 5);
  json_array_add_string_element (f1, "phases");
  json_array_add_int_element (f1, 7);
}

static void
test_snapshot_bad_frames (void)
{
  g_autoptr (JsuiSnapshot) snap = load_edited (break_live, NULL);

  g_assert_cmpuint (snap->frames->len, ==, 240);
  g_assert_cmpuint (frame (snap, 0)->n_dispatches, ==, 1);
  g_assert_null (frame (snap, 0)->dispatches[0].source);
  g_assert_null (frame (snap, 0)->dispatches[0].callback);
  g_assert_cmpint (frame (snap, 0)->dispatches[0].duration_ns, ==, 1000000);
  g_assert_cmpuint (frame (snap, 1)->n_dispatches, ==, 0);
  g_assert_cmpint (frame (snap, 1)->phase_ns[JSUI_PHASE_PAINT], ==, 0);
  g_assert_cmpuint (frame (snap, 2)->n_dispatches, ==, 1);
}

/* Two trees are the same: names, modules, counts, children in order. */
static void
assert_same_tree (const JsuiStackNode *a, const JsuiStackNode *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->module, ==, b->module);
  g_assert_cmpint (a->total, ==, b->total);
  g_assert_cmpint (a->self, ==, b->self);
  g_assert_cmpuint (a->children->len, ==, b->children->len);
  for (guint i = 0; i < a->children->len; i++)
    assert_same_tree (child (a, i), child (b, i));
}

/* The frame details merge the events' bottom-up trees instead of inverting
 * the merged top-down one: the same tree, as inverting is linear. Nodes
 * with many children (looked up by a hash set past 16) merge the same. */
static void
test_merge_bottom_up (void)
{
  g_autoptr (JsuiStackTree) t1 = jsui_stack_tree_new ("all");
  g_autoptr (JsuiStackTree) t2 = jsui_stack_tree_new ("all");
  g_autoptr (JsuiStackTree) merged = jsui_stack_tree_new ("all");
  g_autoptr (JsuiStackTree) merged_up = jsui_stack_tree_new ("all");
  g_autoptr (JsuiStackTree) u1 = NULL;
  g_autoptr (JsuiStackTree) u2 = NULL;
  g_autoptr (JsuiStackTree) expected = NULL;

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *leaf = g_strdup_printf ("leaf%u", i % 50);
      g_autofree char *mid = g_strdup_printf ("mid%u", i % 7);
      const char *names[] = { "main", mid, leaf };
      /* the same name in two modules: two nodes */
      const char *modules[] = { "app", i % 3 == 0 ? "liba" : "libb", "libc" };

      jsui_stack_tree_add (i % 2 ? t1 : t2, names, modules, 3, 1 + i % 5);
    }
  jsui_stack_tree_sort (t1);
  jsui_stack_tree_sort (t2);
  u1 = jsui_stack_tree_bottom_up (t1);
  u2 = jsui_stack_tree_bottom_up (t2);
  jsui_stack_tree_merge (merged, t1);
  jsui_stack_tree_merge (merged, t2);
  jsui_stack_tree_sort (merged);
  jsui_stack_tree_merge (merged_up, u1);
  jsui_stack_tree_merge (merged_up, u2);
  jsui_stack_tree_sort (merged_up);
  expected = jsui_stack_tree_bottom_up (merged);
  g_assert_cmpuint (merged_up->root->children->len, ==, 50);
  g_assert_nonnull (merged_up->root->index); /* > 16 children: looked up by hash */
  g_assert_null (t1->root->index);
  assert_same_tree (merged_up->root, expected->root);
  /* main > mid0..6, in two modules each: 14 children, 50 leaves each at most */
  g_assert_cmpuint (child (merged->root, 0)->children->len, ==, 14);
}

/* A hostile snapshot (another process may send it): huge, negative and
 * out-of-range numbers are clamped by the parser, so that what the views
 * compute stays sane (run under -Db_sanitize=undefined: no report). */
static void
make_hostile (JsonObject *root, gpointer data)
{
  JsonObject *live = json_object_get_object_member (root, "live");
  JsonObject *overhead = json_object_get_object_member (live, "overhead");
  JsonArray *frames = json_object_get_array_member (live, "frames");
  JsonArray *sources
      = json_object_get_array_member (json_object_get_object_member (root, "summary"), "sources");
  JsonArray *events = json_object_get_array_member (root, "events");
  JsonObject *ev = json_array_get_object_element (events, 0);
  JsonArray *stacks = json_object_get_array_member (ev, "stacks");
  JsonArray *samples = json_object_get_array_member (ev, "samples");
  JsonArray *f0 = json_array_get_array_element (frames, 0);
  JsonArray *phases = json_array_new ();
  JsonArray *d = json_array_new ();
  JsonArray *dd = json_array_new ();

  json_object_set_double_member (live, "now_ns", 1e300);
  json_object_set_int_member (live, "stuck_ns", G_MAXINT64);
  json_object_set_int_member (overhead, "collector_cpu_ns", G_MAXINT64);
  json_object_set_int_member (overhead, "watchdog_cpu_ns", G_MAXINT64);
  json_object_set_double_member (overhead, "signal_handler_ns", -1e300);
  /* frame 0: the longest time and budget there are, huge phases and
   * dispatches */
  while (json_array_get_length (f0) > 0)
    json_array_remove_element (f0, 0);
  json_array_add_int_element (f0, G_MAXINT64);
  json_array_add_int_element (f0, G_MAXINT64 - 1);
  json_array_add_int_element (f0, G_MAXINT64 / 1000 - 1);
  json_array_add_int_element (f0, 0);
  json_array_add_int_element (f0, 0);
  for (guint p = 0; p < 6; p++)
    json_array_add_int_element (phases, G_MAXINT64 / 1000 - 1);
  json_array_add_array_element (f0, phases);
  json_array_add_int_element (dd, 0);
  json_array_add_int_element (dd, 1);
  json_array_add_int_element (dd, G_MAXINT64 / 1000 - 1);
  json_array_add_int_element (dd, G_MAXINT64 / 1000 - 1);
  json_array_add_array_element (d, dd);
  json_array_add_array_element (d, json_array_ref (dd));
  json_array_add_array_element (f0, d);
  /* one more frame: a double end time out of gint64's range (left out) */
  {
    JsonArray *bad = json_array_new ();

    json_array_add_double_element (bad, 1e300);
    json_array_add_double_element (bad, -1e300);
    json_array_add_double_element (bad, 1e300);
    json_array_add_array_element (frames, bad);
  }
  /* sources and events: the largest numbers */
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *src = json_array_get_object_element (sources, i);

      json_object_set_int_member (src, "count", G_MAXINT64);
      json_object_set_int_member (src, "total_ns", G_MAXINT64);
      json_object_set_int_member (src, "max_ns", G_MAXINT64);
      json_object_set_int_member (src, "p95_ns", G_MAXINT64);
    }
  json_object_set_int_member (ev, "duration_ns", G_MAXINT64);
  json_object_set_int_member (ev, "start_ns", G_MAXINT64 - 10);
  json_object_set_int_member (ev, "end_ns", G_MAXINT64);
  for (guint i = 0; i < json_array_get_length (stacks); i++)
    json_object_set_int_member (json_array_get_object_element (stacks, i), "count", G_MAXINT64);
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *sm = json_array_get_object_element (samples, i);

      json_object_set_int_member (sm, "t_ns", i == 0 ? 0 : G_MAXINT64 - (gint64) i);
      json_object_set_int_member (sm, "count", G_MAXINT64);
    }
}

static void
test_snapshot_hostile (void)
{
  g_autoptr (JsuiSnapshot) snap = load_edited_root (make_hostile, NULL);
  const JsuiFrame *f;
  const JsrReportEvent *ev;
  JsuiStackTree *tree;
  JsTier tier;

  g_assert_cmpint (snap->now_ns, ==, 0); /* 1e300: not a number we can hold */
  g_assert_cmpint (snap->stall_ns, <=, JSUI_MAX_NS);
  g_assert_cmpint (snap->overhead_cpu_ns, >=, 0);
  g_assert_cmpint (snap->overhead_cpu_ns, <=, 3 * JSUI_MAX_NS);
  g_assert_cmpuint (snap->frames->len, >, 0);
  for (guint i = 0; i < snap->frames->len; i++)
    {
      f = frame (snap, i);
      g_assert_cmpint (f->duration_ns, >=, 0);
      g_assert_cmpint (f->duration_ns, <=, JSUI_MAX_NS);
      g_assert_cmpint (f->budget_ns, <=, JSUI_MAX_NS);
      g_assert_cmpint (jsui_frame_start_ns (f), >=, 0);
      for (guint p = 0; p < JSUI_N_PHASES; p++)
        g_assert_cmpint (f->phase_ns[p], <=, JSUI_MAX_NS);
      for (guint x = 0; x < f->n_dispatches; x++)
        {
          g_assert_cmpint (f->dispatches[x].duration_ns, <=, JSUI_MAX_NS);
          g_assert_cmpint (f->dispatches[x].offset_ns, <=, JSUI_MAX_NS);
        }
    }
  g_assert_cmpint (frame (snap, 0)->duration_ns, ==, JSUI_MAX_NS);
  g_assert_false (jsui_frame_is_slow (snap->report, JSUI_MAX_NS, JSUI_MAX_NS, NULL));
  g_assert_true (jsui_frame_is_slow (snap->report, JSUI_MAX_NS, 1, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_HANG);
  for (guint i = 0; i < snap->report->sources->len; i++)
    {
      const JsrReportSource *src = g_ptr_array_index (snap->report->sources, i);

      g_assert_cmpint (src->count, <=, G_MAXINT32);
      g_assert_cmpint (src->total_ns, <=, JSUI_MAX_NS);
    }
  ev = jsui_snapshot_find_event (snap, 1);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->duration_ns, <=, JSUI_MAX_NS);
  tree = jsui_snapshot_get_tree (snap, ev, FALSE);
  g_assert_nonnull (tree);
  /* 3 stacks of G_MAXINT32 at most each: no overflow, no wrap */
  g_assert_cmpint (tree->root->total, >, 0);
  g_assert_cmpint (tree->root->total, <=, 3 * (gint64) G_MAXINT32);
  {
    g_autoptr (GArray) spans = jsui_samples_layout (ev);

    for (guint i = 0; i < spans->len; i++)
      {
        const JsuiSampleSpan *span = &g_array_index (spans, JsuiSampleSpan, i);

        g_assert_true (span->x >= 0 && span->x <= 1);
        g_assert_true (span->width >= 0 && span->x + span->width <= 1 + 1e-9);
      }
  }
  /* saturating sums */
  g_assert_cmpint (jsui_sat_add (G_MAXINT64, 1), ==, G_MAXINT64);
  g_assert_cmpint (jsui_sat_add (G_MININT64, -1), ==, G_MININT64);
  g_assert_cmpint (jsui_sat_add (2, 3), ==, 5);
  {
    g_autofree char *text = jsui_format_duration (G_MAXINT64);

    g_assert_nonnull (text);
  }
}

static void
test_samples_layout (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (GArray) spans = jsui_samples_layout (jsui_snapshot_find_event (snap, 2));
  g_autoptr (GArray) none = jsui_samples_layout (jsui_snapshot_find_event (snap, 3));
  g_autoptr (GArray) folded = jsui_samples_layout (jsui_snapshot_find_event (snap, 1));
  const JsuiSampleSpan *s;

  /* Event 2: 900 ms, a sample every 90 ms from its start. */
  g_assert_cmpuint (spans->len, ==, 10);
  s = &g_array_index (spans, JsuiSampleSpan, 0);
  g_assert_cmpfloat_with_epsilon (s->x, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->width, 0.05, 1e-9); /* to the midpoint */
  g_assert_true (s->waiting);
  g_assert_cmpint (s->stack, ==, 0);
  s = &g_array_index (spans, JsuiSampleSpan, 4);
  g_assert_cmpfloat_with_epsilon (s->x, 0.35, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->width, 0.1, 1e-9);
  s = &g_array_index (spans, JsuiSampleSpan, 9);
  g_assert_cmpfloat_with_epsilon (s->x, 0.85, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->width, 0.1, 1e-9); /* as far out as in */
  g_assert_false (s->waiting);
  g_assert_cmpint (s->stack, ==, 1);
  for (guint i = 1; i < spans->len; i++)
    {
      const JsuiSampleSpan *a = &g_array_index (spans, JsuiSampleSpan, i - 1);
      const JsuiSampleSpan *b = &g_array_index (spans, JsuiSampleSpan, i);

      g_assert_cmpfloat_with_epsilon (a->x + a->width, b->x, 1e-9); /* no gap, no overlap */
    }
  g_assert_cmpint (jsui_samples_hit (spans, 0.36)->stack, ==, 0);
  g_assert_cmpint (jsui_samples_hit (spans, 0.90)->stack, ==, 1);
  g_assert_cmpuint (jsui_samples_hit (spans, 0.90)->sample, ==, 9);
  g_assert_null (jsui_samples_hit (spans, 0.99)); /* after the last sample */

  /* Event 1: a folded sample speaks from its first to its last time. */
  s = &g_array_index (folded, JsuiSampleSpan, 1);
  g_assert_cmpfloat_with_epsilon (s->x * 200031647, (16071281 + 21163793) / 2.0, 2);
  g_assert_cmpfloat_with_epsilon ((s->x + s->width) * 200031647, (41526179 + 61800798) / 2.0, 2);

  g_assert_cmpuint (none->len, ==, 0);
  {
    g_autoptr (GArray) nothing = jsui_samples_layout (NULL);

    g_assert_cmpuint (nothing->len, ==, 0);
  }
}

static void
test_zoom_anchor (void)
{
  /* Frame 100 at 6 px is at 600; the viewport shows 500..: it is 100 px in.
   * At 12 px it is at 1200: the viewport must start at 1100. */
  g_assert_cmpfloat_with_epsilon (jsui_timeline_zoom_anchor (6, 12, 600, 500), 1100, 1e-9);
  g_assert_cmpfloat_with_epsilon (jsui_timeline_zoom_anchor (12, 6, 1200, 1100), 500, 1e-9);
  /* Anchored at the viewport's left edge: it stays the left edge. */
  g_assert_cmpfloat_with_epsilon (jsui_timeline_zoom_anchor (6, 9, 300, 300), 450, 1e-9);
  g_assert_cmpfloat_with_epsilon (jsui_timeline_zoom_anchor (6, 6, 300, 120), 120, 1e-9);
}

#define AXIS_MS G_GINT64_CONSTANT (1000000)

/* The time axis: a round step, marks where those seconds before now fall,
 * never closer than asked, the latest one over an idle gap. */
static void
test_timeline_axis (void)
{
  gint64 ends[300];
  gint64 step = 0, now;
  g_autoptr (GArray) ticks = NULL;
  g_autoptr (GArray) gap_ticks = NULL;

  /* 240 frames of 60 Hz (4 s), 4 px each: 240 px a second, marks ≥ 90 px
   * apart: 0.5 s. */
  for (guint i = 0; i < 240; i++)
    ends[i] = 1000 * AXIS_MS + (gint64) (i + 1) * 16666667;
  now = ends[239];
  ticks = jsui_timeline_axis (ends, 0, 240, now, 4, 90, &step);
  g_assert_cmpint (step, ==, 500 * AXIS_MS);
  g_assert_cmpuint (ticks->len, ==, 7); /* −0.5 s … −3.5 s */
  for (guint t = 0; t < ticks->len; t++)
    {
      const JsuiAxisTick *tick = &g_array_index (ticks, JsuiAxisTick, t);

      g_assert_cmpint (tick->before_ns, ==, (gint64) (7 - t) * 500 * AXIS_MS);
      /* the first frame to end after that moment */
      g_assert_cmpint (now - ends[tick->frame], <, tick->before_ns);
      g_assert_cmpint (now - ends[tick->frame - 1], >=, tick->before_ns);
      if (t > 0)
        g_assert_cmpfloat ((tick->frame - g_array_index (ticks, JsuiAxisTick, t - 1).frame) * 4.0,
                           >=, 90);
    }
  /* Zoomed out (1 px a frame): a coarser step. */
  g_clear_pointer (&ticks, g_array_unref);
  ticks = jsui_timeline_axis (ends, 0, 240, now, 1, 90, &step);
  g_assert_cmpint (step, ==, 2000 * AXIS_MS);
  g_assert_cmpuint (ticks->len, ==, 1);

  /* An idle gap of 20 s between frame 99 and 100: the mark after it is the
   * latest whole step before frame 99's end, not one per step. */
  for (guint i = 100; i < 240; i++)
    ends[i] += 20000 * AXIS_MS;
  now = ends[239];
  gap_ticks = jsui_timeline_axis (ends, 0, 240, now, 4, 90, &step);
  for (guint t = 0; t < gap_ticks->len; t++)
    {
      const JsuiAxisTick *tick = &g_array_index (gap_ticks, JsuiAxisTick, t);

      g_assert_cmpint (now - ends[tick->frame], <, tick->before_ns);
      g_assert_cmpint (now - ends[tick->frame - 1], >=, tick->before_ns);
    }
  g_assert_cmpuint (gap_ticks->len, <=, 8);
  /* Nothing to mark: one frame, or no width. */
  g_clear_pointer (&ticks, g_array_unref);
  ticks = jsui_timeline_axis (ends, 5, 6, now, 4, 90, &step);
  g_assert_cmpuint (ticks->len, ==, 0);
  g_clear_pointer (&ticks, g_array_unref);
  ticks = jsui_timeline_axis (ends, 0, 240, now, 0, 90, &step);
  g_assert_cmpuint (ticks->len, ==, 0);
}

/* ---- widgets (display) ------------------------------------------------ */

/* The panel in a window, shown (the pages apply snapshots only once
 * mapped): the window owns it now; gtk_window_destroy () it. */
static GtkWidget *
show_panel (JsuiPanel *panel, const char *page_name)
{
  GtkWidget *window = gtk_window_new ();
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), page_name);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window) && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_true (gtk_widget_get_mapped (window));
  return window;
}

static void
test_templates (void)
{
  GtkWidget *widgets[] = { jsui_sources_view_new (), jsui_frame_details_new (),
                           jsui_samples_strip_new (), jsui_stacks_view_new () };

  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    g_object_ref_sink (widgets[i]);
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widgets[2])), ==,
                   GTK_ACCESSIBLE_ROLE_IMG);
  g_assert_cmpuint (
      g_list_model_get_n_items (jsui_sources_view_get_rows (JSUI_SOURCES_VIEW (widgets[0]))), ==,
      0);
  g_assert_cmpstr (jsui_frame_details_get_title (JSUI_FRAME_DETAILS (widgets[1])), ==, "");
  g_assert_false (jsui_stacks_view_get_bottom_up (JSUI_STACKS_VIEW (widgets[3])));
  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    g_object_unref (widgets[i]);
}

static JsuiPanel *
new_panel (JsuiSnapshot *snap)
{
  JsuiPanel *panel = g_object_ref_sink (jsui_panel_new ());

  jsui_panel_set_snapshot (panel, snap);
  return panel;
}

static GtkWidget *
page (JsuiPanel *panel, const char *name)
{
  GtkWidget *child = gtk_stack_get_child_by_name (jsui_panel_get_pages (panel), name);

  g_assert_nonnull (child);
  return child;
}

static JsuiTimeRow *
row (GListModel *model, guint i)
{
  JsuiTimeRow *r = g_list_model_get_item (model, i);

  g_assert_nonnull (r);
  g_object_unref (r); /* the model keeps it */
  return r;
}

/* Every source's total reversed: the longest becomes the shortest (1). */
static void
reorder_sources (JsonObject *root, gpointer data)
{
  JsonArray *sources
      = json_object_get_array_member (json_object_get_object_member (root, "summary"), "sources");
  guint n = json_array_get_length (sources);
  g_autofree gint64 *totals = g_new (gint64, n);
  gint64 longest = 0;

  for (guint i = 0; i < n; i++)
    {
      totals[i]
          = json_object_get_int_member (json_array_get_object_element (sources, i), "total_ns");
      longest = MAX (longest, totals[i]);
    }
  for (guint i = 0; i < n; i++)
    json_object_set_int_member (json_array_get_object_element (sources, i), "total_ns",
                                longest - totals[i] + 1);
}

static void
test_sources (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) changed = load_edited_root (reorder_sources, NULL);
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiSourcesView *view = JSUI_SOURCES_VIEW (page (panel, "sources"));
  GListModel *rows = jsui_sources_view_get_rows (view);
  GtkWidget *window = show_panel (panel, "sources");
  guint n = g_list_model_get_n_items (rows);
  g_autoptr (JsuiSource) top = NULL;
  gint64 deadline;

  /* Filled from summary.sources, the longest total first. */
  g_assert_cmpuint (n, ==, 12);
  top = g_list_model_get_item (rows, 0);
  g_assert_cmpstr (jsui_source_get_label (top), ==, "gtk4-stall (gtk4_stall_cb)");
  g_assert_cmpint (jsui_source_get_source (top)->p95_ns, ==, 200031647);

#define ASSERT_SORTED(prop, cmp)                                                                   \
  for (guint i = 1; i < n; i++)                                                                    \
    {                                                                                              \
      g_autoptr (JsuiSource) a = g_list_model_get_item (rows, i - 1);                              \
      g_autoptr (JsuiSource) b = g_list_model_get_item (rows, i);                                  \
      gint64 va, vb;                                                                               \
      g_object_get (a, prop, &va, NULL);                                                           \
      g_object_get (b, prop, &vb, NULL);                                                           \
      g_assert_cmpint (va, cmp, vb);                                                               \
    }
  ASSERT_SORTED ("total-ns", >=);
  g_assert_true (jsui_sources_view_sort_by (view, "count", GTK_SORT_DESCENDING));
  ASSERT_SORTED ("count", >=);
  {
    g_autoptr (JsuiSource) first = g_list_model_get_item (rows, 0);

    g_assert_cmpint (jsui_source_get_source (first)->count, ==, 6);
    g_assert_cmpint (jsui_source_get_mean_ns (first), ==, 2776 / 6);
  }
  g_assert_true (jsui_sources_view_sort_by (view, "mean", GTK_SORT_ASCENDING));
  ASSERT_SORTED ("mean-ns", <=);
  g_assert_true (jsui_sources_view_sort_by (view, "p95", GTK_SORT_DESCENDING));
  ASSERT_SORTED ("p95-ns", >=);
  g_assert_true (jsui_sources_view_sort_by (view, "max", GTK_SORT_ASCENDING));
  ASSERT_SORTED ("max-ns", <=);
  g_assert_true (jsui_sources_view_sort_by (view, "name", GTK_SORT_ASCENDING));
  for (guint i = 1; i < n; i++)
    {
      g_autoptr (JsuiSource) a = g_list_model_get_item (rows, i - 1);
      g_autoptr (JsuiSource) b = g_list_model_get_item (rows, i);

      /* GtkStringSorter ignores case */
      g_autofree char *fa = g_utf8_casefold (jsui_source_get_label (a), -1);
      g_autofree char *fb = g_utf8_casefold (jsui_source_get_label (b), -1);

      g_assert_cmpint (g_utf8_collate (fa, fb), <=, 0);
    }
  g_assert_false (jsui_sources_view_sort_by (view, "colour", GTK_SORT_ASCENDING));

  /* A refresh keeps the order, also when the numbers changed (updated in
   * place, re-sorted within 2 s); no data empties it. */
  g_assert_true (jsui_sources_view_sort_by (view, "total", GTK_SORT_DESCENDING));
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 12);
  ASSERT_SORTED ("total-ns", >=);
  g_clear_object (&top);
  top = g_list_model_get_item (rows, 0);
  jsui_panel_set_snapshot (panel, changed);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 12);
  /* the same row objects, their numbers updated */
  g_assert_cmpint (jsui_source_get_source (top)->total_ns, ==, 1);
  deadline = g_get_monotonic_time () + 4 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (JsuiSource) first = g_list_model_get_item (rows, 0);

      if (first != top)
        break;
      ui_test_wait_ms (20);
    }
  ASSERT_SORTED ("total-ns", >=);
  {
    g_autoptr (JsuiSource) last = g_list_model_get_item (rows, n - 1);

    g_assert_true (last == top); /* the longest total became the shortest */
  }
  jsui_panel_set_snapshot (panel, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
#undef ASSERT_SORTED
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_changes (GListModel *model, guint position, guint removed, guint added, guint *count)
{
  (*count)++;
}

/* The cost of a refresh: while the page is hidden, and for a snapshot
 * whose sources did not change, no row is created and the list does not
 * change (GTK < 4.12 keeps up to 200 rows instantiated, mapped or not:
 * each change rebinds them on the host's main thread). */
static void
test_sources_refresh_cost (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) again = ui_test_load_snapshot (); /* equal, not the same */
  g_autoptr (JsuiPanel) panel = new_panel (NULL);
  JsuiSourcesView *view = JSUI_SOURCES_VIEW (page (panel, "sources"));
  GListModel *rows = jsui_sources_view_get_rows (view);
  GtkWidget *window;
  guint changes = 0;

  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes), &changes);

  /* Hidden (not in a window): kept, not shown. */
  for (guint i = 0; i < 10; i++)
    jsui_panel_set_snapshot (panel, i % 2 ? snap : again);
  g_assert_cmpuint (jsui_sources_view_get_n_created (view), ==, 0);
  g_assert_cmpuint (changes, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  /* Shown on another page: still hidden. */
  window = show_panel (panel, "frames");
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpuint (jsui_sources_view_get_n_created (view), ==, 0);
  g_assert_cmpuint (changes, ==, 0);

  /* Its page shown: the newest snapshot, once. */
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), "sources");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 12);
  g_assert_cmpuint (jsui_sources_view_get_n_created (view), ==, 12);
  changes = 0;

  /* Visible, unchanged snapshots: nothing created, nothing changed. */
  for (guint i = 0; i < 10; i++)
    jsui_panel_set_snapshot (panel, i % 2 ? snap : again);
  g_assert_cmpuint (jsui_sources_view_get_n_created (view), ==, 12);
  g_assert_cmpuint (changes, ==, 0);

  /* Hidden again, then shown: the rows are the same objects. */
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), "frames");
  jsui_panel_set_snapshot (panel, again);
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), "sources");
  g_assert_cmpuint (jsui_sources_view_get_n_created (view), ==, 12);
  g_assert_cmpuint (changes, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The jank list across refreshes: unchanged events keep their rows (no
 * items-changed) and move to the newest snapshot (no older one kept alive);
 * a changed event (an ongoing one grows at every refresh) keeps its row
 * too, updated in place: its cells follow the item's "event" (GtkColumnView
 * would build a replaced row's widgets again, 10-30 ms each in GTK 4.8). */
static void
lengthen_event_2 (JsonObject *root, gpointer data)
{
  JsonArray *events = json_object_get_array_member (root, "events");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);

      if (json_object_get_int_member (ev, "id") == 2)
        json_object_set_int_member (ev, "duration_ns", 1250000000);
    }
}

static void
count_splice (GListModel *model, guint position, guint removed, guint added, guint *out)
{
  out[0]++;
  out[1] += removed;
  out[2] += added;
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* The first label under `widget` showing `text`. */
static GtkWidget *
label_showing (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = label_showing (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_events_refresh (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) again = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) longer = load_edited_root (lengthen_event_2, NULL);
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  GtkWidget *window = show_panel (panel, "jank");
  GListModel *events = jsui_panel_get_events (panel);
  guint n = g_list_model_get_n_items (events);
  guint changes[3] = { 0, 0, 0 };
  guint notified = 0;
  g_autoptr (JsuiEvent) first = NULL;
  g_autoptr (JsuiEvent) second = NULL;
  GtkWidget *cell;

  g_assert_cmpuint (n, >=, 3);
  first = g_list_model_get_item (events, 0);
  second = g_list_model_get_item (events, 1);
  g_assert_cmpint (jsui_event_get_id (second), ==, 2);
  g_signal_connect (events, "items-changed", G_CALLBACK (count_splice), changes);
  g_signal_connect (second, "notify::event", G_CALLBACK (count_notify), &notified);
  jsui_panel_set_snapshot (panel, again);
  g_assert_cmpuint (changes[0], ==, 0);
  g_assert_cmpuint (notified, ==, 0);
  g_assert_true (jsui_event_get_snapshot (first) == again);

  /* event 2 changed: the same row, its cells updated */
  cell = label_showing (GTK_WIDGET (panel), "900 ms");
  g_assert_nonnull (cell);
  jsui_panel_set_snapshot (panel, longer);
  g_assert_cmpuint (changes[0], ==, 0);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell)), ==, "1.25 s");
  g_assert_cmpuint (g_list_model_get_n_items (events), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (JsuiEvent) item = g_list_model_get_item (events, i);

      g_assert_true (jsui_event_get_snapshot (item) == longer);
    }
  g_assert_cmpint (jsui_event_get_event (second)->duration_ns, ==, 1250000000);

  /* events that come and go are spliced in and out */
  jsui_panel_set_snapshot (panel, NULL);
  g_assert_cmpuint (changes[0], ==, 1);
  g_assert_cmpuint (changes[1], ==, n);
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpuint (changes[0], ==, 2);
  g_assert_cmpuint (changes[2], ==, n);
  g_assert_nonnull (label_showing (GTK_WIDGET (panel), "900 ms"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* What assistive technologies are told: the timeline names its selected
 * frames; the tree its direction (read back through GTK's test API). */
static void
test_accessible (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiTimeline *timeline = jsui_panel_get_timeline (panel);
  guint n = jsui_timeline_get_n_frames (timeline);
  g_autofree char *none = g_strdup_printf ("%u recent frames, 3 slow", n);
  g_autofree char *one = g_strdup_printf ("%s; frame 30 selected", none);
  g_autofree char *range = g_strdup_printf ("%s; frames 101 to 111 selected", none);

  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, none);
  jsui_timeline_select_range (timeline, 29, 29);
  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, one);
  jsui_timeline_select_range (timeline, 110, 100);
  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, range);
  /* a refresh keeps the selection, and says so */
  jsui_panel_set_snapshot (panel, snap);
  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, range);
  jsui_timeline_select_range (timeline, -1, -1);
  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, none);

  /* the tree's name follows the direction */
  {
    JsuiStacksView *stacks = jsui_panel_get_stacks_view (panel);
    GtkWidget *tree = NULL;

    for (GtkWidget *w = GTK_WIDGET (stacks); w != NULL && tree == NULL;)
      {
        /* the column view: depth-first (the parts list has one of its own) */
        if (GTK_IS_COLUMN_VIEW (w) && gtk_widget_get_ancestor (w, JSUI_TYPE_PARTS_VIEW) == NULL)
          tree = w;
        else if (gtk_widget_get_first_child (w) != NULL)
          w = gtk_widget_get_first_child (w);
        else
          {
            while (w != GTK_WIDGET (stacks) && gtk_widget_get_next_sibling (w) == NULL)
              w = gtk_widget_get_parent (w);
            w = w == GTK_WIDGET (stacks) ? NULL : gtk_widget_get_next_sibling (w);
          }
      }
    g_assert_nonnull (tree);
    gtk_test_accessible_assert_property (tree, GTK_ACCESSIBLE_PROPERTY_LABEL, "Stacks, top-down");
    jsui_stacks_view_set_bottom_up (stacks, TRUE);
    gtk_test_accessible_assert_property (tree, GTK_ACCESSIBLE_PROPERTY_LABEL, "Stacks, bottom-up");
    jsui_stacks_view_set_bottom_up (stacks, FALSE);
    gtk_test_accessible_assert_property (tree, GTK_ACCESSIBLE_PROPERTY_LABEL, "Stacks, top-down");
  }
}

/* The stacks of several events are merged in a worker: until shown. */
static void
wait_merged (JsuiFrameDetails *details)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (jsui_frame_details_is_merging (details) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  g_assert_false (jsui_frame_details_is_merging (details));
}

static void
test_frame_details (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiTimeline *timeline = jsui_panel_get_timeline (panel);
  JsuiFrameDetails *details = JSUI_FRAME_DETAILS (page (panel, "frames"));
  GListModel *phases = jsui_frame_details_get_phases (details);
  GListModel *dispatches = jsui_frame_details_get_dispatches (details);
  JsuiStacksView *stacks = jsui_frame_details_get_stacks_view (details);
  JsuiTimeRow *r;
  const gint64 *events;
  gint64 tree_total;

  /* Nothing selected yet. */
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 0);

  /* Clicking frame 29 (event 1's stall): its phases, its dispatches, and
   * the stacks of event 1; the jank list selects event 1 too. */
  g_assert_cmpint (
      jsui_timeline_activate_at (timeline, jsui_timeline_x_for_frame (timeline, 29) + 1), ==, 1);
  g_assert_cmpint (jsui_panel_get_selected_event (panel), ==, 1);
  g_assert_true (g_str_has_prefix (jsui_frame_details_get_title (details), "Frame at "));
  g_assert_nonnull (strstr (jsui_frame_details_get_title (details), "216 ms"));
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 3); /* before-paint, layout, paint */
  r = row (phases, 2);
  g_assert_cmpstr (jsui_time_row_get_name (r), ==, "paint");
  g_assert_cmpint (jsui_time_row_get_total_ns (r), ==, 214139000);
  g_assert_cmpuint (g_list_model_get_n_items (dispatches), ==, 2);
  r = row (dispatches, 0);
  g_assert_cmpstr (jsui_time_row_get_name (r), ==, "gtk4-stall");
  g_assert_cmpstr (jsui_time_row_get_detail (r), ==, "gtk4_stall_cb");
  g_assert_cmpint (jsui_time_row_get_total_ns (r), ==, 200031000);
  g_assert_cmpint (jsui_time_row_get_offset_ns (r), ==, 16200000);
  events = jsui_frame_details_get_events (details);
  g_assert_cmpint (events[0], ==, 1);
  g_assert_cmpint (events[1], ==, 0);
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "stacks");
  g_assert_cmpuint (jsui_samples_strip_get_spans (jsui_stacks_view_get_samples_strip (stacks))->len,
                    ==, 6);

  /* A frame on time: its phases and its paint, no stacks. */
  jsui_timeline_select_range (timeline, 3, 3);
  g_assert_cmpuint (g_list_model_get_n_items (dispatches), ==, 1);
  g_assert_cmpstr (jsui_time_row_get_name (row (dispatches, 0)), ==,
                   "[gtk] gdk_frame_clock_paint_idle");
  g_assert_cmpint (jsui_frame_details_get_events (details)[0], ==, 0);
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "empty");

  /* A range over event 2's frozen frame: dispatches summed per source; the
   * page shows itself. */
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), "jank");
  jsui_timeline_select_range (timeline, 110, 100); /* either order */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (jsui_panel_get_pages (panel)), ==, "frames");
  g_assert_nonnull (strstr (jsui_frame_details_get_title (details), "11 frames"));
  r = row (dispatches, 0);
  g_assert_cmpstr (jsui_time_row_get_name (r), ==, "load-history");
  g_assert_cmpuint (jsui_time_row_get_count (r), ==, 1);
  g_assert_cmpint (jsui_time_row_get_offset_ns (r), <, 0); /* no "starts at" over a range */
  r = row (dispatches, 1);
  g_assert_cmpuint (jsui_time_row_get_count (r), ==, 11);
  g_assert_cmpint (jsui_time_row_get_total_ns (r), ==, 10 * 5100000 + 2100000);
  g_assert_cmpint (jsui_time_row_get_max_ns (r), ==, 5100000);
  r = row (phases, 2);
  g_assert_cmpuint (jsui_time_row_get_count (r), ==, 11);
  g_assert_cmpint (jsui_time_row_get_max_ns (r), ==, 897674000);

  /* Over three events: the stacks of the two sampled ones, merged. */
  jsui_timeline_select_range (timeline, 25, 150);
  g_assert_true (jsui_frame_details_is_merging (details)); /* off the main thread */
  wait_merged (details);
  events = jsui_frame_details_get_events (details);
  g_assert_cmpint (events[0], ==, 1);
  g_assert_cmpint (events[1], ==, 2);
  g_assert_cmpint (events[2], ==, 3);
  g_assert_cmpint (events[3], ==, 0);
  tree_total
      = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 1), FALSE)->root->total
        + jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), FALSE)->root->total;
  {
    g_autoptr (GtkTreeListRow) root_row
        = g_list_model_get_item (jsui_stacks_view_get_rows (stacks), 0);
    g_autoptr (JsuiStackItem) root = gtk_tree_list_row_get_item (root_row);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, tree_total);
  }
  g_assert_true (g_str_has_prefix (jsui_frame_details_get_title (details), "126 frames"));

  /* A newer selection cancels a merge under way: its result never shows. */
  jsui_timeline_select_range (timeline, 25, 150);
  jsui_timeline_select_range (timeline, 3, 3);
  g_assert_false (jsui_frame_details_is_merging (details));
  ui_test_wait_ms (100);
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "empty");

  /* Cleared. */
  jsui_timeline_select_range (timeline, -1, -1);
  g_assert_cmpuint (g_list_model_get_n_items (phases), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (dispatches), ==, 0);
}

/* The first row under the root of the stacks tree (the model keeps it). */
static JsuiStackItem *
root_first_child (JsuiStacksView *stacks)
{
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (jsui_stacks_view_get_rows (stacks), 1);
  JsuiStackItem *item;

  g_assert_nonnull (row);
  item = gtk_tree_list_row_get_item (row);
  g_object_unref (item);
  return item;
}

/* An event's frames need not be contiguous: frames of events 1, 2, 1 count
 * event 1 once (its samples too). */
static void
test_frame_details_events (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiPanel) panel = NULL;
  JsuiTimeline *timeline;
  JsuiFrameDetails *details;
  JsuiStacksView *stacks;
  const gint64 *events;
  JsuiStackTree *t1 = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 1), FALSE);
  JsuiStackTree *t2 = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), FALSE);

  g_assert_nonnull (t1);
  g_assert_nonnull (t2);
  for (guint i = 40; i < 46; i++)
    g_array_index (snap->frames, JsuiFrame, i).event_id = 0;
  g_array_index (snap->frames, JsuiFrame, 40).event_id = 1;
  g_array_index (snap->frames, JsuiFrame, 42).event_id = 2;
  g_array_index (snap->frames, JsuiFrame, 44).event_id = 1;
  g_array_index (snap->frames, JsuiFrame, 45).event_id = 2;
  panel = new_panel (snap);
  timeline = jsui_panel_get_timeline (panel);
  details = JSUI_FRAME_DETAILS (page (panel, "frames"));
  stacks = jsui_frame_details_get_stacks_view (details);

  jsui_timeline_select_range (timeline, 40, 45);
  wait_merged (details);
  events = jsui_frame_details_get_events (details);
  g_assert_cmpint (events[0], ==, 1);
  g_assert_cmpint (events[1], ==, 2);
  g_assert_cmpint (events[2], ==, 0);
  {
    g_autoptr (GtkTreeListRow) root_row
        = g_list_model_get_item (jsui_stacks_view_get_rows (stacks), 0);
    g_autoptr (JsuiStackItem) root = gtk_tree_list_row_get_item (root_row);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, t1->root->total + t2->root->total);
  }
  /* Bottom-up: the merge of the events' bottom-up trees, the same samples. */
  jsui_stacks_view_set_bottom_up (stacks, TRUE);
  {
    g_autoptr (GtkTreeListRow) root_row
        = g_list_model_get_item (jsui_stacks_view_get_rows (stacks), 0);
    g_autoptr (JsuiStackItem) root = gtk_tree_list_row_get_item (root_row);
    JsuiStackTree *u1 = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 1), TRUE);
    JsuiStackTree *u2 = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), TRUE);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, u1->root->total + u2->root->total);
    g_clear_object (&root);
    g_clear_object (&root_row);
    /* the same range selected with bottom-up on: the events' bottom-up
     * trees merged, the same rows as inverting the merge */
    g_assert_cmpuint (jsui_stack_item_get_node (root_first_child (stacks))->total, >, 0);
    {
      const JsuiStackNode *inverted = jsui_stack_item_get_node (root_first_child (stacks));
      g_autofree char *name = g_strdup (inverted->name);
      gint64 total = inverted->total;

      jsui_timeline_select_range (timeline, -1, -1);
      jsui_timeline_select_range (timeline, 40, 45);
      wait_merged (details);
      inverted = jsui_stack_item_get_node (root_first_child (stacks));
      g_assert_cmpstr (inverted->name, ==, name);
      g_assert_cmpint (inverted->total, ==, total);
    }
  }
  jsui_stacks_view_set_bottom_up (stacks, FALSE);
}

/* Frame 3's source dispatched twice, the second time earlier in the frame
 * (dispatches are listed longest first). */
static void
dispatch_twice (JsonObject *live, gpointer data)
{
  JsonArray *f3 = json_array_get_array_element (json_object_get_array_member (live, "frames"), 3);
  JsonArray *d = json_array_get_array_element (f3, 6);
  JsonArray *again = json_array_new ();

  json_array_add_int_element (again, 0);
  json_array_add_int_element (again, 1);
  json_array_add_int_element (again, 100);
  json_array_add_int_element (again, 2000);
  json_array_add_array_element (d, again);
}

/* One frame: a source's "starts at" is its first dispatch in the frame. */
static void
test_frame_details_starts_at (void)
{
  g_autoptr (JsuiSnapshot) snap = load_edited (dispatch_twice, NULL);
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiFrameDetails *details = JSUI_FRAME_DETAILS (page (panel, "frames"));
  GListModel *dispatches = jsui_frame_details_get_dispatches (details);
  JsuiTimeRow *r;

  jsui_timeline_select_range (jsui_panel_get_timeline (panel), 3, 3);
  g_assert_cmpuint (g_list_model_get_n_items (dispatches), ==, 1);
  r = row (dispatches, 0);
  g_assert_cmpuint (jsui_time_row_get_count (r), ==, 2);
  g_assert_cmpint (jsui_time_row_get_total_ns (r), ==, 5200000);
  g_assert_cmpint (jsui_time_row_get_offset_ns (r), ==, 2000000);
}

static void
count_selected (JsuiTimeline *timeline, int first, int last, int *out)
{
  out[0] = first;
  out[1] = last;
  out[2]++;
}

static void
drop_frames (JsonObject *live, gpointer data)
{
  JsonArray *frames = json_object_get_array_member (live, "frames");

  for (guint i = 0; i < GPOINTER_TO_UINT (data); i++)
    json_array_remove_element (frames, 0);
}

static void
test_timeline_geometry (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) later = load_edited (drop_frames, GUINT_TO_POINTER (10));
  g_autoptr (JsuiSnapshot) much_later = load_edited (drop_frames, GUINT_TO_POINTER (200));
  JsuiTimeline *timeline = g_object_ref_sink (JSUI_TIMELINE (jsui_timeline_new ()));
  int got[3] = { 0, 0, 0 };
  guint first, last;
  int min_w, nat_w;

  jsui_timeline_set_snapshot (timeline, snap);
  g_signal_connect (timeline, "frames-selected", G_CALLBACK (count_selected), got);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, JSUI_TIMELINE_STEP);
  gtk_widget_measure (GTK_WIDGET (timeline), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL,
                      NULL);
  g_assert_cmpint (min_w, ==, 240 * JSUI_TIMELINE_STEP);

  /* x <-> frames at any zoom: frame i spans [i * zoom, (i + 1) * zoom). */
  jsui_timeline_set_zoom (timeline, 12);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, 12);
  gtk_widget_measure (GTK_WIDGET (timeline), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL,
                      NULL);
  g_assert_cmpint (min_w, ==, 240 * 12);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, 29 * 12), ==, 29);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, 30 * 12 - 0.01), ==, 29);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, 240 * 12), ==, -1);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, -1), ==, -1);
  g_assert_cmpfloat (jsui_timeline_x_for_frame (timeline, 29), ==, 29 * 12);
  jsui_timeline_zoom_in (timeline);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, 18);
  jsui_timeline_zoom_out (timeline);
  jsui_timeline_zoom_out (timeline);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, 8);
  jsui_timeline_set_zoom (timeline, 1000);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, JSUI_TIMELINE_MAX_ZOOM);
  jsui_timeline_set_zoom (timeline, 0);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, JSUI_TIMELINE_MIN_ZOOM);
  jsui_timeline_set_zoom (timeline, 4);

  /* A drag from x0 to x1 selects the frames under it, in either direction,
   * clamped at the ends. */
  jsui_timeline_select_between (timeline, 41, 10);
  g_assert_cmpint (got[0], ==, 2);
  g_assert_cmpint (got[1], ==, 10);
  g_assert_cmpint (got[2], ==, 1);
  g_assert_true (jsui_timeline_get_selection (timeline, &first, &last));
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (last, ==, 10);
  jsui_timeline_select_between (timeline, 950, 5000);
  g_assert_cmpint (got[0], ==, 237);
  g_assert_cmpint (got[1], ==, 239);

  /* New frames push old ones out: the selection follows its frames. */
  jsui_timeline_select_range (timeline, 100, 105);
  jsui_timeline_set_snapshot (timeline, later);
  g_assert_true (jsui_timeline_get_selection (timeline, &first, &last));
  g_assert_cmpuint (first, ==, 90);
  g_assert_cmpuint (last, ==, 95);
  /* ... and is gone with them. */
  jsui_timeline_set_snapshot (timeline, much_later);
  g_assert_false (jsui_timeline_get_selection (timeline, &first, &last));

  /* The keys' actions: move, extend from where the selection started. */
  jsui_timeline_set_snapshot (timeline, snap);
  jsui_timeline_select_range (timeline, 50, 50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.next", NULL));
  g_assert_true (jsui_timeline_get_selection (timeline, &first, &last));
  g_assert_cmpuint (first, ==, 51);
  g_assert_cmpuint (last, ==, 51);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.extend-previous", NULL);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.extend-previous", NULL);
  jsui_timeline_get_selection (timeline, &first, &last);
  g_assert_cmpuint (first, ==, 49);
  g_assert_cmpuint (last, ==, 51);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.extend-next", NULL);
  jsui_timeline_get_selection (timeline, &first, &last);
  g_assert_cmpuint (first, ==, 50);
  g_assert_cmpuint (last, ==, 51);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.extend-last", NULL);
  jsui_timeline_get_selection (timeline, &first, &last);
  g_assert_cmpuint (first, ==, 51);
  g_assert_cmpuint (last, ==, 239);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.first", NULL);
  jsui_timeline_get_selection (timeline, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (last, ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.previous", NULL); /* stays */
  jsui_timeline_get_selection (timeline, &first, &last);
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpint (got[0], ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, 6);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-out", NULL);
  g_assert_cmpfloat (jsui_timeline_get_zoom (timeline), ==, 4);

  /* Clicking a frame on time selects it, no event. */
  jsui_timeline_set_snapshot (timeline, snap);
  g_assert_cmpint (jsui_timeline_activate_at (timeline, 4 * 4 + 1), ==, 0);
  g_assert_cmpint (got[0], ==, 4);
  g_assert_cmpint (got[1], ==, 4);
  jsui_timeline_select_range (timeline, -1, -1);
  g_assert_false (jsui_timeline_get_selection (timeline, &first, &last));
  g_assert_cmpint (got[0], ==, -1);
  g_object_unref (timeline);
}

/* Event 2 with a third stack: stack 1's path, its leaf parse_history in
 * another module, sampled more often (so it sorts first). */
static void
add_same_name_stack (JsonObject *root, gpointer data)
{
  JsonArray *events = json_object_get_array_member (root, "events");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      JsonArray *stacks;
      g_autofree char *text = NULL;
      JsonNode *copy;
      JsonObject *stack;

      if (json_object_get_int_member (ev, "id") != 2)
        continue;
      stacks = json_object_get_array_member (ev, "stacks");
      /* a deep copy (json_node_copy shares the object) */
      text = json_to_string (json_array_get_element (stacks, 1), FALSE);
      copy = json_from_string (text, NULL);
      stack = json_node_get_object (copy);
      json_object_set_int_member (stack, "count", 5);
      json_object_set_string_member (
          json_array_get_object_element (json_object_get_array_member (stack, "frames"), 0),
          "module", "other-lib");
      json_array_add_element (stacks, copy);
    }
}

/* The tree keys on (name, module): selecting a stack follows both. */
static void
test_stacks_select_module (void)
{
  g_autoptr (JsuiSnapshot) snap = load_edited_root (add_same_name_stack, NULL);
  GtkWidget *view = g_object_ref_sink (jsui_stacks_view_new ());
  JsuiStacksView *stacks = JSUI_STACKS_VIEW (view);
  GListModel *rows = jsui_stacks_view_get_rows (stacks);
  g_autoptr (JsuiStackItem) selected = NULL;
  const JsuiStackNode *node;

  jsui_stacks_view_set_event (stacks, snap, jsui_snapshot_find_event (snap, 2));
  g_assert_true (jsui_stacks_view_select_stack (stacks, 1));
  selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
  node = jsui_stack_item_get_node (selected);
  assert_node (node, "parse_history", 3, 3);
  g_assert_cmpstr (node->module, ==, "chat-app");
  g_clear_object (&selected);
  g_assert_true (jsui_stacks_view_select_stack (stacks, 2));
  selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
  g_assert_cmpstr (jsui_stack_item_get_node (selected)->module, ==, "other-lib");
  g_clear_object (&selected);
  g_object_unref (view);
}

static void
test_stacks_bottom_up (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiStacksView *stacks = jsui_panel_get_stacks_view (panel);
  GListModel *rows = jsui_stacks_view_get_rows (stacks);
  g_autoptr (JsuiStackItem) root = NULL;
  g_autoptr (JsuiStackItem) first = NULL;
  g_autoptr (JsuiStackItem) selected = NULL;

  g_assert_true (jsui_panel_select_event (panel, 2));
  jsui_stacks_view_set_bottom_up (stacks, TRUE);
  g_assert_true (jsui_stacks_view_get_bottom_up (stacks));
  root = ui_test_row_item (rows, 0);
  g_assert_cmpint (jsui_stack_item_get_node (root)->total_samples, ==, 10);
  /* The frames samples ended in, with counts and shares; then callers. */
  first = ui_test_row_item (rows, 1);
  assert_node (jsui_stack_item_get_node (first), "read", 7, 0);
  /* shares of the time: 600 and 300 of 900 ms */
  g_assert_cmpfloat_with_epsilon (jsui_stack_item_get_fraction (first), 600.0 / 900.0, 1e-9);
  {
    g_autoptr (JsuiStackItem) second = ui_test_row_item (rows, 2);

    /* the root splits at once: the other frame samples ended in */
    assert_node (jsui_stack_item_get_node (second), "parse_history", 3, 0);
    g_assert_cmpfloat_with_epsilon (jsui_stack_item_get_fraction (second), 300.0 / 900.0, 1e-9);
  }

  /* Clicking a sample of stack 1 (parse_history) selects its row: its
   * path ends at the dispatched callback (the loop's frames and jankscope's
   * own above it are left out by default), or with whole stacks at _start. */
  g_assert_true (jsui_stacks_view_select_stack (stacks, 1));
  selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
  g_assert_cmpstr (jsui_stack_item_get_node (selected)->name, ==, "load_history_cb");
  g_assert_false (jsui_stacks_view_get_whole_stacks (stacks));
  jsui_stacks_view_set_whole_stacks (stacks, TRUE);
  g_assert_true (jsui_stacks_view_select_stack (stacks, 1));
  g_clear_object (&selected);
  selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
  g_assert_cmpstr (jsui_stack_item_get_node (selected)->name, ==, "_start");
  jsui_stacks_view_set_whole_stacks (stacks, FALSE);
  g_assert_false (jsui_stacks_view_select_stack (stacks, 7));

  /* Back to top-down: the same path ends at the leaf. */
  jsui_stacks_view_set_bottom_up (stacks, FALSE);
  g_clear_object (&root);
  root = ui_test_row_item (rows, 0);
  g_assert_cmpint (jsui_stack_item_get_node (root)->total_samples, ==, 10);
  g_assert_true (jsui_stacks_view_select_stack (stacks, 1));
  g_clear_object (&selected);
  selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
  assert_node (jsui_stack_item_get_node (selected), "parse_history", 3, 3);

  /* The choice stays for the next event. */
  jsui_stacks_view_set_bottom_up (stacks, TRUE);
  g_assert_true (jsui_panel_select_event (panel, 1));
  g_assert_true (jsui_stacks_view_get_bottom_up (stacks));
  g_clear_object (&first);
  first = ui_test_row_item (rows, 1);
  g_assert_cmpstr (jsui_stack_item_get_node (first)->name, ==, "__vdso_clock_gettime");
}

static void
stack_activated (JsuiSamplesStrip *strip, int stack, int *out)
{
  *out = stack;
}

/* The strip in a window: a click at x picks the stack of the sample there. */
static void
test_samples_strip (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  GtkWidget *window = gtk_window_new ();
  JsuiSamplesStrip *strip = JSUI_SAMPLES_STRIP (jsui_samples_strip_new ());
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  int picked = -2, width;
  g_autofree char *tip = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 400, 40);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (strip));
  g_signal_connect (strip, "stack-activated", G_CALLBACK (stack_activated), &picked);
  jsui_samples_strip_set_event (strip, snap, jsui_snapshot_find_event (snap, 2));
  gtk_window_present (GTK_WINDOW (window));
  while (gtk_widget_get_width (GTK_WIDGET (strip)) == 0 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  width = gtk_widget_get_width (GTK_WIDGET (strip));
  g_assert_cmpint (width, >, 0);
  g_test_message ("strip %d px, %u spans", width, jsui_samples_strip_get_spans (strip)->len);

  g_assert_cmpint (jsui_samples_strip_activate_at (strip, width * 0.2), ==, 0);
  g_assert_cmpint (picked, ==, 0);
  g_assert_cmpint (jsui_samples_strip_activate_at (strip, width * 0.8), ==, 1);
  g_assert_cmpint (picked, ==, 1);
  g_assert_cmpint (jsui_samples_strip_activate_at (strip, width * 0.99), ==, -1);
  tip = jsui_samples_strip_describe_at (strip, width * 0.2);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "waiting (I/O) in read"));

  jsui_samples_strip_set_event (strip, NULL, NULL);
  g_assert_cmpuint (jsui_samples_strip_get_spans (strip)->len, ==, 0);
  g_assert_cmpint (jsui_samples_strip_activate_at (strip, width * 0.2), ==, -1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* In the panel's scrolled window: zooming keeps the selected frame where
 * it is in the viewport; moving the selection scrolls it into view. */
static void
test_timeline_zoom_scroll (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  GtkWidget *window = gtk_window_new ();
  JsuiPanel *panel = jsui_panel_new ();
  JsuiTimeline *timeline = jsui_panel_get_timeline (panel);
  GtkAdjustment *adj;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  double before, after, page;

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  jsui_panel_set_snapshot (panel, snap);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window) && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  ui_test_wait_ms (200);
  adj = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (
      gtk_widget_get_ancestor (GTK_WIDGET (timeline), GTK_TYPE_SCROLLED_WINDOW)));
  page = gtk_adjustment_get_page_size (adj);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, page); /* 240 × 6 px: it scrolls */

  /* Frame 40 is out of view (the newest frames are): selecting it with the
   * keys' action scrolls to it. */
  jsui_timeline_select_range (timeline, 41, 41);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.previous", NULL);
  ui_test_wait_ms (100);
  before = jsui_timeline_x_for_frame (timeline, 40) - gtk_adjustment_get_value (adj);
  g_assert_cmpfloat (before, >=, 0);
  g_assert_cmpfloat (before, <, page);
  /* Scrolled so that it is 100 px in. */
  gtk_adjustment_set_value (adj, jsui_timeline_x_for_frame (timeline, 40) - 100);
  ui_test_wait_ms (100);
  before = jsui_timeline_x_for_frame (timeline, 40) - gtk_adjustment_get_value (adj);
  g_assert_cmpfloat_with_epsilon (before, 100, 0.5);

  /* Zoomed in around it: it stays at the same place of the viewport. */
  jsui_timeline_set_zoom (timeline, 12);
  ui_test_wait_ms (200);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, 240 * 12);
  after = jsui_timeline_x_for_frame (timeline, 40) - gtk_adjustment_get_value (adj);
  g_test_message ("frame 40 at %g px in the viewport, then %g", before, after);
  g_assert_cmpfloat_with_epsilon (after, before, 1.0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Frames page over a range with the frozen frame, saved as a PNG for
 * people to look at (JSUI_TEST_SCREENSHOT_DIR; skipped without it). */
static void
test_screenshot_frames (void)
{
  const char *dir = g_getenv ("JSUI_TEST_SCREENSHOT_DIR");
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autofree char *path = NULL;
  GtkWidget *window;
  JsuiPanel *panel;
  g_autoptr (UiTestPicture) picture = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  if (dir == NULL)
    {
      g_test_skip ("JSUI_TEST_SCREENSHOT_DIR is not set");
      return;
    }
  path = g_build_filename (dir, "inspector-frames.png", NULL);
  window = gtk_window_new ();
  panel = jsui_panel_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  jsui_panel_set_snapshot (panel, snap);
  gtk_stack_set_visible_child_name (jsui_panel_get_pages (panel), "frames");
  jsui_timeline_set_zoom (jsui_panel_get_timeline (panel), 9);
  jsui_timeline_select_range (jsui_panel_get_timeline (panel), 100, 110);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window) && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  ui_test_wait_ms (300);
  picture = ui_test_picture_take (window);
  g_assert_true (gdk_texture_save_to_png (picture->texture, path));
  g_test_message ("screenshot: %s (%d x %d)", path, picture->width, picture->height);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The widgets' tests are registered without a display too (TAP shows them
 * skipped, not absent); under xvfb-run the test's environment sets
 * JSUI_TEST_REQUIRE_DISPLAY=1: no display is a failure then. */
static gboolean have_display;

typedef struct
{
  GTestFunc func;
} WidgetTest;

static void
run_widget_test (gconstpointer data)
{
  const WidgetTest *t = data;

  if (!have_display)
    {
      if (g_strcmp0 (g_getenv ("JSUI_TEST_REQUIRE_DISPLAY"), "1") == 0)
        g_test_fail_printf ("no display (JSUI_TEST_REQUIRE_DISPLAY=1)");
      else
        g_test_skip ("no display");
      return;
    }
  t->func ();
}

/* ---- profiles and parts (docs/report-format.md, "Profiles", "Causes per
 * part"): tests/ui/make-profile-snapshot.py ---------------------------------- */

#define MS G_GINT64_CONSTANT (1000000)

static JsuiSnapshot *
load_profile_snapshot (void)
{
  const char *path = g_getenv ("JSUI_TEST_PROFILE_SNAPSHOT");
  g_autofree char *data = NULL;
  gsize length;

  g_assert_nonnull (path);
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  return ui_test_parse (data, length);
}

/* Nodes with weight of their own: the stacks samples ended in. */
static guint
count_leaves (const JsuiStackNode *node)
{
  guint n = node->self > 0;

  for (guint i = 0; i < node->children->len; i++)
    n += count_leaves (g_ptr_array_index (node->children, i));
  return n;
}

static const JsuiStackNode *
find_node (const JsuiStackNode *node, const char *name)
{
  if (g_strcmp0 (node->name, name) == 0)
    return node;
  for (guint i = 0; i < node->children->len; i++)
    {
      const JsuiStackNode *found = find_node (g_ptr_array_index (node->children, i), name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The trees come from the profile: every stack (not only the 16 listed),
 * weighted by time, the root the event's attributed time. */
static void
test_profile_tree (void)
{
  g_autoptr (JsuiSnapshot) snap = load_profile_snapshot ();
  const JsrReportEvent *ev = jsui_snapshot_find_event (snap, 1);
  JsuiStackTree *tree = jsui_snapshot_get_tree (snap, ev, FALSE);
  g_autoptr (JsuiStackTree) part1 = NULL;
  g_autoptr (JsuiStackTree) part2 = NULL;
  const JsuiStackNode *leaf;

  g_assert_cmpuint (ev->detail->stacks->len, ==, 16);
  g_assert_nonnull (tree);
  g_assert_cmpint (tree->root->total, ==, 360 * MS);
  g_assert_cmpint (tree->root->total, ==, ev->detail->attributed_ns);
  g_assert_cmpint (tree->root->total_samples, ==, 36 + 12);
  g_assert_cmpuint (count_leaves (tree->root), ==, 25);
  /* leaf_23: the report lists the sleep and leaf_00 to leaf_14 (ties of
   * time in the profile's order), not it. */
  leaf = find_node (tree->root, "leaf_23");
  g_assert_nonnull (leaf);
  assert_node (leaf, "leaf_23", 2, 2);
  g_assert_cmpint (leaf->total, ==, 10 * MS);
  for (guint i = 0; i < ev->detail->stacks->len; i++)
    g_assert_cmpstr (
        ((JsrReportFrame *) g_ptr_array_index (
             ((JsrReportStack *) g_ptr_array_index (ev->detail->stacks, i))->frames, 0))
            ->function,
        !=, "leaf_23");

  /* Each part its own share. */
  part1 = jsui_stack_tree_from_part (ev, 0, TRUE);
  part2 = jsui_stack_tree_from_part (ev, 1, TRUE);
  g_assert_cmpint (part1->root->total, ==, 240 * MS);
  g_assert_null (find_node (part1->root, "sleepy_cb"));
  g_assert_cmpint (part2->root->total, ==, 120 * MS);
  g_assert_nonnull (find_node (part2->root, "clock_nanosleep"));
  g_assert_null (find_node (part2->root, "work_cb"));
  g_assert_null (jsui_stack_tree_from_part (ev, 2, TRUE));

  /* By default the stacks start at the dispatched callback (this older
   * profile has no dispatch_nodes: below g_main_context_dispatch by name);
   * whole, at main. */
  for (guint i = 0; i < tree->root->children->len; i++)
    {
      const JsuiStackNode *top = g_ptr_array_index (tree->root->children, i);

      g_assert_true (g_str_equal (top->name, "work_cb") || g_str_equal (top->name, "sleepy_cb"));
    }
  g_assert_null (find_node (tree->root, "g_main_context_dispatch"));
  {
    g_autoptr (JsuiStackTree) whole = jsui_stack_tree_from_event (ev, TRUE);

    g_assert_cmpuint (whole->root->children->len, ==, 1);
    g_assert_cmpstr (((JsuiStackNode *) g_ptr_array_index (whole->root->children, 0))->name, ==,
                     "main");
    g_assert_cmpint (whole->root->total, ==, tree->root->total);
  }

  /* A full profile: the deeper calling contexts in [other]. */
  tree = jsui_snapshot_get_tree (snap, jsui_snapshot_find_event (snap, 2), FALSE);
  g_assert_cmpint (tree->root->total, ==, 40 * MS);
  g_assert_nonnull (find_node (tree->root, "[other]"));
}

static GtkWidget *
find_label_text (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_text (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* An episode of two causes: the parts list beside its stacks, each part
 * with its class, diagnosis (the fix in its tooltip), culprit (the
 * callback before a library's) and time;
 * selecting one shows its own stacks. */
static void
test_parts (void)
{
  g_autoptr (JsuiSnapshot) snap = load_profile_snapshot ();
  g_autoptr (JsuiPanel) panel = new_panel (snap);
  JsuiStacksView *stacks = jsui_panel_get_stacks_view (panel);
  JsuiPartsView *parts = jsui_stacks_view_get_parts_view (stacks);
  GListModel *rows = jsui_stacks_view_get_rows (stacks);
  GtkWidget *window = gtk_window_new ();
  const char *expected[2][8] = {
    { "1", "+0.000 s", "300 ms", "work_cb", "compute", "Slow callback", "work_cb", "240 ms" },
    { "2", "+0.800 s", "120 ms", "sleepy_cb", "wait / sleep", "Sleeping on the main thread",
      "sleepy_cb → g_usleep", "120 ms" },
  };

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_wait_ms (100);

  /* The jank list: the library's culprit after the dispatched callback. */
  g_assert_nonnull (
      find_label_text (GTK_WIDGET (panel), "first_validate_callback → gtk_text_layout_validate"));

  g_assert_true (jsui_panel_select_event (panel, 1));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (parts)));
  g_assert_cmpuint (g_list_model_get_n_items (jsui_parts_view_get_parts (parts)), ==, 2);
  for (guint r = 0; r < 2; r++)
    for (guint c = 0; c < 8; c++)
      {
        g_autofree char *text = jsui_parts_view_cell_text (parts, r, c);

        g_assert_cmpstr (text, ==, expected[r][c]);
      }
  g_assert_null (jsui_parts_view_cell_text (parts, 2, 0));
  ui_test_wait_ms (50);
  g_assert_nonnull (find_label_text (GTK_WIDGET (parts), "sleepy_cb → g_usleep"));
  /* The diagnoses: the table's titles (not the report's ids), the fix in a
   * tooltip, in the jank list and the parts list. */
  {
    GtkWidget *row = find_label_text (GTK_WIDGET (panel), "Slow callback");
    GtkWidget *part = find_label_text (GTK_WIDGET (parts), "Sleeping on the main thread");
    const char *fix;

    g_assert_nonnull (row);
    g_assert_nonnull (part);
    fix = gtk_widget_get_tooltip_text (part);
    g_assert_nonnull (fix);
    g_assert_true (g_str_has_prefix (fix, "Sleeping on the main thread. Fix: "));
    g_assert_nonnull (strstr (fix, "g_timeout_add"));
    fix = gtk_widget_get_tooltip_text (row);
    g_assert_nonnull (fix);
    g_assert_nonnull (strstr (fix, "GTask"));
  }
  {
    g_autoptr (JsuiStackItem) root = ui_test_row_item (rows, 0);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, 360 * MS);
  }
  g_assert_nonnull (find_label_text (GTK_WIDGET (stacks), "Event 1: 360 ms in 25 stacks"));

  /* A part: its own stacks. */
  jsui_parts_view_select (parts, 1);
  {
    g_autoptr (JsuiStackItem) root = ui_test_row_item (rows, 0);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, 120 * MS);
  }
  g_assert_nonnull (
      find_label_text (GTK_WIDGET (stacks), "Event 1, part 2 (sleepy_cb): 120 ms in 1 stack"));
  /* A refresh keeps it. */
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpint (jsui_parts_view_get_selected (parts), ==, 1);
  /* None selected: the whole event again. */
  jsui_parts_view_select (parts, -1);
  {
    g_autoptr (JsuiStackItem) root = ui_test_row_item (rows, 0);

    g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, 360 * MS);
  }

  /* A sample of a stack the report does not list selects its row. */
  {
    const JsrReportEvent *ev = jsui_snapshot_find_event (snap, 1);
    GArray *spans = jsui_samples_strip_get_spans (jsui_stacks_view_get_samples_strip (stacks));
    int node = -1;
    g_autoptr (JsuiStackItem) selected = NULL;

    for (guint i = 0; i < spans->len; i++)
      {
        const JsuiSampleSpan *span = &g_array_index (spans, JsuiSampleSpan, i);

        g_assert_true (span->node >= 0 || span->stack < 0);
        if (span->stack < 0 && span->node >= 0 && node < 0)
          node = span->node;
      }
    g_assert_cmpint (node, >=, 0);
    g_assert_true (jsui_stacks_view_select_node (stacks, node));
    selected = ui_test_row_item (rows, jsui_stacks_view_get_selected_row (stacks));
    g_assert_true (g_str_has_prefix (jsui_stack_item_get_node (selected)->name, "leaf_"));
    g_assert_cmpuint (ev->detail->stacks->len, ==, 16);
  }

  /* One part: no list. */
  g_assert_true (jsui_panel_select_event (panel, 2));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (parts)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- the app's own thresholds (the snapshot's config) ------------------ */

/* An app run with JANKSCOPE_SLOW_FRAME_PCT=1000 (slow over 10 budgets,
 * 166.7 ms at 60 Hz), JANKSCOPE_THRESHOLD_MS=20 and
 * JANKSCOPE_TIERS_MS=90,210,880. */
static void
set_thresholds (JsonObject *root, gpointer data)
{
  JsonObject *config = json_object_get_object_member (root, "config");
  JsonObject *tiers = json_object_get_object_member (config, "tiers_ns");

  json_object_set_int_member (config, "threshold_ns", 20 * MS);
  json_object_set_int_member (config, "slow_frame_pct", 1000);
  json_object_set_int_member (tiers, "noticeable", 20 * MS);
  json_object_set_int_member (tiers, "severe", 90 * MS);
  json_object_set_int_member (tiers, "frozen", 210 * MS);
  json_object_set_int_member (tiers, "hang", 880 * MS);
}

/* A report from before config had them: the threshold only. */
static void
remove_thresholds (JsonObject *root, gpointer data)
{
  JsonObject *config = json_object_get_object_member (root, "config");

  json_object_set_int_member (config, "threshold_ns", 30 * MS);
  json_object_remove_member (config, "tiers_ns");
  json_object_remove_member (config, "slow_frame_pct");
}

/* Frames 29 (216 ms), 108 (900 ms) and 144 (95 ms) are the slow ones under
 * the default rules. */
static void
test_thresholds_from_config (void)
{
  g_autoptr (JsuiSnapshot) plain = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) snap = load_edited_root (set_thresholds, NULL);
  g_autoptr (JsuiSnapshot) old = load_edited_root (remove_thresholds, NULL);
  const JsrReport *r = snap->report;
  JsuiFrameStats fs;
  JsTier tier;

  /* The reader: the thresholds as the app had them... */
  g_assert_cmpuint (r->slow_frame_pct, ==, 1000);
  g_assert_cmpint (r->tier_ns[JS_TIER_NOTICEABLE], ==, 20 * MS);
  g_assert_cmpint (r->tier_ns[JS_TIER_SEVERE], ==, 90 * MS);
  g_assert_cmpint (r->tier_ns[JS_TIER_FROZEN], ==, 210 * MS);
  g_assert_cmpint (r->tier_ns[JS_TIER_HANG], ==, 880 * MS);
  /* ...and the defaults where the report predates them. */
  g_assert_cmpuint (plain->report->slow_frame_pct, ==, 150);
  g_assert_cmpuint (old->report->slow_frame_pct, ==, 150);
  g_assert_cmpint (old->report->tier_ns[JS_TIER_NOTICEABLE], ==, 30 * MS);
  g_assert_cmpint (old->report->tier_ns[JS_TIER_SEVERE], ==, 200 * MS);
  g_assert_cmpint (old->report->tier_ns[JS_TIER_FROZEN], ==, 700 * MS);
  g_assert_cmpint (old->report->tier_ns[JS_TIER_HANG], ==, 3000 * MS);

  /* The default rules. */
  g_assert_true (jsui_frame_is_slow (plain->report, frame (plain, 29)->duration_ns,
                                     frame (plain, 29)->budget_ns, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_SEVERE);
  g_assert_true (jsui_frame_is_slow (plain->report, frame (plain, 108)->duration_ns,
                                     frame (plain, 108)->budget_ns, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_FROZEN);
  g_assert_true (jsui_frame_is_slow (plain->report, frame (plain, 144)->duration_ns,
                                     frame (plain, 144)->budget_ns, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (frame (plain, 144)->event_id, ==, 3);
  jsui_frame_stats_compute (plain->frames, plain->report, 0, &fs);
  g_assert_cmpint (fs.slow, ==, 3);
  g_assert_cmpint (fs.frozen, ==, 1);

  /* The app's: 95 ms is on time (and belongs to no jank event), 216 ms is
   * frozen, 900 ms as long as a hang. */
  g_assert_true (
      jsui_frame_is_slow (r, frame (snap, 29)->duration_ns, frame (snap, 29)->budget_ns, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_FROZEN);
  g_assert_true (
      jsui_frame_is_slow (r, frame (snap, 108)->duration_ns, frame (snap, 108)->budget_ns, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_HANG);
  g_assert_false (
      jsui_frame_is_slow (r, frame (snap, 144)->duration_ns, frame (snap, 144)->budget_ns, NULL));
  g_assert_cmpint (frame (snap, 144)->event_id, ==, 0);
  g_assert_cmpint (frame (snap, 29)->event_id, ==, 1);
  jsui_frame_stats_compute (snap->frames, r, 0, &fs);
  g_assert_cmpint (fs.slow, ==, 2);
  g_assert_cmpint (fs.frozen, ==, 2);
}

/* Thresholds from a hostile snapshot: refused with the member's name, or
 * used without overflow. */
static void
set_bad_pct (JsonObject *root, gpointer data)
{
  JsonObject *config = json_object_get_object_member (root, "config");

  json_object_set_int_member (config, "slow_frame_pct", GPOINTER_TO_INT (data));
}

static void
set_huge_thresholds (JsonObject *root, gpointer data)
{
  JsonObject *config = json_object_get_object_member (root, "config");
  JsonObject *tiers = json_object_get_object_member (config, "tiers_ns");

  json_object_set_int_member (config, "slow_frame_pct", G_MAXINT64);
  json_object_set_int_member (tiers, "frozen", G_MAXINT64);
  json_object_set_int_member (tiers, "hang", 0);
}

/* Config members no app writes. */
static void
break_thresholds (JsonObject *root, gpointer data)
{
  JsonObject *config = json_object_get_object_member (root, "config");
  JsonObject *tiers = json_object_get_object_member (config, "tiers_ns");

  switch (GPOINTER_TO_INT (data))
    {
    case 0:
      json_object_set_int_member (config, "slow_frame_pct", -1);
      break;
    case 1:
      json_object_set_string_member (config, "slow_frame_pct", "x");
      break;
    case 2:
      json_object_set_int_member (config, "tiers_ns", 7);
      break;
    case 3:
      json_object_set_int_member (tiers, "frozen", -5);
      break;
    default:
      json_object_set_double_member (tiers, "hang", 1.5e300);
      break;
    }
}

static void
test_thresholds_hostile (void)
{
  g_autoptr (JsuiSnapshot) huge = load_edited_root (set_huge_thresholds, NULL);
  JsuiFrameStats fs;
  JsTier tier;

  for (int i = 0; i < 5; i++)
    {
      gsize length;
      g_autofree char *text = ui_test_snapshot_text (&length);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *doc = NULL;

      json_parser_load_from_data (parser, text, (gssize) length, &error);
      g_assert_no_error (error);
      break_thresholds (json_node_get_object (json_parser_get_root (parser)), GINT_TO_POINTER (i));
      doc = json_to_string (json_parser_get_root (parser), FALSE);
      g_assert_null (jsui_snapshot_parse (doc, strlen (doc), &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "config."));
    }
  /* Zero: every frame that took any time is slow. */
  {
    g_autoptr (JsuiSnapshot) zero = load_edited_root (set_bad_pct, GINT_TO_POINTER (0));

    jsui_frame_stats_compute (zero->frames, zero->report, 0, &fs);
    g_assert_cmpint (fs.slow, ==, fs.frames);
  }
  /* The largest: no frame is slow; a hang bound of 0 and a frozen one past
   * every frame. */
  g_assert_cmpuint (huge->report->slow_frame_pct, ==, G_MAXUINT);
  jsui_frame_stats_compute (huge->frames, huge->report, 0, &fs);
  g_assert_cmpint (fs.slow, ==, 0);
  g_assert_cmpint (fs.frozen, ==, 0);
  g_assert_true (jsui_frame_is_slow (huge->report, JSUI_MAX_NS, 1, &tier));
  g_assert_cmpint (tier, ==, JS_TIER_HANG);
}

/* The timeline and the frame details judge frames by the app's thresholds
 * (test_thresholds_from_config). */
static void
test_thresholds_shown (void)
{
  g_autoptr (JsuiSnapshot) plain = ui_test_load_snapshot ();
  g_autoptr (JsuiSnapshot) snap = load_edited_root (set_thresholds, NULL);
  g_autoptr (JsuiPanel) panel = new_panel (plain);
  JsuiTimeline *timeline = jsui_panel_get_timeline (panel);
  JsuiFrameDetails *details = JSUI_FRAME_DETAILS (page (panel, "frames"));
  guint n = jsui_timeline_get_n_frames (timeline);
  g_autofree char *three = g_strdup_printf ("%u recent frames, 3 slow", n);
  g_autofree char *two = g_strdup_printf ("%u recent frames, 2 slow", n);

  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, three);
  jsui_timeline_select_range (timeline, 29, 29);
  g_assert_true (g_str_has_suffix (jsui_frame_details_get_title (details), ", severe"));
  jsui_timeline_select_range (timeline, 144, 144);
  g_assert_true (g_str_has_suffix (jsui_frame_details_get_title (details), ", noticeable"));
  jsui_timeline_select_range (timeline, -1, -1);

  jsui_panel_set_snapshot (panel, snap);
  gtk_test_accessible_assert_property (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, two);
  jsui_timeline_select_range (timeline, 29, 29);
  g_assert_true (g_str_has_suffix (jsui_frame_details_get_title (details), ", frozen"));
  jsui_timeline_select_range (timeline, 144, 144);
  g_assert_true (g_str_has_suffix (jsui_frame_details_get_title (details), ", on time"));
  jsui_timeline_select_range (timeline, 100, 150);
  g_assert_nonnull (strstr (jsui_frame_details_get_title (details), ": 1 slow, "));
  /* Since Clear, the header counts them the same way: 2 of 240. */
  jsui_panel_set_baseline (panel, 1);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "slow"), ==, "0.8 %");
}

/* The culprit's "posted from", as the jank list and the parts show it: a
 * name found on a stack the site inherited from an earlier attach says so,
 * as the CLI does; the caller's name never does (it is the attach's own). */
static void
test_posted_from (void)
{
  JsrPosting p = { .caller = (char *) "gtk_text_view_queue_validate",
                   .culprit = (char *) "load_big_text",
                   .has_stack = TRUE };
  char *text;

  text = jsui_format_posted_from (g_strdup ("first_validate_callback"), &p);
  g_assert_cmpstr (text, ==, "first_validate_callback (posted from load_big_text)");
  g_free (text);

  p.stack_inherited = TRUE;
  text = jsui_format_posted_from (g_strdup ("first_validate_callback"), &p);
  g_assert_cmpstr (text, ==,
                   "first_validate_callback (posted from load_big_text, inherited stack)");
  g_free (text);

  /* No culprit: the caller names it, and the caller is not inherited. */
  p.culprit = NULL;
  text = jsui_format_posted_from (g_strdup ("first_validate_callback"), &p);
  g_assert_cmpstr (text, ==, "first_validate_callback (posted from gtk_text_view_queue_validate)");
  g_free (text);
}

int
main (int argc, char **argv)
{
  /* The strings compared are the untranslated ones. */
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/views/pure/bottom-up", test_bottom_up);
  g_test_add_func ("/views/pure/posted-from", test_posted_from);
  g_test_add_func ("/views/pure/snapshot-frames", test_snapshot_frames);
  g_test_add_func ("/views/pure/snapshot-bad-frames", test_snapshot_bad_frames);
  g_test_add_func ("/views/pure/samples-layout", test_samples_layout);
  g_test_add_func ("/views/pure/zoom-anchor", test_zoom_anchor);
  g_test_add_func ("/views/pure/timeline-axis", test_timeline_axis);
  g_test_add_func ("/views/pure/merge-bottom-up", test_merge_bottom_up);
  g_test_add_func ("/views/pure/snapshot-hostile", test_snapshot_hostile);
  g_test_add_func ("/views/pure/profile-tree", test_profile_tree);
  g_test_add_func ("/views/pure/thresholds-from-config", test_thresholds_from_config);
  g_test_add_func ("/views/pure/thresholds-hostile", test_thresholds_hostile);
  /* GTK's test AT context: what the widgets tell assistive technologies
   * can be read back (gtk_test_accessible_assert_property) */
  g_setenv ("GTK_A11Y", "test", TRUE);
  have_display = gtk_init_check ();
#define WIDGET_TEST(path, func)                                                                    \
  do                                                                                               \
    {                                                                                              \
      static const WidgetTest t = { func };                                                        \
      g_test_add_data_func (path, &t, run_widget_test);                                            \
    }                                                                                              \
  while (0)
  WIDGET_TEST ("/views/templates", test_templates);
  WIDGET_TEST ("/views/sources", test_sources);
  WIDGET_TEST ("/views/sources-refresh-cost", test_sources_refresh_cost);
  WIDGET_TEST ("/views/events-refresh", test_events_refresh);
  WIDGET_TEST ("/views/accessible", test_accessible);
  WIDGET_TEST ("/views/thresholds-shown", test_thresholds_shown);
  WIDGET_TEST ("/views/frame-details", test_frame_details);
  WIDGET_TEST ("/views/frame-details-events", test_frame_details_events);
  WIDGET_TEST ("/views/frame-details-starts-at", test_frame_details_starts_at);
  WIDGET_TEST ("/views/timeline-geometry", test_timeline_geometry);
  WIDGET_TEST ("/views/stacks-bottom-up", test_stacks_bottom_up);
  WIDGET_TEST ("/views/stacks-select-module", test_stacks_select_module);
  WIDGET_TEST ("/views/samples-strip", test_samples_strip);
  WIDGET_TEST ("/views/timeline-zoom-scroll", test_timeline_zoom_scroll);
  WIDGET_TEST ("/views/screenshot-frames", test_screenshot_frames);
  WIDGET_TEST ("/views/parts", test_parts);
#undef WIDGET_TEST
  return g_test_run ();
}
