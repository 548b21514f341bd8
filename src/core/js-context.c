/* js-context.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-context.h"

#include <dlfcn.h>
#include <string.h>

/* --- timelines --------------------------------------------------------- */

static const JsTimelineEntry *
entry (const JsTimeline *t, guint i)
{
  return &t->entries[(t->first + i) % JS_CONTEXT_TIMELINE];
}

void
js_timeline_add (JsTimeline *t, gint64 t_ns, guint32 id)
{
  if (t->len > 0 && entry (t, t->len - 1)->id == id)
    return; /* no change */
  if (t->len == JS_CONTEXT_TIMELINE)
    {
      t->base = *entry (t, 0);
      t->have_base = TRUE;
      t->first = (t->first + 1) % JS_CONTEXT_TIMELINE;
      t->len--;
    }
  t->entries[(t->first + t->len) % JS_CONTEXT_TIMELINE] = (JsTimelineEntry){ t_ns, id };
  t->len++;
}

gboolean
js_timeline_at (const JsTimeline *t, gint64 t_ns, guint32 *id)
{
  guint lo = 0, hi = t->len;

  /* The first entry after t_ns; the one before it holds at t_ns. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entry (t, mid)->t_ns <= t_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      *id = entry (t, lo - 1)->id;
      return TRUE;
    }
  if (t->have_base && t->base.t_ns <= t_ns)
    {
      *id = t->base.id;
      return TRUE;
    }
  return FALSE;
}

gboolean
js_timeline_first_set (const JsTimeline *t, gint64 from_ns, gint64 to_ns, guint32 *id)
{
  guint lo = 0, hi = t->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entry (t, mid)->t_ns <= from_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < t->len && entry (t, lo)->t_ns <= to_ns; lo++)
    if (entry (t, lo)->id != 0)
      {
        *id = entry (t, lo)->id;
        return TRUE;
      }
  return FALSE;
}

/* --- marks ------------------------------------------------------------- */

static const JsMark *
done_mark (const JsContext *c, guint i)
{
  return &c->done[(c->done_first + i) % JS_CONTEXT_MARKS];
}

static void
add_done (JsContext *c, const JsMark *m)
{
  if (c->done_len == JS_CONTEXT_MARKS)
    {
      c->done_first = (c->done_first + 1) % JS_CONTEXT_MARKS;
      c->done_len--;
    }
  c->done[(c->done_first + c->done_len) % JS_CONTEXT_MARKS] = *m;
  c->done_len++;
  c->marks_ended++;
}

/* Marks at `depth` or deeper are over: their ends were lost (ring full). */
static void
close_open_from (JsContext *c, guint depth)
{
  while (c->n_open >= depth && c->n_open > 0)
    {
      if (c->open[c->n_open - 1].seq != 0)
        c->marks_lost++;
      c->open[--c->n_open].seq = 0;
    }
}

static void
feed_mark (JsContext *c, const JsRecord *r)
{
  JsMark m = {
    .seq = r->count,
    .name_id = r->name_id,
    .depth = r->depth,
    .start_ns = r->start_ns,
  };

  if (r->depth == 0 || r->depth > JS_SCENES_MAX_DEPTH)
    return;
  if (r->kind == JS_RECORD_MARK_BEGIN)
    {
      close_open_from (c, r->depth);
      /* Levels skipped by lost begins stay empty (seq 0). */
      while (c->n_open < r->depth - 1u)
        c->open[c->n_open++] = (JsMark){ 0 };
      c->open[c->n_open++] = m;
      return;
    }
  if (c->n_open >= r->depth && c->open[r->depth - 1].seq == r->count)
    c->open[r->depth - 1].seq = 0; /* ends normally: not lost */
  close_open_from (c, r->depth);
  m.end_ns = r->end_ns;
  add_done (c, &m);
}

gint64
js_context_mark_end (const JsContext *c, guint32 seq)
{
  for (guint i = c->done_len; i-- > 0;)
    if (done_mark (c, i)->seq == seq)
      return done_mark (c, i)->end_ns;
  return 0;
}

/* --- feeding ----------------------------------------------------------- */

void
js_context_init (JsContext *c, const JsConfig *config, gint64 start_ns)
{
  memset (c, 0, sizeof *c);
  c->config = config;
  c->start_ns = start_ns;
  /* Monitoring starts outside any scene, with no focused window known. */
  js_timeline_add (&c->scenes, start_ns, 0);
  js_resources_init (&c->resources);
}

void
js_context_feed (JsContext *c, const JsRecord *r)
{
  switch (r->kind)
    {
    case JS_RECORD_SCENE:
      js_timeline_add (&c->scenes, r->start_ns, r->name_id);
      break;
    case JS_RECORD_TITLE:
      js_timeline_add (&c->titles, r->start_ns, r->name_id);
      break;
    case JS_RECORD_MARK_BEGIN:
    case JS_RECORD_MARK_END:
      feed_mark (c, r);
      break;
    case JS_RECORD_FRAME:
      if (c->first_frame_ns == 0)
        c->first_frame_ns = r->end_ns;
      break;
    default:
      break;
    }
}

void
js_context_tick (JsContext *c, gint64 now_ns, gboolean force)
{
  js_resources_sample (&c->resources, now_ns, force);
}

/* --- events ------------------------------------------------------------ */

const char *
js_context_startup_rule (JsContext *c, gint64 *end_ns)
{
  if (!c->gtk && c->first_frame_ns == 0)
    c->gtk = dlsym (RTLD_DEFAULT, "gtk_get_major_version") != NULL;
  if (c->gtk || c->first_frame_ns != 0)
    {
      *end_ns = c->first_frame_ns;
      return "first-frame";
    }
  *end_ns = c->start_ns + JS_STARTUP_PLAIN_NS;
  return "first-5s";
}

static void
consider_mark (JsEventContext *x, const JsMark *m, gint64 start_ns, gint64 end_ns)
{
  guint i;

  if (m->seq == 0 || m->start_ns >= end_ns || (m->end_ns != 0 && m->end_ns <= start_ns))
    return;
  /* Keep the JS_EVENT_MAX_MARKS that started first. */
  for (i = x->n_marks; i > 0 && x->marks[i - 1].start_ns > m->start_ns; i--)
    ;
  if (i == JS_EVENT_MAX_MARKS)
    {
      x->marks_omitted++;
      return;
    }
  if (x->n_marks == JS_EVENT_MAX_MARKS)
    x->marks_omitted++;
  else
    x->n_marks++;
  memmove (&x->marks[i + 1], &x->marks[i], (x->n_marks - 1 - i) * sizeof x->marks[0]);
  x->marks[i] = *m;
}

static void
compute (JsContext *c, const JsEvent *e, JsEventContext *x)
{
  gint64 at = e->longest.start_ns, startup_end;

  memset (x, 0, sizeof *x);
  /* The scene when the longest part started; outside any scene, the first
   * one entered while it ran (a callback that enters a scene and then does
   * the slow work). */
  if ((!js_timeline_at (&c->scenes, at, &x->scene) || x->scene == 0)
      && !js_timeline_first_set (&c->scenes, at, e->longest.end_ns, &x->scene))
    x->scene = 0;
  js_timeline_at (&c->titles, at, &x->title);
  x->have_resources = js_resources_window (&c->resources, e->start_ns, e->end_ns, &x->resources);
  if (strcmp (js_context_startup_rule (c, &startup_end), "first-frame") == 0)
    x->startup = startup_end == 0 || e->start_ns < startup_end;
  else
    x->startup = e->start_ns < startup_end;
  /* Ended marks are kept by end: older ones end before the event starts. */
  for (guint i = c->done_len; i-- > 0 && done_mark (c, i)->end_ns > e->start_ns;)
    consider_mark (x, done_mark (c, i), e->start_ns, e->end_ns);
  for (guint i = 0; i < c->n_open; i++)
    consider_mark (x, &c->open[i], e->start_ns, e->end_ns);
}

void
js_context_annotate (JsContext *c, JsEventStore *store)
{
  guint i = store->events->len;

  /* Closed events are appended in order: the ones not annotated yet are at
   * the end. */
  while (i > 0 && ((JsEvent *) g_ptr_array_index (store->events, i - 1))->context == NULL)
    i--;
  for (; i < store->events->len; i++)
    {
      JsEvent *e = g_ptr_array_index (store->events, i);

      e->context = g_new (JsEventContext, 1);
      compute (c, e, e->context);
      js_event_store_touch_context (store, e);
    }
}

const JsEventContext *
js_context_of (JsContext *c, const JsEvent *e, JsEventContext *scratch)
{
  if (e->context != NULL)
    return e->context;
  compute (c, e, scratch);
  return scratch;
}
