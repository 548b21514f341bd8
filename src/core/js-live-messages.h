/* js-live-messages.h: the live stream's messages (docs/live-protocol.md),
 * each one newline-terminated JSON line in a GBytes, ready to be queued for
 * any number of clients.
 *
 * Live server thread (any thread: nothing here keeps state).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include "js-live-server.h"

G_BEGIN_DECLS

typedef struct
{
  pid_t pid;
  gint64 start_ns;    /* monitoring started */
  gint64 hang_min_ns; /* a stall is a hang from here (first watchdog tier) */
} JsLiveHelloInfo;

GBytes *js_live_message_hello (const JsLiveHelloInfo *info, const JsLiveServerStats *stats,
                               gint64 now_ns);
GBytes *js_live_message_server (const JsLiveServerStats *stats, gint64 now_ns);
/* The snapshot's bytes as the collector made them, as the last member. */
GBytes *js_live_message_snapshot (GBytes *snapshot, guint64 generation, gint64 now_ns);
/* How long the main thread has been stuck, with the newest digest of its
 * stall (js-live-hang.h) when it speaks of the stall that began at
 * `since_ns`. */
GBytes *js_live_message_hang (gint64 since_ns, gint64 now_ns);
GBytes *js_live_message_hang_end (gint64 since_ns, gint64 end_ns, gint64 now_ns);
/* The ended hang [since_ns, end_ns]'s event as `snapshot` has it, or NULL
 * while it may still change (the merge gap and a second have not passed at
 * the snapshot's time) or when no event covers half of it. */
GBytes *js_live_message_hang_event (GBytes *snapshot, gint64 since_ns, gint64 end_ns,
                                    gint64 merge_gap_ns, gint64 now_ns);
GBytes *js_live_message_bye (gint64 now_ns);
GBytes *js_live_message_error (const char *reason);

G_END_DECLS
