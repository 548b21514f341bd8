/* cmd-run.c: "jankscope run [--report FILE] [--threshold MS] [--inspector] [--view] [--] APP
 * [ARGS…]"
 *
 * Starts APP with the preload library and JANKSCOPE_REPORT set, waits for
 * it, prints a summary of its report on stderr (the app's stdout stays
 * clean) and exits with the app's exit code.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "child-env.h"
#include "child-reports.h"
#include "child-launcher.h"
#include "cli-commands.h"
#include "cli-common.h"
#include "jsr-report.h"
#include "preload-locator.h"
#include "summary-printer.h"
#include "view-needs.h"
#include "viewer-locator.h"

#define MIN_THRESHOLD_MS 1
#define MAX_THRESHOLD_MS 60000

/* Base name of the executable that APP resolves to, as the monitored
 * process sees it in /proc/self/exe (for %e in the report path). */
static char *
resolve_exe_name (const char *app)
{
  g_autofree char *found = g_find_program_in_path (app);
  g_autofree char *real = found != NULL ? realpath (found, NULL) : NULL;

  return g_path_get_basename (real != NULL ? real : app);
}

/* The report path as the app expands it: %p is the pid (the app is our
 * direct child: fork + exec keeps the pid), %e the executable's name. */
static char *
expand_report_path (const char *template, pid_t pid, const char *app)
{
  GString *path = g_string_new (NULL);

  for (const char *p = template; *p != '\0'; p++)
    {
      if (p[0] == '%' && p[1] == 'p')
        {
          g_string_append_printf (path, "%ld", (long) pid);
          p++;
        }
      else if (p[0] == '%' && p[1] == 'e')
        {
          g_autofree char *exe = resolve_exe_name (app);

          g_string_append (path, exe);
          p++;
        }
      else
        g_string_append_c (path, *p);
    }

  return g_string_free (path, FALSE);
}

/* Identity of a file version: the app replaces the report by a rename, so a
 * report written by this run differs in inode and change time at least. */
static gboolean
same_file_version (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size
         && a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec
         && a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Removes the private folder of a run without --report and what the app
 * left in it: the report, its journal, the reports of its GLib children
 * (report.json.PID). The folder came from g_dir_make_tmp: all of it is ours. */
static void
remove_private_dir (const char *dirname)
{
  g_autoptr (GDir) dir = g_dir_open (dirname, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *leftover = g_build_filename (dirname, name, NULL);

        g_unlink (leftover);
      }
  g_rmdir (dirname);
}

/* A report is written only to a regular file or a new one (the app refuses
 * anything else too, but here the user hears why before the app starts). */
static gboolean
report_target_ok (const char *path, char **problem)
{
  struct stat st;
  const char *what;

  if (g_lstat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE;
  if (S_ISLNK (st.st_mode))
    what = _ ("a symbolic link");
  else if (S_ISDIR (st.st_mode))
    what = _ ("a folder");
  else if (S_ISFIFO (st.st_mode))
    what = _ ("a FIFO");
  else if (S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode))
    what = _ ("a device");
  else
    what = _ ("not a regular file");
  *problem = g_strdup (what);
  return FALSE;
}

/* Loads the report this run wrote. NULL with *problem set (a message for
 * the user) when there is none or it cannot be read. */
static JsrReport *
load_run_report (const char *path, const struct stat *before_run, const char *app, char **problem)
{
  g_autofree char *display_path = jsr_display_filename (path);
  g_autoptr (JsrReport) report = NULL;
  g_autoptr (GError) error = NULL;
  struct stat after_run;

  if (before_run != NULL && g_stat (path, &after_run) == 0
      && same_file_version (before_run, &after_run))
    {
      *problem = g_strdup_printf (_ ("this run wrote no report (%s is from an earlier run): "
                                     "“%s” ran no GLib main loop, or ended before jankscope "
                                     "could write one; jankscope watches GLib and GTK programs "
                                     "only"),
                                  display_path, app);
      return NULL;
    }

  report = jsr_report_load (path, &error);
  if (report == NULL)
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT)
          || g_error_matches (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_EMPTY))
        *problem = g_strdup_printf (_ ("no report was written: “%s” ran no GLib main loop, or "
                                       "ended before jankscope could write one; jankscope "
                                       "watches GLib and GTK programs only"),
                                    app);
      else
        *problem
            = g_strdup_printf (_ ("cannot read the report %s: %s"), display_path, error->message);
      return NULL;
    }

  return g_steal_pointer (&report);
}

/* Did the app die of a signal? A wrapper (a shell script) that lost its
 * child to a signal exits with 128 + N instead: sets *signal_number to N. */
static gboolean
ended_by_signal (int wait_status, int *signal_number)
{
  if (WIFSIGNALED (wait_status))
    {
      *signal_number = WTERMSIG (wait_status);
      return TRUE;
    }
  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) > 128
      && WEXITSTATUS (wait_status) - 128 < NSIG)
    {
      *signal_number = WEXITSTATUS (wait_status) - 128;
      return TRUE;
    }

  return FALSE;
}

/* "APP killed by signal 9 (Killed)", and when the report holds a stall
 * under way, that the app ended during it. */
static void
print_outcome (const char *app_name, int wait_status, const JsrReport *report)
{
  const JsrReportEvent *hang = report != NULL ? jsr_report_get_ongoing_hang (report) : NULL;
  g_autofree char *outcome = cli_describe_wait_status (wait_status);
  g_autofree char *stuck = NULL;
  int signal_number = 0;
  gboolean killed;

  if (hang == NULL)
    {
      cli_error (_ ("%s %s"), app_name, outcome);
      return;
    }

  stuck = cli_summary_format_duration (hang->duration_ns);
  killed = ended_by_signal (wait_status, &signal_number);
  if (killed && WIFEXITED (wait_status))
    {
      g_clear_pointer (&outcome, g_free);
      outcome
          = g_strdup_printf (_ ("exited with status %d (signal %d, %s)"), WEXITSTATUS (wait_status),
                             signal_number, g_strsignal (signal_number));
    }
  if (killed)
    cli_error (_ ("%s %s during a hang: its main loop had been stuck for %s when the report "
                  "was last written"),
               app_name, outcome, stuck);
  else
    cli_error (_ ("%s %s while its main loop was stuck (for %s when the report was last "
                  "written)"),
               app_name, outcome, stuck);
}

/* The command line, and what is made of it before the app starts. */
typedef struct
{
  char *report_arg;
  char *threshold_arg;
  gboolean inspector;
  gboolean view;
  GStrv app_argv;

  char *threshold_ms;    /* canonical ("007" -> "7"), NULL: the app's default */
  char *report_template; /* absolute, %p and %e unexpanded */
  char *private_dir;     /* without --report: the run's own folder, removed after it */
  gboolean had_report;   /* a report was already at the path: before_run is its identity */
  struct stat before_run;
} RunOptions;

static void
run_options_clear (RunOptions *o)
{
  g_free (o->report_arg);
  g_free (o->threshold_arg);
  g_strfreev (o->app_argv);
  g_free (o->threshold_ms);
  g_free (o->report_template);
  g_free (o->private_dir);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunOptions, run_options_clear)

/* --threshold and --report, checked before anything starts; CLI_EXIT_OK or
 * the exit code of the usage error printed. */
static int
check_options (GOptionContext *context, RunOptions *o)
{
  g_autofree char *problem = NULL;

  if (o->app_argv == NULL || o->app_argv[0] == NULL)
    return cli_usage_error (context, _ ("no application given"));
  if (o->threshold_arg != NULL)
    {
      guint64 ms;

      if (!g_ascii_string_to_unsigned (o->threshold_arg, 10, MIN_THRESHOLD_MS, MAX_THRESHOLD_MS,
                                       &ms, NULL))
        return cli_usage_error (context,
                                _ ("--threshold must be a whole number of milliseconds from %d to "
                                   "%d, not “%s”"),
                                MIN_THRESHOLD_MS, MAX_THRESHOLD_MS, o->threshold_arg);
      /* Handed on in canonical form: "007" becomes "7". */
      o->threshold_ms = g_strdup_printf ("%" G_GUINT64_FORMAT, ms);
    }
  if (o->report_arg != NULL && o->report_arg[0] == '\0')
    return cli_usage_error (context, _ ("--report needs a file name"));
  if (o->report_arg != NULL)
    {
      g_autofree char *dir = NULL;

      o->report_template = g_canonicalize_filename (o->report_arg, NULL);
      dir = g_path_get_dirname (o->report_template);
      /* The app could not say why its report is missing: check here. */
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        {
          g_autofree char *display_dir = jsr_display_filename (dir);

          return cli_usage_error (context, _ ("--report: the folder %s does not exist"),
                                  display_dir);
        }
      if (strchr (o->report_template, '%') == NULL
          && !report_target_ok (o->report_template, &problem))
        {
          g_autofree char *display_path = jsr_display_filename (o->report_template);

          return cli_usage_error (context,
                                  _ ("--report: %s is %s; a report is written only to a regular "
                                     "file or a new one"),
                                  display_path, problem);
        }
    }

  return CLI_EXIT_OK;
}

/* Where the app writes its report: the --report file (and the identity of
 * one already there, which must not pass for this run's), or a private
 * folder. FALSE after printing why not. */
static gboolean
choose_report_path (RunOptions *o)
{
  g_autoptr (GError) error = NULL;

  if (o->report_arg != NULL)
    {
      /* A report left there by an earlier run must not pass for this one. */
      o->had_report = strchr (o->report_template, '%') == NULL
                      && g_stat (o->report_template, &o->before_run) == 0;
      return TRUE;
    }

  /* A private folder, not a file made in advance: the app would find an
   * empty file there where it looks for a previous run's report. */
  o->private_dir = g_dir_make_tmp ("jankscope-run-XXXXXX", &error);
  if (o->private_dir == NULL)
    {
      cli_error (_ ("cannot create a temporary folder for the report: %s"), error->message);
      return FALSE;
    }
  o->report_template = g_build_filename (o->private_dir, "report.json", NULL);
  return TRUE;
}

/* The app serves its live stream (JANKSCOPE_LIVE=1 in its environment);
 * the viewer, started first and not waited for, follows the first monitored
 * child of this process: the app, once it has started. */
static void
start_live_view (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *viewer = cli_viewer_find (&error);
  g_autofree char *parent = g_strdup_printf ("--child-of=%d", (int) getpid ());
  char *viewer_argv[] = { viewer, parent, NULL };

  if (viewer == NULL
      || !g_spawn_async (NULL, viewer_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &error))
    cli_warning (_ ("no live view: %s"), error->message);
}

/* The exit code when the app could not be started: 127 not found, 126 not
 * executable (as a shell says). */
static int
launch_failed (const RunOptions *o, const GError *error)
{
  if (o->private_dir != NULL)
    remove_private_dir (o->private_dir);
  cli_error ("%s", error->message);
  if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return CLI_EXIT_NOT_FOUND;
  return error->domain == G_FILE_ERROR ? CLI_EXIT_CANNOT_EXEC : CLI_EXIT_FAILURE;
}

/* After the app: how it ended, then the summary of its report (whose first
 * block is the stall it was killed in, if any), and where the report is. */
static void
report_run (const RunOptions *o, pid_t pid, int wait_status)
{
  g_autofree char *base = g_path_get_basename (o->app_argv[0]);
  g_autofree char *app_name = jsr_display_filename (base); /* for messages only */
  g_autofree char *report_path = expand_report_path (o->report_template, pid, o->app_argv[0]);
  g_autofree char *problem = NULL;
  g_autoptr (JsrReport) report
      = load_run_report (report_path, o->had_report ? &o->before_run : NULL, app_name, &problem);

  print_outcome (app_name, wait_status, report);
  if (report != NULL)
    {
      g_autoptr (GString) out = g_string_new ("\n");

      g_autoptr (GPtrArray) children = NULL;
      guint more_children = 0;

      cli_summary_format (report, out);
      /* The app's monitored GLib children: listed before a private folder
       * (and their files in it) goes. */
      children = cli_child_reports_find (report_path, &more_children);
      cli_child_reports_format (children, more_children, o->private_dir == NULL, out);
      g_printerr ("%s", out->str);
    }
  else
    cli_error ("%s", problem);

  if (o->private_dir != NULL)
    remove_private_dir (o->private_dir);
  else
    {
      g_autofree char *display_path = jsr_display_filename (report_path);

      g_printerr ("\n");
      g_printerr (_ ("Report: %s\n"), display_path);
    }
}

int
cli_cmd_run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (RunOptions) o = { 0 };
  g_autofree char *preload = NULL;
  g_auto (GStrv) envp = NULL;
  int wait_status;
  int status;
  pid_t pid;
  const GOptionEntry entries[] = {
    { "report", 'r', 0, G_OPTION_ARG_FILENAME, &o.report_arg,
      /* xgettext:no-c-format */
      N_ ("Keep the JSON report in FILE (%p: the pid, %e: the executable's name)"), N_ ("FILE") },
    { "threshold", 't', 0, G_OPTION_ARG_STRING, &o.threshold_arg,
      N_ ("A dispatch or iteration this long is jank (1 to 60000, default 50)"), N_ ("MS") },
    { "inspector", 'i', 0, G_OPTION_ARG_NONE, &o.inspector,
      N_ ("Open the jankscope window in the app (GTK 4 apps)"), NULL },
    { "view", 'v', 0, G_OPTION_ARG_NONE, &o.view,
      N_ ("Serve the live view and open it in jankscope view (GTK 3, GTK 4 and GLib apps)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.app_argv, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };

  context = cli_option_context_new ("run", _ ("[--] APP [ARGS…]"),
                                    _ ("Runs APP with jankscope loaded, then prints a summary of "
                                       "its jank on stderr and exits with APP's exit code."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if ((status = check_options (context, &o)) != CLI_EXIT_OK)
    return status;
  if (o.view)
    {
      g_autofree char *problem = NULL;

      /* Said before the app starts: else a viewer would wait for a socket that never comes. */
      if (!cli_view_has_runtime_dir (&problem) || !cli_view_has_display (&problem))
        {
          cli_error ("--view: %s", problem);
          return CLI_EXIT_USAGE;
        }
    }

  preload = cli_preload_find (&error);
  if (preload == NULL)
    {
      cli_error ("%s", error->message);
      return CLI_EXIT_USAGE;
    }
  if (!choose_report_path (&o))
    return CLI_EXIT_FAILURE;

  envp = cli_child_env_new (preload, o.report_template, o.threshold_ms);
  if (o.inspector)
    envp = g_environ_setenv (envp, "JANKSCOPE_INSPECTOR", "1", TRUE);
  if (o.view)
    {
      envp = g_environ_setenv (envp, "JANKSCOPE_LIVE", "1", TRUE);
      start_live_view ();
    }

  if (!cli_child_run (o.app_argv, envp, &pid, &wait_status, &error))
    return launch_failed (&o, error);

  /* From here on stderr may be a closed pipe (`jankscope run app 2>&1 | head`):
   * a write error must not kill the CLI before it passes the exit code on.
   * Only now: the app would have inherited SIG_IGN. */
  signal (SIGPIPE, SIG_IGN);

  report_run (&o, pid, wait_status);

  return cli_exit_code_for_status (wait_status);
}
