/* cmd-summary.c: "jankscope summary FILE [--json]", the summary of an existing report
 *
 * Text for people (summary-printer.c), or the same numbers as JSON
 * (summary-json.c, docs/cli-json.md). On an error nothing is written to
 * the standard output: the document is built whole, then printed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "child-reports.h"
#include "cli-commands.h"
#include "cli-common.h"
#include "jsr-report.h"
#include "summary-json.h"
#include "summary-printer.h"

int
cli_cmd_summary (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsrReport) report = NULL;
  g_autoptr (GString) out = NULL;
  g_autofree char *display_name = NULL;
  g_auto (GStrv) files = NULL;
  g_autoptr (GPtrArray) children = NULL;
  guint more_children = 0;
  gboolean json = FALSE;
  const GOptionEntry entries[]
      = { { "json", 0, 0, G_OPTION_ARG_NONE, &json,
            N_ ("Write the summary as JSON (docs/cli-json.md)"), NULL },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
          G_OPTION_ENTRY_NULL };

  context = cli_option_context_new ("summary", _ ("FILE"),
                                    _ ("Prints the summary of a report written by “jankscope "
                                       "run --report FILE” or by an app run with "
                                       "JANKSCOPE_REPORT=FILE."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* Options may follow the file (no app arguments here to protect). */
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (files == NULL || files[0] == NULL)
    return cli_usage_error (context, _ ("no report file given"));
  if (files[1] != NULL)
    return cli_usage_error (context, _ ("only one report file can be given"));

  display_name = jsr_display_filename (files[0]);
  report = jsr_report_load (files[0], &error);
  if (report == NULL)
    {
      cli_error ("%s: %s", display_name, error->message);
      return CLI_EXIT_FAILURE;
    }

  /* The run's other monitored processes wrote FILE.PID beside it. */
  children = cli_child_reports_find (files[0], &more_children);
  out = g_string_new (NULL);
  if (json)
    cli_summary_write_json (report, children, more_children, out);
  else
    {
      cli_summary_format (report, out);
      cli_child_reports_format (children, more_children, TRUE, out);
    }

  return cli_print (out->str) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
