/* js-record.h: what the main-thread hooks tell the collector.
 *
 * One fixed-size record per dispatch and per iteration, written by the main
 * thread into a JsRing. Plain data: no pointer in it is ever dereferenced by
 * the collector (a source may be gone by then), except `code`, which is only
 * looked up as an address.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdint.h>

typedef enum
{
  JS_RECORD_DISPATCH = 1,
  JS_RECORD_ITERATION,
} JsRecordKind;

enum
{
  JS_RECORD_CODE_IS_DISPATCH = 1 << 0, /* `code` is the source's dispatch, not a callback */
  JS_RECORD_NESTED_LOOP = 1 << 1,      /* a main loop ran inside this dispatch */
};

typedef struct
{
  int64_t start_ns;
  int64_t end_ns;
  /* Dispatch: time inside nested loops (their waits and dispatches).
   * Iteration: time of this iteration spent inside the dispatch that was
   * still running when it ended (the one that started a nested loop). */
  int64_t inner_ns;
  const void *code;   /* dispatch: callback (or dispatch function) address */
  uint32_t name_id;   /* dispatch: interned source name (js-names.h) */
  uint32_t count;     /* iteration: dispatches in it */
  int16_t priority;   /* dispatch: source priority, clamped */
  uint8_t kind;       /* JsRecordKind */
  uint8_t depth;      /* dispatch: 1 = outermost loop; iteration: loop nesting, 0 = outermost */
  uint32_t flags;
} JsRecord;

_Static_assert (sizeof (JsRecord) == 48, "JsRecord is one and a half cache lines");
