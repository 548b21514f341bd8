/* jsv-hang-banner.h: "Main thread stuck for 3.2 s in <culprit>", live.
 *
 * Shown while the client reports a hang; between two hang messages (every
 * 100 ms from the server) it counts on by itself, redrawn every 100 ms, but
 * never more than 500 ms past the last message (a silent server must not
 * look like a hang that goes on). After the hang: "Main thread was stuck
 * for 3.2 s" until the next one.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsv-live-client.h"

G_BEGIN_DECLS

#define JSV_BANNER_TICK_MS 100

#define JSV_TYPE_HANG_BANNER (jsv_hang_banner_get_type ())
G_DECLARE_FINAL_TYPE (JsvHangBanner, jsv_hang_banner, JSV, HANG_BANNER, GtkWidget)

JsvHangBanner *jsv_hang_banner_new (void);
/* Follows this client (NULL: none). */
void jsv_hang_banner_set_client (JsvHangBanner *self, JsvLiveClient *client);
/* The text shown (empty when hidden); "changed" is emitted at each redraw
 * with a new text. */
const char *jsv_hang_banner_get_text (JsvHangBanner *self);
gboolean jsv_hang_banner_is_hung (JsvHangBanner *self);
/* While hung: the stuck time the text shows (extrapolated since the last
 * message, as the text is), for the window's other places to say the same;
 * else -1. */
gint64 jsv_hang_banner_get_stuck_ns (JsvHangBanner *self);

G_END_DECLS
