/* cli-common.c: exit codes, error printing and standard output shared by
 * the subcommands
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli-common.h"
#include "jsr-display.h"

/* The longest message: a backstop for the values that GLib's own messages
 * carry (an unknown option, a file name in a GFileError). */
#define MESSAGE_MAX_CHARS 1000

/* ---- messages ------------------------------------------------------------------ */

/* Every message of the CLI starts with "jankscope: " so that it stands out
 * from the output of the monitored app, which shares the terminal. It is
 * one line: whatever the values in it, they cannot move the cursor, clear
 * the screen or start a line of their own. */
static void
print_message (const char *line_format, const char *format, va_list args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);
  g_autofree char *clean = jsr_display_cut (message, MESSAGE_MAX_CHARS);

  g_printerr (line_format, clean);
}

void
cli_error (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message ("jankscope: %s\n", format, args);
  va_end (args);
}

void
cli_warning (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  print_message (_ ("jankscope: warning: %s\n"), format, args);
  va_end (args);
}

/* Prints the error and the command's help on stderr; returns the exit code
 * of a usage error so that callers can `return cli_usage_error (...)`. */
int
cli_usage_error (GOptionContext *context, const char *format, ...)
{
  g_autofree char *message = NULL;
  g_autofree char *clean = NULL;
  g_autofree char *help = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  clean = jsr_display_cut (message, MESSAGE_MAX_CHARS);

  help = g_option_context_get_help (context, TRUE, NULL);
  g_printerr ("jankscope: %s\n\n%s", clean, help);

  return CLI_EXIT_USAGE;
}

/* ---- standard output ------------------------------------------------------------ */

/* The first write error on stdout that no command reported yet (0: none). */
static int stdout_errno;

gboolean
cli_write_stdout (const void *data, gsize length, GError **error)
{
  const guint8 *bytes = data;

  while (length > 0)
    {
      gssize written = write (STDOUT_FILENO, bytes, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          /* write () returns 0 only for a length of 0: say something true. */
          int saved_errno = written < 0 ? errno : EIO;

          if (error == NULL && stdout_errno == 0)
            stdout_errno = saved_errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       _ ("cannot write to the standard output: %s"), g_strerror (saved_errno));
          return FALSE;
        }
      bytes += written;
      length -= (gsize) written;
    }

  return TRUE;
}

/* UTF-8 text in the terminal's charset, as g_print's own handler does. */
static char *
to_console (const char *text)
{
  const char *charset;
  char *converted;

  if (g_get_console_charset (&charset))
    return g_strdup (text);
  converted = g_convert_with_fallback (text, -1, charset, "UTF-8", "?", NULL, NULL, NULL);
  return converted != NULL ? converted : g_strdup (text);
}

gboolean
cli_print (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *console = to_console (text);

  if (cli_write_stdout (console, strlen (console), &error))
    return TRUE;
  cli_error ("%s", error->message);
  return FALSE;
}

/* g_print (), for the text GLib prints itself (GOptionContext's --help):
 * unbuffered, and a failure is kept for check_stdout (). */
static void
print_handler (const char *text)
{
  g_autofree char *console = to_console (text);

  cli_write_stdout (console, strlen (console), NULL);
}

/* At exit, after every command (and after GOptionContext's --help, which
 * calls exit () itself): a write error on stdout that no command reported,
 * or one that only closing shows (stdio's buffer, a file system that
 * reports at close), turns the exit status into a failure with one message,
 * so that `jankscope ... > full-disk` does not pass for a success. */
static void
check_stdout (void)
{
  int saved_errno = stdout_errno;

  if (fflush (stdout) != 0 && saved_errno == 0)
    saved_errno = errno;
  if (ferror (stdout) && saved_errno == 0)
    saved_errno = EIO;
  if (fclose (stdout) != 0 && saved_errno == 0 && errno != EBADF)
    saved_errno = errno;
  if (saved_errno == 0)
    return;

  cli_error (_ ("cannot write to the standard output: %s"), g_strerror (saved_errno));
  _exit (CLI_EXIT_FAILURE);
}

void
cli_stdout_init (void)
{
  g_set_print_handler (print_handler);
  atexit (check_stdout);
}

/* ---- options ----------------------------------------------------------------------- */

/* A context for one subcommand: its help reads "jankscope COMMAND [OPTION…]
 * PARAMETERS". Options stop at the first non-option argument, so that the
 * app's own options (`jankscope run ls -l`) are left alone. */
GOptionContext *
cli_option_context_new (const char *command, const char *parameter_string, const char *summary)
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
