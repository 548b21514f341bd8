/* cmd-view.c: "jankscope view [PID]"
 *
 * Starts the viewer (src/viewer/, a GTK4 program of its own: the CLI links
 * no GTK) on a monitored process's live stream, or on the list of this
 * user's monitored processes without PID. The process must run with
 * JANKSCOPE_LIVE=1 (`jankscope run --view` does both).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "view-needs.h"
#include "viewer-locator.h"

int
cli_cmd_view (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) rest = NULL;
  g_autofree char *viewer = NULL;
  g_autofree char *problem = NULL;
  const GOptionEntry entries[]
      = { { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
          G_OPTION_ENTRY_NULL };
  char *viewer_argv[3] = { NULL, NULL, NULL };
  guint64 pid = 0;

  context = cli_option_context_new ("view", _ ("[PID]"),
                                    _ ("Shows a monitored process live from another process, so "
                                       "that it stays live while the app's main thread hangs. "
                                       "The app must run with JANKSCOPE_LIVE=1 (jankscope run "
                                       "--view does that). Without PID: this user's monitored "
                                       "processes."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (rest != NULL && rest[0] != NULL)
    {
      if (rest[1] != NULL)
        return cli_usage_error (context, _ ("one process id at most"));
      if (!g_ascii_string_to_unsigned (rest[0], 10, 1, G_MAXINT, &pid, NULL))
        {
          g_autofree char *value = jsr_display (rest[0]);

          return cli_usage_error (context, _ ("“%s” is not a process id"), value);
        }
      if (kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
        {
          cli_error (_ ("there is no process %s"), rest[0]);
          return CLI_EXIT_FAILURE;
        }
    }
  /* What the viewer needs, said here in one sentence, before its window would fail. */
  if (!cli_view_has_runtime_dir (&problem) || !cli_view_has_display (&problem)
      || (pid > 0 && !cli_view_pid_serves ((int) pid, &problem)))
    {
      cli_error ("%s", problem);
      return CLI_EXIT_FAILURE;
    }

  viewer = cli_viewer_find (&error);
  if (viewer == NULL)
    {
      cli_error ("%s", error->message);
      return CLI_EXIT_FAILURE;
    }
  viewer_argv[0] = viewer;
  viewer_argv[1] = rest != NULL ? rest[0] : NULL;
  execv (viewer, viewer_argv);
  cli_error (_ ("cannot start %s: %s"), viewer, g_strerror (errno));
  return CLI_EXIT_FAILURE;
}
