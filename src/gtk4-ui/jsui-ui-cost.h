/* jsui-ui-cost.h: what jankscope's own UI costs the app's main thread:
 * refreshes, applying snapshots to the widgets, and the frames (layout and
 * paint) of the jankscope window or of the Inspector showing its page.
 *
 * One meter per process (every panel on screen counts), kept per second
 * for the last JSUI_UI_COST_SECONDS seconds. Shown in the panel's header
 * next to the core's own overhead.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JSUI_UI_COST_SECONDS 5

/* Adds main-thread time spent at `now_us` (g_get_monotonic_time ()). */
void jsui_ui_cost_add (gint64 now_us, gint64 spent_us);

/* Main-thread ms per second over the last full seconds (up to
 * JSUI_UI_COST_SECONDS); < 0 before the first full second. */
double jsui_ui_cost_ms_per_s (gint64 now_us);

/* Counts the frames of this clock (before-paint to after-paint) until it
 * goes. Once per clock. */
void jsui_ui_cost_watch_clock (GdkFrameClock *clock);

/* For tests: forget everything. */
void jsui_ui_cost_reset (void);

G_END_DECLS
