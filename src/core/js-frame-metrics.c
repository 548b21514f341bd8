/* js-frame-metrics.c
 *
 * Frame time is how long the user waited for a picture. The frame clock
 * schedules each frame as a timeout that becomes ready when the frame is due,
 * so a frame's lateness is how late its paint dispatch started after that.
 * When a frame was due within 1.5 budgets of the previous frame's end, the
 * clock is running (an animation, a burst of redraws): its frame time is the
 * interval since the previous frame ended, so a stall anywhere in the loop,
 * inside the frame or before it, shows. Otherwise the clock had been idle and
 * was asked for a new frame: its frame time is its lateness plus its own
 * work (before-paint, or flush-events, to the end of after-paint). A window
 * that requests no frames has no frames: a static window is never janky.
 *
 * A frame is slow over 1.5 budgets (JANKSCOPE_SLOW_FRAME_PCT) and frozen over
 * the frozen tier (700 ms): src/common/js-slow-frame.h, js-tiers.h, the
 * window's rules too. Each slow frame lists the dispatches that overlap
 * its frame time, largest first, and is "fully blocking" when one of them
 * covers at least 90% of its delay (frame time minus budget), "partially
 * blocking" when many shorter ones add up (Sentry's frames delay and app hang
 * types: docs/background.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-frame-metrics.h"
#include "js-slow-frame.h"

#include <string.h>

#define FRAME_MAX_PARTS 16

void
js_frame_metrics_init (JsFrameMetrics *d, const JsConfig *config, JsEventStore *dispatch_store)
{
  memset (d, 0, sizeof *d);
  d->dispatch_store = dispatch_store;
  d->frame_config = *config;
  d->frame_config.report_path = NULL; /* not owned */
  d->frame_config.max_parts = FRAME_MAX_PARTS;
  js_event_store_init (&d->frame_store, &d->frame_config);
  d->frame_store.ids = dispatch_store->ids; /* one id sequence for all events */
  d->windows = g_ptr_array_new_with_free_func (g_free);
  d->recent_frames = g_new0 (JsRecentFrame, JS_FRAME_RECENT_FRAMES);
}

void
js_frame_metrics_clear (JsFrameMetrics *d)
{
  js_event_store_clear (&d->frame_store);
  g_clear_pointer (&d->windows, g_ptr_array_unref);
  g_clear_pointer (&d->recent_frames, g_free);
}

static JsFrameWindow *
window_for (JsFrameMetrics *d, guint32 id, gboolean create)
{
  JsFrameWindow *w;

  for (guint i = 0; i < d->windows->len; i++)
    {
      w = g_ptr_array_index (d->windows, i);
      if (w->id == id && !w->gone)
        return w;
    }
  if (!create)
    return NULL;
  if (d->windows->len >= JS_FRAME_MAX_WINDOWS)
    {
      d->windows_dropped++;
      return NULL;
    }
  w = g_new0 (JsFrameWindow, 1);
  w->id = id;
  g_ptr_array_add (d->windows, w);
  return w;
}

static void
count_frame (JsFrameWindow *w, gint64 frame_ns, gboolean animating, gboolean slow, gboolean frozen,
             gint64 budget_ns)
{
  w->frames++;
  w->slow += slow;
  w->frozen += frozen;
  js_histogram_add (&w->hist, frame_ns);
  if (animating)
    {
      w->animating_frames++;
      w->animating_ns += frame_ns;
    }
  w->budget_ns = budget_ns;
}

/* Keeps the JS_FRAME_MAX_DISPATCHES largest overlaps, largest first. */
static void
add_overlap (JsFrameInfo *info, guint32 name_id, const void *code, gint64 overlap)
{
  guint i = info->n_dispatches;

  if (overlap <= 0)
    return;
  if (i == JS_FRAME_MAX_DISPATCHES)
    {
      if (overlap <= info->dispatches[i - 1].overlap_ns)
        return;
      i--;
    }
  else
    info->n_dispatches++;
  while (i > 0 && info->dispatches[i - 1].overlap_ns < overlap)
    {
      info->dispatches[i] = info->dispatches[i - 1];
      i--;
    }
  info->dispatches[i].name_id = name_id;
  info->dispatches[i].code = code;
  info->dispatches[i].overlap_ns = overlap;
}

static void
count_delay (JsPart *part, gpointer data)
{
  part->frames_delayed++;
}

static void
count_frame_inside (JsPart *frame, gpointer data)
{
  JsPart *dispatch = data;

  if (frame->end_ns <= dispatch->end_ns)
    dispatch->frames_delayed++;
}

/* A slow dispatch just went into the dispatch store (its open event `e`):
 * the slow frames that ended while it ran were made late by it. */
static G_GNUC_NO_INLINE void
count_frames_in_dispatch (JsFrameMetrics *d, JsEvent *e, const JsRecord *r)
{
  JsPart *last;

  if (e->parts->len == 0)
    return;
  last = &g_array_index (e->parts, JsPart, e->parts->len - 1);
  if (last->type != JS_RECORD_DISPATCH || last->start_ns != r->start_ns
      || last->end_ns != r->end_ns)
    return;
  js_event_store_foreach_overlapping (&d->frame_store, JS_RECORD_FRAME, r->start_ns, r->end_ns, 8,
                                      count_frame_inside, last);
}

static void
judge_slow_frame (JsFrameMetrics *d, const JsRecord *r, gint64 frame_ns, gint64 budget_ns)
{
  JsFrameInfo *info = g_new0 (JsFrameInfo, 1);
  gint64 window_start = r->end_ns - frame_ns;
  guint n_recent = MIN (d->n_recent, JS_FRAME_RECENT_DISPATCHES);
  JsPart part;

  info->window = r->count;
  info->budget_ns = budget_ns;
  info->work_ns = r->end_ns - r->start_ns;
  info->mask = r->flags;
  for (guint p = 0; p < JS_N_PHASES; p++)
    info->phase_ns[p] = (gint64) r->phase_us[p] * 1000;
  info->dropped_frames = (guint32) MIN ((frame_ns - 1) / budget_ns, G_MAXUINT32);
  info->tier = js_tier_of_frame (d->frame_config.tier_ns, frame_ns);

  /* The dispatch that ran the frame, then those that ended inside its time. */
  add_overlap (info, r->name_id, r->code, info->work_ns);
  for (guint i = 0; i < n_recent; i++)
    {
      const typeof (d->recent[0]) *x
          = &d->recent[(d->n_recent - 1 - i) % JS_FRAME_RECENT_DISPATCHES];
      gint64 overlap;

      if (x->end_ns <= window_start)
        break; /* older ones end even earlier */
      overlap = MIN (x->end_ns, r->end_ns) - MAX (x->start_ns, window_start);
      add_overlap (info, x->name_id, x->code, MIN (overlap, x->own_ns));
    }
  info->fully_blocking
      = info->n_dispatches > 0 && info->dispatches[0].overlap_ns * 10 >= (frame_ns - budget_ns) * 9;

  part = (JsPart){
    .type = JS_RECORD_FRAME,
    .start_ns = window_start,
    .end_ns = r->end_ns,
    .duration_ns = frame_ns,
    /* The store's tiers have bounds: a light frame counts as noticeable. */
    .tier = info->tier == JS_TIER_LIGHT ? JS_TIER_NOTICEABLE : info->tier,
    .name_id = r->name_id,
    .code = r->code,
    .frame = info,
  };
  js_event_store_add_part (&d->frame_store, &part);
  /* Slow dispatches recorded so far that made it late. The dispatch running
   * this frame ends after it: it counts the frame when it arrives. */
  js_event_store_foreach_overlapping (d->dispatch_store, JS_RECORD_DISPATCH, window_start,
                                      r->end_ns, 8, count_delay, NULL);
}

/* Keeps the JS_RECENT_FRAME_DISPATCHES longest, longest first (under 1 µs:
 * left out). */
static void
recent_add_dispatch (JsRecentFrame *f, guint32 name_id, const void *code, gint64 duration_ns,
                     gint64 offset_ns)
{
  guint32 us = (guint32) CLAMP (duration_ns / 1000, 0, G_MAXUINT32);
  guint i = f->n_dispatches;

  if (us == 0)
    return;
  if (i == JS_RECENT_FRAME_DISPATCHES)
    {
      if (us <= f->dispatches[i - 1].duration_us)
        return;
      i--;
    }
  else
    f->n_dispatches++;
  while (i > 0 && f->dispatches[i - 1].duration_us < us)
    {
      f->dispatches[i] = f->dispatches[i - 1];
      i--;
    }
  f->dispatches[i] = (JsRecentDispatch){
    .code = code,
    .name_id = name_id,
    .duration_us = us,
    .offset_us = (guint32) CLAMP (offset_ns / 1000, 0, G_MAXUINT32),
  };
}

/* The dispatches inside a frame's time: the one running the frame (still
 * running: its record comes after this one) with the frame's work, then the
 * recent ones that overlap [window_start, end], their own time only. */
static void
recent_frame_dispatches (const JsFrameMetrics *d, JsRecentFrame *f, const JsRecord *r,
                         gint64 window_start)
{
  guint n_recent = MIN (d->n_recent, JS_FRAME_RECENT_DISPATCHES);

  f->n_dispatches = 0;
  recent_add_dispatch (f, r->name_id, r->code, r->end_ns - r->start_ns, r->start_ns - window_start);
  for (guint i = 0; i < n_recent; i++)
    {
      const typeof (d->recent[0]) *x
          = &d->recent[(d->n_recent - 1 - i) % JS_FRAME_RECENT_DISPATCHES];
      gint64 from;

      if (x->end_ns <= window_start)
        break; /* older ones end even earlier */
      from = MAX (x->start_ns, window_start);
      recent_add_dispatch (f, x->name_id, x->code,
                           MIN (MIN (x->end_ns, r->end_ns) - from, x->own_ns), from - window_start);
    }
}

static void
feed_frame (JsFrameMetrics *d, const JsRecord *r)
{
  JsFrameWindow *w = window_for (d, r->count, TRUE);
  gint64 budget_ns = js_frame_budget (r->inner_ns > 0 ? r->inner_ns : w ? w->budget_ns : 0);
  gint64 late_ns = (gint64) r->delay_us * 1000;
  gint64 due_at = r->start_ns - late_ns;
  gboolean continuous
      = w != NULL && w->last_end_ns != 0 && (due_at - w->last_end_ns) * 2 <= budget_ns * 3;
  gint64 frame_ns = continuous ? r->end_ns - w->last_end_ns : late_ns + (r->end_ns - r->start_ns);
  gboolean slow = js_frame_is_slow (frame_ns, budget_ns, d->frame_config.slow_frame_pct);
  gboolean frozen = js_frame_is_frozen (d->frame_config.tier_ns, frame_ns);

  if (w != NULL)
    {
      count_frame (w, frame_ns, continuous, slow, frozen, budget_ns);
      w->last_end_ns = r->end_ns;
    }
  count_frame (&d->total, frame_ns, continuous, slow, frozen, budget_ns);
  {
    JsRecentFrame *f = &d->recent_frames[d->n_recent_frames++ % JS_FRAME_RECENT_FRAMES];

    f->end_ns = r->end_ns;
    f->frame_ns = frame_ns;
    f->budget_us = (guint32) MIN (budget_ns / 1000, G_MAXUINT32);
    f->window = r->count;
    for (guint p = 0; p < JS_N_PHASES; p++)
      f->phase_us[p] = (r->flags & (1u << p)) ? r->phase_us[p] : 0;
    f->flags = (slow ? JS_RECENT_FRAME_SLOW : 0) | (frozen ? JS_RECENT_FRAME_FROZEN : 0)
               | (continuous ? JS_RECENT_FRAME_ANIMATING : 0);
    recent_frame_dispatches (d, f, r, r->end_ns - frame_ns);
  }
  if (slow)
    judge_slow_frame (d, r, frame_ns, budget_ns);
}

void
js_frame_metrics_recent (const JsFrameMetrics *d, gint64 since_ns, GArray *out)
{
  guint64 n = MIN (d->n_recent_frames, JS_FRAME_RECENT_FRAMES);

  for (guint64 i = d->n_recent_frames - n; i < d->n_recent_frames; i++)
    {
      const JsRecentFrame *f = &d->recent_frames[i % JS_FRAME_RECENT_FRAMES];

      if (f->end_ns > since_ns)
        g_array_append_val (out, *f);
    }
}

void
js_frame_metrics_add_dispatch (JsFrameMetrics *d, const JsRecord *r)
{
  guint i = d->n_recent++ % JS_FRAME_RECENT_DISPATCHES;
  JsEvent *e = d->dispatch_store->open;

  d->recent[i].start_ns = r->start_ns;
  d->recent[i].end_ns = r->end_ns;
  d->recent[i].own_ns = MAX (0, r->end_ns - r->start_ns - r->inner_ns);
  d->recent[i].name_id = r->name_id;
  d->recent[i].code = r->code;
  /* Nothing open in the dispatch store (the common case): this dispatch was
   * not slow, no frame to count. */
  if (G_UNLIKELY (e != NULL))
    count_frames_in_dispatch (d, e, r);
}

void
js_frame_metrics_feed (JsFrameMetrics *d, const JsRecord *r)
{
  JsFrameWindow *w;

  switch (r->kind)
    {
    case JS_RECORD_DISPATCH:
      js_frame_metrics_add_dispatch (d, r);
      break;
    case JS_RECORD_FRAME:
      feed_frame (d, r);
      break;
    case JS_RECORD_CLOCK_GONE:
      if ((w = window_for (d, r->count, FALSE)) != NULL)
        w->gone = TRUE;
      break;
    default:
      break;
    }
}
