/* js-live-server.h: the live stream for `jankscope view` (another process).
 *
 * JANKSCOPE_LIVE=1 starts one more jankscope thread, "jankscope-live", that
 * serves a Unix socket at $XDG_RUNTIME_DIR/jankscope/PID.sock (directory
 * 0700, socket 0600, a path name: never an abstract one) to processes of
 * the same user (SO_PEERCRED; others are refused and counted). It runs its
 * own GMainContext: the app's main thread and the collector's lock are never
 * used. Per client it sends newline-delimited JSON messages
 * (docs/live-protocol.md): `hello`, the newest live `snapshot` (js-live.h)
 * at each new generation, `hang` progress every JS_LIVE_SERVER_TICK_MS while
 * the main thread is stuck past the first watchdog tier (how long, culprit
 * and newest stack: js-live-hang.h), `hang-end` and the hang's final `event`
 * as the report has it, and `server` counters.
 *
 * Every client has a bounded output queue: a newer snapshot (or hang
 * message) replaces one not yet started, and past the bounds messages are
 * dropped and counted. Sockets are non-blocking: a viewer that stops
 * reading costs memory up to the bound, never a wait.
 *
 * Fork: the thread is not in a child and the child never removes the
 * parent's socket (the core's exit handler does nothing in a fork child);
 * the listening socket is close-on-exec.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-config.h"

G_BEGIN_DECLS

#define JS_LIVE_PROTOCOL_VERSION 1
#define JS_LIVE_SERVER_TICK_MS 100
#define JS_LIVE_SERVER_MAX_CLIENTS 4
/* Per client: messages and bytes queued at most. */
#define JS_LIVE_SERVER_QUEUE_MESSAGES 64
#define JS_LIVE_SERVER_QUEUE_BYTES (32 * 1024 * 1024)

typedef struct _JsLiveServer JsLiveServer;

/* Main thread, at start-up: starts the thread (which creates the socket,
 * or warns and ends). `config` and `start_ns` outlive it. Never fails
 * loudly: NULL when the thread cannot start. */
JsLiveServer *js_live_server_start (const JsConfig *config, gint64 start_ns);

/* At exit (not in a fork child): a last `bye`, the socket removed; waits
 * at most `timeout_ms` for the thread. */
void js_live_server_stop (JsLiveServer *server, guint timeout_ms);

typedef struct
{
  guint64 accepted;     /* clients served */
  guint64 refused_uid;  /* another user: closed at once */
  guint64 refused_full; /* past JS_LIVE_SERVER_MAX_CLIENTS */
  guint64 messages_sent;
  guint64 messages_dropped; /* replaced by newer ones or past a queue's bounds */
  guint64 bytes_sent;
  guint clients; /* connected now */
} JsLiveServerStats;

void js_live_server_get_stats (JsLiveServer *server, JsLiveServerStats *stats);

G_END_DECLS
