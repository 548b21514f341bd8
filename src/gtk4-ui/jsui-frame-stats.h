/* jsui-frame-stats.h: the header's frame numbers computed from the live
 * frames themselves (the snapshot's `live.frames`), for what the report's
 * whole-run summary cannot say: "since Clear".
 *
 * Same rules as the core's summary.frames: slow = over 1.5 frame budgets
 * (JSUI_SLOW_FRAME_PCT), frozen = JSUI_FROZEN_FRAME_NS and more.
 *
 * Pure; any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JSUI_SLOW_FRAME_PCT 150
#define JSUI_FROZEN_FRAME_NS (700 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  gint64 frames; /* counted */
  gint64 slow;
  gint64 frozen;
  gint64 p50_ns, p95_ns, p99_ns; /* nearest rank; -1 without frames */
} JsuiFrameStats;

/* The frames of `frames` (of JsuiFrame) that ended at `from_ns` or later. */
void jsui_frame_stats_compute (const GArray *frames, gint64 from_ns, JsuiFrameStats *out);

G_END_DECLS
