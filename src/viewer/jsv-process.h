/* jsv-process.h: a monitored process found by the viewer (the hello its
 * live server sent), an item of the process list.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define JSV_TYPE_PROCESS (jsv_process_get_type ())
G_DECLARE_FINAL_TYPE (JsvProcess, jsv_process, JSV, PROCESS, GObject)

JsvProcess *jsv_process_new (int pid, const char *name, const char *exe, const char *toolkit,
                             const char *socket_path);
int jsv_process_get_pid (JsvProcess *self);
const char *jsv_process_get_name (JsvProcess *self);
const char *jsv_process_get_exe (JsvProcess *self);
const char *jsv_process_get_socket_path (JsvProcess *self);
/* "name (pid N, toolkit)", the list's text (property "label"). */
const char *jsv_process_get_label (JsvProcess *self);

G_END_DECLS
