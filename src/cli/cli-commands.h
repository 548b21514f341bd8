/* cli-commands.h: the subcommands of jankscope, one file each (cmd-*.c)
 *
 * Each takes the arguments from the command's name on (argv[0] is "run",
 * "summary", ...) and returns the process exit code.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int cli_cmd_run (int argc, char **argv);
int cli_cmd_summary (int argc, char **argv);
int cli_cmd_export (int argc, char **argv);

int cli_cmd_report (int argc, char **argv);
int cli_cmd_merge (int argc, char **argv);
int cli_cmd_diff (int argc, char **argv);
int cli_cmd_symbolize (int argc, char **argv);
int cli_cmd_view (int argc, char **argv);

G_END_DECLS
