/* js-report-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-live.h"
#include "js-mainloop.h"
#include "js-names.h"
#include "js-json-writer.h"

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
add_dispatches (JsJsonWriter *b, const JsRecentFrame *f, JsCallbackNames *callback_names,
                StringTable *strings)
{
  gboolean slow = (f->flags & JS_RECENT_FRAME_SLOW) != 0;
  guint n = 0;

  for (guint i = 0; i < f->n_dispatches; i++)
    n += slow || f->dispatches[i].duration_us >= JS_REPORT_LIVE_MIN_DISPATCH_US;
  if (n == 0)
    return; /* the member is left out */
  js_json_writer_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const JsRecentDispatch *x = &f->dispatches[i]; /* longest first */

      js_json_writer_begin_array (b);
      js_json_writer_int (b, string_index (strings, js_names_get (x->name_id)));
      js_json_writer_int (
          b, string_index (strings, js_callback_names_lookup (callback_names, x->code)));
      js_json_writer_int (b, x->duration_us);
      js_json_writer_int (b, x->offset_us);
      js_json_writer_end_array (b);
    }
  js_json_writer_end_array (b);
}

void
js_report_add_live (JsJsonWriter *b, const JsFrameMetrics *frames, JsCallbackNames *callback_names,
                    JsWatchdog *watchdog, gint64 now_ns, gint64 start_ns, gint64 collector_cpu_ns)
{
  g_autoptr (GArray) recent = g_array_new (FALSE, FALSE, sizeof (JsRecentFrame));
  gint64 stuck = js_mainloop_stuck_since ();
  StringTable strings = {
    g_hash_table_new (g_str_hash, g_str_equal),
    g_ptr_array_new (),
  };

  js_frame_metrics_recent (frames, now_ns - JS_REPORT_LIVE_FRAMES_NS, recent);
  js_json_writer_member (b, "live");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "now_ns", now_ns);
  /* How long the main thread has been out of poll (0: it waits, as it
   * should): a hang in progress shows here before any event. */
  js_json_writer_member_int (b, "stuck_ns", stuck != 0 ? MAX (0, now_ns - stuck) : 0);

  /* Compact: [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6],
   * dispatches?] per frame, oldest first. flags: 1 slow, 2 frozen, 4
   * animating. dispatches: [[source, callback, own_us, offset_us], ...],
   * longest first, source and callback indexing live.strings (-1: null). */
  js_json_writer_member (b, "frames");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < recent->len; i++)
    {
      const JsRecentFrame *f = &g_array_index (recent, JsRecentFrame, i);

      js_json_writer_begin_array (b);
      js_json_writer_int (b, f->end_ns);
      js_json_writer_int (b, f->frame_ns);
      js_json_writer_int (b, f->budget_us);
      js_json_writer_int (b, f->window);
      js_json_writer_int (b, f->flags);
      js_json_writer_begin_array (b);
      for (guint p = 0; p < JS_N_PHASES; p++)
        js_json_writer_int (b, f->phase_us[p]);
      js_json_writer_end_array (b);
      add_dispatches (b, f, callback_names, &strings);
      js_json_writer_end_array (b);
    }
  js_json_writer_end_array (b);

  /* Names and symbols are interned for the run (js-names.c, js-callback-names.c):
   * the borrowed strings outlive this call. */
  js_json_writer_member (b, "strings");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < strings.strings->len; i++)
    js_json_writer_string (b, g_ptr_array_index (strings.strings, i));
  js_json_writer_end_array (b);
  g_hash_table_unref (strings.index);
  g_ptr_array_unref (strings.strings);

  js_json_writer_member (b, "overhead");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "monitored_ns", now_ns - start_ns);
  js_json_writer_member_int (b, "collector_cpu_ns", collector_cpu_ns);
  if (watchdog != NULL)
    {
      JsWatchdogStats ws;

      js_watchdog_get_stats (watchdog, &ws);
      js_json_writer_member_int (b, "watchdog_cpu_ns", ws.thread_cpu_ns);
      js_json_writer_member_int (b, "signal_handler_ns", ws.handler_ns_total);
    }
  js_json_writer_end_object (b);
  js_json_writer_end_object (b);
}
