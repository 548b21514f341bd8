/* jsui-snapshot.c
 *
 * The report members go through the reader (src/reader/: the same checks as
 * for a file: a snapshot is untrusted input like any report); `live` is read
 * here from the same parsed document (src/reader/jsr-json-doc.h), bounded,
 * every member optional.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsr-json-doc.h"
#include "jsr-profile.h"
#include <string.h>

#include "jsui-format.h"
#include "jsui-snapshot.h"

/* The timeline shows the recent past only. */
#define JSUI_MAX_FRAMES 4096
/* live.strings: names of the frames' dispatches (3 per frame at most). */
#define JSUI_MAX_STRINGS (2 * JSUI_FRAME_MAX_DISPATCHES * JSUI_MAX_FRAMES)
#define JSUI_MAX_STRING 1024

static gint64
member_int (const JsrJsonNode *o, const char *name, gint64 fallback)
{
  const JsrJsonNode *n = jsr_json_object_get (o, name);

  if (n == NULL)
    return fallback;
  if (n->type == JSR_JSON_INT)
    return n->v.integer;
  if (n->type == JSR_JSON_DOUBLE)
    {
      double d = n->v.number;

      /* casting an out-of-range double (1e300, inf) is undefined */
      if (!(d > -9.0e18 && d < 9.0e18))
        return fallback;
      return (gint64) d;
    }
  return fallback;
}

/* A duration or a count read from the snapshot, clamped once here so that
 * the views' sums and layouts cannot overflow (the document may come from
 * another process): < 0 stays as it is (unknown), larger than JSUI_MAX_NS
 * is JSUI_MAX_NS. */
static gint64
clamp_ns (gint64 ns)
{
  return MIN (ns, JSUI_MAX_NS);
}

/* A time (since the clock's origin): [0, JSUI_MAX_TIME_NS]. */
#define JSUI_MAX_TIME_NS (G_GINT64_CONSTANT (1) << 61)

static gint64
clamp_time (gint64 t)
{
  return CLAMP (t, 0, JSUI_MAX_TIME_NS);
}

/* The report's numbers the views compute with, clamped the same way. */
static void
clamp_report (JsrReport *report)
{
  report->start_ns = clamp_time (report->start_ns);
  for (guint i = 0; report->sources != NULL && i < report->sources->len; i++)
    {
      JsrReportSource *src = g_ptr_array_index (report->sources, i);

      src->count = CLAMP (src->count, 0, G_MAXINT32);
      src->total_ns = CLAMP (src->total_ns, 0, JSUI_MAX_NS);
      src->max_ns = CLAMP (src->max_ns, 0, JSUI_MAX_NS);
      src->p95_ns = CLAMP (src->p95_ns, 0, JSUI_MAX_NS);
    }
  for (guint i = 0; report->events != NULL && i < report->events->len; i++)
    {
      JsrReportEvent *ev = g_ptr_array_index (report->events, i);
      JsrReportEventDetail *d = ev->detail;

      ev->start_ns = clamp_time (ev->start_ns);
      ev->duration_ns = CLAMP (ev->duration_ns, 0, JSUI_MAX_NS);
      if (d == NULL)
        continue;
      d->end_ns = d->end_ns > 0 ? clamp_time (d->end_ns) : d->end_ns;
      for (guint s = 0; d->stacks != NULL && s < d->stacks->len; s++)
        {
          JsrReportStack *st = g_ptr_array_index (d->stacks, s);

          st->count = CLAMP (st->count, 0, G_MAXINT32);
        }
      for (guint s = 0; d->samples != NULL && s < d->samples->len; s++)
        {
          JsrReportSample *sm = &g_array_index (d->samples, JsrReportSample, s);

          sm->t_ns = clamp_time (sm->t_ns);
          sm->last_ns = clamp_time (sm->last_ns);
          sm->count = CLAMP (sm->count, 0, G_MAXINT32);
        }
      /* The profile's and the parts' times (src/reader/jsr-profile.h). */
      for (guint n = 0; d->profile != NULL && n < d->profile->nodes->len; n++)
        {
          JsrProfileNode *node = &g_array_index (d->profile->nodes, JsrProfileNode, n);

          node->self_ns = CLAMP (node->self_ns, 0, JSUI_MAX_NS);
          node->self_samples = CLAMP (node->self_samples, 0, G_MAXINT32);
        }
      if (d->attributed_ns > 0)
        d->attributed_ns = MIN (d->attributed_ns, JSUI_MAX_NS);
      for (guint p = 0; d->parts != NULL && p < d->parts->len; p++)
        {
          JsrReportPart *part = g_ptr_array_index (d->parts, p);

          part->duration_ns = CLAMP (part->duration_ns, 0, JSUI_MAX_NS);
          if (part->attributed_ns > 0)
            part->attributed_ns = MIN (part->attributed_ns, JSUI_MAX_NS);
          part->other_ns = CLAMP (part->other_ns, 0, JSUI_MAX_NS);
          part->other_samples = CLAMP (part->other_samples, 0, G_MAXINT32);
          for (guint k = 0; part->profile != NULL && k < part->profile->len; k++)
            {
              JsrReportPartNode *entry = &g_array_index (part->profile, JsrReportPartNode, k);

              entry->self_ns = CLAMP (entry->self_ns, 0, JSUI_MAX_NS);
              entry->self_samples = CLAMP (entry->self_samples, 0, G_MAXINT32);
            }
        }
    }
}

static const JsrJsonNode *
member_of_type (const JsrJsonNode *o, const char *name, JsrJsonType type)
{
  const JsrJsonNode *n = o != NULL ? jsr_json_object_get (o, name) : NULL;

  return n != NULL && n->type == type ? n : NULL;
}

static const JsrJsonNode *
element_of_type (const JsrJsonNode *a, guint i, JsrJsonType type)
{
  const JsrJsonNode *n = a != NULL && i < a->length ? &a->v.elements[i] : NULL;

  return n != NULL && n->type == type ? n : NULL;
}

static gint64
element_int (const JsrJsonNode *a, guint i)
{
  const JsrJsonNode *n = element_of_type (a, i, JSR_JSON_INT);

  return n != NULL ? n->v.integer : -1;
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

      if (!jsui_frame_is_slow (snap->report, f->duration_ns, f->budget_ns, NULL))
        continue;
      for (guint e = 0; e < events->len; e++)
        {
          const JsrReportEvent *ev = g_ptr_array_index (events, e);
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
read_strings (JsuiSnapshot *snap, const JsrJsonNode *live)
{
  const JsrJsonNode *a = member_of_type (live, "strings", JSR_JSON_ARRAY);

  for (guint i = 0; a != NULL && i < MIN (a->length, JSUI_MAX_STRINGS); i++)
    {
      const JsrJsonNode *e = element_of_type (a, i, JSR_JSON_STRING);

      /* Untrusted: bounded (a bad one reads as null); the parser let only
       * valid UTF-8 through. */
      if (e != NULL && e->length <= JSUI_MAX_STRING)
        g_ptr_array_add (snap->strings, g_strndup (e->v.string, e->length));
      else
        g_ptr_array_add (snap->strings, NULL);
    }
}

/* [[source, callback, own_us, offset_us], ...] */
static void
read_frame_dispatches (JsuiSnapshot *snap, JsuiFrame *f, const JsrJsonNode *fa)
{
  const JsrJsonNode *a = element_of_type (fa, 6, JSR_JSON_ARRAY);

  for (guint i = 0; a != NULL && i < a->length && f->n_dispatches < JSUI_FRAME_MAX_DISPATCHES; i++)
    {
      const JsrJsonNode *da = element_of_type (a, i, JSR_JSON_ARRAY);
      gint64 own_us, offset_us;
      JsuiFrameDispatch *d;

      if (da == NULL)
        continue;
      own_us = element_int (da, 2);
      offset_us = element_int (da, 3);
      if (own_us < 0 || own_us > G_MAXINT64 / 1000 || offset_us < 0
          || offset_us > G_MAXINT64 / 1000)
        continue;
      d = &f->dispatches[f->n_dispatches++];
      d->source = string_at (snap, element_int (da, 0));
      d->callback = string_at (snap, element_int (da, 1));
      d->duration_ns = clamp_ns (own_us * 1000);
      d->offset_ns = clamp_ns (offset_us * 1000);
    }
}

static void
read_frame_phases (JsuiFrame *f, const JsrJsonNode *fa)
{
  const JsrJsonNode *a = element_of_type (fa, 5, JSR_JSON_ARRAY);

  if (a == NULL)
    return;
  for (guint p = 0; p < JSUI_N_PHASES; p++)
    {
      gint64 us = element_int (a, p);

      f->phase_ns[p] = us > 0 && us < G_MAXINT64 / 1000 ? clamp_ns (us * 1000) : 0;
    }
}

/* live (src/core/js-report-live.c): frames are compact arrays
 * [end_ns, frame_ns, budget_us, window, flags, [phase_us x 6], dispatches?],
 * oldest first; strings name the dispatches; overhead holds jankscope's CPU
 * time (collector, watchdog, signal handler) over monitored_ns. */
static void
read_live (JsuiSnapshot *snap, const JsrJsonNode *live)
{
  const JsrJsonNode *a = member_of_type (live, "frames", JSR_JSON_ARRAY);
  const JsrJsonNode *overhead = member_of_type (live, "overhead", JSR_JSON_OBJECT);

  snap->has_live = TRUE;
  read_strings (snap, live);
  snap->now_ns = clamp_time (member_int (live, "now_ns", 0));
  snap->stall_ns = CLAMP (member_int (live, "stuck_ns", 0), 0, JSUI_MAX_NS);
  if (overhead != NULL)
    {
      gint64 monitored = member_int (overhead, "monitored_ns", 0);
      gint64 cpu = 0;
      const char *const parts[] = { "collector_cpu_ns", "watchdog_cpu_ns", "signal_handler_ns" };

      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        cpu += CLAMP (member_int (overhead, parts[i], 0), 0, JSUI_MAX_NS);
      snap->overhead_cpu_ns = cpu;
      if (monitored > 0)
        snap->overhead_cpu_pct = 100.0 * (double) cpu / (double) monitored;
    }

  if (a != NULL)
    {
      guint n = a->length;
      guint first = n > JSUI_MAX_FRAMES ? n - JSUI_MAX_FRAMES : 0;

      for (guint i = first; i < n; i++)
        {
          const JsrJsonNode *fa = element_of_type (a, i, JSR_JSON_ARRAY);
          JsuiFrame f = { 0 };
          gint64 budget_us;

          if (fa == NULL)
            continue;
          f.end_ns = element_int (fa, 0);
          f.duration_ns = element_int (fa, 1);
          budget_us = element_int (fa, 2);
          f.budget_ns
              = budget_us > 0 && budget_us < G_MAXINT64 / 1000 ? clamp_ns (budget_us * 1000) : 0;
          f.window = (guint) CLAMP (element_int (fa, 3), 0, G_MAXUINT);
          f.flags = (guint) CLAMP (element_int (fa, 4), 0, G_MAXUINT);
          if (f.end_ns < 0 || f.duration_ns < 0)
            continue;
          f.end_ns = clamp_time (f.end_ns);
          f.duration_ns = MIN (clamp_ns (f.duration_ns), f.end_ns);
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
      const JsrReportEvent *ev = g_ptr_array_index (events, i);
      /* From the dispatched callback: the views' default. */
      JsuiStackTree *tree = jsui_stack_tree_from_event (ev, FALSE);

      g_ptr_array_add (snap->trees_top_down, tree);
      g_ptr_array_add (snap->trees_bottom_up,
                       tree != NULL ? jsui_stack_tree_bottom_up (tree) : NULL);
    }
}

static void
snapshot_clear (gpointer data)
{
  JsuiSnapshot *snap = data;

  g_clear_pointer (&snap->report, jsr_report_free);
  g_clear_pointer (&snap->frames, g_array_unref);
  g_clear_pointer (&snap->strings, g_ptr_array_unref);
  g_clear_pointer (&snap->trees_top_down, g_ptr_array_unref);
  g_clear_pointer (&snap->trees_bottom_up, g_ptr_array_unref);
}

JsuiSnapshot *
jsui_snapshot_parse (const char *data, gsize length, GError **error)
{
  g_autoptr (JsrJsonDoc) doc = NULL;
  g_autoptr (JsrReport) report = NULL;
  const JsrJsonNode *root, *live;
  JsuiSnapshot *snap;

  g_return_val_if_fail (data != NULL, NULL);

  /* Parsed once: the report members through the reader, `live` from
   * the same tree (the reader only reads the document during the call). */
  if (length == 0)
    {
      /* the reader's own error for an empty document */
      report = jsr_report_load_full_from_data (data, length, error);
      return NULL;
    }
  doc = jsr_json_doc_parse (data, length, JSR_REPORT_MAX_JSON_DEPTH, error);
  if (doc == NULL)
    return NULL;
  root = jsr_json_doc_get_root (doc);
  report = jsr_report_load_from_json (root, JSR_REPORT_LOAD_FULL, error);
  if (report == NULL)
    return NULL;

  clamp_report (report);
  snap = g_atomic_rc_box_new0 (JsuiSnapshot);
  snap->report = g_steal_pointer (&report);
  snap->frames = g_array_new (FALSE, FALSE, sizeof (JsuiFrame));
  snap->strings = g_ptr_array_new_with_free_func (g_free);
  snap->trees_top_down = g_ptr_array_new_with_free_func ((GDestroyNotify) jsui_stack_tree_unref);
  snap->trees_bottom_up = g_ptr_array_new_with_free_func ((GDestroyNotify) jsui_stack_tree_unref);
  snap->overhead_cpu_pct = -1;
  snap->overhead_cpu_ns = -1;

  live = member_of_type (root, "live", JSR_JSON_OBJECT);
  if (live != NULL)
    read_live (snap, live);
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

const JsrReportEvent *
jsui_snapshot_find_event (const JsuiSnapshot *snapshot, gint64 id)
{
  for (guint i = 0; i < snapshot->report->events->len; i++)
    {
      const JsrReportEvent *ev = g_ptr_array_index (snapshot->report->events, i);

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
jsui_snapshot_get_tree (const JsuiSnapshot *snapshot, const JsrReportEvent *event,
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
