/* child-launcher.h: runs the app for "jankscope run" and waits for it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

gboolean cli_child_run (char **argv, char **envp, pid_t *out_pid, int *out_wait_status,
                        GError **error);
int cli_exit_code_for_status (int wait_status);
char *cli_describe_wait_status (int wait_status);

G_END_DECLS
