/* jankscope.c: main and subcommand dispatch of the jankscope CLI
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"

typedef struct
{
  const char *name;
  const char *description; /* N_() */
  int (*main) (int argc, char **argv);
} CliCommand;

/* A new subcommand is a cmd-NAME.c file and one line here. */
static const CliCommand commands[] = {
  { "run", N_ ("Run an application under jankscope and summarize its jank"), cli_cmd_run },
  { "summary", N_ ("Print the summary of an existing report"), cli_cmd_summary },
  { "export", N_ ("Write reports for Perfetto, flame graphs, pprof or Sysprof"), cli_cmd_export },
  { "report", N_ ("Rank the stack signatures of the jank of many runs"), cli_cmd_report },
  { "merge", N_ ("Merge reports of many runs and machines into one aggregate"), cli_cmd_merge },
  { "diff", N_ ("Compare two runs and fail when jank regressed (a CI gate)"), cli_cmd_diff },
  { "symbolize", N_ ("Name the frames of reports of an app that ran without debug information"),
    cli_cmd_symbolize },
  { "view", N_ ("Show a monitored process live, even while it hangs"), cli_cmd_view },
};

static const CliCommand *
find_command (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];

  return NULL;
}

static char *
describe_commands (void)
{
  GString *text = g_string_new (_ ("Commands:"));
  int width = strlen ("help");

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    width = MAX (width, (int) strlen (commands[i].name));

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "\n  %-*s  %s", width, commands[i].name,
                            _ (commands[i].description));
  g_string_append_printf (text, "\n  %-*s  %s\n\n", width, "help",
                          _ ("Show the help of jankscope or of a command"));
  g_string_append (text, _ ("Run “jankscope COMMAND --help” for the options of a command."));

  return g_string_free (text, FALSE);
}

/* "jankscope help [COMMAND]" */
static int
run_help (GOptionContext *context, int argc, char **argv)
{
  const CliCommand *command;
  char *help_argv[] = { NULL, (char *) "--help", NULL };

  if (argc < 2)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      return cli_print (help) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_autofree char *name = jsr_display (argv[1]);

      return cli_usage_error (context, _ ("unknown command “%s”"), name);
    }

  /* GOptionContext prints the command's help and exits. */
  help_argv[0] = (char *) command->name;
  return command->main (2, help_argv);
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *description = NULL;
  gboolean version = FALSE;
  const CliCommand *command;
  const GOptionEntry entries[] = { { "version", 'V', 0, G_OPTION_ARG_NONE, &version,
                                     N_ ("Show the version and exit"), NULL },
                                   G_OPTION_ENTRY_NULL };

  /* Writes to stdout are checked, g_print's too (--help). */
  cli_stdout_init ();

  /* A program, unlike the library it loads into apps, owns its locale. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_prgname ("jankscope");

  context = g_option_context_new (_ ("COMMAND [ARGS…]"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, TRUE);
  g_option_context_set_summary (context, _ ("Find out which main-loop callbacks make a GLib or GTK "
                                            "application stutter."));
  description = describe_commands ();
  g_option_context_set_description (context, description);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);

  if (version)
    {
      return cli_print ("jankscope " JANKSCOPE_VERSION "\n") ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    }

  if (argc < 2)
    return cli_usage_error (context, _ ("no command given"));

  if (strcmp (argv[1], "help") == 0)
    return run_help (context, argc - 1, argv + 1);

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_autofree char *name = jsr_display (argv[1]);

      return cli_usage_error (context, _ ("unknown command “%s”"), name);
    }

  return command->main (argc - 1, argv + 1);
}
