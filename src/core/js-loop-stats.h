/* js-loop-stats.h: running totals of the main loop, per source and overall
 * (fed by js-part-detector.c).
 *
 * Owned by the collector thread; readers (report writer, later the UI) take
 * the collector's lock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-histogram.h"
#include "js-record.h"

G_BEGIN_DECLS

#define JS_LOOP_STATS_MAX_SOURCES 1024
/* Entries of the cache in front of the per-source table (a power of two). */
#define JS_LOOP_STATS_CACHE 64

typedef struct
{
  guint32 name_id;  /* js-names.h */
  const void *code; /* callback or dispatch function */
  guint32 code_is_dispatch;
  gint64 total_ns;  /* own time */
  JsHistogram hist; /* count and max live here */
} JsSourceStats;

typedef struct
{
  guint64 iterations;
  guint64 dispatches;
  guint64 nested_loops;
  gint64 busy_ns;
  JsHistogram iteration_hist;
  GHashTable *sources; /* (name_id, code) -> JsSourceStats, at most JS_LOOP_STATS_MAX_SOURCES */
  /* Entries of `sources` found lately, direct-mapped by (name_id, code)
   * (js-loop-stats.c); NULL: none. */
  JsSourceStats *cache[JS_LOOP_STATS_CACHE];
} JsLoopStats;

void js_loop_stats_init (JsLoopStats *stats);
void js_loop_stats_clear (JsLoopStats *stats);

/* `own_ns`: the dispatch's own time (wall minus nested loops). */
void js_loop_stats_add_dispatch (JsLoopStats *stats, const JsRecord *r, gint64 own_ns);
void js_loop_stats_add_iteration (JsLoopStats *stats, const JsRecord *r);

/* The per-source entries sorted by total time, largest first (borrowed). */
GPtrArray *js_loop_stats_sorted_sources (JsLoopStats *stats);

G_END_DECLS
