/* js-report-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-live.h"
#include "js-mainloop.h"
#include "js-names.h"
#include "js-json.h"

/* Frames name their dispatches' source and callback by index into
 * live.strings: a frame's row stays a few numbers. */
typedef struct
{
  GHashTable *index; /* string -> position + 1 (borrowed strings) */
  GPtrArray *strings;
} StringTable;

static gint64
string_index (StringTable *t, const char *s)
{
  gpointer pos;

  if (s == NULL)
    return -1;
  pos = g_hash_table_lookup (t->index, s);
  if (pos == NULL)
    {
      g_ptr_array_add (t->strings, (gpointer) s);
      pos = GUINT_TO_POINTER (t->strings->len);
      g_hash_table_insert (t->index, (gpointer) s, pos);
    }
  return (gint64) GPOINTER_TO_UINT (pos) - 1;
}

static void
add_dispatches (JsonBuilder *b, const JsRecentFrame *f, JsCallbackNames *callback_names,
                StringTable *strings)
{
  gboolean slow = (f->flags & JS_RECENT_FRAME_SLOW) != 0;
  guint n = 0;

  for (guint i = 0; i < f->n_dispatches; i++)
    n += slow || f->dispatches[i].duration_us >= JS_REPORT_LIVE_MIN_DISPATCH_US;
  if (n == 0)
    return; /* the member is left out */
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const JsRecentDispatch *x = &f->dispatches[i]; /* longest first */

      json_builder_begin_array (b);
      json_builder_add_int_value (b, string_index (strings, js_names_get (x->name_id)));
      json_builder_add_int_value (
          b, string_index (strings, js_callback_names_lookup (callback_names, x->code)));
      json_builder_add_int_value (b, x->duration_us);
      json_builder_add_int_value (b, x->offset_us);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
}

void
js_report_add_live (JsonBuilder *b, const JsFrameMetrics *frames, JsCallbackNames *callback_names,
                    JsWatchdog *watchdog, gint64 now_ns, gint64 start_ns, gint64 collector_cpu_ns)
{
  g_autoptr (GArray) recent = g_array_new (FALSE, FALSE, sizeof (JsRecentFrame));
  gint64 stuck = js_mainloop_stuck_since ();
  StringTable strings = {
    g_hash_table_new (g_str_hash, g_str_equal),
    g_ptr_array_new (),
  };

  js_frame_metrics_recent (frames, now_ns - JS_REPORT_LIVE_FRAMES_NS, recent);
  json_builder_set_member_name (b, "live");
  json_builder_begin_object (b);
  js_json_member_int (b, "now_ns", now_ns);
  /* How long the main thread has been out of poll (0: it waits, as it
   * should): a hang in progress shows here before any event. */
  js_json_member_int (b, "stuck_ns", stuck != 0 ? MAX (0, now_ns - stuck) : 0);

  /* Compact: [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6],
   * dispatches?] per frame, oldest first. flags: 1 slow, 2 frozen, 4
   * animating. dispatches: [[source, callback, own_us, offset_us], ...],
   * longest first, source and callback indexing live.strings (-1: null). */
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
      add_dispatches (b, f, callback_names, &strings);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);

  /* Names and symbols are interned for the run (js-names.c, js-callback-names.c):
   * the borrowed strings outlive this call. */
  json_builder_set_member_name (b, "strings");
  json_builder_begin_array (b);
  for (guint i = 0; i < strings.strings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (strings.strings, i));
  json_builder_end_array (b);
  g_hash_table_unref (strings.index);
  g_ptr_array_unref (strings.strings);

  json_builder_set_member_name (b, "overhead");
  json_builder_begin_object (b);
  js_json_member_int (b, "monitored_ns", now_ns - start_ns);
  js_json_member_int (b, "collector_cpu_ns", collector_cpu_ns);
  if (watchdog != NULL)
    {
      JsWatchdogStats ws;

      js_watchdog_get_stats (watchdog, &ws);
      js_json_member_int (b, "watchdog_cpu_ns", ws.thread_cpu_ns);
      js_json_member_int (b, "signal_handler_ns", ws.handler_ns_total);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
}
