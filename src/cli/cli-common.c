/* cli-common.c: exit codes and error printing shared by the subcommands
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "cli-common.h"
#include "cli-display.h"

/* The longest message: a backstop for the values that GLib's own messages
 * carry (an unknown option, a file name in a GFileError). */
#define MESSAGE_MAX_CHARS 1000

/* ---- messages ------------------------------------------------------------------ */

/* Every message of the CLI starts with "jankscope: " so that it stands out
 * from the output of the monitored app, which shares the terminal. It is
 * one line: whatever the values in it, they cannot move the cursor, clear
 * the screen or start a line of their own. */
static void
print_message (const char *line_format,
               const char *format,
               va_list     args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);
  g_autofree char *clean = cli_display_cut (message, MESSAGE_MAX_CHARS);

  g_printerr (line_format, clean);
}

void
cli_error (const char *format,
           ...)
{
  va_list args;

  va_start (args, format);
  print_message ("jankscope: %s\n", format, args);
  va_end (args);
}

void
cli_warning (const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  print_message (_("jankscope: warning: %s\n"), format, args);
  va_end (args);
}

/* Prints the error and the command's help on stderr; returns the exit code
 * of a usage error so that callers can `return cli_usage_error (...)`. */
int
cli_usage_error (GOptionContext *context,
                 const char     *format,
                 ...)
{
  g_autofree char *message = NULL;
  g_autofree char *clean = NULL;
  g_autofree char *help = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  clean = cli_display_cut (message, MESSAGE_MAX_CHARS);

  help = g_option_context_get_help (context, TRUE, NULL);
  g_printerr ("jankscope: %s\n\n%s", clean, help);

  return CLI_EXIT_USAGE;
}

/* A context for one subcommand: its help reads "jankscope COMMAND [OPTION…]
 * PARAMETERS". Options stop at the first non-option argument, so that the
 * app's own options (`jankscope run ls -l`) are left alone. */
GOptionContext *
cli_option_context_new (const char *command,
                        const char *parameter_string,
                        const char *summary)
{
  g_autofree char *prgname = g_strdup_printf ("jankscope %s", command);
  GOptionContext *context;

  /* GOptionContext takes the usage line's program name from the prgname. */
  g_set_prgname (prgname);

  context = g_option_context_new (parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, TRUE);
  if (summary != NULL)
    g_option_context_set_summary (context, summary);

  return context;
}
