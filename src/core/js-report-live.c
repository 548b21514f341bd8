/* js-report-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-live.h"
#include "js-mainloop.h"

static void
member_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

void
js_report_add_live (JsonBuilder *b, const JsFrameDetector *frames, JsWatchdog *watchdog,
                    gint64 now_ns, gint64 start_ns, gint64 collector_cpu_ns)
{
  g_autoptr (GArray) recent = g_array_new (FALSE, FALSE, sizeof (JsRecentFrame));
  gint64 stuck = js_mainloop_stuck_since ();

  js_frame_detector_recent (frames, now_ns - JS_REPORT_LIVE_FRAMES_NS, recent);
  json_builder_set_member_name (b, "live");
  json_builder_begin_object (b);
  member_int (b, "now_ns", now_ns);
  /* How long the main thread has been out of poll (0: it waits, as it
   * should): a hang in progress shows here before any event. */
  member_int (b, "stuck_ns", stuck != 0 ? MAX (0, now_ns - stuck) : 0);

  /* Compact: [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6]]
   * per frame, oldest first. flags: 1 slow, 2 frozen, 4 animating. */
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint i = 0; i < recent->len; i++)
    {
      const JsRecentFrame *f = &g_array_index (recent, JsRecentFrame, i);

      json_builder_begin_array (b);
      json_builder_add_int_value (b, f->end_ns);
      json_builder_add_int_value (b, f->frame_ns);
      json_builder_add_int_value (b, f->budget_us);
      json_builder_add_int_value (b, f->window);
      json_builder_add_int_value (b, f->flags);
      json_builder_begin_array (b);
      for (guint p = 0; p < JS_N_PHASES; p++)
        json_builder_add_int_value (b, f->phase_us[p]);
      json_builder_end_array (b);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "overhead");
  json_builder_begin_object (b);
  member_int (b, "monitored_ns", now_ns - start_ns);
  member_int (b, "collector_cpu_ns", collector_cpu_ns);
  if (watchdog != NULL)
    {
      JsWatchdogStats ws;

      js_watchdog_get_stats (watchdog, &ws);
      member_int (b, "watchdog_cpu_ns", ws.thread_cpu_ns);
      member_int (b, "signal_handler_ns", ws.handler_ns_total);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}
