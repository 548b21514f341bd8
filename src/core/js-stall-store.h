/* js-stall-store.h: the collector's side of the watchdog: stalls, their samples,
 * and what they say about each jank event.
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
 * Analysis of an event (js_stalls_analyze): on-CPU and off-CPU time, class
 * (compute/wait/mixed and the wait kind), aggregated stacks, the sample
 * timeline, and the culprit frame with a confidence.
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

typedef struct
{
  guint stack;
  guint64 count;   /* samples */
  gint64 time_ns;  /* event time its samples speak for (nearest-sample rule) */
  gint64 last_ns;  /* its latest sample */
} JsStackCount;

typedef struct
{
  guint n_stalls;
  gint64 watched_ns;   /* event time covered by stalls */
  gint64 sampled_ns;   /* of that, time after sampling started (pre-trigger passed) */
  gint64 cpu_ns;       /* on-CPU estimate over watched_ns; -1 unknown */
  gint64 runnable_ns;  /* ready to run but waiting for a CPU (a busy machine); -1 unknown */
  const char *klass;   /* "compute", "wait", "mixed", or NULL */
  JsWaitKind wait;     /* main wait kind (wait and mixed) */
  guint64 samples, samples_with_stack, samples_running, samples_waiting;
  GArray *stacks;      /* JsStackCount, most time first */
  gint64 attributed_ns;/* event time spoken for by samples with a stack */
  GArray *timeline;    /* JsStallSampleInfo inside the event */
  const JsFrame *culprit;  /* borrowed from the stack table */
  const char *culprit_reason; /* "app-code", "library", "leaf" */
  guint64 culprit_samples;
  gint64 culprit_ns;   /* event time attributed to it */
  double confidence;   /* 0..1 */
  gint64 tier_at_ns[JS_MAX_WATCHDOG_TIERS]; /* of the longest stall */
  gint64 ping_latency_ns;  /* of the longest stall, -1 none */
  gboolean ping_caught;
  gint64 detected_ns;
} JsEventAnalysis;

/* Over `stalls` (JsStall*), clipped to [start_ns, end_ns]; `duration_ns`
 * is the event's blocked time (for the confidence's coverage). */
void js_stalls_analyze (JsStallStore *store, GPtrArray *stalls, gint64 start_ns, gint64 end_ns,
                        gint64 duration_ns, JsEventAnalysis *out);
void js_event_analysis_clear (JsEventAnalysis *a);

/* Is this module jankscope's own, libc, the loader or GLib's main loop? */
gboolean js_stalls_module_is_infrastructure (const JsModule *module);

G_END_DECLS
