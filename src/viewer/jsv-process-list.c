/* jsv-process-list.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsv-process-list.h"

#include <string.h>

#include <gio/gunixsocketaddress.h>
#include <json-glib/json-glib.h>

#define PROBE_TIMEOUT_MS 1000

struct _JsvProcessList
{
  GObject parent_instance;

  GListStore *store;
  GPtrArray *found; /* JsvProcess of the scan under way */
  guint pending;    /* probes under way */
  gboolean scanning;
};

G_DEFINE_FINAL_TYPE (JsvProcessList, jsv_process_list, G_TYPE_OBJECT)

enum
{
  REFRESHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

typedef struct
{
  JsvProcessList *list;
  char *path;
  int pid;
  GCancellable *cancellable;
  guint timeout_id;
  GSocketConnection *connection;
  GByteArray *received; /* the hello line so far */
} Probe;

/* A hello is a few hundred bytes: a peer that sends more without a newline
 * is not a jankscope process worth listing. */
#define MAX_HELLO (64 * 1024)

char *
jsv_socket_dir (void)
{
  const char *runtime = g_getenv ("XDG_RUNTIME_DIR");

  if (runtime == NULL || !g_path_is_absolute (runtime))
    return NULL;
  return g_build_filename (runtime, "jankscope", NULL);
}

char *
jsv_socket_path (int pid)
{
  g_autofree char *dir = jsv_socket_dir ();

  return dir != NULL ? g_strdup_printf ("%s/%d.sock", dir, pid) : NULL;
}

static int
compare_pid (gconstpointer a, gconstpointer b)
{
  int x = jsv_process_get_pid (*(JsvProcess **) a), y = jsv_process_get_pid (*(JsvProcess **) b);

  return x < y ? -1 : x > y;
}

static void
probe_done (Probe *p, JsvProcess *found)
{
  JsvProcessList *self = p->list;

  if (found != NULL)
    g_ptr_array_add (self->found, found);
  g_clear_handle_id (&p->timeout_id, g_source_remove);
  if (p->connection != NULL)
    g_io_stream_close (G_IO_STREAM (p->connection), NULL, NULL);
  g_clear_pointer (&p->received, g_byte_array_unref);
  g_clear_object (&p->connection);
  g_clear_object (&p->cancellable);
  g_free (p->path);
  g_free (p);
  if (--self->pending > 0)
    return;
  g_ptr_array_sort (self->found, compare_pid);
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       self->found->pdata, self->found->len);
  g_ptr_array_set_size (self->found, 0);
  self->scanning = FALSE;
  g_signal_emit (self, signals[REFRESHED], 0);
  g_object_unref (self);
}

static gboolean
probe_timeout_cb (gpointer data)
{
  Probe *p = data;

  p->timeout_id = 0;
  g_cancellable_cancel (p->cancellable);
  return G_SOURCE_REMOVE;
}

static void probe_read (Probe *p);

static void
probe_hello (Probe *p, const char *line, gsize length)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  JsonObject *hello;

  if (!json_parser_load_from_data (parser, line, (gssize) length, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      probe_done (p, NULL);
      return;
    }
  hello = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (hello, "type", ""), "hello") != 0)
    {
      probe_done (p, NULL);
      return;
    }
  probe_done (p, jsv_process_new (
                     p->pid, json_object_get_string_member_with_default (hello, "name", NULL),
                     json_object_get_string_member_with_default (hello, "exe", NULL),
                     json_object_get_string_member_with_default (hello, "toolkit", NULL), p->path));
}

static void
probe_bytes_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Probe *p = data;
  g_autoptr (GBytes) bytes
      = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, NULL);
  gsize size = bytes != NULL ? g_bytes_get_size (bytes) : 0;
  const guint8 *nl;

  if (size == 0)
    {
      probe_done (p, NULL); /* closed, failed or timed out before a hello */
      return;
    }
  g_byte_array_append (p->received, g_bytes_get_data (bytes, NULL), (guint) size);
  nl = memchr (p->received->data, '\n', p->received->len);
  if (nl != NULL)
    probe_hello (p, (const char *) p->received->data, (gsize) (nl - p->received->data));
  else if (p->received->len >= MAX_HELLO)
    probe_done (p, NULL);
  else
    probe_read (p);
}

static void
probe_read (Probe *p)
{
  g_input_stream_read_bytes_async (g_io_stream_get_input_stream (G_IO_STREAM (p->connection)),
                                   MAX_HELLO - p->received->len, G_PRIORITY_DEFAULT, p->cancellable,
                                   probe_bytes_cb, p);
}

static void
probe_connect_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Probe *p = data;

  p->connection = g_socket_client_connect_finish (G_SOCKET_CLIENT (source), result, NULL);
  if (p->connection == NULL)
    {
      probe_done (p, NULL);
      return;
    }
  p->received = g_byte_array_sized_new (1024);
  probe_read (p);
}

void
jsv_process_list_refresh (JsvProcessList *self)
{
  g_autofree char *dir_path = jsv_socket_dir ();
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  GDir *dir;
  const char *name;

  if (self->scanning)
    return;
  self->scanning = TRUE;
  g_object_ref (self);
  self->pending = 1; /* this scan itself, released below */
  dir = dir_path != NULL ? g_dir_open (dir_path, 0, NULL) : NULL;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (name, &end, 10);
      g_autoptr (GSocketAddress) address = NULL;
      Probe *p;

      if (end == name || g_strcmp0 (end, ".sock") != 0 || pid <= 0 || pid > G_MAXINT)
        continue;
      p = g_new0 (Probe, 1);
      p->list = self;
      p->pid = (int) pid;
      p->path = g_build_filename (dir_path, name, NULL);
      p->cancellable = g_cancellable_new ();
      p->timeout_id = g_timeout_add (PROBE_TIMEOUT_MS, probe_timeout_cb, p);
      self->pending++;
      address = g_unix_socket_address_new (p->path);
      g_socket_client_connect_async (client, G_SOCKET_CONNECTABLE (address), p->cancellable,
                                     probe_connect_cb, p);
    }
  if (dir != NULL)
    g_dir_close (dir);
  {
    /* Release the scan's own count (as a probe that found nothing). */
    Probe *p = g_new0 (Probe, 1);

    p->list = self;
    probe_done (p, NULL);
  }
}

GListModel *
jsv_process_list_get_model (JsvProcessList *self)
{
  return G_LIST_MODEL (self->store);
}

JsvProcess *
jsv_process_list_find (JsvProcessList *self, int pid)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->store)); i++)
    {
      g_autoptr (JsvProcess) p = g_list_model_get_item (G_LIST_MODEL (self->store), i);

      if (jsv_process_get_pid (p) == pid)
        return p; /* the store keeps a reference */
    }
  return NULL;
}

static void
jsv_process_list_finalize (GObject *object)
{
  JsvProcessList *self = JSV_PROCESS_LIST (object);

  g_object_unref (self->store);
  g_ptr_array_unref (self->found);
  G_OBJECT_CLASS (jsv_process_list_parent_class)->finalize (object);
}

static void
jsv_process_list_class_init (JsvProcessListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jsv_process_list_finalize;
  signals[REFRESHED] = g_signal_new ("refreshed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
jsv_process_list_init (JsvProcessList *self)
{
  self->store = g_list_store_new (JSV_TYPE_PROCESS);
  self->found = g_ptr_array_new_with_free_func (g_object_unref);
}

JsvProcessList *
jsv_process_list_new (void)
{
  return g_object_new (JSV_TYPE_PROCESS_LIST, NULL);
}
