/* js-live-server.c
 *
 * One thread, one GMainContext: the listening socket, the clients' sockets
 * and a tick (only while someone is connected: no viewer, no wake-up).
 * Sources on this context are never timed: jankscope watches the default
 * context on the main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-live-server.h"
#include "js-clock.h"
#include "js-live-messages.h"
#include "js-live-socket.h"
#include "js-live.h"
#include "js-log.h"
#include "js-mainloop.h"

#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

/* The hang's final event is looked for in snapshots this long at most. */
#define EVENT_WAIT_NS (15000 * JS_NS_PER_MS)
#define STATS_PERIOD_NS (1000 * JS_NS_PER_MS)
/* A client younger than this gets no snapshot and asks for none: the
 * viewer's process list probes every socket for its hello and closes at once,
 * and must not make every monitored app build snapshots. */
#define PROBE_NS (50 * JS_NS_PER_MS)

typedef enum
{
  MSG_CONTROL,  /* hello, hang-end, event, server, bye: never replaced */
  MSG_SNAPSHOT, /* a newer one replaces one not yet started */
  MSG_HANG,     /* a newer one replaces the queue's last if it is one */
} MsgKind;

typedef struct
{
  MsgKind kind;
  GBytes *bytes;
} Msg;

typedef struct
{
  JsLiveServer *server;
  GSocket *socket;
  GSource *in_source;
  GSource *out_source;
  GQueue queue; /* Msg*, oldest first */
  gsize offset; /* bytes of the head already sent */
  gsize queued_bytes;
  gint64 connected_ns;
  gboolean needs_snapshot; /* the newest one, at its first tick */
} Client;

struct _JsLiveServer
{
  const JsConfig *config;
  gint64 start_ns;
  char *runtime_dir; /* copied on the main thread: getenv is not thread-safe */
  char *path;
  pid_t pid;
  uid_t uid;

  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  GSocket *listener;
  GSource *listen_source;
  GSource *tick_source;
  GList *clients;

  guint64 snapshot_generation;
  GBytes *snapshot_message; /* the newest snapshot message, for new clients */
  gint64 hang_since_ns;     /* the stall hang messages speak of, 0: none */
  gint64 hang_end_since_ns; /* a hang ended: its final event is looked for */
  gint64 hang_end_ns;
  gint64 hang_end_seen_ns;
  gint64 last_stats_ns;

  GMutex lock; /* stats, `served` and `done` */
  GCond cond;
  gboolean served; /* `path` is ours and fixed from then on */
  gboolean done;
  JsLiveServerStats stats;
};

static void
msg_free (gpointer data)
{
  Msg *m = data;

  g_bytes_unref (m->bytes);
  g_free (m);
}

static void
count (JsLiveServer *s, guint64 *field, guint64 n)
{
  g_mutex_lock (&s->lock);
  *field += n;
  g_mutex_unlock (&s->lock);
}

static void
client_close (Client *c)
{
  JsLiveServer *s = c->server;

  s->clients = g_list_remove (s->clients, c);
  if (c->in_source != NULL)
    {
      g_source_destroy (c->in_source);
      g_source_unref (c->in_source);
    }
  if (c->out_source != NULL)
    {
      g_source_destroy (c->out_source);
      g_source_unref (c->out_source);
    }
  g_socket_close (c->socket, NULL);
  g_object_unref (c->socket);
  g_queue_clear_full (&c->queue, msg_free);
  g_free (c);
  g_mutex_lock (&s->lock);
  s->stats.clients = g_list_length (s->clients);
  g_mutex_unlock (&s->lock);
  if (s->clients == NULL && s->tick_source != NULL)
    {
      g_source_destroy (s->tick_source);
      g_clear_pointer (&s->tick_source, g_source_unref);
      /* Nobody watches: no copy kept (the next viewer gets the collector's). */
      g_clear_pointer (&s->snapshot_message, g_bytes_unref);
      s->snapshot_generation = 0;
    }
}

static gboolean client_out_cb (GSocket *socket, GIOCondition condition, gpointer data);

/* Sends what the socket takes without waiting. FALSE: the client is gone
 * (closed here). */
static gboolean
client_flush (Client *c)
{
  JsLiveServer *s = c->server;

  while (!g_queue_is_empty (&c->queue))
    {
      Msg *m = g_queue_peek_head (&c->queue);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (m->bytes, &size);
      g_autoptr (GError) error = NULL;
      gssize n;

      /* Non-blocking, and GLib passes MSG_NOSIGNAL: a viewer gone mid-write
       * is an error here, never a SIGPIPE in the app. */
      n = g_socket_send (c->socket, (const char *) data + c->offset, size - c->offset, NULL,
                         &error);
      if (n < 0)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            break;
          client_close (c);
          return FALSE;
        }
      count (s, &s->stats.bytes_sent, n);
      c->offset += n;
      if (c->offset < size)
        continue;
      c->offset = 0;
      c->queued_bytes -= size;
      msg_free (g_queue_pop_head (&c->queue));
      count (s, &s->stats.messages_sent, 1);
    }
  if (g_queue_is_empty (&c->queue))
    {
      if (c->out_source != NULL)
        {
          g_source_destroy (c->out_source);
          g_clear_pointer (&c->out_source, g_source_unref);
        }
    }
  else if (c->out_source == NULL)
    {
      c->out_source = g_socket_create_source (c->socket, G_IO_OUT, NULL);
      g_source_set_name (c->out_source, "[jankscope-live] client out");
      g_source_set_callback (c->out_source, (GSourceFunc) (void (*) (void)) client_out_cb, c, NULL);
      g_source_attach (c->out_source, s->context);
    }
  return TRUE;
}

static gboolean
client_out_cb (GSocket *socket, GIOCondition condition, gpointer data)
{
  Client *c = data;

  if (client_flush (c) && c->out_source == NULL)
    return G_SOURCE_REMOVE; /* already destroyed and released by client_flush */
  return G_SOURCE_CONTINUE;
}

/* Queues a message (a reference is taken) and sends what can be sent now.
 * FALSE: the client is gone. */
static gboolean
client_send (Client *c, MsgKind kind, GBytes *bytes)
{
  JsLiveServer *s = c->server;
  gsize size = g_bytes_get_size (bytes);
  Msg *m;

  if (kind != MSG_CONTROL)
    {
      /* Replace, never pile up: a snapshot not yet started (any place in
       * the queue), or a hang message at the tail. The head's bytes are
       * kept while it is being sent (offset > 0). */
      for (GList *l = kind == MSG_HANG ? c->queue.tail : c->queue.head; l != NULL; l = l->next)
        {
          m = l->data;
          if (m->kind == kind && !(l == c->queue.head && c->offset > 0))
            {
              c->queued_bytes += size - g_bytes_get_size (m->bytes);
              g_bytes_unref (m->bytes);
              m->bytes = g_bytes_ref (bytes);
              count (s, &s->stats.messages_dropped, 1);
              return client_flush (c);
            }
          if (kind == MSG_HANG)
            break;
        }
    }
  if (c->queue.length >= JS_LIVE_SERVER_QUEUE_MESSAGES
      || c->queued_bytes + size > JS_LIVE_SERVER_QUEUE_BYTES)
    {
      count (s, &s->stats.messages_dropped, 1);
      return TRUE;
    }
  m = g_new0 (Msg, 1);
  m->kind = kind;
  m->bytes = g_bytes_ref (bytes);
  g_queue_push_tail (&c->queue, m);
  c->queued_bytes += size;
  return client_flush (c);
}

static void
broadcast (JsLiveServer *s, MsgKind kind, GBytes *bytes)
{
  for (GList *l = s->clients; l != NULL;)
    {
      Client *c = l->data;

      l = l->next; /* client_send may close (and free) c */
      client_send (c, kind, bytes);
    }
}

static void
send_hang_event (JsLiveServer *s, GBytes *snapshot, gint64 now_ns)
{
  g_autoptr (GBytes) message = NULL;

  if (now_ns - s->hang_end_seen_ns > EVENT_WAIT_NS)
    {
      s->hang_end_since_ns = 0; /* never became an event (or past the bounds) */
      return;
    }
  message = js_live_message_hang_event (snapshot, s->hang_end_since_ns, s->hang_end_ns,
                                        s->config->merge_gap_ns, now_ns);
  if (message == NULL)
    return;
  broadcast (s, MSG_CONTROL, message);
  s->hang_end_since_ns = 0;
}

static void
check_snapshot (JsLiveServer *s, gint64 now_ns)
{
  guint64 generation = 0;
  g_autoptr (GBytes) snapshot = jankscope_live_api_v1.get_snapshot (&generation);

  if (snapshot != NULL && generation != s->snapshot_generation)
    {
      s->snapshot_generation = generation;
      g_clear_pointer (&s->snapshot_message, g_bytes_unref);
      s->snapshot_message = js_live_message_snapshot (snapshot, generation, now_ns);
      for (GList *l = s->clients; l != NULL; l = l->next)
        ((Client *) l->data)->needs_snapshot = TRUE;
      if (s->hang_end_since_ns != 0)
        send_hang_event (s, snapshot, now_ns);
    }
  if (s->snapshot_message == NULL)
    return;
  for (GList *l = s->clients; l != NULL;)
    {
      Client *c = l->data;

      l = l->next; /* client_send may close (and free) c */
      if (c->needs_snapshot && now_ns - c->connected_ns >= PROBE_NS)
        {
          c->needs_snapshot = FALSE;
          client_send (c, MSG_SNAPSHOT, s->snapshot_message);
        }
    }
}

/* Someone watches (not only probes): keep snapshots and hang digests
 * coming. */
static void
want_if_watched (JsLiveServer *s, gint64 now_ns)
{
  for (GList *l = s->clients; l != NULL; l = l->next)
    if (now_ns - ((Client *) l->data)->connected_ns >= PROBE_NS)
      {
        jankscope_live_api_v1.want ();
        return;
      }
}

static void
check_hang (JsLiveServer *s, gint64 now_ns)
{
  gint64 since = js_mainloop_stuck_since ();
  gboolean hung = since != 0 && now_ns - since >= s->config->watchdog_tier_ns[0];

  if (s->hang_since_ns != 0 && since != s->hang_since_ns)
    {
      g_autoptr (GBytes) message = NULL;
      gint64 end = js_mainloop_last_poll_enter ();

      /* Not the poll the hang began at (a poll with timeout 0 returns at the
       * time it was entered): a later one, else now. */
      if (end <= s->hang_since_ns)
        end = now_ns;
      message = js_live_message_hang_end (s->hang_since_ns, end, now_ns);
      broadcast (s, MSG_CONTROL, message);
      s->hang_end_since_ns = s->hang_since_ns;
      s->hang_end_ns = end;
      s->hang_end_seen_ns = now_ns;
      s->hang_since_ns = 0;
    }
  if (hung)
    {
      g_autoptr (GBytes) message = js_live_message_hang (since, now_ns);

      s->hang_since_ns = since;
      broadcast (s, MSG_HANG, message);
    }
}

static void
send_stats (JsLiveServer *s, gint64 now_ns)
{
  JsLiveServerStats st;
  g_autoptr (GBytes) message = NULL;

  js_live_server_get_stats (s, &st);
  message = js_live_message_server (&st, now_ns);
  broadcast (s, MSG_CONTROL, message);
  s->last_stats_ns = now_ns;
}

static gboolean
tick_cb (gpointer data)
{
  JsLiveServer *s = data;
  gint64 now = js_now_ns ();

  want_if_watched (s, now);
  check_hang (s, now);
  check_snapshot (s, now);
  if (now - s->last_stats_ns >= STATS_PERIOD_NS)
    send_stats (s, now);
  return G_SOURCE_CONTINUE;
}

static gboolean
client_in_cb (GSocket *socket, GIOCondition condition, gpointer data)
{
  Client *c = data;
  char buffer[4096];
  gssize n;

  /* Clients have nothing to say yet (protocol 1): read and drop, so their
   * bytes never pile up; end of file or an error closes. */
  n = g_socket_receive (socket, buffer, sizeof buffer, NULL, NULL);
  if (n > 0 || (n < 0 && !(condition & (G_IO_HUP | G_IO_ERR))))
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&c->in_source, g_source_unref); /* removed by returning REMOVE */
  client_close (c);
  return G_SOURCE_REMOVE;
}

static void
refuse (GSocket *socket, const char *reason)
{
  if (reason != NULL)
    {
      g_autoptr (GBytes) line = js_live_message_error (reason);
      gsize size = 0;
      const char *data = g_bytes_get_data (line, &size);

      /* A new connection's empty buffer takes these few bytes at once. */
      g_socket_send (socket, data, size, NULL, NULL);
    }
  g_socket_close (socket, NULL);
  g_object_unref (socket);
}

static gboolean
accept_cb (GSocket *listener, GIOCondition condition, gpointer data)
{
  JsLiveServer *s = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCredentials) creds = NULL;
  g_autoptr (GBytes) hello = NULL;
  GSocket *socket = g_socket_accept (listener, NULL, &error);
  Client *c;
  gint64 now;
  uid_t uid;

  if (socket == NULL)
    return G_SOURCE_CONTINUE;
  /* SO_PEERCRED: the uid of the process that connected, from the kernel. */
  creds = g_socket_get_credentials (socket, NULL);
  uid = creds != NULL ? g_credentials_get_unix_user (creds, NULL) : (uid_t) -1;
  if (creds == NULL || uid != s->uid)
    {
      count (s, &s->stats.refused_uid, 1);
      js_log_debug ("live: refused a connection from uid %d", (int) uid);
      refuse (socket, NULL);
      return G_SOURCE_CONTINUE;
    }
  if (g_list_length (s->clients) >= JS_LIVE_SERVER_MAX_CLIENTS)
    {
      count (s, &s->stats.refused_full, 1);
      refuse (socket, "too-many-clients");
      return G_SOURCE_CONTINUE;
    }
  g_socket_set_blocking (socket, FALSE);

  c = g_new0 (Client, 1);
  c->server = s;
  c->socket = socket;
  g_queue_init (&c->queue);
  s->clients = g_list_prepend (s->clients, c);
  g_mutex_lock (&s->lock);
  s->stats.accepted++;
  s->stats.clients = g_list_length (s->clients);
  g_mutex_unlock (&s->lock);

  c->in_source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_name (c->in_source, "[jankscope-live] client in");
  g_source_set_callback (c->in_source, (GSourceFunc) (void (*) (void)) client_in_cb, c, NULL);
  g_source_attach (c->in_source, s->context);

  if (s->tick_source == NULL)
    {
      s->tick_source = g_timeout_source_new (JS_LIVE_SERVER_TICK_MS);
      g_source_set_name (s->tick_source, "[jankscope-live] tick");
      g_source_set_callback (s->tick_source, tick_cb, s, NULL);
      g_source_attach (s->tick_source, s->context);
    }

  /* hello, then what a late viewer needs: the hang under way now, and at
   * its first tick the newest snapshot (its frames ring and events are the
   * recent history). */
  now = js_now_ns ();
  c->connected_ns = now;
  c->needs_snapshot = TRUE;
  {
    JsLiveHelloInfo info = {
      .pid = s->pid,
      .start_ns = s->start_ns,
      .hang_min_ns = s->config->watchdog_tier_ns[0],
    };
    JsLiveServerStats st;

    js_live_server_get_stats (s, &st);
    hello = js_live_message_hello (&info, &st, now);
  }
  if (!client_send (c, MSG_CONTROL, hello))
    return G_SOURCE_CONTINUE;
  if (s->hang_since_ns != 0)
    {
      g_autoptr (GBytes) message = js_live_message_hang (s->hang_since_ns, now);

      client_send (c, MSG_HANG, message);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
listen_on_socket (JsLiveServer *s)
{
  char *path = NULL;

  s->listener = js_live_socket_listen (s->runtime_dir, s->pid, JS_LIVE_SERVER_MAX_CLIENTS, &path);
  if (s->listener == NULL)
    return FALSE;
  s->listen_source = g_socket_create_source (s->listener, G_IO_IN, NULL);
  g_source_set_name (s->listen_source, "[jankscope-live] accept");
  g_source_set_callback (s->listen_source, (GSourceFunc) (void (*) (void)) accept_cb, s, NULL);
  g_source_attach (s->listen_source, s->context);
  g_mutex_lock (&s->lock);
  s->path = path;
  s->served = TRUE;
  g_mutex_unlock (&s->lock);
  js_log_debug ("live: serving %s", s->path);
  return TRUE;
}

static gpointer
server_thread (gpointer data)
{
  JsLiveServer *s = data;

  g_main_context_push_thread_default (s->context);
  if (listen_on_socket (s))
    g_main_loop_run (s->loop);

  /* Quitting: a last word to every client, then nothing is served. */
  if (s->clients != NULL)
    {
      g_autoptr (GBytes) bye = js_live_message_bye (js_now_ns ());

      broadcast (s, MSG_CONTROL, bye);
    }
  while (s->clients != NULL)
    client_close (s->clients->data);
  if (s->listen_source != NULL)
    {
      g_source_destroy (s->listen_source);
      g_clear_pointer (&s->listen_source, g_source_unref);
    }
  if (s->listener != NULL)
    g_socket_close (s->listener, NULL);
  g_clear_pointer (&s->snapshot_message, g_bytes_unref);
  if (s->path != NULL)
    unlink (s->path);
  g_main_context_pop_thread_default (s->context);

  g_mutex_lock (&s->lock);
  s->done = TRUE;
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  return NULL;
}

JsLiveServer *
js_live_server_start (const JsConfig *config, gint64 start_ns)
{
  JsLiveServer *s = g_new0 (JsLiveServer, 1);
  g_autoptr (GError) error = NULL;

  s->config = config;
  s->start_ns = start_ns;
  s->runtime_dir = g_strdup (g_getenv ("XDG_RUNTIME_DIR"));
  s->pid = getpid ();
  s->uid = geteuid ();
  s->context = g_main_context_new ();
  s->loop = g_main_loop_new (s->context, FALSE);
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
  s->thread = g_thread_try_new ("jankscope-live", server_thread, s, &error);
  if (s->thread == NULL)
    {
      js_log_warning ("JANKSCOPE_LIVE: cannot start the live server thread (%s)", error->message);
      return NULL; /* leaked on purpose: a few bytes, once */
    }
  return s;
}

static gboolean
quit_cb (gpointer data)
{
  JsLiveServer *s = data;

  g_main_loop_quit (s->loop);
  return G_SOURCE_REMOVE;
}

void
js_live_server_stop (JsLiveServer *s, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  JsLiveServerStats st;

  if (s == NULL || s->pid != getpid ())
    return;
  g_main_context_invoke (s->context, quit_cb, s);
  g_mutex_lock (&s->lock);
  while (!s->done)
    if (!g_cond_wait_until (&s->cond, &s->lock, deadline))
      break;
  g_mutex_unlock (&s->lock);
  js_live_server_get_stats (s, &st);
  js_log_debug ("live: %" G_GUINT64_FORMAT " clients served, %" G_GUINT64_FORMAT
                " refused (other user), %" G_GUINT64_FORMAT " refused (full), %" G_GUINT64_FORMAT
                " messages sent, %" G_GUINT64_FORMAT " dropped",
                st.accepted, st.refused_uid, st.refused_full, st.messages_sent,
                st.messages_dropped);
  /* The thread or, if it did not answer in time, we: no socket is left. */
  g_mutex_lock (&s->lock);
  if (!s->done && s->served)
    unlink (s->path);
  g_mutex_unlock (&s->lock);
}

void
js_live_server_get_stats (JsLiveServer *s, JsLiveServerStats *stats)
{
  g_mutex_lock (&s->lock);
  *stats = s->stats;
  g_mutex_unlock (&s->lock);
}
