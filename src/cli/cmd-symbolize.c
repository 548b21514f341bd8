/* cmd-symbolize.c: "jankscope symbolize FILE... [-o OUT | --in-place]"
 *
 * Names the unnamed frames of saved reports (an app that ran without its
 * debug information) with the core's own symbolizer, offline, from the
 * modules' files and debug files found on this machine
 * (symbolize-modules.h) or downloaded from debuginfod; symbolize-doc.h
 * says what is named and how profiles stay whole.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "jsr-report.h"
#include "output-file.h"
#include "symbolize-doc.h"
#include "symbolize-modules.h"

static int
symbolize_one (CliSymModules *modules, const char *path, const char *output, gboolean in_place)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL, *text = NULL;
  g_autofree char *shown = jsr_display_filename (path);
  g_autofree char *shown_out = NULL;
  CliSymStats stats = { 0 };
  gboolean changed = FALSE;
  gsize length = 0;

  /* Regular files only, their size checked before reading (the reader's). */
  if (!jsr_report_read_file (path, &data, &length, &error))
    {
      cli_error (_ ("cannot read %s: %s"), shown, error->message);
      return CLI_EXIT_FAILURE;
    }
  text = cli_symbolize_document (data, length, modules, &stats, &changed, &error);
  if (text == NULL)
    {
      cli_error (_ ("cannot read %s: %s"), shown, error->message);
      return CLI_EXIT_FAILURE;
    }
  if (in_place)
    output = path;
  shown_out = jsr_display_filename (output);
  /* In place, a report with nothing to name is left untouched. */
  if ((!in_place || changed) && !cli_output_write (output, text, strlen (text), FALSE, &error))
    {
      cli_error ("%s", error->message);
      return CLI_EXIT_FAILURE;
    }
  if (strcmp (output, "-") != 0)
    g_printerr (_ ("jankscope: %s: %u named, %u refused (build-id mismatch), %u left unnamed → "
                   "%s\n"),
                shown, stats.named, stats.refused, stats.missing, shown_out);
  return CLI_EXIT_OK;
}

int
cli_cmd_symbolize (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CliSymModules) modules = NULL;
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) debug_dirs = NULL;
  g_autofree char *output = NULL;
  gboolean in_place = FALSE, debuginfod = FALSE;
  int status = CLI_EXIT_OK;
  const GOptionEntry entries[]
      = { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
            N_ ("Write the symbolized report to FILE (- for the standard output)"), N_ ("FILE") },
          { "in-place", 'i', 0, G_OPTION_ARG_NONE, &in_place,
            N_ ("Replace each FILE with its symbolized report"), NULL },
          { "debug-dir", 'd', 0, G_OPTION_ARG_FILENAME_ARRAY, &debug_dirs,
            N_ ("Look for modules and debug files in DIR first (DIR/NAME, DIR/.build-id/, "
                "then /usr/lib/debug); may be repeated"),
            N_ ("DIR") },
          { "debuginfod", 0, 0, G_OPTION_ARG_NONE, &debuginfod,
            N_ ("Download missing debug files from the debuginfod servers (DEBUGINFOD_URLS), "
                "waiting for them"),
            NULL },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
          G_OPTION_ENTRY_NULL };

  context = cli_option_context_new (
      "symbolize", _ ("FILE… [-o OUT | --in-place]"),
      _ ("Names the frames of saved reports whose app ran without debug information, from the "
         "modules and debug files found by build-id (docs/report-format.md, “Symbolizing a saved "
         "report”). A module whose file has another build-id is refused."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (files == NULL || files[0] == NULL)
    return cli_usage_error (context, _ ("no report file given"));
  if (in_place && output != NULL)
    return cli_usage_error (context, _ ("--in-place and --output cannot be used together"));
  if (!in_place && output == NULL)
    return cli_usage_error (context, _ ("no output file given (-o OUT or --in-place)"));
  if (output != NULL && output[0] == '\0')
    return cli_usage_error (context, _ ("--output: empty file name"));
  if (output != NULL && files[1] != NULL)
    return cli_usage_error (context, _ ("--output takes one report; use --in-place for several"));
  for (guint i = 0; debug_dirs != NULL && debug_dirs[i] != NULL; i++)
    {
      if (debug_dirs[i][0] == '\0')
        return cli_usage_error (context, _ ("--debug-dir: empty folder name"));
      g_ptr_array_add (dirs, g_canonicalize_filename (debug_dirs[i], NULL));
    }
  g_ptr_array_add (dirs, NULL);
  if (debuginfod && g_getenv ("DEBUGINFOD_URLS") == NULL)
    {
      cli_warning (_ ("--debuginfod: DEBUGINFOD_URLS is not set: nothing is downloaded"));
      debuginfod = FALSE;
    }

  modules = cli_sym_modules_new ((const char *const *) dirs->pdata, debuginfod);
  for (guint i = 0; files[i] != NULL; i++)
    if (symbolize_one (modules, files[i], output, in_place) != CLI_EXIT_OK)
      status = CLI_EXIT_FAILURE;
  return status;
}
