/* jsv-application.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsv-application.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib/gi18n.h>

#include "jsv-test-hooks.h"
#include "jsv-window.h"

struct _JsvApplication
{
  GtkApplication parent_instance;

  int pid;      /* from the command line, 0: none */
  int child_of; /* --child-of: follow the first monitored child of this pid */
};

G_DEFINE_FINAL_TYPE (JsvApplication, jsv_application, GTK_TYPE_APPLICATION)

static void
install_css (GdkDisplay *display)
{
  g_autoptr (GtkCssProvider) provider = gtk_css_provider_new ();

  jsui_install_css (display);
  gtk_css_provider_load_from_resource (provider, "/org/jankscope/viewer/jankscope-viewer.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* GtkApplication's startup opens the display with gtk_init (), which prints the toolkit's own
 * "cannot open display" warning and exits: said here in one sentence instead. */
static void
jsv_application_startup (GApplication *app)
{
  if (!gtk_init_check ())
    {
      const char *display = g_getenv ("WAYLAND_DISPLAY");

      if (display == NULL || display[0] == '\0')
        display = g_getenv ("DISPLAY");
      if (display == NULL || display[0] == '\0')
        fprintf (stderr, _ ("jankscope view: no display to open a window on (neither DISPLAY nor "
                            "WAYLAND_DISPLAY is set): run it in a desktop session (over SSH, "
                            "ssh -X)\n"));
      else
        fprintf (stderr,
                 _ ("jankscope view: cannot open the display “%s”: run it in a desktop "
                    "session, with DISPLAY or WAYLAND_DISPLAY set to its display\n"),
                 display);
      exit (1);
    }
  G_APPLICATION_CLASS (jsv_application_parent_class)->startup (app);
}

static void
jsv_application_activate (GApplication *app)
{
  JsvApplication *self = JSV_APPLICATION (app);
  JsvWindow *window = jsv_window_new (GTK_APPLICATION (app));

  install_css (gtk_widget_get_display (GTK_WIDGET (window)));
  if (self->pid > 0)
    jsv_window_connect (window, self->pid);
  else if (self->child_of > 0)
    jsv_window_follow_child_of (window, self->child_of);
  jsv_test_hooks_attach (window);
  gtk_window_present (GTK_WINDOW (window));
}

static int
jsv_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      printf ("jankscope-viewer %s\n", JANKSCOPE_VERSION);
      return 0;
    }
  return -1;
}

static int
jsv_application_command_line (GApplication *app, GApplicationCommandLine *cmdline)
{
  JsvApplication *self = JSV_APPLICATION (app);
  g_auto (GStrv) argv = g_application_command_line_get_arguments (cmdline, NULL);
  GVariantDict *options = g_application_command_line_get_options_dict (cmdline);

  g_variant_dict_lookup (options, "child-of", "i", &self->child_of);

  if (argv[0] != NULL && argv[1] != NULL)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (argv[1], &end, 10);

      if (end == argv[1] || *end != '\0' || pid <= 0 || pid > G_MAXINT || argv[2] != NULL)
        {
          g_application_command_line_printerr (cmdline, _ ("Usage: jankscope view [PID]\n"));
          return 2;
        }
      self->pid = (int) pid;
    }
  g_application_activate (app);
  return 0;
}

static void
jsv_application_class_init (JsvApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = jsv_application_startup;
  app_class->activate = jsv_application_activate;
  app_class->command_line = jsv_application_command_line;
  app_class->handle_local_options = jsv_application_handle_local_options;
}

static void
jsv_application_init (JsvApplication *self)
{
  static const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_ ("Print the version and exit"), NULL },
    { "child-of", 0, 0, G_OPTION_ARG_INT, NULL,
      N_ ("Follow the first monitored process started by process PARENT (jankscope run --view)"),
      N_ ("PARENT") },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _ ("[PID]"));
  g_application_set_option_context_summary (
      G_APPLICATION (self),
      _ ("Shows a monitored process live, from another process: it stays live while the app's "
         "main thread hangs. Without PID, lists this user's monitored processes."));
}

JsvApplication *
jsv_application_new (void)
{
  return g_object_new (JSV_TYPE_APPLICATION, "application-id", "org.jankscope.Viewer", "flags",
                       G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_NON_UNIQUE, NULL);
}
