/* js-frame-hooks.h: every GdkFrameClock frame, from the main thread.
 *
 * GTK is never linked: the GdkFrameClock type is looked up by name once GTK
 * has registered it, and emission hooks on its phase signals (which fire
 * for every clock, GTK3 and GTK4, before GTK's own handlers) time the phases.
 * A handler connected after "after-paint" ends the frame. Each frame becomes
 * one JS_RECORD_FRAME in the ring (judged on the collector thread by
 * js-frame-metrics.h).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-record.h"
#include "js-ring.h"

G_BEGIN_DECLS

void js_frame_hooks_init (JsRing *ring);

/* A poll observer (js-mainloop.h): installs the hooks once GTK's frame
 * clock class exists (checked every 100 ms until then); done once they are
 * installed. */
gint64 js_frame_hooks_poll (gint64 now_ns);

/* The GdkFrameClock signal of a phase, as reports spell it. Any thread. */
const char *js_phase_name (JsPhase phase);

/* Disables the hooks' recording (exit, fork child). */
void js_frame_hooks_disable (void);

G_END_DECLS
