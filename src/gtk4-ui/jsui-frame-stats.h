/* jsui-frame-stats.h: the header's frame numbers computed from the live
 * frames themselves (the snapshot's `live.frames`), for what the report's
 * whole-run summary cannot say: "since Clear".
 *
 * The core's rules for summary.frames, with the thresholds the app ran with
 * (jsui_frame_is_slow, jsui_frame_is_frozen); percentiles of the exact
 * values by the nearest rank (src/common/js-percentile.h).
 *
 * Pure; any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 frames; /* counted */
  gint64 slow;
  gint64 frozen;
  gint64 p50_ns, p95_ns, p99_ns; /* nearest rank; -1 without frames */
} JsuiFrameStats;

/* The frames of `frames` (of JsuiFrame) that ended at `from_ns` or later,
 * judged by `config`'s thresholds (the snapshot's report; NULL: the
 * defaults). */
void jsui_frame_stats_compute (const GArray *frames, const JsrReport *config, gint64 from_ns,
                               JsuiFrameStats *out);

G_END_DECLS
