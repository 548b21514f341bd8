/* gio-plugin.c - a module linked with GIO that a GLib program not linked with
 * GIO loads RTLD_LOCAL (gio-plugin-host.c): GIO is then outside the global
 * scope, where the preload's stand-ins of GIO's synchronous D-Bus calls
 * look for GIO's functions first (tests/check_safety.py "gio-local").
 *
 * js_plugin_call () makes a peer-to-peer D-Bus connection over a socketpair
 * whose other end never answers, and calls a method with a 50 ms timeout:
 * GIO's answer is a timeout error. Returns the error's code, -1 on success.
 */
#include <gio/gio.h>
#include <sys/socket.h>
#include <unistd.h>

int js_plugin_call (void);

int
js_plugin_call (void)
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
