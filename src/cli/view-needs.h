/* view-needs.h: what the live view needs, checked before anything starts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A display for the viewer's window (DISPLAY or WAYLAND_DISPLAY, or a GDK_BACKEND the user
 * chose). FALSE with *problem: one sentence that says what to do. */
gboolean cli_view_has_display (char **problem);

/* An absolute XDG_RUNTIME_DIR, where monitored apps put their live sockets. */
gboolean cli_view_has_runtime_dir (char **problem);

/* Process @pid serves a live view that accepts connections. */
gboolean cli_view_pid_serves (int pid, char **problem);

G_END_DECLS
