/* js-slow-frame.h: which frames are slow, which frozen, and the budget they
 * are judged against.
 *
 * A frame is slow when its frame time is over a share of its budget (the
 * clock's refresh interval): JANKSCOPE_SLOW_FRAME_PCT, by default 150%, one
 * and a half budgets. It is frozen over the frozen tier's bound (js-tiers.h). A frame whose clock
 * reported no refresh interval is judged against 60 Hz.
 *
 * The core decides with them which frames are slow (summary.frames, frame
 * events, live.frames' flags); the window with the same rule and the
 * snapshot's `config.slow_frame_pct` and `config.tiers_ns`. GLib only; pure,
 * any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-tiers.h"

G_BEGIN_DECLS

#define JS_SLOW_FRAME_DEFAULT_PCT 150
/* What JANKSCOPE_SLOW_FRAME_PCT accepts: over one budget, at most 100. */
#define JS_SLOW_FRAME_MIN_PCT 101
#define JS_SLOW_FRAME_MAX_PCT 10000

/* 60 Hz, for a clock that reports no refresh interval. */
#define JS_FALLBACK_FRAME_BUDGET_NS G_GINT64_CONSTANT (16666667)

/* The budget itself, or the fallback when it is unknown (<= 0). */
gint64 js_frame_budget (gint64 budget_ns);

/* Is a frame of this frame time slow: over slow_pct % of its budget (unknown
 * budget: the fallback)? Never overflows (the numbers may come from a
 * hostile snapshot). */
gboolean js_frame_is_slow (gint64 frame_ns, gint64 budget_ns, guint slow_pct);

/* Is it frozen: over the frozen tier's bound (js_tier_of_frame)? */
gboolean js_frame_is_frozen (const gint64 bound_ns[JS_N_TIERS], gint64 frame_ns);

G_END_DECLS
