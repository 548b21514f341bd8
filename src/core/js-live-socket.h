/* js-live-socket.h: the live server's listening socket, made safely.
 *
 * $RUNTIME_DIR/jankscope/ is created 0700 (or must already be a directory of
 * this user, not a symbolic link, without group or other bits);
 * sockets there of processes that are gone (kill (pid, 0): ESRCH), and one
 * with our own pid, are removed; PID.sock is bound (a path, never an
 * abstract name), made 0600 and listened on. Every failure is one warning
 * line and NULL: the live server stays off.
 *
 * Live server thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* A non-blocking listening socket and its path (*path_out, free it), or
 * NULL. `runtime_dir`: $XDG_RUNTIME_DIR (NULL or relative: a warning). */
GSocket *js_live_socket_listen (const char *runtime_dir, pid_t pid, int backlog, char **path_out);

G_END_DECLS
