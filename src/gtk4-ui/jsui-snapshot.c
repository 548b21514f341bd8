/* jsui-snapshot.c
 *
 * The report members go through the CLI's reader (the same checks as for a
 * file: a snapshot is untrusted input like any report); `live` is read here
 * with json-glib, bounded, every member optional.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "jsui-format.h"
#include "jsui-snapshot.h"

/* The timeline shows the recent past only. */
#define JSUI_MAX_FRAMES 4096
/* live.strings: names of the frames' dispatches (3 per frame at most). */
#define JSUI_MAX_STRINGS (2 * JSUI_FRAME_MAX_DISPATCHES * JSUI_MAX_FRAMES)
#define JSUI_MAX_STRING 1024

static gint64
member_int (JsonObject *o, const char *name, gint64 fallback)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE)
    return fallback;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return json_node_get_int (n);
  if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    return (gint64)json_node_get_double (n);
  return fallback;
}

static JsonObject *
member_object (JsonObject *o, const char *name)
{
  JsonNode *n = o != NULL ? json_object_get_member (o, name) : NULL;

  return n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static gint64
element_int (JsonArray *a, guint i)
{
  JsonNode *n = i < json_array_get_length (a) ? json_array_get_element (a, i) : NULL;

  if (n == NULL || JSON_NODE_TYPE (n) != JSON_NODE_VALUE
      || json_node_get_value_type (n) != G_TYPE_INT64)
    return -1;
  return json_node_get_int (n);
}

/* A slow frame belongs to the jank event it overlaps (events by start). */
static void
link_frames_to_events (JsuiSnapshot *snap)
{
  GPtrArray *events = snap->report->events;

  for (guint i = 0; i < snap->frames->len; i++)
    {
      JsuiFrame *f = &g_array_index (snap->frames, JsuiFrame, i);
      gint64 start = f->end_ns - f->duration_ns;

      if (jsui_frame_tier (f->duration_ns, f->budget_ns) == JSUI_TIER_OK)
        continue;
      for (guint e = 0; e < events->len; e++)
        {
          const CliReportEvent *ev = g_ptr_array_index (events, e);
          gint64 ev_end = ev->detail != NULL && ev->detail->end_ns > 0
                              ? ev->detail->end_ns
                              : ev->start_ns + ev->duration_ns;

          if (ev->start_ns < f->end_ns && ev_end > start)
            {
              f->event_id = ev->id;
              break;
            }
        }
    }
}

static const char *
string_at (JsuiSnapshot *snap, gint64 i)
{
  return i >= 0 && i < snap->strings->len ? g_ptr_array_index (snap->strings, i) : NULL;
}

static void
read_strings (JsuiSnapshot *snap, JsonObject *live)
{
  JsonNode *n = json_object_get_member (live, "strings");
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return;
  a = json_node_get_array (n);
  for (guint i = 0; i < MIN (json_array_get_length (a), JSUI_MAX_STRINGS); i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      const char *s = JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_STRING
                          ? json_node_get_string (e)
                          : NULL;

      /* Untrusted: valid UTF-8 only, bounded (a bad one reads as null). */
      if (s != NULL && g_utf8_validate (s, -1, NULL) && strlen (s) <= JSUI_MAX_STRING)
        g_ptr_array_add (snap->strings, g_strdup (s));
      else
        g_ptr_array_add (snap->strings, NULL);
    }
}

/* [[source, callback, own_us, offset_us], ...] */
static void
read_frame_dispatches (JsuiSnapshot *snap, JsuiFrame *f, JsonArray *fa)
{
  JsonNode *n = json_array_get_length (fa) > 6 ? json_array_get_element (fa, 6) : NULL;
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a) && f->n_dispatches < JSUI_FRAME_MAX_DISPATCHES;
       i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      JsonArray *da;
      gint64 own_us, offset_us;
      JsuiFrameDispatch *d;

      if (!JSON_NODE_HOLDS_ARRAY (e))
        continue;
      da = json_node_get_array (e);
      own_us = element_int (da, 2);
      offset_us = element_int (da, 3);
      if (own_us < 0 || own_us > G_MAXINT64 / 1000 || offset_us < 0
          || offset_us > G_MAXINT64 / 1000)
        continue;
      d = &f->dispatches[f->n_dispatches++];
      d->source = string_at (snap, element_int (da, 0));
      d->callback = string_at (snap, element_int (da, 1));
      d->duration_ns = own_us * 1000;
      d->offset_ns = offset_us * 1000;
    }
}

static void
read_frame_phases (JsuiFrame *f, JsonArray *fa)
{
  JsonNode *n = json_array_get_length (fa) > 5 ? json_array_get_element (fa, 5) : NULL;
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n))
    return;
  a = json_node_get_array (n);
  for (guint p = 0; p < JSUI_N_PHASES; p++)
    {
      gint64 us = element_int (a, p);

      f->phase_ns[p] = us > 0 && us < G_MAXINT64 / 1000 ? us * 1000 : 0;
    }
}

/* live (src/core/js-report-live.c): frames are compact arrays
 * [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6], dispatches?],
 * oldest first; strings name the dispatches; overhead holds jankscope's CPU
 * time (collector, watchdog, signal handler) over monitored_ns. */
static void
read_live (JsuiSnapshot *snap, JsonObject *live)
{
  JsonNode *frames = json_object_get_member (live, "frames");
  JsonObject *overhead = member_object (live, "overhead");

  snap->has_live = TRUE;
  read_strings (snap, live);
  snap->now_ns = member_int (live, "now_ns", 0);
  snap->stall_ns = MAX (0, member_int (live, "stuck_ns", 0));
  if (overhead != NULL)
    {
      gint64 monitored = member_int (overhead, "monitored_ns", 0);
      gint64 cpu = 0;
      const char *const parts[] = { "collector_cpu_ns", "watchdog_cpu_ns", "signal_handler_ns" };

      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        cpu += MAX (0, member_int (overhead, parts[i], 0));
      snap->overhead_cpu_ns = cpu;
      if (monitored > 0)
        snap->overhead_cpu_pct = 100.0 * (double)cpu / (double)monitored;
    }

  if (frames != NULL && JSON_NODE_HOLDS_ARRAY (frames))
    {
      JsonArray *a = json_node_get_array (frames);
      guint n = json_array_get_length (a);
      guint first = n > JSUI_MAX_FRAMES ? n - JSUI_MAX_FRAMES : 0;

      for (guint i = first; i < n; i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          JsonArray *fa;
          JsuiFrame f = { 0 };
          gint64 budget_us;

          if (!JSON_NODE_HOLDS_ARRAY (e))
            continue;
          fa = json_node_get_array (e);
          f.end_ns = element_int (fa, 0);
          f.duration_ns = element_int (fa, 1);
          budget_us = element_int (fa, 2);
          f.budget_ns = budget_us > 0 && budget_us < G_MAXINT64 / 1000 ? budget_us * 1000 : 0;
          f.window = (guint)CLAMP (element_int (fa, 3), 0, G_MAXUINT);
          f.flags = (guint)CLAMP (element_int (fa, 4), 0, G_MAXUINT);
          if (f.end_ns < 0 || f.duration_ns < 0)
            continue;
          read_frame_phases (&f, fa);
          read_frame_dispatches (snap, &f, fa);
          g_array_append_val (snap->frames, f);
        }
    }
  link_frames_to_events (snap);
}

static void
build_trees (JsuiSnapshot *snap)
{
  GPtrArray *events = snap->report->events;

  for (guint i = 0; i < events->len; i++)
    {
      const CliReportEvent *ev = g_ptr_array_index (events, i);
      JsuiStackTree *tree = NULL;

      if (ev->detail != NULL && ev->detail->stacks->len > 0)
        tree = jsui_stack_tree_from_event (ev);
      g_ptr_array_add (snap->trees_top_down, tree);
      g_ptr_array_add (snap->trees_bottom_up,
                       tree != NULL ? jsui_stack_tree_bottom_up (tree) : NULL);
    }
}

static void
tree_unref0 (gpointer tree)
{
  if (tree != NULL)
    jsui_stack_tree_unref (tree);
}

static void
snapshot_clear (gpointer data)
{
  JsuiSnapshot *snap = data;

  g_clear_pointer (&snap->report, cli_report_free);
  g_clear_pointer (&snap->frames, g_array_unref);
  g_clear_pointer (&snap->strings, g_ptr_array_unref);
  g_clear_pointer (&snap->trees_top_down, g_ptr_array_unref);
  g_clear_pointer (&snap->trees_bottom_up, g_ptr_array_unref);
}

JsuiSnapshot *
jsui_snapshot_parse (const char *data, gsize length, GError **error)
{
  g_autoptr (CliReport) report = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsuiSnapshot *snap;
  JsonNode *root;

  g_return_val_if_fail (data != NULL, NULL);

  report = cli_report_load_full_from_data (data, length, error);
  if (report == NULL)
    return NULL;

  snap = g_atomic_rc_box_new0 (JsuiSnapshot);
  snap->report = g_steal_pointer (&report);
  snap->frames = g_array_new (FALSE, FALSE, sizeof (JsuiFrame));
  snap->strings = g_ptr_array_new_with_free_func (g_free);
  snap->trees_top_down = g_ptr_array_new_with_free_func (tree_unref0);
  snap->trees_bottom_up = g_ptr_array_new_with_free_func (tree_unref0);
  snap->overhead_cpu_pct = -1;
  snap->overhead_cpu_ns = -1;

  /* Parsed twice: the reader keeps no DOM. The `live` member is small next
   * to the events, and this runs in a worker thread. */
  parser = json_parser_new_immutable ();
  if (json_parser_load_from_data (parser, data, (gssize)length, NULL)
      && (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *live = member_object (json_node_get_object (root), "live");

      if (live != NULL)
        read_live (snap, live);
    }
  build_trees (snap);
  return snap;
}

JsuiSnapshot *
jsui_snapshot_ref (JsuiSnapshot *snapshot)
{
  return g_atomic_rc_box_acquire (snapshot);
}

void
jsui_snapshot_unref (JsuiSnapshot *snapshot)
{
  g_atomic_rc_box_release_full (snapshot, snapshot_clear);
}

const CliReportEvent *
jsui_snapshot_find_event (const JsuiSnapshot *snapshot, gint64 id)
{
  for (guint i = 0; i < snapshot->report->events->len; i++)
    {
      const CliReportEvent *ev = g_ptr_array_index (snapshot->report->events, i);

      if (ev->id == id)
        return ev;
    }
  return NULL;
}

const char *
jsui_phase_name (JsuiPhase phase)
{
  static const char *const names[]
      = { "flush-events", "before-paint", "update", "layout", "paint", "after-paint" };

  return phase < JSUI_N_PHASES ? names[phase] : "?";
}

JsuiStackTree *
jsui_snapshot_get_tree (const JsuiSnapshot *snapshot, const CliReportEvent *event,
                        gboolean bottom_up)
{
  GPtrArray *trees = bottom_up ? snapshot->trees_bottom_up : snapshot->trees_top_down;

  for (guint i = 0; i < snapshot->report->events->len && i < trees->len; i++)
    if (g_ptr_array_index (snapshot->report->events, i) == event)
      return g_ptr_array_index (trees, i);
  return NULL;
}

/* The first frame ending at or after t. */
static guint
lower_bound (GArray *frames, gint64 t)
{
  guint lo = 0, hi = frames->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (frames, JsuiFrame, mid).end_ns < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
jsui_snapshot_frames_between (const JsuiSnapshot *snapshot, gint64 from_ns, gint64 to_ns,
                              guint *first, guint *last)
{
  guint a, b;

  if (from_ns > to_ns)
    return FALSE;
  a = lower_bound (snapshot->frames, from_ns);
  b = lower_bound (snapshot->frames, to_ns == G_MAXINT64 ? to_ns : to_ns + 1);
  if (a >= b)
    return FALSE;
  *first = a;
  *last = b - 1;
  return TRUE;
}
