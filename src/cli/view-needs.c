/* view-needs.c: what the live view needs (`jankscope view`, `jankscope run --view`), checked by
 * the CLI before it starts the viewer or the app, so that a missing piece is one sentence that
 * says what to do: never the toolkit's own warning ("cannot open display") from the viewer, or a
 * viewer that waits for what cannot come.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "view-needs.h"

static gboolean
set (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && value[0] != '\0';
}

gboolean
cli_view_has_display (char **problem)
{
  /* GDK_BACKEND (broadway, or a backend the user forces): the viewer finds out itself. */
  if (set ("DISPLAY") || set ("WAYLAND_DISPLAY") || set ("GDK_BACKEND"))
    return TRUE;
  *problem = g_strdup (_ ("the live view needs a display, and neither DISPLAY nor "
                          "WAYLAND_DISPLAY is set: run it in a desktop session (over SSH, "
                          "ssh -X), or read the app's report with “jankscope summary” instead"));
  return FALSE;
}

gboolean
cli_view_has_runtime_dir (char **problem)
{
  const char *runtime = g_getenv ("XDG_RUNTIME_DIR");

  if (runtime != NULL && g_path_is_absolute (runtime))
    return TRUE;
  *problem = g_strdup (_ ("the live view needs XDG_RUNTIME_DIR (the app's live socket goes "
                          "there), which is not set: run it in a desktop session, or set "
                          "XDG_RUNTIME_DIR to a folder of yours with mode 0700"));
  return FALSE;
}

gboolean
cli_view_pid_serves (int pid, char **problem)
{
  g_autofree char *path
      = g_strdup_printf ("%s/jankscope/%d.sock", g_getenv ("XDG_RUNTIME_DIR"), pid);
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GSocketAddress) address = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      *problem = g_strdup_printf (_ ("process %d serves no live view: start the app with "
                                     "“jankscope run --view -- APP”, or with JANKSCOPE_LIVE=1 "
                                     "in its environment"),
                                  pid);
      return FALSE;
    }
  /* A connection, and let go at once: a refused one is a socket nobody listens on. Never
   * blocks: a Unix socket's connect either completes, is refused, or (backlog full: someone
   * listens) says it would block. */
  socket = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT,
                         &error);
  if (socket == NULL)
    return TRUE; /* cannot tell: the viewer will */
  g_socket_set_blocking (socket, FALSE);
  address = g_unix_socket_address_new (path);
  if (g_socket_connect (socket, address, NULL, &error)
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PENDING)
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
    return TRUE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    *problem = g_strdup_printf (_ ("process %d's live socket refuses connections (%s): it was "
                                   "left by an earlier process; restart the app with "
                                   "“jankscope run --view -- APP”"),
                                pid, path);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    *problem = g_strdup_printf (_ ("cannot connect to process %d's live socket (%s): %s; the "
                                   "live view shows only your own processes"),
                                pid, path, error->message);
  else
    *problem = g_strdup_printf (_ ("cannot connect to process %d's live socket (%s): %s"), pid,
                                path, error->message);
  return FALSE;
}
