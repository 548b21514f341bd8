/* js-context.h: the context of each jank event (system and app state around
 * it: docs/background.md, "What a report holds"), on the collector side.
 *
 * From the ring: the app's scenes and marks (js-scenes.c) and the focused
 * window's title (js-focus.c) as timelines, and the first frame (the end of
 * start-up for apps with frames). From the collector's own samples: process
 * CPU, load and available memory (js-resources.h).
 *
 * An event is annotated (JsEvent.context) once it is closed, when everything
 * it overlaps has been seen; until then (the open event) its context is
 * computed afresh for each report.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-config.h"
#include "js-event-store.h"
#include "js-record.h"
#include "js-resources.h"
#include "js-scenes.h"

G_BEGIN_DECLS

#define JS_CONTEXT_TIMELINE 1024 /* scene or title changes kept */
#define JS_CONTEXT_MARKS 256     /* ended marks kept for the report */
#define JS_EVENT_MAX_MARKS 8     /* marks listed per event */
#define JS_STARTUP_PLAIN_NS (5000 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  gint64 t_ns;
  guint32 id;
} JsTimelineEntry;

/* Changes of one value over time (a label id; 0 = none). */
typedef struct
{
  JsTimelineEntry entries[JS_CONTEXT_TIMELINE]; /* circular, oldest first */
  guint first, len;
  JsTimelineEntry base; /* the newest entry that fell out */
  gboolean have_base;
} JsTimeline;

typedef struct
{
  guint32 seq;     /* the mark's id in the report */
  guint32 name_id; /* js_marks_labels () */
  guint32 depth;   /* 1 = outermost */
  gint64 start_ns;
  gint64 end_ns; /* 0: open */
} JsMark;

struct _JsEventContext
{
  guint32 scene; /* js_scenes_labels (), 0 = none or unknown */
  guint32 title; /* js_focus_titles (), 0 = none or unknown */
  gboolean startup;
  gboolean have_resources;
  JsResourceWindow resources;
  guint n_marks;
  guint marks_omitted;
  JsMark marks[JS_EVENT_MAX_MARKS]; /* by start */
};

typedef struct
{
  const JsConfig *config;
  gint64 start_ns;
  JsTimeline scenes;
  JsTimeline titles;
  JsMark open[JS_SCENES_MAX_DEPTH]; /* by depth - 1 */
  guint n_open;
  JsMark done[JS_CONTEXT_MARKS]; /* circular, by end */
  guint done_first, done_len;
  guint64 marks_ended;
  guint64 marks_lost; /* ends never seen (records dropped) */
  JsResources resources;
  gint64 first_frame_ns; /* end of the first frame, 0 before it */
  gboolean gtk;          /* GTK is loaded: start-up ends at the first frame */
} JsContext;

void js_context_init (JsContext *c, const JsConfig *config, gint64 start_ns);

/* Every record drained from the ring. */
void js_context_feed (JsContext *c, const JsRecord *r);

/* Every collector tick: samples the process and the machine (at least every
 * 200 ms, and whenever `force`: the last tick). */
void js_context_tick (JsContext *c, gint64 now_ns, gboolean force);

/* Annotates the closed events of `store` that are not yet. */
void js_context_annotate (JsContext *c, JsEventStore *store);

/* The context of `e`: its annotation, or computed now into `scratch`. */
const JsEventContext *js_context_of (JsContext *c, const JsEvent *e, JsEventContext *scratch);

/* Start-up ends at the first frame ("first-frame") for programs that load
 * GTK, 5 s after monitoring started ("first-5s") for the others. `end_ns`:
 * 0 while unknown. */
const char *js_context_startup_rule (JsContext *c, gint64 *end_ns);

/* The end of a mark seen at `seq`, 0 while open or no longer known. */
gint64 js_context_mark_end (const JsContext *c, guint32 seq);

/* Timelines, exposed for tests. */
void js_timeline_add (JsTimeline *t, gint64 t_ns, guint32 id);
/* The value at `t_ns`; FALSE when the timeline does not reach back so far. */
gboolean js_timeline_at (const JsTimeline *t, gint64 t_ns, guint32 *id);
/* The first value other than 0 set in (from_ns, to_ns]. */
gboolean js_timeline_first_set (const JsTimeline *t, gint64 from_ns, gint64 to_ns, guint32 *id);

G_END_DECLS
