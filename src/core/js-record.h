/* js-record.h: what the main-thread hooks tell the collector.
 *
 * One fixed-size record per dispatch and per iteration (the last dispatch
 * of an iteration of the outermost loop carries that iteration: one record
 * for both), written by the main thread into a JsRing. Plain data: no
 * pointer in it is ever dereferenced by the collector (a source may be gone
 * by then), except `code`, which is only looked up as an address.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

typedef enum
{
  JS_RECORD_DISPATCH = 1,
  JS_RECORD_ITERATION,
  JS_RECORD_FRAME,      /* a GdkFrameClock frame (js-frame-hooks.c) */
  JS_RECORD_CLOCK_GONE, /* a frame clock was finalized: `count` is its window id */
  /* The app's annotations (js-scenes.c) and the focused window (js-focus.c),
   * all at `start_ns`; each is self-contained, so a dropped one only blurs
   * the timeline until the next: */
  JS_RECORD_SCENE,      /* the scene stack changed: `name_id` its innermost scene
                         * (js-scenes.h labels, 0 = none), `depth` its depth */
  JS_RECORD_MARK_BEGIN, /* a mark began: `name_id` (mark names), `count` its
                         * sequence number, `depth` its nesting (1 = outermost) */
  JS_RECORD_MARK_END,   /* a mark ended: the same, and `end_ns` */
  JS_RECORD_TITLE,      /* the focused window or its title changed: `name_id`
                         * (window titles, 0 = no focused window or no title) */
} JsRecordKind;

/* Frame phases, in the order a frame runs them. */
typedef enum
{
  JS_PHASE_FLUSH_EVENTS,
  JS_PHASE_BEFORE_PAINT,
  JS_PHASE_UPDATE,
  JS_PHASE_LAYOUT,
  JS_PHASE_PAINT,
  JS_PHASE_AFTER_PAINT,
  JS_N_PHASES
} JsPhase;

enum
{
  JS_RECORD_CODE_IS_DISPATCH = 1 << 0, /* `code` is the source's dispatch, not a callback */
  JS_RECORD_NESTED_LOOP = 1 << 1,      /* a main loop ran inside this dispatch */
  /* Dispatch: the last one of an iteration of the outermost loop, and the
   * record of that iteration as well (js_record_iteration_of): `count` its
   * dispatches, iter_lead_ns and iter_tail_ns its span around this dispatch.
   * One ring write an iteration instead of two (js-mainloop.c). */
  JS_RECORD_ENDS_ITERATION = 1 << 2,
};

typedef struct
{
  int64_t start_ns;
  int64_t end_ns;
  /* Dispatch: time inside nested loops (their waits and dispatches).
   * Iteration: time of this iteration spent inside the dispatch that was
   * still running when it ended (the one that started a nested loop).
   * Frame: the refresh interval (frame budget). */
  int64_t inner_ns;
  const void *code; /* dispatch: callback (or dispatch function) address;
                     * frame: that of the dispatch that ran the frame */
  uint32_t name_id; /* dispatch (frame: its dispatch's): interned source name (js-names.h) */
  uint32_t count;   /* iteration (and a dispatch that ends one): dispatches in it;
                     * frame, clock gone: window id */
  int16_t priority; /* dispatch: source priority, clamped */
  uint8_t kind;     /* JsRecordKind */
  uint8_t depth;    /* dispatch: 1 = outermost loop; iteration: loop nesting, 0 = outermost */
  uint32_t flags;   /* frame: bit (1 << JsPhase) for each phase that ran */
  union
  {
    struct
    {
      uint32_t phase_us[JS_N_PHASES]; /* frame: time in each phase, µs */
      uint32_t delay_us; /* frame: how late its dispatch started after the source was ready */
    };
    struct
    {
      uint32_t post;         /* dispatch: where its source was posted (js-posting.h), 0 unknown */
      uint32_t source_id;    /* dispatch: its source's id */
      const void *user_data; /* dispatch: its data, as an address only (a GTask's completion) */
      /* Dispatch with JS_RECORD_ENDS_ITERATION: its iteration began this
       * long before it started and ended this long after it ended. */
      uint32_t iter_lead_ns;
      uint32_t iter_tail_ns;
    };
  };
} JsRecord;

_Static_assert(sizeof (JsRecord) == 80, "JsRecord layout");

/* The iteration a dispatch record carries (JS_RECORD_ENDS_ITERATION), as
 * the iteration record it stands for; 0 if it carries none. */
static inline int
js_record_iteration_of (const JsRecord *r, JsRecord *iteration)
{
  if (r->kind != JS_RECORD_DISPATCH || !(r->flags & JS_RECORD_ENDS_ITERATION))
    return 0;
  *iteration = (JsRecord){
    .kind = JS_RECORD_ITERATION,
    .start_ns = r->start_ns - r->iter_lead_ns,
    .end_ns = r->end_ns + r->iter_tail_ns,
    .count = r->count,
  };
  return 1;
}
