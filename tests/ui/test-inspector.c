/* test-inspector.c: the jankscope window (src/gtk4-ui/) with a synthetic
 * snapshot (snapshot.json: a real gtk4-stall report plus two made-up events
 * and a `live` member). Run by check_inspector.py, one path at a time;
 * the GTK paths need a display (xvfb-run), /inspector/flame-layout does not.
 *
 * Environment: JSUI_TEST_SNAPSHOT (the JSON file), JSUI_TEST_SCREENSHOT
 * (where /inspector/screenshot saves its PNG).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "jsui-colors.h"
#include "jsui-export.h"
#include "jsui-flame-layout.h"
#include "jsui-format.h"
#include "jsui-frame-stats.h"
#include "jsui-flame-graph.h"
#include "jsui-pane-ratio.h"
#include "jsui-stacks-view.h"
#include "jsui-timeline.h"
#include "jsui-inspector-page.h"
#include "jsui-panel-actions.h"
#include "jsui-shortcut.h"
#include "jsui-ui-cost.h"
#include "jsui-items.h"
#include "jsui-refresher.h"
#include "jsui-shortcuts.h"
#include "jsui-window.h"
#include "ui-test-util.h"

/* The index of the one frame linked to jank event `id`. */
static guint
frame_of_event (JsuiSnapshot *snap, gint64 id)
{
  guint found = G_MAXUINT;

  for (guint i = 0; i < snap->frames->len; i++)
    if (g_array_index (snap->frames, JsuiFrame, i).event_id == id)
      {
        g_assert_cmpuint (found, ==, G_MAXUINT);
        found = i;
      }
  g_assert_cmpuint (found, !=, G_MAXUINT);
  return found;
}

/* ---- pure geometry: no display --------------------------------------- */

static JsuiStackTree *
known_tree (void)
{
  /* root (10) ── a (6) ── c (4)
   *          │        └─ d (2)
   *          └─ b (4)                  (callers first) */
  JsuiStackTree *tree = jsui_stack_tree_new ("all");
  const char *ac[] = { "a", "c" }, *ad[] = { "a", "d" }, *b[] = { "b" };

  jsui_stack_tree_add (tree, b, NULL, 1, 4);
  jsui_stack_tree_add (tree, ac, NULL, 2, 4);
  jsui_stack_tree_add (tree, ad, NULL, 2, 2);
  jsui_stack_tree_sort (tree);
  return tree;
}

static void
assert_rect (GArray *rects, guint i, const char *name, double x, double width, guint depth)
{
  const JsuiFlameRect *r;

  g_assert_cmpuint (i, <, rects->len);
  r = &g_array_index (rects, JsuiFlameRect, i);
  g_assert_cmpstr (r->node->name, ==, name);
  g_assert_cmpfloat_with_epsilon (r->x, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->width, width, 1e-9);
  g_assert_cmpuint (r->depth, ==, depth);
}

static void
test_flame_layout (void)
{
  g_autoptr (JsuiStackTree) tree = known_tree ();
  g_autoptr (JsuiStackTree) empty = jsui_stack_tree_new ("all");
  g_autoptr (GArray) rects = jsui_flame_layout (tree->root, 0);
  g_autoptr (GArray) pruned = jsui_flame_layout (tree->root, 0.3);
  g_autoptr (GArray) none = jsui_flame_layout (empty->root, 0);

  g_assert_cmpint (tree->root->total, ==, 10);
  /* Parents first, children left to right, heaviest first. */
  g_assert_cmpuint (rects->len, ==, 5);
  assert_rect (rects, 0, "all", 0.0, 1.0, 0);
  assert_rect (rects, 1, "a", 0.0, 0.6, 1);
  assert_rect (rects, 2, "c", 0.0, 0.4, 2);
  assert_rect (rects, 3, "d", 0.4, 0.2, 2);
  assert_rect (rects, 4, "b", 0.6, 0.4, 1);

  /* Too narrow: left out with its subtree. */
  g_assert_cmpuint (pruned->len, ==, 4);
  assert_rect (pruned, 3, "b", 0.6, 0.4, 1);

  g_assert_cmpstr (jsui_flame_hit (rects, 0.5, 2)->node->name, ==, "d");
  g_assert_cmpstr (jsui_flame_hit (rects, 0.7, 1)->node->name, ==, "b");
  g_assert_null (jsui_flame_hit (rects, 0.7, 2));
  g_assert_cmpuint (none->len, ==, 0);

  /* self counts: a stack ends where it ends */
  g_assert_cmpint (tree->root->self, ==, 0);
  g_assert_cmpint (((JsuiStackNode *) g_ptr_array_index (tree->root->children, 1))->self, ==, 4);
}

static void
test_snapshot_parse (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (snap->report->events->len, ==, 3);
  g_assert_true (snap->has_live);
  g_assert_cmpuint (snap->frames->len, ==, 240);
  /* Each slow frame is linked to the event it overlaps; frames on time to none. */
  g_assert_cmpuint (frame_of_event (snap, 1), ==, 29);
  g_assert_cmpuint (frame_of_event (snap, 2), ==, 108);
  g_assert_cmpuint (frame_of_event (snap, 3), ==, 144);
  g_assert_cmpint (g_array_index (snap->frames, JsuiFrame, 0).event_id, ==, 0);
  g_assert_cmpint (g_array_index (snap->frames, JsuiFrame, 0).budget_ns, ==, 16667000);
  g_assert_cmpint (g_array_index (snap->frames, JsuiFrame, 108).duration_ns, >, 700000000);
  /* (collector 9 + watchdog 3.6 + handler 0.4 ms) over 5.26 s */
  g_assert_cmpint (snap->overhead_cpu_ns, ==, 13000000);
  g_assert_cmpfloat_with_epsilon (snap->overhead_cpu_pct, 100.0 * 13000000 / 5261703431.0, 1e-9);
  g_assert_cmpint (snap->stall_ns, ==, 0);

  g_assert_null (jsui_snapshot_parse ("{\"format\": 1", 12, &error));
  g_assert_nonnull (error);
}

/* ---- the window (display) ------------------------------------------- */

/* The label under `widget` showing `text`, NULL: none. */
static GtkWidget *
find_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_templates (void)
{
  JsuiWindow *window = jsui_window_new ();
  GtkWidget *stacks = jsui_stacks_view_new ();
  GtkWidget *note;

  g_object_ref_sink (stacks);
  g_assert_nonnull (jsui_window_get_timeline (window));
  g_assert_nonnull (jsui_window_get_stacks_view (window));
  g_assert_nonnull (jsui_stacks_view_get_flame_graph (JSUI_STACKS_VIEW (stacks)));
  g_assert_cmpstr (jsui_stacks_view_get_page (JSUI_STACKS_VIEW (stacks)), ==, "empty");

  /* No data yet. */
  g_assert_cmpstr (jsui_window_get_metric (window, "status"), ==, "Waiting for data…");
  g_assert_cmpstr (jsui_window_get_metric (window, "p50"), ==, "–");
  g_assert_cmpuint (g_list_model_get_n_items (jsui_window_get_events (window)), ==, 0);

  /* It says that a hang is the viewer's to show: drawn by the app's main
   * loop, it cannot update during one. */
  g_assert_nonnull (strstr (jsui_window_get_hang_note (window), "jankscope view"));
  note = find_label (gtk_window_get_titlebar (GTK_WINDOW (window)),
                     jsui_window_get_hang_note (window));
  g_assert_nonnull (note);
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (note), "JANKSCOPE_LIVE=1"));

  /* Marked as jankscope's own. */
  g_assert_cmpstr (gtk_widget_get_name (GTK_WIDGET (window)), ==, JSUI_WINDOW_NAME);
  g_assert_nonnull (g_object_get_data (G_OBJECT (window), JSUI_EXCLUDE_KEY));
  gtk_widget_realize (GTK_WIDGET (window));
  g_assert_nonnull (g_object_get_data (G_OBJECT (gtk_native_get_surface (GTK_NATIVE (window))),
                                       JSUI_EXCLUDE_KEY));
  g_assert_nonnull (g_object_get_data (
      G_OBJECT (gdk_surface_get_frame_clock (gtk_native_get_surface (GTK_NATIVE (window)))),
      JSUI_EXCLUDE_KEY));

  /* Accessible names on the custom widgets are set (GtkAccessible has no
   * getter in 4.8: the role at least). */
  g_assert_cmpint (
      gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (jsui_window_get_timeline (window))), ==,
      GTK_ACCESSIBLE_ROLE_IMG);

  g_object_unref (stacks);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_models (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  JsuiWindow *window = jsui_window_new ();
  GListModel *events;
  g_autoptr (JsuiEvent) second = NULL;

  jsui_window_set_snapshot (window, snap);
  events = jsui_window_get_events (window);
  g_assert_cmpuint (g_list_model_get_n_items (events), ==, 3);
  second = g_list_model_get_item (events, 1);
  g_assert_cmpint (jsui_event_get_id (second), ==, 2);
  g_assert_cmpstr (jsui_event_get_event (second)->source, ==, "load-history");

  g_assert_cmpuint (jsui_timeline_get_n_frames (jsui_window_get_timeline (window)), ==, 240);

  g_assert_cmpstr (jsui_window_get_metric (window, "p50"), ==, "16.6 ms");
  g_assert_cmpstr (jsui_window_get_metric (window, "p95"), ==, "33.4 ms");
  g_assert_cmpstr (jsui_window_get_metric (window, "p99"), ==, "200 ms");
  g_assert_cmpstr (jsui_window_get_metric (window, "slow"), ==, "2.5 %");
  g_assert_cmpstr (jsui_window_get_metric (window, "frozen"), ==, "0.4 %");
  g_assert_cmpstr (jsui_window_get_metric (window, "hangs"), ==, "0");
  g_assert_cmpstr (jsui_window_get_metric (window, "overhead"), ==, "0.2 %");
  g_assert_cmpstr (jsui_window_get_metric (window, "status"), ==, "2 stall events, 1 frame event");
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)),
                                   "jankscope — gtk4-stall (pid "));

  /* Back to no data. */
  jsui_window_set_snapshot (window, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (events), ==, 0);
  g_assert_cmpstr (jsui_window_get_metric (window, "status"), ==, "Waiting for data…");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_select (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  JsuiWindow *window = jsui_window_new ();
  JsuiStacksView *stacks = jsui_window_get_stacks_view (window);
  GListModel *rows = jsui_stacks_view_get_rows (stacks);
  GArray *rects;
  gboolean found = FALSE;
  g_autoptr (JsuiStackItem) root = NULL;

  jsui_window_set_snapshot (window, snap);
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "empty");

  /* The wait event: 10 samples in 2 stacks, 7 of them in read_history_file. */
  g_assert_true (jsui_window_select_event (window, 2));
  g_assert_cmpint (jsui_window_get_selected_event (window), ==, 2);
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "stacks");
  root = ui_test_row_item (rows, 0);
  /* Its attributed time, 900 ms (the stacks' 600 and 300), and its samples. */
  g_assert_cmpint (jsui_stack_item_get_node (root)->total, ==, 900 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (jsui_stack_item_get_node (root)->total_samples, ==, 10);
  g_assert_cmpfloat (jsui_stack_item_get_fraction (root), ==, 1.0);
  /* The heaviest path is open down to where it splits: load_history_cb. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 3);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (JsuiStackItem) item = ui_test_row_item (rows, i);

      if (g_strcmp0 (jsui_stack_item_get_node (item)->name, "load_history_cb") == 0)
        found = TRUE;
      /* jankscope's own frames are left out */
      g_assert_cmpstr (jsui_stack_item_get_node (item)->name, !=, "js_dispatch");
    }
  g_assert_true (found);

  rects = jsui_flame_graph_get_rects (jsui_stacks_view_get_flame_graph (stacks));
  g_assert_cmpuint (rects->len, >, 0);
  found = FALSE;
  for (guint i = 0; i < rects->len; i++)
    {
      const JsuiFlameRect *r = &g_array_index (rects, JsuiFlameRect, i);

      /* its share of the time: 600 of 900 ms (7 of 10 samples) */
      if (g_strcmp0 (r->node->name, "read_history_file") == 0)
        {
          g_assert_cmpfloat_with_epsilon (r->width, 600.0 / 900.0, 1e-9);
          found = TRUE;
        }
    }
  g_assert_true (found);

  /* A frame event without stacks. */
  g_assert_true (jsui_window_select_event (window, 3));
  g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "empty");
  g_assert_cmpuint (jsui_flame_graph_get_rects (jsui_stacks_view_get_flame_graph (stacks))->len, ==,
                    0);

  /* The real event: its three stacks, 14 + ... samples. */
  g_assert_true (jsui_window_select_event (window, 1));
  g_clear_object (&root);
  root = ui_test_row_item (rows, 0);
  g_assert_cmpint (jsui_stack_item_get_node (root)->total_samples, >=, 14);

  /* A refresh keeps the selection. */
  {
    g_autoptr (JsuiSnapshot) again = ui_test_load_snapshot ();

    jsui_window_set_snapshot (window, again);
    g_assert_cmpint (jsui_window_get_selected_event (window), ==, 1);
    g_assert_cmpstr (jsui_stacks_view_get_page (stacks), ==, "stacks");
  }

  g_assert_false (jsui_window_select_event (window, 42));
  g_assert_cmpint (jsui_window_get_selected_event (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_cb (guint *counter)
{
  (*counter)++;
}

/* The panel alone (as the Inspector page and the viewer embed it): its
 * pages, the host's banner slot, the title from the snapshot. */
static void
test_panel (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  JsuiPanel *panel = g_object_ref_sink (jsui_panel_new ());
  GtkWidget *banner = gtk_label_new ("stuck");
  GtkWidget *other = gtk_label_new ("other");
  GtkWidget *slot;
  guint notified = 0;

  g_assert_nonnull (gtk_stack_get_child_by_name (jsui_panel_get_pages (panel), "jank"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (jsui_panel_get_pages (panel)), ==, "jank");
  g_assert_true (GTK_IS_BOX (jsui_panel_get_action_bar (panel)));
  g_assert_cmpstr (jsui_panel_get_metric (panel, "status"), ==, "Waiting for data…");

  /* The banner slot: hidden while empty, replaced, emptied. */
  g_assert_null (jsui_panel_get_banner (panel));
  jsui_panel_set_banner (panel, banner);
  slot = gtk_widget_get_parent (banner);
  g_assert_nonnull (slot);
  g_assert_true (gtk_widget_is_ancestor (banner, GTK_WIDGET (panel)));
  g_assert_true (gtk_widget_get_visible (slot));
  jsui_panel_set_banner (panel, other);
  g_assert_true (jsui_panel_get_banner (panel) == other);
  g_assert_true (gtk_widget_get_parent (other) == slot);
  jsui_panel_set_banner (panel, NULL);
  g_assert_null (jsui_panel_get_banner (panel));
  g_assert_false (gtk_widget_get_visible (slot));

  /* The title follows the snapshot's app. */
  g_signal_connect_swapped (panel, "notify::title", G_CALLBACK (count_cb), &notified);
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (g_str_has_prefix (jsui_panel_get_title (panel), "jankscope — gtk4-stall (pid "));
  g_assert_true (jsui_panel_get_snapshot (panel) == snap);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 3);
  g_assert_true (jsui_panel_select_event (panel, 2));
  g_assert_cmpint (jsui_panel_get_selected_event (panel), ==, 2);
  g_object_unref (panel);
}

static void
test_timeline_click (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  JsuiWindow *window = jsui_window_new ();
  JsuiTimeline *timeline = jsui_window_get_timeline (window);
  guint frozen = frame_of_event (snap, 2);

  jsui_window_set_snapshot (window, snap);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, frozen * JSUI_TIMELINE_STEP + 1), ==, frozen);
  g_assert_cmpint (jsui_timeline_frame_at (timeline, 240 * JSUI_TIMELINE_STEP + 1), ==, -1);
  /* The frozen frame belongs to event 2: clicking it selects event 2. */
  g_assert_cmpint (jsui_timeline_activate_at (timeline, frozen * JSUI_TIMELINE_STEP + 1), ==, 2);
  g_assert_cmpint (jsui_window_get_selected_event (window), ==, 2);
  /* A frame on time: nothing to select, the selection stays. */
  g_assert_cmpint (jsui_timeline_activate_at (timeline, 3 * JSUI_TIMELINE_STEP), ==, 0);
  g_assert_cmpint (jsui_window_get_selected_event (window), ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  GBytes *bytes;
  guint64 generation;
  guint calls;
} FakeLive;

static GBytes *
fake_source (guint64 *generation, gpointer user_data)
{
  FakeLive *live = user_data;

  live->calls++;
  *generation = live->generation;
  return live->bytes != NULL ? g_bytes_ref (live->bytes) : NULL;
}

static void
test_refresh (void)
{
  FakeLive live = { NULL, 1, 0 };
  JsuiWindow *window = jsui_window_new ();
  JsuiRefresher *refresher
      = jsui_refresher_new (jsui_window_get_panel (window), fake_source, &live, 20);
  gint64 deadline;

  /* Nothing published yet: waiting. */
  ui_test_wait_ms (100);
  g_assert_cmpuint (live.calls, >=, 2);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 0);
  g_assert_cmpstr (jsui_window_get_metric (window, "status"), ==, "Waiting for data…");

  /* A snapshot: parsed in a worker, shown on the main thread. */
  live.bytes = ui_test_snapshot_bytes ();
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_refresher_get_n_shown (refresher) == 0 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_window_get_events (window)), ==, 3);

  /* The same generation is not parsed again. */
  ui_test_wait_ms (150);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 1);

  /* A bad snapshot is counted and leaves the window as it was. */
  g_bytes_unref (live.bytes);
  live.bytes = g_bytes_new_static ("{\"format\"", 10);
  live.generation = 2;
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_refresher_get_n_failed (refresher) == 0 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpuint (jsui_refresher_get_n_failed (refresher), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_window_get_events (window)), ==, 3);

  jsui_refresher_free (refresher);
  g_bytes_unref (live.bytes);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The picture, read back: each flame graph box of the selected event is
 * drawn where its layout says, in its function's colour; each timeline bar
 * at its frame, in its tier's colour (the frozen and slow ones found); the
 * stacks have the room the panes promise. A layout or drawing change that
 * hides, moves or mis-colours them fails here, not only in a person's eye. */
static void
check_flame_pixels (const UiTestPicture *picture, GtkWidget *window, JsuiStacksView *stacks)
{
  JsuiFlameGraph *flame = jsui_stacks_view_get_flame_graph (stacks);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (flame), GTK_TYPE_SCROLLED_WINDOW);
  GArray *rects = jsui_flame_graph_get_rects (flame);
  float width = (float) gtk_widget_get_width (GTK_WIDGET (flame));
  graphene_rect_t visible;
  guint checked = 0;

  /* Room: at the default size, the flame graph's pane is over half the
   * window wide and shows fourteen rows without scrolling. */
  g_assert_true (gtk_widget_compute_bounds (scroller, window, &visible));
  g_test_message ("flame graph pane: %g x %g at %g,%g in a %d x %d window", visible.size.width,
                  visible.size.height, visible.origin.x, visible.origin.y, picture->width,
                  picture->height);
  g_assert_cmpfloat (visible.size.width, >=, 0.55 * gtk_widget_get_width (window));
  g_assert_cmpfloat (visible.size.height, >=, 14 * JSUI_FLAME_ROW);

  g_assert_cmpuint (rects->len, >=, 3);
  for (guint i = 0; i < rects->len; i++)
    {
      const JsuiFlameRect *r = &g_array_index (rects, JsuiFlameRect, i);
      graphene_point_t at;
      GdkRGBA color;
      guint32 want, got;
      float box_w = (float) r->width * width - 1;

      if (r->depth == 0 || box_w < 8)
        continue; /* the root is pale over the background; too thin to read */
      g_assert_true (gtk_widget_compute_point (
          GTK_WIDGET (flame), window,
          &GRAPHENE_POINT_INIT ((float) r->x * width, (float) r->depth * JSUI_FLAME_ROW), &at));
      if (at.y + JSUI_FLAME_ROW > visible.origin.y + visible.size.height)
        continue; /* below the pane's fold */
      jsui_flame_graph_color (r->node, &color);
      want = ui_test_rgba_pixel (&color);
      /* The box's interior, its edges (antialiased) left out: its colour is
       * the one most pixels have (the name's glyphs are the others). */
      got = ui_test_picture_mode (picture, (int) ceilf (at.x) + 1, (int) at.y + 2,
                                  (int) (at.x + box_w) - 1, (int) at.y + JSUI_FLAME_ROW - 3);
      g_test_message ("flame box %s: depth %u at %g,%g, %g px: %08x (want %08x)", r->node->name,
                      r->depth, at.x, at.y, box_w, got, want);
      g_assert_true (ui_test_pixel_near (got, want, 2));
      checked++;
    }
  g_assert_cmpuint (checked, >=, 2);
  g_assert_true (jsui_pane_ratio_is_following (jsui_stacks_view_get_paned (stacks)));
}

static void
check_timeline_pixels (const UiTestPicture *picture, GtkWidget *window, JsuiTimeline *timeline,
                       JsuiSnapshot *snap)
{
  GtkWidget *tl = GTK_WIDGET (timeline);
  GtkWidget *viewport = gtk_widget_get_parent (tl);
  graphene_rect_t view;
  GdkRGBA colors[JS_N_EVENT_TIERS + 1];
  float height = (float) gtk_widget_get_height (tl);
  guint bars = 0, slow = 0, frozen = 0;

  g_assert_true (gtk_widget_compute_bounds (viewport, window, &view));
  for (guint t = 0; t <= JS_N_EVENT_TIERS; t++)
    jsui_tier_color (tl, t, &colors[t]);
  for (guint i = 0; i < snap->frames->len; i++)
    {
      const JsuiFrame *f = &g_array_index (snap->frames, JsuiFrame, i);
      JsTier tier = JS_N_EVENT_TIERS;
      graphene_point_t at;
      float x = (float) jsui_timeline_x_for_frame (timeline, i);
      float bar = (float) jsui_timeline_get_zoom (timeline) - 1;
      guint32 got, want;

      jsui_frame_is_slow (snap->report, f->duration_ns, f->budget_ns, &tier);
      /* The bar's foot (every bar has one, however short), half way across. */
      g_assert_true (gtk_widget_compute_point (
          tl, window, &GRAPHENE_POINT_INIT (x + bar / 2, height - 1), &at));
      if (at.x < view.origin.x + 1 || at.x > view.origin.x + view.size.width - 2)
        continue; /* scrolled out of view */
      want = ui_test_rgba_pixel (&colors[tier]);
      got = ui_test_picture_pixel (picture, (int) at.x, (int) at.y);
      if (!ui_test_pixel_near (got, want, 2))
        {
          for (int dy = -4; dy <= 2; dy++)
            g_test_message ("  %g,%g: %08x", at.x, at.y + dy,
                            ui_test_picture_pixel (picture, (int) at.x, (int) at.y + dy));
          g_error ("frame %u (%s, %.1f ms) at %g,%g is %08x, not its tier's %08x", i,
                   tier == JS_N_EVENT_TIERS ? JSUI_ON_TIME : jsui_tier_css_name (tier),
                   f->duration_ns / 1e6, at.x, at.y, got, want);
        }
      bars++;
      slow += tier != JS_N_EVENT_TIERS;
      frozen += tier == JS_TIER_FROZEN;
    }
  g_test_message ("timeline: %u bars read, %u slow, %u frozen", bars, slow, frozen);
  g_assert_cmpuint (bars, >=, 50);
  g_assert_cmpuint (slow, >=, 2);
  g_assert_cmpuint (frozen, >=, 1);
}

/* A paned split by a ratio takes its share from its first size on (a .ui
 * file's pixel position is for one window size only) until the user moves
 * the handle; from then on the user's split stays (scaled by GtkPaned). */
static void
test_pane_ratio (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  int max = 0, max2 = 0;

  g_assert_cmpint (jsui_pane_ratio_position (1000, 0.36), ==, 360);
  g_assert_cmpint (jsui_pane_ratio_position (0, 0.36), ==, 0);
  g_assert_cmpint (jsui_pane_ratio_position (-5, 0.5), ==, 0);

  gtk_paned_set_start_child (GTK_PANED (paned), gtk_label_new ("list"));
  gtk_paned_set_end_child (GTK_PANED (paned), gtk_label_new ("stacks"));
  gtk_paned_set_position (GTK_PANED (paned), 30); /* as a .ui file sets it */
  jsui_pane_keep_ratio (GTK_PANED (paned), 0.36);
  gtk_window_set_child (GTK_WINDOW (window), paned);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 500);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (window) && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  ui_test_wait_ms (200);
  g_object_get (paned, "max-position", &max, NULL);
  g_test_message ("max-position %d, position %d", max, gtk_paned_get_position (GTK_PANED (paned)));
  g_assert_cmpint (max, >, 100);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), ==,
                   jsui_pane_ratio_position (max, 0.36));
  g_assert_true (jsui_pane_ratio_is_following (GTK_PANED (paned)));

  /* A drag: the position is the user's from now on. */
  gtk_paned_set_position (GTK_PANED (paned), 40);
  gtk_widget_set_size_request (paned, -1, max + 300);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  do
    {
      ui_test_wait_ms (20);
      g_object_get (paned, "max-position", &max2, NULL);
    }
  while (max2 == max && g_get_monotonic_time () < deadline);
  g_test_message ("max-position %d, position %d", max2, gtk_paned_get_position (GTK_PANED (paned)));
  g_assert_cmpint (max2, >, max);
  /* GtkPaned scales a position when both children resize; ours does not
   * bring it back to the ratio. */
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), <=, 40 * max2 / max + 1);
  g_assert_false (jsui_pane_ratio_is_following (GTK_PANED (paned)));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_screenshot (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  const char *path = g_getenv ("JSUI_TEST_SCREENSHOT");
  JsuiWindow *window = jsui_window_new ();
  JsuiPanel *panel = jsui_window_get_panel (window);
  g_autoptr (UiTestPicture) picture = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_nonnull (path);
  jsui_window_set_snapshot (window, snap);
  jsui_window_select_event (window, 2);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)) && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));
  ui_test_wait_ms (300); /* a few frames: allocation, the timeline scrolled to its end */

  {
    GtkWidget *tl = GTK_WIDGET (jsui_window_get_timeline (window));
    GtkWidget *sw = gtk_widget_get_ancestor (tl, GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adj = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sw));
    graphene_rect_t bounds;

    g_assert_true (gtk_widget_compute_bounds (tl, sw, &bounds));
    g_test_message ("timeline: %d wide at %g in the scroller; adj %g/%g page %g",
                    gtk_widget_get_width (tl), bounds.origin.x, gtk_adjustment_get_value (adj),
                    gtk_adjustment_get_upper (adj), gtk_adjustment_get_page_size (adj));
    /* It follows the newest frames. */
    g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
    g_assert_cmpfloat_with_epsilon (
        -bounds.origin.x, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj), 0.5);
  }
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >, 400);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), >, 300);

  picture = ui_test_picture_take (GTK_WIDGET (window));
  g_assert_true (gdk_texture_save_to_png (picture->texture, path));
  g_test_message ("screenshot: %s (%d x %d)", path, picture->width, picture->height);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  check_flame_pixels (picture, GTK_WIDGET (window), jsui_panel_get_stacks_view (panel));
  check_timeline_pixels (picture, GTK_WIDGET (window), jsui_window_get_timeline (window), snap);
  /* The list got its share of the height, the stacks the rest. */
  g_assert_true (jsui_pane_ratio_is_following (jsui_panel_get_jank_paned (panel)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- the panel's actions, exports, own cost ------------------------- */

static void
test_frame_stats (void)
{
  g_autoptr (GArray) frames = g_array_new (FALSE, TRUE, sizeof (JsuiFrame));
  JsuiFrameStats fs;

  /* 100 frames of 10..1000 ms (budget 16.7 ms), ending at 1..100 s. */
  for (int i = 1; i <= 100; i++)
    {
      JsuiFrame f = { 0 };

      f.end_ns = i * G_GINT64_CONSTANT (1000000000);
      f.duration_ns = i * G_GINT64_CONSTANT (10000000);
      f.budget_ns = 16667000;
      g_array_append_val (frames, f);
    }
  jsui_frame_stats_compute (frames, NULL, 0, &fs);
  g_assert_cmpint (fs.frames, ==, 100);
  g_assert_cmpint (fs.p50_ns, ==, 500 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (fs.p95_ns, ==, 950 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (fs.p99_ns, ==, 990 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (fs.slow, ==, 98);   /* 30 ms and more: over 1.5 × 16.7 ms */
  g_assert_cmpint (fs.frozen, ==, 30); /* over 700 ms, as the core counts: 710 .. 1000 ms */
  /* From 91 s on: the last 10. */
  jsui_frame_stats_compute (frames, NULL, 91 * G_GINT64_CONSTANT (1000000000), &fs);
  g_assert_cmpint (fs.frames, ==, 10);
  g_assert_cmpint (fs.p50_ns, ==, 950 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (fs.frozen, ==, 10);
  /* After everything, and no frames at all: nothing, no crash. */
  jsui_frame_stats_compute (frames, NULL, G_MAXINT64, &fs);
  g_assert_cmpint (fs.frames, ==, 0);
  g_assert_cmpint (fs.p50_ns, ==, -1);
  jsui_frame_stats_compute (NULL, NULL, 0, &fs);
  g_assert_cmpint (fs.p99_ns, ==, -1);
}

static void
test_ui_cost (void)
{
  gint64 t = 1000 * G_USEC_PER_SEC;

  jsui_ui_cost_reset ();
  g_assert_cmpfloat (jsui_ui_cost_ms_per_s (t), <, 0); /* no full second yet */
  jsui_ui_cost_add (t, 3000);
  jsui_ui_cost_add (t + 500000, 1000);
  jsui_ui_cost_add (t + G_USEC_PER_SEC, 2000);
  /* Seconds 1000 and 1001 are full at 1002: (4 + 2) ms / 2 s. */
  g_assert_cmpfloat_with_epsilon (jsui_ui_cost_ms_per_s (t + 2 * G_USEC_PER_SEC), 3.0, 1e-9);
  /* Long after: only the last JSUI_UI_COST_SECONDS count, nothing spent. */
  g_assert_cmpfloat_with_epsilon (jsui_ui_cost_ms_per_s (t + 100 * G_USEC_PER_SEC), 0.0, 1e-9);
  /* Old slots are not mistaken for new ones (the ring wraps). */
  jsui_ui_cost_add (t + 106 * G_USEC_PER_SEC, 5000);
  g_assert_cmpfloat_with_epsilon (jsui_ui_cost_ms_per_s (t + 107 * G_USEC_PER_SEC), 1.0, 1e-9);
  jsui_ui_cost_reset ();
}

static void
test_shortcut_parse (void)
{
  guint key;
  GdkModifierType mods;
  char *error = NULL;

  g_assert_true (jsui_shortcut_parse (NULL, &key, &mods, &error));
  g_assert_null (error);
  g_assert_cmpuint (key, ==, GDK_KEY_j);
  g_assert_cmpuint (mods, ==, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_true (jsui_shortcut_parse ("Ctrl+Alt+K", &key, &mods, &error));
  g_assert_cmpuint (key, ==, GDK_KEY_k);
  g_assert_cmpuint (mods, ==, GDK_CONTROL_MASK | GDK_ALT_MASK);
  g_assert_true (jsui_shortcut_parse ("<Super>F9", &key, &mods, &error));
  g_assert_cmpuint (key, ==, GDK_KEY_F9);
  /* Not printable: alone is fine. */
  g_assert_true (jsui_shortcut_parse ("F12", &key, &mods, &error));
  g_assert_cmpuint (mods, ==, 0);
  /* Off. */
  g_assert_false (jsui_shortcut_parse ("off", &key, &mods, &error));
  g_assert_null (error);
  g_assert_cmpuint (key, ==, 0);
  g_assert_false (jsui_shortcut_parse ("NONE", &key, &mods, &error));
  g_assert_null (error);
  /* Bad: a message and the default. */
  for (guint i = 0; i < 4; i++)
    {
      const char *bad[] = { "j", "Shift+J", "<Control>nosuchkey", "Ctrl+" };

      g_assert_false (jsui_shortcut_parse (bad[i], &key, &mods, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error, "JANKSCOPE_SHORTCUT"));
      g_assert_cmpuint (key, ==, GDK_KEY_j);
      g_assert_cmpuint (mods, ==, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
      g_clear_pointer (&error, g_free);
    }
}

static void
test_export (void)
{
  g_autoptr (GBytes) doc = ui_test_snapshot_bytes ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) report = jsui_export_convert (doc, JSUI_EXPORT_REPORT, &error);
  g_autoptr (GBytes) chrome = NULL;
  g_autoptr (GBytes) folded = NULL;
  g_autoptr (GBytes) bad = g_bytes_new_static ("{\"format\"", 10);
  g_autofree char *name = NULL;
  g_autofree char *report_text = NULL;
  JsuiExportFormat format;

  /* The report: the document without `live`, still a report. */
  g_assert_no_error (error);
  report_text = g_strndup (g_bytes_get_data (report, NULL), g_bytes_get_size (report));
  g_assert_null (strstr (report_text, "\"live\""));
  g_assert_nonnull (strstr (report_text, "\"events\""));
  {
    g_autoptr (JsrReport) r = NULL;
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp ("jsui-test-XXXXXX.json", &path, &error);

    g_assert_no_error (error);
    close (fd);
    g_assert_true (g_file_set_contents (path, report_text, -1, &error));
    r = jsr_report_load_full (path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (r->events->len, ==, 3);
    g_unlink (path);
  }

  /* The CLI's exports. */
  chrome = jsui_export_convert (doc, JSUI_EXPORT_CHROME, &error);
  g_assert_no_error (error);
  g_assert_nonnull (
      g_strstr_len (g_bytes_get_data (chrome, NULL), g_bytes_get_size (chrome), "\"traceEvents\""));
  folded = jsui_export_convert (doc, JSUI_EXPORT_FOLDED, &error);
  g_assert_no_error (error);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded),
                                  "load_history_cb;"));

  /* Bad input: an error, no crash. */
  for (JsuiExportFormat f = JSUI_EXPORT_REPORT; f <= JSUI_EXPORT_FOLDED; f++)
    {
      g_autoptr (GBytes) none = jsui_export_convert (bad, f, &error);

      g_assert_null (none);
      g_assert_nonnull (error);
      g_clear_error (&error);
    }

  g_assert_true (jsui_export_format_from_name ("folded", &format));
  g_assert_cmpint (format, ==, JSUI_EXPORT_FOLDED);
  g_assert_false (jsui_export_format_from_name ("pprof", &format));
  name = jsui_export_suggested_name (JSUI_EXPORT_CHROME, "a/b", 42);
  g_assert_cmpstr (name, ==, "a_b-42-trace.json");
}

/* The panel: pause, clear, show all, save (written off the main thread). */
/* A shortcut of @widget (its class's bindings): trigger → action. */
static gboolean
has_shortcut (GtkWidget *widget, const char *trigger, const char *action)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), k);
          g_autofree char *t = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          GtkShortcutAction *a = gtk_shortcut_get_action (shortcut);

          if (g_strcmp0 (t, trigger) == 0 && GTK_IS_NAMED_ACTION (a)
              && g_strcmp0 (gtk_named_action_get_action_name (GTK_NAMED_ACTION (a)), action) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

static void
test_actions (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  g_autoptr (GBytes) doc = ui_test_snapshot_bytes ();
  JsuiWindow *window = jsui_window_new ();
  JsuiPanel *panel = jsui_window_get_panel (window);
  const JsrReportEvent *ev2 = jsui_snapshot_find_event (snap, 2);
  g_autofree char *dir = g_dir_make_tmp ("jsui-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.json", NULL);
  g_autoptr (GFile) dest = g_file_new_for_path (path);
  g_autofree char *saved = NULL;
  gint64 deadline;
  JsuiFrameStats fs;

  jsui_panel_set_document (panel, doc);
  jsui_panel_set_snapshot (panel, snap);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 3);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "status"), ==, "2 stall events, 1 frame event");
  g_assert_cmpstr (jsui_panel_get_metric (panel, "ui"), !=, NULL);

  /* Pause: the property, the action, the status. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "panel.pause", NULL));
  g_assert_true (jsui_panel_get_paused (panel));
  g_assert_cmpstr (jsui_panel_get_metric (panel, "status"), ==,
                   "Paused — 2 stall events, 1 frame event");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "panel.pause", NULL));
  g_assert_false (jsui_panel_get_paused (panel));

  /* Clear at the start of event 2: event 1 (ended before) is left out, the
   * header counts the frames after it. */
  jsui_panel_set_baseline (panel, ev2->start_ns);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 2);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "status"), ==,
                   "1 stall event, 1 frame event since Clear");
  jsui_frame_stats_compute (snap->frames, snap->report, ev2->start_ns, &fs);
  g_assert_cmpint (fs.frames, >, 0);
  g_assert_cmpint (fs.frames, <, snap->frames->len);
  {
    g_autofree char *p99 = jsui_format_duration (fs.p99_ns);

    g_assert_cmpstr (jsui_panel_get_metric (panel, "p99"), ==, p99);
  }
  /* Clear (the action): at the snapshot's time, nothing is left. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "panel.clear", NULL));
  g_assert_cmpint (jsui_panel_get_baseline (panel), ==, snap->now_ns);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 0);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "p50"), ==, "–");
  /* Show all. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "panel.show-all", NULL));
  g_assert_cmpint (jsui_panel_get_baseline (panel), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 3);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "p50"), ==, "16.6 ms");

  /* Save: the report document, written in a worker; the outcome shown. */
  g_assert_null (jsui_panel_get_message (panel));
  jsui_panel_actions_write (panel, JSUI_EXPORT_REPORT, dest);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_panel_get_message (panel) == NULL && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpstr (jsui_panel_get_message (panel), ==, "Saved saved.json");
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"events\""));
  g_assert_null (strstr (saved, "\"live\""));
  g_unlink (path);
  /* A folder that does not exist: the failure is shown, nothing crashes. */
  {
    g_autofree char *nowhere = g_build_filename (dir, "no", "such", "x.json", NULL);
    g_autoptr (GFile) bad = g_file_new_for_path (nowhere);

    jsui_panel_actions_write (panel, JSUI_EXPORT_CHROME, bad);
    deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
    while (jsui_panel_get_message (panel) == NULL && g_get_monotonic_time () < deadline)
      ui_test_wait_ms (10);
    g_assert_true (g_str_has_prefix (jsui_panel_get_message (panel), "Could not save x.json: "));
  }
  g_rmdir (dir);

  /* The shortcuts the shortcuts window lists are bound where it says. */
  g_assert_true (has_shortcut (GTK_WIDGET (window), "<Control>w", "window.close"));
  g_assert_true (has_shortcut (GTK_WIDGET (window), "<Control>question", "jankscope.shortcuts"));
  g_assert_true (has_shortcut (GTK_WIDGET (panel), "<Control>s", "panel.save-report"));
  g_assert_true (has_shortcut (GTK_WIDGET (panel), "<Control>l", "panel.clear"));
  g_assert_true (has_shortcut (GTK_WIDGET (panel), "<Control>p", "panel.pause"));
  {
    GtkWindow *shortcuts = jsui_shortcuts_window_show (GTK_WINDOW (window));

    g_assert_true (GTK_IS_SHORTCUTS_WINDOW (shortcuts));
    g_assert_true (gtk_window_get_transient_for (shortcuts) == GTK_WINDOW (window));
    gtk_window_destroy (shortcuts);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "jankscope.about", NULL));
  /* Ctrl+W's action closes this window (and only it). */
  {
    GtkWidget *closed = GTK_WIDGET (window);

    g_object_add_weak_pointer (G_OBJECT (closed), (gpointer *) &closed);
    gtk_window_present (GTK_WINDOW (window)); /* an unrealized window does not close */
    ui_test_wait_ms (50);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL));
    ui_test_wait_ms (50);
    g_assert_null (closed);
  }
}

/* The refresher follows its panel: nothing asked while paused; Clear
 * re-parses the last document without the frames before the baseline. */
static void
test_refresh_pause_clear (void)
{
  FakeLive live = { NULL, 1, 0 };
  JsuiPanel *panel = g_object_ref_sink (jsui_panel_new ());
  JsuiRefresher *refresher;
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  const JsrReportEvent *ev2 = jsui_snapshot_find_event (snap, 2);
  JsuiFrameStats fs;
  gint64 deadline;
  guint calls;

  live.bytes = ui_test_snapshot_bytes ();
  refresher = jsui_refresher_new (panel, fake_source, &live, 20);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_refresher_get_n_shown (refresher) < 1 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 1);
  g_assert_nonnull (jsui_panel_get_document (panel));
  g_assert_cmpuint (jsui_timeline_get_n_frames (jsui_panel_get_timeline (panel)), ==,
                    snap->frames->len);

  /* Paused: the source is not even called, a new generation not shown. */
  jsui_panel_set_paused (panel, TRUE);
  calls = live.calls;
  live.generation = 2;
  ui_test_wait_ms (150);
  g_assert_cmpuint (live.calls, ==, calls);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 1);
  /* Resumed: at once. */
  jsui_panel_set_paused (panel, FALSE);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_refresher_get_n_shown (refresher) < 2 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 2);

  /* Clear: the same generation parsed again, the older frames dropped. */
  jsui_frame_stats_compute (snap->frames, snap->report, ev2->start_ns, &fs);
  jsui_panel_set_baseline (panel, ev2->start_ns);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (jsui_refresher_get_n_shown (refresher) < 3 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_cmpuint (jsui_refresher_get_n_shown (refresher), ==, 3);
  g_assert_cmpuint (jsui_timeline_get_n_frames (jsui_panel_get_timeline (panel)), ==, fs.frames);
  g_assert_cmpuint (g_list_model_get_n_items (jsui_panel_get_events (panel)), ==, 2);

  jsui_refresher_free (refresher);
  g_bytes_unref (live.bytes);
  g_object_unref (panel);
}

/* The Inspector page: a panel, refreshed only while mapped. */
static void
test_inspector_page (void)
{
  FakeLive live = { NULL, 1, 0 };
  GtkWidget *window = gtk_window_new ();
  JsuiInspectorPage *page;
  GListModel *events;
  g_autofree char *title = NULL;
  GIOExtensionPoint *point;
  gint64 deadline;

  live.bytes = ui_test_snapshot_bytes ();
  jsui_inspector_page_register (fake_source, &live);
  jsui_inspector_page_register (fake_source, &live); /* once */
  point = g_io_extension_point_lookup ("gtk-inspector-page");
  g_assert_nonnull (point);
  g_assert_true (g_io_extension_point_get_extension_by_name (point, JSUI_INSPECTOR_PAGE_NAME)
                 != NULL);
  g_assert_true (g_io_extension_get_type (
                     g_io_extension_point_get_extension_by_name (point, JSUI_INSPECTOR_PAGE_NAME))
                 == JSUI_TYPE_INSPECTOR_PAGE);

  page = g_object_new (JSUI_TYPE_INSPECTOR_PAGE, NULL);
  g_object_get (page, "title", &title, NULL);
  g_assert_cmpstr (title, ==, "jankscope");
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_assert_false (jsui_inspector_page_is_refreshing (page));
  g_assert_cmpuint (live.calls, ==, 0);
  gtk_window_present (GTK_WINDOW (window));
  events = jsui_panel_get_events (jsui_inspector_page_get_panel (page));
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (g_list_model_get_n_items (events) == 0 && g_get_monotonic_time () < deadline)
    ui_test_wait_ms (10);
  g_assert_true (jsui_inspector_page_is_refreshing (page));
  g_assert_cmpuint (g_list_model_get_n_items (events), ==, 3);
  gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
  g_assert_false (jsui_inspector_page_is_refreshing (page));
  gtk_window_destroy (GTK_WINDOW (window));
  g_bytes_unref (live.bytes);
}

/* The window in Chinese: every string of the panel translated (no English
 * left in the header, the status, the pages), and its screenshot. */
static void
test_screenshot_zh (void)
{
  g_autoptr (JsuiSnapshot) snap = ui_test_load_snapshot ();
  JsuiWindow *window = jsui_window_new ();
  JsuiPanel *panel = jsui_window_get_panel (window);
  GtkStack *pages = jsui_panel_get_pages (panel);
  g_autoptr (GtkSelectionModel) titles = gtk_stack_get_pages (pages);

  g_assert_cmpstr (g_getenv ("LANGUAGE"), ==, "zh_CN");
  jsui_window_set_snapshot (window, snap);
  g_assert_cmpstr (jsui_panel_get_metric (panel, "status"), ==, "2 个停顿事件，1 个帧事件");
  jsui_panel_set_paused (panel, TRUE);
  g_assert_true (g_str_has_prefix (jsui_panel_get_metric (panel, "status"), "已暂停"));
  jsui_panel_set_paused (panel, FALSE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (titles)); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (titles), i);
      GtkStackPage *page = GTK_STACK_PAGE (item);
      const char *title = gtk_stack_page_get_title (page);

      g_test_message ("page %s: %s", gtk_stack_page_get_name (page), title);
      /* Translated: not plain ASCII any more. */
      g_assert_false (g_str_is_ascii (title));
    }
  gtk_window_destroy (GTK_WINDOW (window));
  test_screenshot ();
}

int
main (int argc, char **argv)
{
  /* The strings compared are the untranslated ones, but in
   * /inspector/screenshot-zh (JSUI_TEST_LANGUAGE=zh_CN, the catalogue in
   * JSUI_TEST_LOCALEDIR: the build tree's po/). */
  const char *language = g_getenv ("JSUI_TEST_LANGUAGE");

  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_setenv ("LANGUAGE", language != NULL ? language : "C", TRUE);
  if (g_getenv ("JSUI_TEST_LOCALEDIR") != NULL)
    bindtextdomain (GETTEXT_PACKAGE, g_getenv ("JSUI_TEST_LOCALEDIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/inspector/flame-layout", test_flame_layout);
  g_test_add_func ("/inspector/snapshot-parse", test_snapshot_parse);
  g_test_add_func ("/inspector/frame-stats", test_frame_stats);
  g_test_add_func ("/inspector/ui-cost", test_ui_cost);
  g_test_add_func ("/inspector/shortcut-parse", test_shortcut_parse);
  g_test_add_func ("/inspector/export", test_export);
  if (gtk_init_check ())
    {
      g_test_add_func ("/inspector/templates", test_templates);
      g_test_add_func ("/inspector/models", test_models);
      g_test_add_func ("/inspector/select", test_select);
      g_test_add_func ("/inspector/timeline-click", test_timeline_click);
      g_test_add_func ("/inspector/panel", test_panel);
      g_test_add_func ("/inspector/actions", test_actions);
      g_test_add_func ("/inspector/refresh-pause-clear", test_refresh_pause_clear);
      g_test_add_func ("/inspector/inspector-page", test_inspector_page);
      g_test_add_func ("/inspector/refresh", test_refresh);
      g_test_add_func ("/inspector/screenshot", test_screenshot);
      g_test_add_func ("/inspector/pane-ratio", test_pane_ratio);
      g_test_add_func ("/inspector/screenshot-zh", test_screenshot_zh);
    }
  else
    g_printerr ("no display: the window's tests are not run\n");
  return g_test_run ();
}
