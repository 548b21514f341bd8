/* cli-common.h: exit codes, error printing and standard output shared by
 * the subcommands
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-display.h"

G_BEGIN_DECLS

/* Exit codes of the CLI itself. "run" otherwise passes the app's own code
 * through (128 + N when the app was killed by signal N, like a shell). */
enum
{
  CLI_EXIT_OK = 0,
  CLI_EXIT_FAILURE = 1, /* unreadable or invalid report, I/O error */
  CLI_EXIT_USAGE = 2,   /* bad command line, no preload library */
  CLI_EXIT_CANNOT_EXEC = 126,
  CLI_EXIT_NOT_FOUND = 127,
};

/* Messages on stderr, one line each: "jankscope: ..." and "jankscope:
 * warning: ...". The values they quote go through jsr_display
 * (jsr-display.h); the whole message goes through jsr_display_cut too (at
 * 1000 characters), so that a value GLib put in it (an unknown option, a
 * file name) cannot reach the terminal raw either. */
void cli_error (const char *format, ...) G_GNUC_PRINTF (1, 2);
void cli_warning (const char *format, ...) G_GNUC_PRINTF (1, 2);
int cli_usage_error (GOptionContext *context, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Standard output. Every command writes through these (never stdio), and
 * cli_stdout_init, called first thing by main, routes g_print there too and
 * checks at exit that everything was written: a failed write exits with one
 * message ("cannot write to the standard output: No space left on device")
 * and a failure status, never 0. */
void cli_stdout_init (void);
/* Bytes as they are; FALSE with a G_FILE_ERROR on a failed write (the
 * caller reports it). */
gboolean cli_write_stdout (const void *data, gsize length, GError **error);
/* Text, in the terminal's charset; FALSE after printing the error. */
gboolean cli_print (const char *text);

GOptionContext *cli_option_context_new (const char *command, const char *parameter_string,
                                        const char *summary);

G_END_DECLS
