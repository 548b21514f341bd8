/* js-stall-analysis.h: what an event's (or a part's) samples say: class,
 * wait kind, on-CPU time, and the culprit.
 *
 * Over an attribution (js-attribution.h): its statistics give the class
 * (compute, wait or mixed, from the on-CPU plus runnable share of the
 * watched time) and the wait kind sampled most; its profile gives the
 * culprit. The culprit is searched for only among frames the main loop
 * dispatched (below the innermost JS_NODE_DISPATCH, or JS_NODE_LOOP for
 * work outside a dispatch: js-stack-path.h): from the dispatched node with
 * the most time, the path goes down into the child with the most time as
 * long as it holds at least half of that first node's time (the heaviest
 * path); on it, the innermost frame of the app's own code ("app-code"),
 * else the innermost library function outside libc and GLib, named if
 * one is ("library"), else the innermost named frame ("leaf").
 *
 * Read by the report (js-report-stacks.c) and the live view's hang digest
 * (js-live-hang.c). Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-attribution.h"

G_BEGIN_DECLS

typedef struct
{
  const char *klass;  /* "compute", "wait", "mixed", or NULL */
  JsWaitKind wait;    /* main wait kind (wait and mixed) */
  gint64 cpu_ns;      /* -1 unknown */
  gint64 runnable_ns; /* -1 unknown */

  guint32 culprit;            /* its profile node, or JS_PROFILE_NONE */
  const char *culprit_reason; /* "app-code", "library", "leaf" */
  guint64 culprit_samples;
  gint64 culprit_ns;
  double confidence;  /* 0..1 */
  guint32 callback;   /* the dispatched function on its path, or JS_PROFILE_NONE */
  gint64 app_code_ns; /* time of samples with the app's own code inside the dispatch */
  guint64 of_samples; /* samples with a stack */
} JsCause;

/* The class of `stats` and the culprit in `profile`, with each node's self
 * samples and time taken from `samples`/`ns` (arrays over the profile's
 * nodes) or, when NULL, from the profile itself. `duration_ns` is the
 * blocked time (for the confidence). */
void js_stall_analysis_cause (const JsProfile *profile, const guint64 *samples, const gint64 *ns,
                              const JsSampleStats *stats, gint64 duration_ns, JsCause *out);

G_END_DECLS
