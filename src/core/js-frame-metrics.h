/* js-frame-metrics.h: frame records (js-frame-hooks.h) -> frame metrics,
 * slow-frame events, and which dispatches made them late.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-event-store.h"
#include "js-histogram.h"
#include "js-record.h"

G_BEGIN_DECLS

#define JS_FRAME_MAX_DISPATCHES 4
#define JS_FRAME_RECENT_DISPATCHES 512
#define JS_FRAME_MAX_WINDOWS 64
/* Every frame of the last minute at 60 Hz, for the live views' timeline. */
#define JS_FRAME_RECENT_FRAMES 4096

enum
{
  JS_RECENT_FRAME_SLOW = 1 << 0,
  JS_RECENT_FRAME_FROZEN = 1 << 1,
  JS_RECENT_FRAME_ANIMATING = 1 << 2, /* due right after the previous frame */
};

/* Dispatches kept per recent frame: the longest that ran inside its frame
 * time (the live views' "which dispatch ate this frame"). */
#define JS_RECENT_FRAME_DISPATCHES 3

/* A dispatch inside a recent frame's frame time (24 bytes). */
typedef struct
{
  const void *code;    /* callback (or dispatch function) address */
  guint32 name_id;     /* js-names.h */
  guint32 duration_us; /* its own time inside the frame time */
  guint32 offset_us;   /* where that time starts, from the frame time's start */
} JsRecentDispatch;

/* One frame, as the live views draw it (128 bytes: the ring is 512 KB). */
typedef struct
{
  gint64 end_ns;
  gint64 frame_ns; /* the frame time (see js_frame_metrics_feed) */
  guint32 budget_us;
  guint32 window;
  guint32 phase_us[JS_N_PHASES]; /* from the record; 0 for phases that did not run */
  guint32 flags;
  guint32 n_dispatches;
  /* Longest first; the frame's own dispatch (the paint idle) counts its work. */
  JsRecentDispatch dispatches[JS_RECENT_FRAME_DISPATCHES];
} JsRecentFrame;

_Static_assert(sizeof (JsRecentDispatch) == 24, "JsRecentDispatch layout");
_Static_assert(sizeof (JsRecentFrame) == 128, "JsRecentFrame layout");

struct _JsFrameInfo
{
  guint32 window;
  gint64 budget_ns;
  gint64 work_ns; /* before-paint (or flush-events) to the end of after-paint */
  guint32 mask;   /* phases that ran, 1 << JsPhase */
  gint64 phase_ns[JS_N_PHASES];
  guint32 dropped_frames;  /* refresh deadlines missed */
  gboolean fully_blocking; /* one dispatch held the loop for (almost) all the delay */
  JsTier tier;             /* js_tier_of_frame: light, noticeable, severe or frozen */
  guint n_dispatches;
  struct
  {
    guint32 name_id;
    const void *code;
    gint64 overlap_ns;
  } dispatches[JS_FRAME_MAX_DISPATCHES];
};

typedef struct
{
  guint32 id;
  gboolean gone;
  guint64 frames, slow, frozen;
  JsHistogram hist;         /* frame times */
  guint64 animating_frames; /* frames due right after the previous one (clock running) */
  gint64 animating_ns;      /* their frame times, summed */
  gint64 last_end_ns;
  gint64 budget_ns;
} JsFrameWindow;

typedef struct
{
  JsEventStore *dispatch_store; /* slow dispatch parts get frames_delayed */
  JsEventStore frame_store;     /* frame events */
  JsConfig frame_config;        /* frame_store's merge gap and caps */
  JsFrameWindow total;
  GPtrArray *windows; /* JsFrameWindow, by first frame; at most JS_FRAME_MAX_WINDOWS */
  guint64 windows_dropped;
  /* The latest dispatches (any length), to find what overlapped a frame. */
  struct
  {
    gint64 start_ns, end_ns, own_ns;
    guint32 name_id;
    const void *code;
  } recent[JS_FRAME_RECENT_DISPATCHES];
  guint n_recent;               /* total pushed; index modulo the size */
  JsRecentFrame *recent_frames; /* JS_FRAME_RECENT_FRAMES, a ring */
  guint64 n_recent_frames;      /* total pushed; index modulo the size */
} JsFrameMetrics;

void js_frame_metrics_init (JsFrameMetrics *d, const JsConfig *config,
                            JsEventStore *dispatch_store);
void js_frame_metrics_clear (JsFrameMetrics *d);

/* Every record, in ring order (dispatches are remembered, frames judged). */
void js_frame_metrics_feed (JsFrameMetrics *d, const JsRecord *r);
/* The same for a record known to be a dispatch. */
void js_frame_metrics_add_dispatch (JsFrameMetrics *d, const JsRecord *r);

/* Copies the recent frames that ended after `since_ns`, oldest first, into
 * `out` (JsRecentFrame). */
void js_frame_metrics_recent (const JsFrameMetrics *d, gint64 since_ns, GArray *out);

G_END_DECLS
