/* js-report-context.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-context.h"
#include "js-focus.h"
#include "js-install-id.h"
#include "js-json-writer.h"

#include <math.h>

/* `value` rounded to `decimals`, or null when negative (unknown). */
static void
member_double (JsJsonWriter *b, const char *name, double value, int decimals)
{
  double scale = pow (10, decimals);

  js_json_writer_member (b, name);
  if (value >= 0)
    js_json_writer_double (b, round (value * scale) / scale);
  else
    js_json_writer_null (b);
}

static void
add_mark (JsJsonWriter *b, JsContext *c, const JsMark *m, gboolean depth)
{
  gint64 end = m->end_ns != 0 ? m->end_ns : js_context_mark_end (c, m->seq);

  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "id", m->seq);
  js_json_writer_member_string (b, "name", js_labels_get (js_marks_labels (), m->name_id));
  js_json_writer_member_int (b, "start_ns", m->start_ns);
  js_json_writer_member (b, "end_ns");
  if (end != 0)
    js_json_writer_int (b, end);
  else
    js_json_writer_null (b);
  if (depth)
    js_json_writer_member_int (b, "depth", m->depth);
  js_json_writer_end_object (b);
}

void
js_report_add_event_context (JsJsonWriter *b, JsContext *c, const JsEvent *e)
{
  JsEventContext scratch;
  const JsEventContext *x = js_context_of (c, e, &scratch);

  js_json_writer_member_string (b, "scene", js_labels_get (js_scenes_labels (), x->scene));
  js_json_writer_member (b, "marks");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < x->n_marks; i++)
    add_mark (b, c, &x->marks[i], FALSE);
  js_json_writer_end_array (b);
  js_json_writer_member_int (b, "marks_omitted", x->marks_omitted);

  js_json_writer_member (b, "context");
  js_json_writer_begin_object (b);
  member_double (b, "process_cpu_pct", x->have_resources ? x->resources.cpu_pct : -1, 1);
  member_double (b, "load_avg_1m", x->have_resources ? x->resources.load1 : -1, 2);
  js_json_writer_member (b, "mem_available_kb");
  if (x->have_resources && x->resources.mem_kb >= 0)
    js_json_writer_int (b, x->resources.mem_kb);
  else
    js_json_writer_null (b);
  js_json_writer_member (b, "startup");
  js_json_writer_bool (b, x->startup);
  js_json_writer_member_string (
      b, "window_title", c->config->scrub ? NULL : js_labels_get (js_focus_titles (), x->title));
  js_json_writer_end_object (b);
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const JsMark *x = *(const JsMark *const *) a, *y = *(const JsMark *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

void
js_report_add_context (JsJsonWriter *b, JsContext *c)
{
  g_autoptr (GPtrArray) marks = g_ptr_array_new ();
  JsScenesCounters n;
  const char *rule;
  gint64 startup_end;

  js_json_writer_member_string (b, "install_id", js_install_id ());
  js_json_writer_member (b, "install_share");
  js_json_writer_double (b, c->config->install_share);
  js_json_writer_member (b, "scrubbed");
  js_json_writer_bool (b, c->config->scrub);

  rule = js_context_startup_rule (c, &startup_end);
  js_json_writer_member (b, "startup");
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "rule", rule);
  js_json_writer_member (b, "end_ns");
  if (startup_end != 0)
    js_json_writer_int (b, startup_end);
  else
    js_json_writer_null (b);
  js_json_writer_end_object (b);

  for (guint i = 0; i < c->done_len; i++)
    g_ptr_array_add (marks, &c->done[(c->done_first + i) % JS_CONTEXT_MARKS]);
  for (guint i = 0; i < c->n_open; i++)
    if (c->open[i].seq != 0)
      g_ptr_array_add (marks, &c->open[i]);
  g_ptr_array_sort (marks, by_start);
  js_json_writer_member (b, "marks");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < marks->len; i++)
    add_mark (b, c, g_ptr_array_index (marks, i), TRUE);
  js_json_writer_end_array (b);

  js_scenes_counters (&n);
  js_json_writer_member (b, "annotations");
  js_json_writer_begin_object (b);
  js_json_writer_member (b, "api");
  js_json_writer_bool (b, js_scenes_api_published ());
  js_json_writer_member_int (b, "scenes_pushed", (gint64) n.scenes_pushed);
  js_json_writer_member_int (b, "marks_begun", (gint64) n.marks_begun);
  js_json_writer_member_int (b, "marks_ended", (gint64) c->marks_ended);
  js_json_writer_member_int (b, "marks_dropped", (gint64) (c->marks_ended - c->done_len));
  js_json_writer_member_int (b, "marks_lost", (gint64) c->marks_lost);
  js_json_writer_member_int (b, "calls_other_thread", (gint64) n.other_thread);
  js_json_writer_member_int (b, "calls_unbalanced", (gint64) n.unbalanced);
  js_json_writer_member_int (b, "too_deep", (gint64) n.too_deep);
  js_json_writer_member_int (b, "labels_overflow", (gint64) n.labels_overflow);
  js_json_writer_member_int (b, "titles_overflow",
                             (gint64) js_labels_overflows (js_focus_titles ()));
  js_json_writer_end_object (b);
}
