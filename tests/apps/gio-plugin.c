/* gio-plugin.c - a module linked with GIO that a program not linked with
 * GLib loads RTLD_LOCAL (gio-plugin-host.c): GLib and GIO are then outside
 * the global scope, where the preload's stand-ins look for their functions
 * first (tests/check_safety.py "gio-local").
 *
 * js_plugin_call () runs a main loop with an idle and a timeout (GLib's
 * built-in source tables, the main-loop entry points), then makes a
 * peer-to-peer D-Bus connection over a socketpair whose other end never
 * answers and calls a method with a 50 ms timeout: GIO's answer is a timeout
 * error. Returns "idle=N timeout=N code=N" (G_IO_ERROR_TIMED_OUT is 24).
 */
#include <gio/gio.h>
#include <sys/socket.h>
#include <unistd.h>

const char *js_plugin_call (void);

static int idles, timeouts;

static gboolean
on_idle (gpointer data)
{
  idles++;
  return G_SOURCE_REMOVE;
}

static gboolean
on_timeout (gpointer loop)
{
  timeouts++;
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static int
call_nobody (void)
{
  int sv[2];
  GSocket *socket;
  GSocketConnection *stream;
  GDBusConnection *connection;
  GVariant *reply;
  GError *error = NULL;
  int code = -1;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return -2;
  socket = g_socket_new_from_fd (sv[0], &error);
  if (socket == NULL)
    return -3;
  stream = g_socket_connection_factory_create_connection (socket);
  connection = g_dbus_connection_new_sync (G_IO_STREAM (stream), NULL, G_DBUS_CONNECTION_FLAGS_NONE,
                                           NULL, NULL, &error);
  if (connection == NULL)
    return -4;
  reply = g_dbus_connection_call_sync (connection, NULL, "/org/jankscope/Nobody",
                                       "org.jankscope.Nobody", "Answer", NULL, NULL,
                                       G_DBUS_CALL_FLAGS_NONE, 50, NULL, &error);
  if (reply != NULL)
    g_variant_unref (reply);
  else
    {
      code = error->code;
      g_error_free (error);
    }
  g_dbus_connection_close_sync (connection, NULL, NULL);
  g_object_unref (connection);
  g_object_unref (stream);
  g_object_unref (socket);
  close (sv[1]);
  return code;
}

const char *
js_plugin_call (void)
{
  static char result[64];
  GMainLoop *loop = g_main_loop_new (NULL, FALSE);
  int code;

  g_idle_add (on_idle, NULL);
  g_timeout_add (20, on_timeout, loop);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  code = call_nobody ();
  g_snprintf (result, sizeof result, "idle=%d timeout=%d code=%d", idles, timeouts, code);
  return result;
}
