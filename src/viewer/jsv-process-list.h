/* jsv-process-list.h: this user's monitored processes: the sockets in
 * $XDG_RUNTIME_DIR/jankscope/, each probed for its hello (connect, read one
 * line, close; 1 s at most, async). A socket that does not answer is left
 * out (a process that is gone, or not ours).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "jsv-process.h"

G_BEGIN_DECLS

#define JSV_TYPE_PROCESS_LIST (jsv_process_list_get_type ())
G_DECLARE_FINAL_TYPE (JsvProcessList, jsv_process_list, JSV, PROCESS_LIST, GObject)

/* The socket directory of this user (NULL without XDG_RUNTIME_DIR). */
char *jsv_socket_dir (void);
char *jsv_socket_path (int pid);

JsvProcessList *jsv_process_list_new (void);
/* JsvProcess items, by pid. */
GListModel *jsv_process_list_get_model (JsvProcessList *self);
/* Scans and probes again; "refreshed" is emitted when done. */
void jsv_process_list_refresh (JsvProcessList *self);
JsvProcess *jsv_process_list_find (JsvProcessList *self, int pid);

G_END_DECLS
