/* jse-chrome.c: "jankscope export --format=chrome", the Trace Event Format
 * (JSON Object Format) of chrome://tracing and Perfetto UI
 *
 * One process per input report. Its tracks are made-up threads (tids from
 * 2^24 up, never a real thread's): the main loop's slow dispatches and
 * iterations, jank events, frame jank events, frames per window (each frame
 * holding its work and phases), the samples as instant events, and the
 * sampled stacks as a flame chart over time. Samples are also in the
 * format's `stackFrames` and `samples` dictionaries, which chrome://tracing
 * and speedscope read (Perfetto reads only the events). See docs/exports.md.
 *
 * Complete ("X") events on one track must nest: a track of a kind has as
 * many lanes (threads) as needed for slices that overlap without nesting.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jse-formats.h"
#include "js-json-writer.h"

#define FIRST_TID (1 << 24)
#define NS_PER_MS G_GINT64_CONSTANT (1000000)
/* A sample stands until the next one when they are at most this far apart
 * (the longest sampling interval is 100 ms), else for a base interval. */
#define SAMPLE_GAP_NS (150 * NS_PER_MS)
#define SAMPLE_ALONE_NS (5 * NS_PER_MS)

static const char *const phase_names[6] = {
  "flush-events", "before-paint", "update", "layout", "paint", "after-paint",
};

typedef enum
{
  SLICE_DISPATCH,
  SLICE_ITERATION,
  SLICE_EVENT,
  SLICE_FRAME_EVENT,
  SLICE_FRAME,
} SliceKind;

typedef struct
{
  SliceKind kind;
  gint64 start_ns, end_ns; /* on the export's clock */
  const JsrReportEvent *event;
  const JsrReportPart *part; /* NULL for events */
} Slice;

typedef struct
{
  guint tid;
  GArray *open_ends; /* gint64, a stack */
} Lane;

typedef struct
{
  char *name;
  int sort_index;
  gboolean nest;    /* slices may nest (dispatches of nested loops) */
  GPtrArray *lanes; /* of Lane */
} Track;

/* An entry of "stackFrames" (its id is its index + 1). */
typedef struct
{
  const char *name;   /* owned by the context */
  const char *module; /* owned by the context, NULL: none */
  guint parent;       /* 0: a root */
} StackFrame;

/* An entry of "samples". */
typedef struct
{
  gint32 pid;
  guint tid;
  gint64 ts_ns; /* since the export's origin */
  guint sf;
  gint64 weight;
} SampleEntry;

typedef struct
{
  JseContext *ctx;
  JsJsonWriter *w; /* the document; "traceEvents" while processes are written */
  guint next_tid;
  GHashTable *frame_ids; /* "parent\x1fname\x1fmodule" -> id */
  GArray *stack_frames;  /* of StackFrame, written after the events */
  GArray *samples;       /* of SampleEntry, written after the events */

  /* Of the process being written. */
  const JseProcess *process;
  GHashTable *tracks; /* name -> Track */
} Chrome;

/* --- JSON pieces ----------------------------------------------------------- */

/* Microseconds since the export's origin, to the nanosecond. */
static void
write_ts (Chrome *c, gint64 t_ns)
{
  js_json_writer_fixed (c->w, jsr_sat_sub (t_ns, c->ctx->origin_ns), 1000, 3);
}

static void
arg_str (Chrome *c, const char *key, const char *value)
{
  if (value == NULL)
    return;
  js_json_writer_member (c->w, key);
  js_json_writer_string (c->w, value);
}

static void
arg_int (Chrome *c, const char *key, gint64 value)
{
  if (value == JSR_UNKNOWN)
    return;
  js_json_writer_member (c->w, key);
  js_json_writer_int (c->w, value);
}

static void
arg_ms (Chrome *c, const char *key, gint64 ns)
{
  if (ns == JSR_UNKNOWN)
    return;
  js_json_writer_member (c->w, key);
  js_json_writer_fixed (c->w, ns, NS_PER_MS, 6);
}

static void
arg_true (Chrome *c, const char *key)
{
  js_json_writer_member (c->w, key);
  js_json_writer_bool (c->w, TRUE);
}

/* A stackFrames id, as the format spells it: a string. */
static void
write_id (JsJsonWriter *w, guint id)
{
  char text[16];

  g_snprintf (text, sizeof text, "%u", id);
  js_json_writer_string (w, text);
}

/* Each event on a line of its own. */
static void
next_event (Chrome *c)
{
  js_json_writer_newline (c->w, 0);
  js_json_writer_begin_object (c->w);
}

/* Starts an event: {"ph":..,"pid":..,"tid":..,"ts":.. */
static void
begin_event (Chrome *c, const char *ph, guint tid, gint64 t_ns)
{
  next_event (c);
  js_json_writer_member (c->w, "ph");
  js_json_writer_string (c->w, ph);
  js_json_writer_member (c->w, "pid");
  js_json_writer_int (c->w, c->process->pid);
  if (tid != 0)
    {
      js_json_writer_member (c->w, "tid");
      js_json_writer_uint (c->w, tid);
    }
  js_json_writer_member (c->w, "ts");
  write_ts (c, t_ns);
}

static void
add_name_cat (Chrome *c, const char *name, const char *cat)
{
  js_json_writer_member (c->w, "name");
  js_json_writer_string (c->w, name);
  js_json_writer_member (c->w, "cat");
  js_json_writer_string (c->w, cat);
}

static void
add_dur (Chrome *c, gint64 start_ns, gint64 end_ns)
{
  js_json_writer_member (c->w, "dur");
  js_json_writer_fixed (c->w, jsr_span (start_ns, end_ns), 1000, 3);
}

static void
begin_args (Chrome *c)
{
  js_json_writer_member (c->w, "args");
  js_json_writer_begin_object (c->w);
}

/* The args and the event. */
static void
end_event (Chrome *c)
{
  js_json_writer_end_object (c->w);
  js_json_writer_end_object (c->w);
}

static void
metadata (Chrome *c, const char *name, guint tid, const char *key, const char *value, gint64 number)
{
  next_event (c);
  js_json_writer_member (c->w, "ph");
  js_json_writer_string (c->w, "M");
  js_json_writer_member (c->w, "pid");
  js_json_writer_int (c->w, c->process->pid);
  if (tid != 0)
    {
      js_json_writer_member (c->w, "tid");
      js_json_writer_uint (c->w, tid);
    }
  js_json_writer_member (c->w, "name");
  js_json_writer_string (c->w, name);
  begin_args (c);
  js_json_writer_member (c->w, key);
  if (value != NULL)
    js_json_writer_string (c->w, value);
  else
    js_json_writer_int (c->w, number);
  end_event (c);
}

/* --- tracks and lanes ------------------------------------------------------ */

static void
track_free (Track *track)
{
  for (guint i = 0; i < track->lanes->len; i++)
    {
      Lane *lane = g_ptr_array_index (track->lanes, i);

      g_array_unref (lane->open_ends);
      g_free (lane);
    }
  g_ptr_array_unref (track->lanes);
  g_free (track->name);
  g_free (track);
}

static Track *
get_track (Chrome *c, const char *name, int sort_index, gboolean nest)
{
  Track *track = g_hash_table_lookup (c->tracks, name);

  if (track == NULL)
    {
      track = g_new0 (Track, 1);
      track->name = g_strdup (name);
      track->sort_index = sort_index;
      track->nest = nest;
      track->lanes = g_ptr_array_new ();
      g_hash_table_insert (c->tracks, track->name, track);
    }

  return track;
}

static guint
new_thread (Chrome *c, const char *name, int sort_index)
{
  guint tid = c->next_tid++;

  metadata (c, "thread_name", tid, "name", name, 0);
  metadata (c, "thread_sort_index", tid, "sort_index", NULL, sort_index);
  return tid;
}

/* The thread of the first lane where [start, end] fits: after every open
 * slice, or inside the innermost one when the track nests. Slices must come
 * by start, longest first. */
static guint
place (Chrome *c, Track *track, gint64 start_ns, gint64 end_ns)
{
  Lane *lane;

  for (guint i = 0; i < track->lanes->len; i++)
    {
      GArray *ends;

      lane = g_ptr_array_index (track->lanes, i);
      ends = lane->open_ends;
      while (ends->len > 0 && g_array_index (ends, gint64, ends->len - 1) <= start_ns)
        g_array_set_size (ends, ends->len - 1);
      if (ends->len == 0 || (track->nest && g_array_index (ends, gint64, ends->len - 1) >= end_ns))
        {
          g_array_append_val (ends, end_ns);
          return lane->tid;
        }
    }

  lane = g_new0 (Lane, 1);
  lane->open_ends = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_val (lane->open_ends, end_ns);
  if (track->lanes->len == 0)
    lane->tid = new_thread (c, track->name, track->sort_index);
  else
    {
      g_autofree char *name = g_strdup_printf ("%s (%u)", track->name, track->lanes->len + 1);

      lane->tid = new_thread (c, name, track->sort_index);
    }
  g_ptr_array_add (track->lanes, lane);

  return lane->tid;
}

/* --- slices ------------------------------------------------------------------ */

static const char *
or_else (const char *a, const char *b)
{
  return a != NULL ? a : b;
}

static void
culprit_args (Chrome *c, const JsrReportCulprit *culprit)
{
  g_autofree char *callback = jsr_culprit_callback_name (culprit);
  g_autoptr (GString) text = NULL;

  if (culprit == NULL)
    return;
  text = g_string_new (or_else (culprit->function, "?"));
  if (culprit->file != NULL && culprit->line != JSR_UNKNOWN)
    g_string_append_printf (text, " (%s:%" G_GINT64_FORMAT ")", jse_text (c->ctx, culprit->file),
                            culprit->line);
  else if (culprit->file != NULL)
    g_string_append_printf (text, " (%s)", jse_text (c->ctx, culprit->file));
  if (culprit->module != NULL)
    g_string_append_printf (text, " [%s]", jse_text (c->ctx, culprit->module));
  arg_str (c, "culprit", text->str);
  /* What the loop dispatched, when the culprit is a library's. */
  if (callback != NULL)
    arg_str (c, "culprit_callback", callback);
  arg_str (c, "culprit_reason", culprit->reason);
  if (culprit->confidence >= 0)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      js_json_writer_member (c->w, "confidence");
      js_json_writer_number (c->w,
                             g_ascii_formatd (buffer, sizeof buffer, "%.3f", culprit->confidence));
    }
}

static void
write_event_slice (Chrome *c, const Slice *s, guint tid)
{
  const JsrReportEvent *e = s->event;
  const JsrReportEventDetail *d = e->detail;
  g_autofree char *name = NULL;
  const char *what = or_else (e->callback, e->source);

  /* "severe dispatch: on_click", "HANG (ongoing): on_click" */
  if (e->ongoing)
    name = g_strdup_printf ("HANG (ongoing)%s%s", what ? ": " : "", what ? what : "");
  else
    name = g_strdup_printf ("%s %s%s%s", js_tier_name (e->tier), e->type, what ? ": " : "",
                            what ? what : "");
  begin_event (c, "X", tid, s->start_ns);
  add_dur (c, s->start_ns, s->end_ns);
  add_name_cat (c, name, s->kind == SLICE_FRAME_EVENT ? "frame-jank" : "jank");
  begin_args (c);
  arg_int (c, "id", e->id);
  arg_str (c, "type", e->type);
  arg_str (c, "tier", js_tier_name (e->tier));
  arg_str (c, "source", e->source);
  arg_str (c, "callback", e->callback);
  arg_ms (c, "blocked_ms", e->duration_ns);
  arg_int (c, "parts", MAX (e->parts_count, d != NULL ? (gint64) d->parts->len : 0));
  arg_str (c, "class", e->klass);
  arg_str (c, "wait", e->wait);
  culprit_args (c, e->culprit);
  if (d != NULL && d->attributed_ns != JSR_UNKNOWN)
    {
      arg_ms (c, "attributed_ms", d->attributed_ns);
      arg_ms (c, "unattributed_ms", jsr_span (d->attributed_ns, MAX (e->duration_ns, 0)));
    }
  arg_ms (c, "watched_ms", e->watched_ns);
  arg_ms (c, "cpu_ms", e->cpu_ns);
  arg_ms (c, "off_cpu_ms", e->off_cpu_ns);
  if (d != NULL)
    {
      arg_ms (c, "runnable_ms", d->runnable_ns);
      arg_str (c, "scene", d->scene);
      /* The machine at the time: busy, or the app slow? */
      if (d->process_cpu_pct_x100 != JSR_UNKNOWN)
        {
          js_json_writer_member (c->w, "process_cpu_pct");
          js_json_writer_fixed (c->w, d->process_cpu_pct_x100, 100, 2);
        }
      if (d->load_avg_x100 != JSR_UNKNOWN)
        {
          js_json_writer_member (c->w, "load_avg_1m");
          js_json_writer_fixed (c->w, d->load_avg_x100, 100, 2);
        }
      arg_int (c, "mem_available_kb", d->mem_available_kb);
      if (d->startup)
        arg_true (c, "startup");
    }
  arg_int (c, "samples", e->samples_total);
  if (e->ongoing)
    arg_true (c, "ongoing");
  if (c->process->previous_run)
    arg_true (c, "previous_run");
  end_event (c);

  if (e->ongoing)
    {
      /* Process-wide, so that it shows across all its tracks. */
      begin_event (c, "i", tid, s->end_ns);
      add_name_cat (c,
                    c->process->previous_run ? "hang under way when the process was killed"
                                             : "hang still under way when the report was written",
                    "jank");
      js_json_writer_member (c->w, "s");
      js_json_writer_string (c->w, "p");
      js_json_writer_end_object (c->w);
    }
}

static void
write_part_slice (Chrome *c, const Slice *s, guint tid)
{
  const JsrReportPart *p = s->part;
  g_autofree char *name = NULL;

  /* A dispatch by its callback; an iteration by the source that took most
   * of it. */
  if (s->kind == SLICE_DISPATCH)
    name = g_strdup (or_else (p->callback, or_else (p->source, "dispatch")));
  else if (p->callback != NULL || p->source != NULL)
    name = g_strdup_printf ("iteration (mostly %s)", or_else (p->callback, p->source));
  else
    name = g_strdup ("iteration");

  begin_event (c, "X", tid, s->start_ns);
  add_dur (c, s->start_ns, s->end_ns);
  add_name_cat (c, name, s->kind == SLICE_DISPATCH ? "dispatch" : "iteration");
  begin_args (c);
  arg_str (c, "source", p->source);
  arg_str (c, "callback", p->callback);
  arg_str (c, "tier", p->tier);
  arg_ms (c, "own_ms", p->duration_ns);
  arg_ms (c, "wall_ms", jsr_span (p->start_ns, p->end_ns));
  arg_int (c, "event", s->event->id);
  /* The part's own cause (reports with causes per part). */
  arg_str (c, "class", p->klass);
  arg_str (c, "wait", p->wait);
  culprit_args (c, p->culprit);
  arg_ms (c, "attributed_ms", p->attributed_ns);
  arg_ms (c, "cpu_ms", p->cpu_ns);
  arg_ms (c, "off_cpu_ms", p->off_cpu_ns);
  end_event (c);
}

/* A frame, its work (before-paint or flush-events to the end of
 * after-paint) and its phases inside. The report gives each phase's time,
 * not its start: phases are laid out in their order from the work's start. */
static void
write_frame_slice (Chrome *c, const Slice *s, guint tid)
{
  const JsrReportPart *p = s->part;
  gint64 phases_ns = 0;
  gint64 work_start;
  gint64 at;
  g_autofree char *name = g_strdup_printf ("frame (%s)", or_else (p->tier, "slow"));

  begin_event (c, "X", tid, s->start_ns);
  add_dur (c, s->start_ns, s->end_ns);
  add_name_cat (c, name, "frame");
  begin_args (c);
  arg_int (c, "window", p->window);
  arg_str (c, "tier", p->tier);
  arg_ms (c, "frame_ms", p->duration_ns);
  arg_ms (c, "budget_ms", p->budget_ns);
  arg_ms (c, "work_ms", p->work_ns);
  arg_str (c, "source", p->source);
  arg_str (c, "callback", p->callback);
  arg_int (c, "event", s->event->id);
  end_event (c);

  for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
    if (p->phases[i] > 0)
      phases_ns = jsr_sat_add (phases_ns, p->phases[i]);
  work_start = jsr_sat_sub (s->end_ns, MAX (p->work_ns > 0 ? p->work_ns : 0, phases_ns));
  work_start = MAX (work_start, s->start_ns);
  if (p->work_ns > 0)
    {
      begin_event (c, "X", tid, work_start);
      add_dur (c, work_start, s->end_ns);
      add_name_cat (c, "work", "frame");
      begin_args (c);
      arg_ms (c, "work_ms", p->work_ns);
      end_event (c);
    }

  at = work_start;
  for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
    {
      gint64 end;

      if (p->phases[i] <= 0) /* did not run, or too short to show */
        continue;
      end = MIN (jsr_sat_add (at, p->phases[i]), s->end_ns);
      begin_event (c, "X", tid, at);
      add_dur (c, at, end);
      add_name_cat (c, phase_names[i], "frame-phase");
      begin_args (c);
      arg_ms (c, "phase_ms", p->phases[i]);
      end_event (c);
      at = end;
    }
}

static gint
slice_order (gconstpointer a, gconstpointer b)
{
  const Slice *x = a, *y = b;

  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  if (x->end_ns != y->end_ns)
    return x->end_ns > y->end_ns ? -1 : 1; /* longest first: it holds the others */
  return 0;
}

static void
add_slice (GArray *slices, const JseProcess *process, SliceKind kind, const JsrReportEvent *event,
           const JsrReportPart *part, gint64 start_ns, gint64 end_ns)
{
  Slice s = { kind, jse_time (process, start_ns), jse_time (process, MAX (end_ns, start_ns)), event,
              part };

  g_array_append_val (slices, s);
}

static GArray *
collect_slices (const JseProcess *process)
{
  GArray *slices = g_array_new (FALSE, TRUE, sizeof (Slice));

  for (guint i = 0; i < process->events->len; i++)
    {
      const JsrReportEvent *e = g_ptr_array_index (process->events, i);
      gboolean frame_event = g_strcmp0 (e->type, "frame") == 0;

      add_slice (slices, process, frame_event ? SLICE_FRAME_EVENT : SLICE_EVENT, e, NULL,
                 e->start_ns, jse_event_end (e));
      if (e->detail == NULL)
        continue;
      for (guint k = 0; k < e->detail->parts->len; k++)
        {
          const JsrReportPart *p = g_ptr_array_index (e->detail->parts, k);

          if (g_strcmp0 (p->type, "frame") == 0)
            add_slice (slices, process, SLICE_FRAME, e, p,
                       jsr_sat_sub (p->end_ns, MAX (p->duration_ns, 0)), p->end_ns);
          else if (g_strcmp0 (p->type, "dispatch") == 0)
            add_slice (slices, process, SLICE_DISPATCH, e, p, p->start_ns, p->end_ns);
          else if (g_strcmp0 (p->type, "iteration") == 0)
            add_slice (slices, process, SLICE_ITERATION, e, p, p->start_ns, p->end_ns);
        }
    }
  g_array_sort (slices, slice_order);

  return slices;
}

static void
write_slices (Chrome *c)
{
  g_autoptr (GArray) slices = collect_slices (c->process);

  for (guint i = 0; i < slices->len; i++)
    {
      const Slice *s = &g_array_index (slices, Slice, i);
      Track *track;

      switch (s->kind)
        {
        case SLICE_DISPATCH:
          track = get_track (c, "main loop: slow dispatches", 1, TRUE);
          write_part_slice (c, s, place (c, track, s->start_ns, s->end_ns));
          break;
        case SLICE_ITERATION:
          track = get_track (c, "main loop: slow iterations", 2, TRUE);
          write_part_slice (c, s, place (c, track, s->start_ns, s->end_ns));
          break;
        case SLICE_EVENT:
          track = get_track (c, "jank events", 3, FALSE);
          write_event_slice (c, s, place (c, track, s->start_ns, s->end_ns));
          break;
        case SLICE_FRAME_EVENT:
          track = get_track (c, "frame jank events", 4, FALSE);
          write_event_slice (c, s, place (c, track, s->start_ns, s->end_ns));
          break;
        case SLICE_FRAME:
          {
            g_autofree char *name
                = s->part->window != JSR_UNKNOWN ? g_strdup_printf (
                      "slow frames (window %" G_GINT64_FORMAT ")", s->part->window)
                                                 : g_strdup ("slow frames");

            track = get_track (c, name, 5, FALSE);
            write_frame_slice (c, s, place (c, track, s->start_ns, s->end_ns));
          }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* --- samples ------------------------------------------------------------------ */

/* The stackFrames id of a frame under @parent (0: a root). */
static guint
frame_id (Chrome *c, guint parent, const char *name, const char *module)
{
  g_autofree char *key = g_strdup_printf ("%u\x1f%s\x1f%s", parent, name, module ? module : "");
  StackFrame frame;
  gpointer id;

  if (g_hash_table_lookup_extended (c->frame_ids, key, NULL, &id))
    return GPOINTER_TO_UINT (id);

  frame.name = name;
  frame.module = module;
  frame.parent = parent;
  g_array_append_val (c->stack_frames, frame);
  g_hash_table_insert (c->frame_ids, g_steal_pointer (&key),
                       GUINT_TO_POINTER (c->stack_frames->len));

  return c->stack_frames->len;
}

/* The frames of a timed sample, leaf first (empty: no stack). */
static void
sample_frames (const JseTimedSample *t, GPtrArray *out)
{
  g_ptr_array_set_size (out, 0);
  if (t->node >= 0)
    jse_node_frames (t->profile, (guint) t->node, out);
}

/* The leaf's stackFrames id of a stack, linked from the root (frames leaf
 * first). */
static guint
stack_id (Chrome *c, GPtrArray *frames)
{
  guint id = 0;

  if (frames->len == 0)
    return frame_id (c, 0, JSE_NO_STACK, NULL);
  for (guint i = frames->len; i-- > 0;)
    {
      const JsrReportFrame *frame = g_ptr_array_index (frames, i);

      id = frame_id (c, id, jse_frame_name (c->ctx, frame), jse_text (c->ctx, frame->module));
    }

  return id;
}

static void
stack_text (Chrome *c, GString *out, GPtrArray *frames)
{
  if (frames->len == 0)
    {
      g_string_append (out, JSE_NO_STACK);
      return;
    }
  for (guint i = 0; i < frames->len; i++)
    {
      const JsrReportFrame *frame = g_ptr_array_index (frames, i);

      g_string_append_printf (out, "%s%s", i > 0 ? "\n" : "", jse_frame_name (c->ctx, frame));
      if (frame->file != NULL && frame->line != JSR_UNKNOWN)
        g_string_append_printf (out, " (%s:%" G_GINT64_FORMAT ")", jse_text (c->ctx, frame->file),
                                frame->line);
      if (frame->module != NULL)
        g_string_append_printf (out, " [%s]", jse_text (c->ctx, frame->module));
      if (frame->inlined)
        g_string_append (out, " (inlined)");
    }
}

static void
write_sample_instants (Chrome *c, GArray *timeline)
{
  g_autoptr (GPtrArray) frames = g_ptr_array_new ();
  guint tid = 0;

  for (guint i = 0; i < timeline->len; i++)
    {
      const JseTimedSample *t = &g_array_index (timeline, JseTimedSample, i);
      const JsrReportSample *s = t->sample;
      g_autoptr (GString) text = g_string_new (NULL);
      g_autofree char *name = NULL;
      SampleEntry entry;
      guint sf;

      sample_frames (t, frames);
      sf = stack_id (c, frames);
      if (tid == 0)
        tid = new_thread (c, "samples", 20);
      name = s->wait != NULL ? g_strdup_printf ("sample: %s (%s)", or_else (s->state, "?"), s->wait)
                             : g_strdup_printf ("sample: %s", or_else (s->state, "?"));
      begin_event (c, "i", tid, jse_time (c->process, s->t_ns));
      add_name_cat (c, name, "sample");
      js_json_writer_member (c->w, "s");
      js_json_writer_string (c->w, "t");
      js_json_writer_member (c->w, "sf");
      write_id (c->w, sf);
      begin_args (c);
      arg_int (c, "count", s->count);
      if (s->count > 1)
        arg_ms (c, "last_after_ms", jsr_span (s->t_ns, s->last_ns));
      /* An entry the report merged (more than 256 in the event): its
       * samples, how many were running; the stack is that of the larger
       * share (docs/report-format.md, "Samples over time"). */
      if (s->running != JSR_UNKNOWN)
        {
          arg_true (c, "merged");
          arg_int (c, "running", s->running);
        }
      arg_str (c, "state", s->state);
      arg_str (c, "wait", s->wait);
      arg_int (c, "event", t->event->id);
      stack_text (c, text, frames);
      arg_str (c, "stack", text->str);
      end_event (c);

      entry.pid = c->process->pid;
      entry.tid = tid;
      entry.ts_ns = jsr_sat_sub (jse_time (c->process, s->t_ns), c->ctx->origin_ns);
      entry.sf = sf;
      entry.weight = MAX (s->count, 1);
      g_array_append_val (c->samples, entry);
    }
}

typedef struct
{
  const char *name;
  const JsrReportFrame *frame; /* NULL for JSE_NO_STACK */
  gint64 start_ns;
  gint64 end_ns; /* once closed */
  guint depth;   /* 0: the root */
} StackSlice;

/* Closes the open frames deeper than @keep at @at_ns. */
static void
close_frames (GArray *open, GArray *closed, guint keep, gint64 at_ns)
{
  while (open->len > keep)
    {
      StackSlice *f = &g_array_index (open, StackSlice, open->len - 1);

      f->end_ns = at_ns;
      g_array_append_val (closed, *f);
      g_array_set_size (open, open->len - 1);
    }
}

/* By start, parents first: a reader that meets a child before its parent
 * at the same time could take them as overlapping. */
static gint
stack_slice_order (gconstpointer a, gconstpointer b)
{
  const StackSlice *x = a, *y = b;

  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return (x->depth > y->depth) - (x->depth < y->depth);
}

static void
write_stack_slices (Chrome *c, guint tid, GArray *closed)
{
  g_array_sort (closed, stack_slice_order);
  for (guint i = 0; i < closed->len; i++)
    {
      const StackSlice *f = &g_array_index (closed, StackSlice, i);

      begin_event (c, "X", tid, f->start_ns);
      add_dur (c, f->start_ns, f->end_ns);
      add_name_cat (c, f->name, "stack");
      begin_args (c);
      if (f->frame != NULL)
        {
          arg_str (c, "module", jse_text (c->ctx, f->frame->module));
          arg_str (c, "file", jse_text (c->ctx, f->frame->file));
          arg_int (c, "line", f->frame->line);
          arg_str (c, "offset", f->frame->offset);
        }
      end_event (c);
    }
}

/* The sampled stacks as a flame chart: each sample stands until the next
 * one, and frames shared by consecutive samples are one slice. */
static void
write_sampled_stacks (Chrome *c, GArray *timeline)
{
  g_autoptr (GArray) open = g_array_new (FALSE, TRUE, sizeof (StackSlice));
  g_autoptr (GArray) closed = g_array_new (FALSE, TRUE, sizeof (StackSlice));
  g_autoptr (GPtrArray) frames = g_ptr_array_new ();
  gint64 previous_end = G_MININT64;

  if (timeline->len == 0)
    return;

  for (guint i = 0; i < timeline->len; i++)
    {
      const JseTimedSample *t = &g_array_index (timeline, JseTimedSample, i);
      const JseTimedSample *next
          = i + 1 < timeline->len ? &g_array_index (timeline, JseTimedSample, i + 1) : NULL;
      const JsrReportSample *s = t->sample;
      gint64 start = jse_time (c->process, s->t_ns);
      gint64 last = jse_time (c->process, MAX (s->last_ns, s->t_ns));
      gint64 end;
      guint depth, common = 0;

      sample_frames (t, frames);
      depth = MAX (frames->len, 1);
      if (next != NULL
          && jsr_sat_sub (jse_time (c->process, next->sample->t_ns), last) <= SAMPLE_GAP_NS)
        end = MAX (jse_time (c->process, next->sample->t_ns), last);
      else
        end = jsr_sat_add (last, SAMPLE_ALONE_NS);
      if (end <= start)
        end = jsr_sat_add (start, 1);

      if (start != previous_end)
        close_frames (open, closed, 0, previous_end);
      /* Root first: the last frame. */
      for (; common < open->len && common < depth; common++)
        {
          const StackSlice *f = &g_array_index (open, StackSlice, common);
          const char *name
              = frames->len == 0
                    ? JSE_NO_STACK
                    : jse_frame_name (c->ctx, g_ptr_array_index (frames, depth - 1 - common));

          if (strcmp (f->name, name) != 0)
            break;
        }
      close_frames (open, closed, common, start);
      for (guint k = common; k < depth; k++)
        {
          StackSlice f = { JSE_NO_STACK, NULL, start, start, k };

          if (frames->len > 0)
            {
              f.frame = g_ptr_array_index (frames, depth - 1 - k);
              f.name = jse_frame_name (c->ctx, f.frame);
            }
          g_array_append_val (open, f);
        }
      previous_end = end;
    }
  close_frames (open, closed, 0, previous_end);

  write_stack_slices (c, new_thread (c, "sampled stacks", 21), closed);
}

/* --- profiles ------------------------------------------------------------------- */

/* One event's profile as a flame graph laid over the event: each node a
 * slice as long as its inclusive time, its children side by side from its
 * start, heaviest first. The widths are the exact attributed times; the
 * order is by weight, not by time (docs/exports.md, `chrome`). */
typedef struct
{
  const JsrProfile *profile;
  gint64 *inclusive; /* per node: self (the counted weights) plus children */
  gint64 *self;
  GPtrArray **children; /* per node, of GINT_TO_POINTER (child); NULL: none */
} ProfileLayout;

static gint
by_inclusive (gconstpointer a, gconstpointer b, gpointer data)
{
  const ProfileLayout *l = data;
  gint x = GPOINTER_TO_INT (*(gconstpointer *) a), y = GPOINTER_TO_INT (*(gconstpointer *) b);

  if (l->inclusive[x] != l->inclusive[y])
    return l->inclusive[x] > l->inclusive[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static void
write_profile_node (Chrome *c, guint tid, const ProfileLayout *l, const JsrReportEvent *event,
                    gint node, gint64 start_ns)
{
  const JsrReportFrame *frame = jse_node_frame (l->profile, node);
  gint64 end_ns = jsr_sat_add (start_ns, l->inclusive[node]);
  gint64 at = start_ns;

  begin_event (c, "X", tid, start_ns);
  add_dur (c, start_ns, end_ns);
  add_name_cat (c, jse_frame_name (c->ctx, frame), "profile");
  begin_args (c);
  arg_ms (c, "total_ms", l->inclusive[node]);
  arg_ms (c, "self_ms", l->self[node]);
  arg_str (c, "module", jse_text (c->ctx, frame->module));
  arg_int (c, "event", event->id);
  end_event (c);

  /* The depth is bounded by the reader (JSR_PROFILE_MAX_DEPTH). */
  for (guint i = 0; l->children[node] != NULL && i < l->children[node]->len; i++)
    {
      gint child = GPOINTER_TO_INT (g_ptr_array_index (l->children[node], i));

      write_profile_node (c, tid, l, event, child, at);
      at = jsr_sat_add (at, l->inclusive[child]);
    }
}

/* The weights of one event (weights[first..last)), as a flame graph. */
static void
write_event_profile (Chrome *c, Track *track, const JseNodeWeight *weights, guint n_weights)
{
  const JsrReportEvent *event = weights[0].event;
  ProfileLayout l = { weights[0].profile };
  guint n = l.profile->nodes->len;
  g_autoptr (GPtrArray) roots = g_ptr_array_new ();
  gint64 total = 0;
  gint64 start = jse_time (c->process, event->start_ns);
  gint64 at = start;
  guint tid;

  l.inclusive = g_new0 (gint64, n);
  l.self = g_new0 (gint64, n);
  l.children = g_new0 (GPtrArray *, n);
  for (guint i = 0; i < n_weights; i++)
    l.self[weights[i].node] = jsr_sat_add (l.self[weights[i].node], weights[i].time_ns);
  for (guint i = 0; i < n; i++)
    l.inclusive[i] = l.self[i];
  /* Children after parents: from the end, each node is complete when it is
   * added to its parent. */
  for (guint i = n; i-- > 0;)
    {
      gint32 parent = g_array_index (l.profile->nodes, JsrProfileNode, i).parent;

      if (l.inclusive[i] == 0)
        continue;
      if (parent < 0)
        {
          g_ptr_array_add (roots, GINT_TO_POINTER (i));
          total = jsr_sat_add (total, l.inclusive[i]);
          continue;
        }
      l.inclusive[parent] = jsr_sat_add (l.inclusive[parent], l.inclusive[i]);
      if (l.children[parent] == NULL)
        l.children[parent] = g_ptr_array_new ();
      g_ptr_array_add (l.children[parent], GINT_TO_POINTER (i));
    }
  for (guint i = 0; i < n; i++)
    if (l.children[i] != NULL)
      g_ptr_array_sort_with_data (l.children[i], by_inclusive, &l);
  g_ptr_array_sort_with_data (roots, by_inclusive, &l);

  if (total > 0)
    {
      tid = place (c, track, start, jsr_sat_add (start, total));
      for (guint i = 0; i < roots->len; i++)
        {
          gint root = GPOINTER_TO_INT (g_ptr_array_index (roots, i));

          write_profile_node (c, tid, &l, event, root, at);
          at = jsr_sat_add (at, l.inclusive[root]);
        }
    }

  for (guint i = 0; i < n; i++)
    if (l.children[i] != NULL)
      g_ptr_array_unref (l.children[i]);
  g_free (l.children);
  g_free (l.inclusive);
  g_free (l.self);
}

static gint
weight_order (gconstpointer a, gconstpointer b)
{
  const JseNodeWeight *x = a, *y = b;
  gint64 xs = jse_time (x->process, x->event->start_ns);
  gint64 ys = jse_time (y->process, y->event->start_ns);

  if (xs != ys)
    return xs < ys ? -1 : 1;
  if (x->event != y->event)
    return x->event < y->event ? -1 : 1;
  return (x->node > y->node) - (x->node < y->node);
}

/* The process's events' profiles (the weights every profile format adds
 * up), each a flame graph over its event on the "profile" track. */
static void
write_profiles (Chrome *c, GArray *all)
{
  g_autoptr (GArray) mine = g_array_new (FALSE, FALSE, sizeof (JseNodeWeight));
  Track *track = get_track (c, "profile (flame graph per event: inclusive times, not a time line)",
                            22, FALSE);

  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, JseNodeWeight, i).process == c->process)
      g_array_append_val (mine, g_array_index (all, JseNodeWeight, i));
  g_array_sort (mine, weight_order);
  for (guint first = 0; first < mine->len;)
    {
      guint last = first + 1;

      while (last < mine->len
             && g_array_index (mine, JseNodeWeight, last).event
                    == g_array_index (mine, JseNodeWeight, first).event)
        last++;
      write_event_profile (c, track, &g_array_index (mine, JseNodeWeight, first), last - first);
      first = last;
    }
}

/* --- the document ---------------------------------------------------------------- */

static void
write_process (Chrome *c, const JseProcess *process, guint index, GArray *weights)
{
  const JsrReport *report = process->report;
  const JseInput *input = g_ptr_array_index (c->ctx->inputs, process->input);
  g_autoptr (GArray) timeline = jse_timeline (process);

  c->process = process;
  c->tracks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) track_free);

  /* Perfetto and chrome://tracing show "name (pid N)" or "name N" themselves. */
  metadata (c, "process_name", 0, "name", process->title, 0);
  metadata (c, "process_sort_index", 0, "sort_index", NULL, index);
  metadata (c, "process_labels", 0, "labels", input->display_name, 0);

  if (!process->previous_run)
    {
      guint tid = new_thread (c, "jankscope", 0);
      gint64 start = jse_time (process, report->start_ns);

      begin_event (c, "X", tid, start);
      add_dur (c, start, jsr_sat_add (start, MAX (report->monitored_ns, 0)));
      add_name_cat (c, report->final ? "monitored" : "monitored (report written during the run)",
                    "jankscope");
      begin_args (c);
      arg_str (c, "file", input->display_name);
      arg_str (c, "toolkit", report->toolkit);
      arg_str (c, "gtk_version", report->gtk_version);
      arg_str (c, "mode", report->mode);
      arg_int (c, "iterations", report->iterations);
      arg_int (c, "dispatches", report->dispatches);
      arg_ms (c, "busy_ms", report->busy_ns);
      arg_int (c, "events_total", report->events_total);
      arg_int (c, "events_dropped", report->events_dropped);
      arg_ms (c, "threshold_ms", report->threshold_ns);
      end_event (c);
    }

  write_slices (c);
  write_sample_instants (c, timeline);
  write_sampled_stacks (c, timeline);
  write_profiles (c, weights);

  g_clear_pointer (&c->tracks, g_hash_table_unref);
}

/* The samples' stacks as a tree of frames: "ID": {"name", "category" (the
 * module), "parent"}. */
static void
write_stack_frames (Chrome *c)
{
  js_json_writer_begin_object (c->w);
  for (guint i = 0; i < c->stack_frames->len; i++)
    {
      const StackFrame *f = &g_array_index (c->stack_frames, StackFrame, i);
      char id[16];

      g_snprintf (id, sizeof id, "%u", i + 1);
      js_json_writer_newline (c->w, 0);
      js_json_writer_member (c->w, id);
      js_json_writer_begin_object (c->w);
      js_json_writer_member (c->w, "name");
      js_json_writer_string (c->w, f->name);
      if (f->module != NULL)
        {
          js_json_writer_member (c->w, "category");
          js_json_writer_string (c->w, f->module);
        }
      if (f->parent != 0)
        {
          js_json_writer_member (c->w, "parent");
          write_id (c->w, f->parent);
        }
      js_json_writer_end_object (c->w);
    }
  js_json_writer_newline (c->w, 0);
  js_json_writer_end_object (c->w);
}

static void
write_samples (Chrome *c)
{
  js_json_writer_begin_array (c->w);
  for (guint i = 0; i < c->samples->len; i++)
    {
      const SampleEntry *e = &g_array_index (c->samples, SampleEntry, i);

      js_json_writer_newline (c->w, 0);
      js_json_writer_begin_object (c->w);
      js_json_writer_member (c->w, "pid");
      js_json_writer_int (c->w, e->pid);
      js_json_writer_member (c->w, "tid");
      js_json_writer_uint (c->w, e->tid);
      js_json_writer_member (c->w, "ts");
      js_json_writer_fixed (c->w, e->ts_ns, 1000, 3);
      js_json_writer_member (c->w, "name");
      js_json_writer_string (c->w, "jankscope sample");
      js_json_writer_member (c->w, "sf");
      write_id (c->w, e->sf);
      js_json_writer_member (c->w, "weight");
      js_json_writer_int (c->w, e->weight);
      js_json_writer_end_object (c->w);
    }
  js_json_writer_newline (c->w, 0);
  js_json_writer_end_array (c->w);
}

GBytes *
jse_format_chrome (JseContext *ctx, GError **error)
{
  Chrome c = { 0 };
  g_autoptr (GArray) weights = jse_profile_weights (ctx);
  GString *out = g_string_new (NULL);
  JsJsonWriter writer;

  js_json_writer_init (&writer, out, JS_JSON_WRITER_COMPACT);
  c.ctx = ctx;
  c.w = &writer;
  c.next_tid = FIRST_TID;
  c.frame_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.stack_frames = g_array_new (FALSE, FALSE, sizeof (StackFrame));
  c.samples = g_array_new (FALSE, FALSE, sizeof (SampleEntry));

  js_json_writer_begin_object (c.w);
  js_json_writer_member (c.w, "displayTimeUnit");
  js_json_writer_string (c.w, "ms");
  js_json_writer_newline (c.w, 0);
  js_json_writer_member (c.w, "otherData");
  js_json_writer_begin_object (c.w);
  js_json_writer_member (c.w, "generator");
  js_json_writer_string (c.w, "jankscope " JANKSCOPE_VERSION);
  js_json_writer_member (c.w, "clock");
  js_json_writer_string (c.w, ctx->align == JSE_ALIGN_START ? "process start" : "CLOCK_MONOTONIC");
  js_json_writer_member (c.w, "origin_ns");
  js_json_writer_int (c.w, ctx->origin_ns);
  js_json_writer_member (c.w, "inputs");
  js_json_writer_begin_array (c.w);
  for (guint i = 0; i < ctx->inputs->len; i++)
    {
      const JseInput *input = g_ptr_array_index (ctx->inputs, i);

      js_json_writer_string (c.w, input->display_name);
    }
  js_json_writer_end_array (c.w);
  js_json_writer_end_object (c.w);

  js_json_writer_newline (c.w, 0);
  js_json_writer_member (c.w, "traceEvents");
  js_json_writer_begin_array (c.w);
  for (guint i = 0; i < ctx->processes->len; i++)
    write_process (&c, g_ptr_array_index (ctx->processes, i), i, weights);
  js_json_writer_newline (c.w, 0);
  js_json_writer_end_array (c.w);

  js_json_writer_newline (c.w, 0);
  js_json_writer_member (c.w, "stackFrames");
  write_stack_frames (&c);
  js_json_writer_newline (c.w, 0);
  js_json_writer_member (c.w, "samples");
  write_samples (&c);
  js_json_writer_end_object (c.w);
  g_string_append_c (out, '\n');

  g_hash_table_unref (c.frame_ids);
  g_array_unref (c.stack_frames);
  g_array_unref (c.samples);

  return g_string_free_to_bytes (out);
}
