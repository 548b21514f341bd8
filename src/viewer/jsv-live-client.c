/* jsv-live-client.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsv-live-client.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixsocketaddress.h>
#include <json-glib/json-glib.h>

#define RETRY_FIRST_MS 250
#define RETRY_MAX_MS 2000
/* What the snapshot message starts with (docs/live-protocol.md). */
#define SNAPSHOT_PREFIX "{\"type\":\"snapshot\""
#define SNAPSHOT_MEMBER ",\"snapshot\":"
/* A message longer than this is refused (the server's whole queue is 32 MiB):
 * a broken or hostile peer cannot make the viewer grow without bound. */
#define MAX_LINE (64 * 1024 * 1024)
#define READ_CHUNK (256 * 1024)

struct _JsvLiveClient
{
  GObject parent_instance;

  char *path;
  int pid;
  JsvLiveState state;
  GCancellable *cancellable;
  GSocketClient *socket_client;
  GSocketConnection *connection;
  GInputStream *input;
  GByteArray *pending; /* received bytes not yet ended by a newline */
  gsize scanned;       /* of pending: bytes known to hold no newline */
  guint retry_id;
  guint retry_ms;

  char *name;
  char *toolkit;
  GBytes *snapshot;
  guint64 generation; /* ours: bumped per snapshot received */

  gboolean hung;
  gint64 hang_stuck_ns;
  gint64 hang_received_us;
  char *culprit;
  char *posted_from; /* where the stuck dispatch was posted from, NULL: unknown */
  gint64 last_hang_ns;
  /* The ended hang's final event (the server's "event" message): the
   * numbers of the report's event, which the banner and the list show. */
  gint64 hang_event_id; /* 0: not (yet) known */
  gint64 hang_event_duration_ns;
  gint64 hang_event_max_part_ns;
  gint64 hang_event_parts;

  GHashTable *counts; /* type → count */
};

G_DEFINE_FINAL_TYPE (JsvLiveClient, jsv_live_client, G_TYPE_OBJECT)

enum
{
  STATE_CHANGED,
  HANG_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void start_connect (JsvLiveClient *self);

static void
set_state (JsvLiveClient *self, JsvLiveState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_signal_emit (self, signals[STATE_CHANGED], 0);
}

static void
clear_hang (JsvLiveClient *self)
{
  if (!self->hung)
    return;
  self->hung = FALSE;
  g_signal_emit (self, signals[HANG_CHANGED], 0);
}

static gboolean
process_alive (JsvLiveClient *self)
{
  return g_file_test (self->path, G_FILE_TEST_EXISTS)
         && !(kill (self->pid, 0) != 0 && errno == ESRCH);
}

static gboolean
retry_cb (gpointer data)
{
  JsvLiveClient *self = data;

  self->retry_id = 0;
  start_connect (self);
  return G_SOURCE_REMOVE;
}

/* The stream ended or failed: try again later, unless the process is gone. */
static void
lost (JsvLiveClient *self)
{
  g_clear_object (&self->input);
  g_clear_pointer (&self->pending, g_byte_array_unref);
  self->scanned = 0;
  if (self->connection != NULL)
    g_io_stream_close (G_IO_STREAM (self->connection), NULL, NULL);
  g_clear_object (&self->connection);
  clear_hang (self);
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (!process_alive (self))
    {
      set_state (self, JSV_LIVE_GONE);
      return;
    }
  set_state (self, JSV_LIVE_CONNECTING);
  self->retry_ms = self->retry_ms == 0 ? RETRY_FIRST_MS : MIN (self->retry_ms * 2, RETRY_MAX_MS);
  self->retry_id = g_timeout_add (self->retry_ms, retry_cb, self);
}

static char *
frame_text (JsonObject *f)
{
  const char *function = json_object_get_string_member_with_default (f, "function", NULL);
  const char *module = json_object_get_string_member_with_default (f, "module", NULL);

  if (function != NULL && module != NULL)
    return g_strdup_printf ("%s (%s)", function, module);
  if (function != NULL)
    return g_strdup (function);
  return module != NULL ? g_strdup_printf ("%s!?", module) : NULL;
}

/* "function (module)": the culprit so far, else the newest stack's leaf. */
static char *
culprit_text (JsonObject *info)
{
  JsonNode *n;

  if (info == NULL)
    return NULL;
  n = json_object_get_member (info, "culprit");
  if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
    return frame_text (json_node_get_object (n));
  n = json_object_get_member (info, "stack");
  if (n != NULL && JSON_NODE_HOLDS_OBJECT (n))
    {
      JsonArray *frames = json_object_get_array_member (json_node_get_object (n), "frames");

      if (frames != NULL && json_array_get_length (frames) > 0
          && JSON_NODE_HOLDS_OBJECT (json_array_get_element (frames, 0)))
        return frame_text (json_array_get_object_element (frames, 0));
    }
  return NULL;
}

/* "function (module)" of the posting culprit of the dispatch under way, else
 * of its caller (docs/report-format.md, "Posting sites"). */
static char *
posted_from_text (JsonObject *info)
{
  static const char *const members[] = { "culprit", "caller" };
  JsonNode *n = info != NULL ? json_object_get_member (info, "posted_from") : NULL;
  JsonObject *p;

  if (n == NULL || !JSON_NODE_HOLDS_OBJECT (n))
    return NULL;
  p = json_node_get_object (n);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      JsonNode *f = json_object_get_member (p, members[i]);

      if (f != NULL && JSON_NODE_HOLDS_OBJECT (f))
        return frame_text (json_node_get_object (f));
    }
  return NULL;
}

static void
count (JsvLiveClient *self, const char *type)
{
  gpointer n = g_hash_table_lookup (self->counts, type);

  g_hash_table_replace (self->counts, g_strdup (type), GUINT_TO_POINTER (GPOINTER_TO_UINT (n) + 1));
}

static void
handle_message (JsvLiveClient *self, JsonObject *m)
{
  const char *type = json_object_get_string_member_with_default (m, "type", "");

  count (self, type);
  if (g_str_equal (type, "hello"))
    {
      g_free (self->name);
      g_free (self->toolkit);
      self->name = g_strdup (json_object_get_string_member_with_default (m, "name", NULL));
      self->toolkit = g_strdup (json_object_get_string_member_with_default (m, "toolkit", NULL));
      self->retry_ms = 0;
      g_signal_emit (self, signals[STATE_CHANGED], 0);
    }
  else if (g_str_equal (type, "hang"))
    {
      JsonNode *info = json_object_get_member (m, "info");
      JsonObject *io
          = info != NULL && JSON_NODE_HOLDS_OBJECT (info) ? json_node_get_object (info) : NULL;
      char *culprit = culprit_text (io);
      char *posted_from = posted_from_text (io);

      self->hung = TRUE;
      self->hang_event_id = 0; /* a new hang: its event is to come */
      self->hang_stuck_ns = json_object_get_int_member_with_default (m, "stuck_ns", 0);
      self->hang_received_us = g_get_monotonic_time ();
      if (culprit != NULL)
        {
          g_free (self->culprit);
          self->culprit = culprit;
        }
      if (posted_from != NULL)
        {
          g_free (self->posted_from);
          self->posted_from = posted_from;
        }
      g_signal_emit (self, signals[HANG_CHANGED], 0);
    }
  else if (g_str_equal (type, "event"))
    {
      /* Only ever the final event of the hang that ended last. */
      JsonNode *n = json_object_get_member (m, "event");
      JsonObject *e = n != NULL && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      gint64 id = e != NULL ? json_object_get_int_member_with_default (e, "id", 0) : 0;

      if (id > 0 && !self->hung)
        {
          self->hang_event_id = id;
          self->hang_event_duration_ns
              = MAX (0, json_object_get_int_member_with_default (e, "duration_ns", 0));
          self->hang_event_max_part_ns
              = MAX (0, json_object_get_int_member_with_default (e, "max_part_ns", 0));
          self->hang_event_parts
              = MAX (1, json_object_get_int_member_with_default (e, "parts_count", 1));
          g_signal_emit (self, signals[HANG_CHANGED], 0);
        }
    }
  else if (g_str_equal (type, "hang-end"))
    {
      self->last_hang_ns = json_object_get_int_member_with_default (m, "duration_ns", 0);
      self->hang_event_id = 0;
      g_clear_pointer (&self->culprit, g_free);
      g_clear_pointer (&self->posted_from, g_free);
      self->hung = TRUE; /* so that clear_hang signals */
      clear_hang (self);
    }
}

static void read_next (JsvLiveClient *self);

/* One message (takes line, NUL-terminated, length without the newline). */
static void
handle_line (JsvLiveClient *self, char *line, gsize length)
{
  if (g_str_has_prefix (line, SNAPSHOT_PREFIX))
    {
      /* The snapshot is the message's last member: cut it out, no copy. */
      const char *member = strstr (line, SNAPSHOT_MEMBER);

      if (member != NULL && length > 0 && line[length - 1] == '}')
        {
          gsize start = member + strlen (SNAPSHOT_MEMBER) - line;

          count (self, "snapshot");
          g_clear_pointer (&self->snapshot, g_bytes_unref);
          self->snapshot
              = g_bytes_new_with_free_func (line + start, length - 1 - start, g_free, line);
          self->generation++;
          line = NULL;
        }
    }
  else
    {
      g_autoptr (JsonParser) parser = json_parser_new_immutable ();

      if (json_parser_load_from_data (parser, line, (gssize) length, NULL)
          && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        handle_message (self, json_node_get_object (json_parser_get_root (parser)));
    }
  g_free (line);
}

static void
bytes_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  JsvLiveClient *self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes
      = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  gsize size = bytes != NULL ? g_bytes_get_size (bytes) : 0;
  gsize start = 0;

  if (size == 0 || self->input == NULL)
    {
      /* End of stream, an error, or lost meanwhile. */
      if (self->input != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        lost (self);
      g_object_unref (self);
      return;
    }
  g_byte_array_append (self->pending, g_bytes_get_data (bytes, NULL), (guint) size);
  for (;;)
    {
      const guint8 *nl = memchr (self->pending->data + start + self->scanned, '\n',
                                 self->pending->len - start - self->scanned);
      gsize length;

      if (nl == NULL)
        break;
      length = (gsize) (nl - (self->pending->data + start));
      handle_line (self, g_strndup ((const char *) self->pending->data + start, length), length);
      start += length + 1;
      self->scanned = 0;
      if (self->input == NULL)
        break; /* a message made us let go */
    }
  if (self->pending != NULL)
    {
      g_byte_array_remove_range (self->pending, 0, (guint) start);
      self->scanned = self->pending->len;
      if (self->pending->len > MAX_LINE)
        {
          /* A runtime condition (a broken or hostile server), not a bug in
           * the viewer: a line on stderr, not g_warning (which
           * G_DEBUG=fatal-warnings makes fatal). */
          g_printerr ("jankscope-viewer: a message of more than %d MiB from %s: disconnecting\n",
                      MAX_LINE / (1024 * 1024), self->path);
          lost (self);
        }
    }
  read_next (self);
  g_object_unref (self);
}

static void
read_next (JsvLiveClient *self)
{
  if (self->input == NULL)
    return;
  g_input_stream_read_bytes_async (self->input, READ_CHUNK, G_PRIORITY_DEFAULT, self->cancellable,
                                   bytes_cb, g_object_ref (self));
}

static void
connect_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  JsvLiveClient *self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCredentials) creds = NULL;
  GSocketConnection *connection
      = g_socket_client_connect_finish (G_SOCKET_CLIENT (source), result, &error);

  if (connection == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        lost (self);
      g_object_unref (self);
      return;
    }
  /* The other end must be this user too (SO_PEERCRED). */
  creds = g_socket_get_credentials (g_socket_connection_get_socket (connection), NULL);
  if (creds == NULL || g_credentials_get_unix_user (creds, NULL) != getuid ())
    {
      g_object_unref (connection);
      set_state (self, JSV_LIVE_GONE);
      g_object_unref (self);
      return;
    }
  self->connection = connection;
  self->input = g_object_ref (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  self->pending = g_byte_array_sized_new (READ_CHUNK);
  self->scanned = 0;
  set_state (self, JSV_LIVE_CONNECTED);
  read_next (self);
  g_object_unref (self);
}

static void
start_connect (JsvLiveClient *self)
{
  g_autoptr (GSocketAddress) address = g_unix_socket_address_new (self->path);

  g_socket_client_connect_async (self->socket_client, G_SOCKET_CONNECTABLE (address),
                                 self->cancellable, connect_cb, g_object_ref (self));
}

static void
jsv_live_client_dispose (GObject *object)
{
  JsvLiveClient *self = JSV_LIVE_CLIENT (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  g_clear_object (&self->input);
  g_clear_pointer (&self->pending, g_byte_array_unref);
  g_clear_object (&self->connection);
  G_OBJECT_CLASS (jsv_live_client_parent_class)->dispose (object);
}

static void
jsv_live_client_finalize (GObject *object)
{
  JsvLiveClient *self = JSV_LIVE_CLIENT (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->socket_client);
  g_clear_pointer (&self->snapshot, g_bytes_unref);
  g_free (self->path);
  g_free (self->name);
  g_free (self->toolkit);
  g_free (self->culprit);
  g_free (self->posted_from);
  g_hash_table_unref (self->counts);
  G_OBJECT_CLASS (jsv_live_client_parent_class)->finalize (object);
}

static void
jsv_live_client_class_init (JsvLiveClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = jsv_live_client_dispose;
  object_class->finalize = jsv_live_client_finalize;
  signals[STATE_CHANGED] = g_signal_new ("state-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[HANG_CHANGED] = g_signal_new ("hang-changed", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
jsv_live_client_init (JsvLiveClient *self)
{
  self->cancellable = g_cancellable_new ();
  self->socket_client = g_socket_client_new ();
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

JsvLiveClient *
jsv_live_client_new (const char *socket_path, int pid)
{
  JsvLiveClient *self = g_object_new (JSV_TYPE_LIVE_CLIENT, NULL);

  self->path = g_strdup (socket_path);
  self->pid = pid;
  start_connect (self);
  return self;
}

JsvLiveState
jsv_live_client_get_state (JsvLiveClient *self)
{
  return self->state;
}

int
jsv_live_client_get_pid (JsvLiveClient *self)
{
  return self->pid;
}

const char *
jsv_live_client_get_name (JsvLiveClient *self)
{
  return self->name;
}

const char *
jsv_live_client_get_toolkit (JsvLiveClient *self)
{
  return self->toolkit;
}

GBytes *
jsv_live_client_get_snapshot (guint64 *generation, gpointer data)
{
  JsvLiveClient *self = data;

  if (generation != NULL)
    *generation = self->generation;
  return self->snapshot != NULL ? g_bytes_ref (self->snapshot) : NULL;
}

gboolean
jsv_live_client_get_hang (JsvLiveClient *self, gint64 *stuck_ns, gint64 *received_us,
                          const char **culprit)
{
  if (!self->hung)
    return FALSE;
  *stuck_ns = self->hang_stuck_ns;
  *received_us = self->hang_received_us;
  *culprit = self->culprit;
  return TRUE;
}

const char *
jsv_live_client_get_hang_posted_from (JsvLiveClient *self)
{
  return self->hung ? self->posted_from : NULL;
}

gint64
jsv_live_client_get_last_hang_ns (JsvLiveClient *self)
{
  return self->last_hang_ns;
}

gboolean
jsv_live_client_get_hang_event (JsvLiveClient *self, gint64 *id, gint64 *duration_ns,
                                gint64 *max_part_ns, gint64 *parts)
{
  if (self->hung || self->hang_event_id <= 0)
    return FALSE;
  *id = self->hang_event_id;
  *duration_ns = self->hang_event_duration_ns;
  *max_part_ns = self->hang_event_max_part_ns;
  *parts = self->hang_event_parts;
  return TRUE;
}

guint
jsv_live_client_get_n_messages (JsvLiveClient *self, const char *type)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, type));
}
