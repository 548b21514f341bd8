/* js-report-context.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-context.h"
#include "js-focus.h"
#include "js-install-id.h"
#include "js-json.h"

#include <math.h>

/* `value` rounded to `decimals`, or null when negative (unknown). */
static void
member_double (JsonBuilder *b, const char *name, double value, int decimals)
{
  double scale = pow (10, decimals);

  json_builder_set_member_name (b, name);
  if (value >= 0)
    json_builder_add_double_value (b, round (value * scale) / scale);
  else
    json_builder_add_null_value (b);
}

static void
add_mark (JsonBuilder *b, JsContext *c, const JsMark *m, gboolean depth)
{
  gint64 end = m->end_ns != 0 ? m->end_ns : js_context_mark_end (c, m->seq);

  json_builder_begin_object (b);
  js_json_member_int (b, "id", m->seq);
  js_json_member_string (b, "name", js_labels_get (js_marks_labels (), m->name_id));
  js_json_member_int (b, "start_ns", m->start_ns);
  json_builder_set_member_name (b, "end_ns");
  if (end != 0)
    json_builder_add_int_value (b, end);
  else
    json_builder_add_null_value (b);
  if (depth)
    js_json_member_int (b, "depth", m->depth);
  json_builder_end_object (b);
}

void
js_report_add_event_context (JsonBuilder *b, JsContext *c, const JsEvent *e)
{
  JsEventContext scratch;
  const JsEventContext *x = js_context_of (c, e, &scratch);

  js_json_member_string (b, "scene", js_labels_get (js_scenes_labels (), x->scene));
  json_builder_set_member_name (b, "marks");
  json_builder_begin_array (b);
  for (guint i = 0; i < x->n_marks; i++)
    add_mark (b, c, &x->marks[i], FALSE);
  json_builder_end_array (b);
  js_json_member_int (b, "marks_omitted", x->marks_omitted);

  json_builder_set_member_name (b, "context");
  json_builder_begin_object (b);
  member_double (b, "process_cpu_pct", x->have_resources ? x->resources.cpu_pct : -1, 1);
  member_double (b, "load_avg_1m", x->have_resources ? x->resources.load1 : -1, 2);
  json_builder_set_member_name (b, "mem_available_kb");
  if (x->have_resources && x->resources.mem_kb >= 0)
    json_builder_add_int_value (b, x->resources.mem_kb);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "startup");
  json_builder_add_boolean_value (b, x->startup);
  js_json_member_string (b, "window_title",
                         c->config->scrub ? NULL : js_labels_get (js_focus_titles (), x->title));
  json_builder_end_object (b);
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const JsMark *x = *(const JsMark *const *) a, *y = *(const JsMark *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

void
js_report_add_context (JsonBuilder *b, JsContext *c)
{
  g_autoptr (GPtrArray) marks = g_ptr_array_new ();
  JsScenesCounters n;
  const char *rule;
  gint64 startup_end;

  js_json_member_string (b, "install_id", js_install_id ());
  json_builder_set_member_name (b, "install_share");
  json_builder_add_double_value (b, c->config->install_share);
  json_builder_set_member_name (b, "scrubbed");
  json_builder_add_boolean_value (b, c->config->scrub);

  rule = js_context_startup_rule (c, &startup_end);
  json_builder_set_member_name (b, "startup");
  json_builder_begin_object (b);
  js_json_member_string (b, "rule", rule);
  json_builder_set_member_name (b, "end_ns");
  if (startup_end != 0)
    json_builder_add_int_value (b, startup_end);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);

  for (guint i = 0; i < c->done_len; i++)
    g_ptr_array_add (marks, &c->done[(c->done_first + i) % JS_CONTEXT_MARKS]);
  for (guint i = 0; i < c->n_open; i++)
    if (c->open[i].seq != 0)
      g_ptr_array_add (marks, &c->open[i]);
  g_ptr_array_sort (marks, by_start);
  json_builder_set_member_name (b, "marks");
  json_builder_begin_array (b);
  for (guint i = 0; i < marks->len; i++)
    add_mark (b, c, g_ptr_array_index (marks, i), TRUE);
  json_builder_end_array (b);

  js_scenes_counters (&n);
  json_builder_set_member_name (b, "annotations");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "api");
  json_builder_add_boolean_value (b, js_scenes_api_published ());
  js_json_member_int (b, "scenes_pushed", (gint64) n.scenes_pushed);
  js_json_member_int (b, "marks_begun", (gint64) n.marks_begun);
  js_json_member_int (b, "marks_ended", (gint64) c->marks_ended);
  js_json_member_int (b, "marks_dropped", (gint64) (c->marks_ended - c->done_len));
  js_json_member_int (b, "marks_lost", (gint64) c->marks_lost);
  js_json_member_int (b, "calls_other_thread", (gint64) n.other_thread);
  js_json_member_int (b, "calls_unbalanced", (gint64) n.unbalanced);
  js_json_member_int (b, "too_deep", (gint64) n.too_deep);
  js_json_member_int (b, "labels_overflow", (gint64) n.labels_overflow);
  js_json_member_int (b, "titles_overflow", (gint64) js_labels_overflows (js_focus_titles ()));
  json_builder_end_object (b);
}
