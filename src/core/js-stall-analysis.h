/* js-stall-analysis.h: what the watchdog's stalls say about one jank event.
 *
 * Over the stalls attached to an event (js-stall-store.h), clipped to the
 * event's span: on-CPU and off-CPU time, class (compute/wait/mixed and the
 * wait kind), the stacks ranked by the time their samples speak for, the
 * sample timeline, the culprit frame with a confidence, and the longest
 * stall's watchdog members (tiers, ping). Read by the report
 * (js-report-stacks.c) and the hang digest of the live view (js-live-hang.c).
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-stall-store.h"

G_BEGIN_DECLS

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
} JsStallAnalysis;

/* Over `stalls` (JsStall*), clipped to [start_ns, end_ns]; `duration_ns`
 * is the event's blocked time (for the confidence's coverage). */
void js_stall_analysis_compute (JsStallStore *store, GPtrArray *stalls, gint64 start_ns,
                                gint64 end_ns, gint64 duration_ns, JsStallAnalysis *out);
void js_stall_analysis_clear (JsStallAnalysis *a);

G_END_DECLS
