/* jsv-live-client.h: one connection to a monitored process's live stream
 * (docs/live-protocol.md), for the viewer.
 *
 * Reads newline-delimited JSON with async GIO on the main context: the
 * snapshot messages are not parsed here (their snapshot bytes are cut out
 * of the line without a copy and handed to a JsuiRefresher, which parses
 * them in a worker thread); the small ones (hello, hang, hang-end, event,
 * server) are. When the stream ends it reconnects with back-off (0.25 s,
 * doubling to 2 s), as long as the process lives; when it is gone the state
 * becomes JSV_LIVE_GONE and the client keeps the last data.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  JSV_LIVE_CONNECTING,
  JSV_LIVE_CONNECTED,
  JSV_LIVE_GONE, /* the process ended (its socket went away) */
} JsvLiveState;

#define JSV_TYPE_LIVE_CLIENT (jsv_live_client_get_type ())
G_DECLARE_FINAL_TYPE (JsvLiveClient, jsv_live_client, JSV, LIVE_CLIENT, GObject)

/* `socket_path`: $XDG_RUNTIME_DIR/jankscope/PID.sock. Connects at once.
 * Signals: "state-changed" (state or hello), "hang-changed" (a hang
 * message, a hang-end, or the connection lost during a hang). */
JsvLiveClient *jsv_live_client_new (const char *socket_path, int pid);

JsvLiveState jsv_live_client_get_state (JsvLiveClient *self);
int jsv_live_client_get_pid (JsvLiveClient *self);
/* From the hello message (NULL before it). */
const char *jsv_live_client_get_name (JsvLiveClient *self);
const char *jsv_live_client_get_toolkit (JsvLiveClient *self);

/* The newest snapshot (a new reference, NULL: none yet) and its generation:
 * a JsuiSnapshotSource. */
GBytes *jsv_live_client_get_snapshot (guint64 *generation, gpointer self);

/* The hang under way: TRUE and how long the main thread had been stuck at
 * the last hang message, when that message came (g_get_monotonic_time ()),
 * and its culprit ("function (module)", NULL: not known yet). FALSE: none. */
gboolean jsv_live_client_get_hang (JsvLiveClient *self, gint64 *stuck_ns, gint64 *received_us,
                                   const char **culprit);
/* The hang under way: where the dispatch it is stuck in was posted from
 * ("function (module)" of the posting culprit, else of the caller), NULL
 * when not hung or not known. */
const char *jsv_live_client_get_hang_posted_from (JsvLiveClient *self);
/* The last hang that ended: its length (0: none yet). */
gint64 jsv_live_client_get_last_hang_ns (JsvLiveClient *self);
/* The last ended hang's event once the server sent it (the report's event,
 * the same numbers): its id, blocked time, longest part and parts. FALSE
 * while hung or before it came. */
gboolean jsv_live_client_get_hang_event (JsvLiveClient *self, gint64 *id, gint64 *duration_ns,
                                         gint64 *max_part_ns, gint64 *parts);

/* Messages of each kind received, for tests. */
guint jsv_live_client_get_n_messages (JsvLiveClient *self, const char *type);

G_END_DECLS
