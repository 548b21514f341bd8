/* js-report-live.h: the `live` member of live snapshots (js-live.h): every
 * recent frame for the frame timeline, and jankscope's own cost.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "js-json-writer.h"
#include "js-callback-names.h"
#include "js-frame-metrics.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

/* Frames of the last JS_REPORT_LIVE_FRAMES_NS at most. */
#define JS_REPORT_LIVE_FRAMES_NS (60 * G_GINT64_CONSTANT (1000000000))
/* The dispatches of a frame on time are listed from this long (those of a
 * slow frame all): most frames on time only show their paint. */
#define JS_REPORT_LIVE_MIN_DISPATCH_US 1000

void js_report_add_live (JsJsonWriter *b, const JsFrameMetrics *frames,
                         JsCallbackNames *callback_names, JsWatchdog *watchdog, gint64 now_ns,
                         gint64 start_ns, gint64 collector_cpu_ns);

G_END_DECLS
