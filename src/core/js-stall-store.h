/* js-stall-store.h: the collector's side of the watchdog: stalls, their
 * samples, and the jank events each one goes to.
 *
 * The watchdog sends stall headers and samples (js-watchdog.h); here each
 * sample's stack is unwound (copies of blocked stacks) and interned
 * (js-stack-table.h). A stall that ended is held by the jank events it
 * overlaps (dispatch/iteration events and frame events) for a grace period
 * (the records that make an event may come a tick after the stall's end);
 * then it *settles*: its samples are folded into each of those events'
 * attribution (js-attribution.h), over the events' parts as they are then,
 * and the events and this store let it go. However long an episode, an
 * event holds only the stalls of the last seconds. A stall that overlaps
 * no event was shorter than the jank threshold: it is counted and dropped.
 *
 * A long stall's samples older than a few seconds are aggregated as it
 * goes (js_attribution_compact), their stacks let go: a hang of an hour
 * costs what one of a minute does. The stall still under way is kept
 * apart: the report shows it as an ongoing "hang" event, so its evidence
 * is on disk even if the app is killed during it.
 *
 * What the samples say about an event is js-stall-analysis.h's.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-attribution.h"
#include "js-event-store.h"
#include "js-modules.h"
#include "js-stack-table.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

/* Stalls an event holds until they are folded into it (their grace period,
 * 1.5 s: a stall lasts 16 ms at least, so far fewer in practice). */
#define JS_EVENT_MAX_PENDING_STALLS 1024

typedef struct
{
  gint64 time_ns, last_ns;
  gint64 cpu_ns;
  guint32 count;
  guint32 stack; /* JsStackTable id, 0 without a stack */
  guint8 state, wait, flags;
  gint16 syscall;
  const char *detail; /* interned (js-sample-detail.h), or NULL */
} JsStallSampleInfo;

struct _JsStall
{
  gint ref;
  JsStallHeader h;
  GArray *samples;     /* JsStallSampleInfo, the newest; each holds a reference on its stack */
  GPtrArray *chunks;   /* JsStallChunk: the older samples of a long stall, aggregated */
  gint64 cell_from_ns; /* where the first sample of `samples` speaks from (0: the start) */
  JsStackTable *stacks;
  gint64 ended_seen_ns;
  guint attached;                  /* events it was attached to */
  guint32 post_of_site, post_site; /* h.post, and its site's id (js_report_hang_post_site) */
};
typedef struct _JsStall JsStall;

/* A stall with more samples than this has those older than
 * JS_STALL_COMPACT_AGE_NS aggregated (js_attribution_compact): by then the
 * parts they belong to are known. */
#define JS_STALL_COMPACT_AT 256
#define JS_STALL_COMPACT_AGE_NS (2000 * G_GINT64_CONSTANT (1000000))

JsStall *js_stall_ref (JsStall *stall);
void js_stall_unref (gpointer stall);

typedef struct
{
  JsSymbolizer *symbolizer;
  JsStackTable *stacks;
  JsModules *modules;
  GHashTable *live; /* id -> JsStall*: under way, or ended and not settled yet */
  JsStall *ongoing; /* the one under way (also in `live`), or NULL */
  guint64 stalls;
  guint64 unattached; /* ended without overlapping any event */
  guint32 last_removed_id;
  guint64 generation; /* bumped when the ongoing stall changes */
} JsStallStore;

void js_stall_store_init (JsStallStore *store, JsModules *modules, gboolean debuginfod);
void js_stall_store_clear (JsStallStore *store);

/* Takes what the watchdog sent (samples are consumed and freed). */
void js_stall_store_feed (JsStallStore *store, GArray *headers, GPtrArray *samples);

/* Hands ended stalls to the events of `stores` they overlap, folds those
 * past their grace period into them, and aggregates long stalls' older
 * samples. */
void js_stall_store_attach (JsStallStore *store, JsEventStore *const *stores, guint n_stores,
                            gint64 now_ns);

G_END_DECLS
