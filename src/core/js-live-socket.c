/* js-live-socket.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-live-socket.h"
#include "js-log.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gio/gunixsocketaddress.h>

/* Our own directory: 0700, ours, not a symbolic link. */
static gboolean
make_private_dir (const char *dir)
{
  struct stat st;

  if (mkdir (dir, 0700) != 0 && errno != EEXIST)
    {
      js_log_warning ("JANKSCOPE_LIVE: cannot create %s (%s); the live server stays off", dir,
                      g_strerror (errno));
      return FALSE;
    }
  if (lstat (dir, &st) != 0 || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ()
      || (st.st_mode & 077) != 0)
    {
      js_log_warning ("JANKSCOPE_LIVE: %s is not a private directory of this user (mode 0700); "
                      "the live server stays off",
                      dir);
      return FALSE;
    }
  return TRUE;
}

/* Sockets of processes that are gone (kill (pid, 0) says ESRCH), and a
 * socket with our own pid (a previous process that had it); and their
 * half-made ones (PID.sock.new). */
static void
remove_stale_sockets (const char *dir, pid_t self)
{
  DIR *d = opendir (dir);
  struct dirent *e;

  if (d == NULL)
    return;
  while ((e = readdir (d)) != NULL)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (e->d_name, &end, 10);

      if (end == e->d_name || (g_strcmp0 (end, ".sock") != 0 && g_strcmp0 (end, ".sock.new") != 0)
          || pid <= 0 || pid > G_MAXINT)
        continue;
      if (pid == self || (kill ((pid_t) pid, 0) != 0 && errno == ESRCH))
        {
          g_autofree char *path = g_build_filename (dir, e->d_name, NULL);

          unlink (path);
        }
    }
  closedir (d);
}

GSocket *
js_live_socket_listen (const char *runtime_dir, pid_t pid, int backlog, char **path_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocketAddress) address = NULL;
  g_autoptr (GSocket) listener = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *fresh = NULL;
  struct sockaddr_un sun;

  if (runtime_dir == NULL || !g_path_is_absolute (runtime_dir))
    {
      js_log_warning ("JANKSCOPE_LIVE: XDG_RUNTIME_DIR is not set; the live server stays off");
      return NULL;
    }
  dir = g_build_filename (runtime_dir, "jankscope", NULL);
  if (!make_private_dir (dir))
    return NULL;
  path = g_strdup_printf ("%s/%d.sock", dir, (int) pid);
  fresh = g_strdup_printf ("%s.new", path);
  if (strlen (fresh) >= sizeof sun.sun_path)
    {
      js_log_warning ("JANKSCOPE_LIVE: the socket path %s is too long; the live server stays off",
                      path);
      return NULL;
    }
  remove_stale_sockets (dir, pid);

  listener = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT,
                           &error);
  /* A path in our 0700 directory, made 0600 right after bind: nobody else
   * can reach it in between. No umask change: it is process-wide (it would
   * change the files the app creates meanwhile). GSocket makes its
   * descriptors close-on-exec. Bound and listening under another name first,
   * then renamed into place: a viewer that sees PID.sock can connect (between
   * bind and listen, a connect is refused). */
  address = listener != NULL ? g_unix_socket_address_new (fresh) : NULL;
  if (listener == NULL || !g_socket_bind (listener, address, FALSE, &error)
      || chmod (fresh, 0600) != 0)
    {
      js_log_warning ("JANKSCOPE_LIVE: cannot serve %s (%s); the live server stays off", path,
                      error != NULL ? error->message : g_strerror (errno));
      if (listener != NULL && error == NULL)
        unlink (fresh);
      return NULL;
    }
  g_socket_set_listen_backlog (listener, backlog);
  g_socket_set_blocking (listener, FALSE);
  if (!g_socket_listen (listener, &error))
    {
      js_log_warning ("JANKSCOPE_LIVE: cannot listen on %s (%s); the live server stays off", path,
                      error->message);
      unlink (fresh);
      return NULL;
    }
  if (rename (fresh, path) != 0)
    {
      js_log_warning ("JANKSCOPE_LIVE: cannot serve %s (%s); the live server stays off", path,
                      g_strerror (errno));
      unlink (fresh);
      return NULL;
    }
  *path_out = g_steal_pointer (&path);
  return g_steal_pointer (&listener);
}
