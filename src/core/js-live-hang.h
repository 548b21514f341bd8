/* js-live-hang.h: the newest word on the stall under way, for the live
 * server's hang progress messages (docs/live-protocol.md).
 *
 * The collector keeps on running while the main thread is stuck: at each
 * tick, when the ongoing stall changed (new samples) and a live viewer is
 * connected, it publishes a small JSON object (a *digest*): the stall's
 * start, its samples, its class, its culprit so far and the newest sampled
 * stack, symbolized. The live server thread reads the newest digest (a
 * GBytes reference taken under a mutex held for a pointer swap only) and
 * adds how long the main thread has been stuck *now*, so its messages stay
 * current between two collector ticks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-config.h"
#include "js-post-sites.h"
#include "js-stall-store.h"

G_BEGIN_DECLS

/* Frames of the newest stack put in a digest (leaf first). */
#define JS_LIVE_HANG_MAX_FRAMES 48

/* Collector: nobody asks (js_live_wanted) → nothing built. */
void js_live_hang_update (JsStallStore *stalls, JsPostSites *posts, const JsConfig *config,
                          gint64 now_ns);

/* Any thread: the newest digest (a new reference, NULL if none), and the
 * start of its stall (CLOCK_MONOTONIC ns): compare it with
 * js_mainloop_stuck_since () to know the digest speaks of that stall. */
GBytes *js_live_hang_get (gint64 *start_ns);

/* Collector (at exit): forget it. */
void js_live_hang_clear (void);

G_END_DECLS
