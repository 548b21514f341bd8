/* js-stall-store.h: the collector's side of the watchdog: stalls, their
 * samples, and the jank events each one is attached to.
 *
 * The watchdog sends stall headers and samples (js-watchdog.h); here each
 * sample's stack is unwound (copies of blocked stacks) and interned
 * (js-stack-table.h), and each stall that ended is attached to the jank events
 * it overlaps (dispatch/iteration events and frame events). A stall that
 * overlaps no event within a grace period was shorter than the jank threshold:
 * it is counted and dropped. The stall still under way is kept apart: the
 * report shows it as an ongoing "hang" event, so its evidence is on disk even
 * if the app is killed during it.
 *
 * What the stalls say about an event is js-stall-analysis.h's.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-event-store.h"
#include "js-modules.h"
#include "js-stack-table.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

#define JS_EVENT_MAX_STALLS 8

typedef struct
{
  gint64 time_ns, last_ns;
  gint64 cpu_ns;
  guint32 count;
  guint32 stack; /* JsStackTable id, 0 without a stack */
  guint8 state, wait, flags;
  gint16 syscall;
} JsStallSampleInfo;

typedef struct
{
  gint ref;
  JsStallHeader h;
  GArray *samples; /* JsStallSampleInfo; each holds a reference on its stack */
  JsStackTable *stacks;
  gint64 ended_seen_ns;
  guint attached;  /* events it was attached to */
} JsStall;

JsStall *js_stall_ref (JsStall *stall);
void js_stall_unref (gpointer stall);

typedef struct
{
  JsSymbolizer *symbolizer;
  JsStackTable *stacks;
  JsModules *modules;
  GHashTable *live;   /* id -> JsStall*: under way, or ended and not attached yet */
  JsStall *ongoing;   /* the one under way (also in `live`), or NULL */
  guint64 stalls;
  guint64 unattached; /* ended without overlapping any event */
  guint32 last_removed_id;
  guint64 generation; /* bumped when the ongoing stall changes */
} JsStallStore;

void js_stall_store_init (JsStallStore *store, JsModules *modules, gboolean debuginfod);
void js_stall_store_clear (JsStallStore *store);

/* Takes what the watchdog sent (samples are consumed and freed). */
void js_stall_store_feed (JsStallStore *store, GArray *headers, GPtrArray *samples);

/* Attaches ended stalls to the events of `stores` they overlap. */
void js_stall_store_attach (JsStallStore *store, JsEventStore *const *stores, guint n_stores,
                            gint64 now_ns);

G_END_DECLS
