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

#include "jsui-format.h"
#include "jsui-snapshot.h"

/* The timeline shows the recent past only. */
#define JSUI_MAX_FRAMES 4096

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

/* live (src/core/js-report-live.c): frames are compact arrays
 * [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6]], oldest
 * first; overhead holds jankscope's CPU time (collector, watchdog, signal
 * handler) over monitored_ns. */
static void
read_live (JsuiSnapshot *snap, JsonObject *live)
{
  JsonNode *frames = json_object_get_member (live, "frames");
  JsonObject *overhead = member_object (live, "overhead");

  snap->has_live = TRUE;
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
          if (f.end_ns < 0 || f.duration_ns < 0)
            continue;
          g_array_append_val (snap->frames, f);
        }
    }
  link_frames_to_events (snap);
}

static void
snapshot_clear (gpointer data)
{
  JsuiSnapshot *snap = data;

  g_clear_pointer (&snap->report, cli_report_free);
  g_clear_pointer (&snap->frames, g_array_unref);
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
