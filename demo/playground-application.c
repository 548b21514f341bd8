/* playground-application.c: the jank playground application
 *
 * Handles the command line (--script, --gap, --list-actions) before any display is opened, so a
 * bad script fails fast with exit status 2, and starts the script once the window is up.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdlib.h>
#include <glib/gi18n.h>

#include "playground-application.h"
#include "playground-script.h"
#include "playground-window.h"

#define EXIT_USAGE 2

struct _PlaygroundApplication
{
  GtkApplication parent_instance;

  PlaygroundScript *script;
  gboolean script_started;
};

G_DEFINE_FINAL_TYPE (PlaygroundApplication, playground_application, GTK_TYPE_APPLICATION)

static const GOptionEntry option_entries[]
    = { { "script", 0, 0, G_OPTION_ARG_STRING, NULL,
          N_ ("Run these comma-separated actions, then stay open unless the last one is “quit”"),
          N_ ("LIST") },
        /* A string: GApplication leaves an int option of 0 out of the options dict. */
        { "gap", 0, 0, G_OPTION_ARG_STRING, NULL,
          N_ ("Pause between scripted actions, in milliseconds (default: 700)"), N_ ("MS") },
        { "list-actions", 0, 0, G_OPTION_ARG_NONE, NULL,
          N_ ("List the action names for --script and exit"), NULL },
        { NULL } };

static void
list_actions (void)
{
  const char *name;

  for (guint i = 0; (name = playground_window_get_action_name (i)) != NULL; i++)
    g_print ("%s\n", name);
  g_print ("wait-MS\nquit\n");
}

static int
playground_application_handle_local_options (GApplication *application, GVariantDict *options)
{
  PlaygroundApplication *self = PLAYGROUND_APPLICATION (application);
  g_autoptr (GError) error = NULL;
  const char *list = NULL;
  const char *gap = NULL;
  guint64 gap_ms = PLAYGROUND_SCRIPT_DEFAULT_GAP_MS;

  if (g_variant_dict_contains (options, "list-actions"))
    {
      list_actions ();
      return EXIT_SUCCESS;
    }

  if (g_variant_dict_lookup (options, "gap", "&s", &gap)
      && !g_ascii_string_to_unsigned (gap, 10, 0, PLAYGROUND_SCRIPT_MAX_MS, &gap_ms, &error))
    {
      g_printerr (_ ("%s: Bad --gap: %s\n"), g_get_prgname (), error->message);
      return EXIT_USAGE;
    }

  if (g_variant_dict_lookup (options, "script", "&s", &list))
    {
      self->script = playground_script_new (list, (guint) gap_ms, &error);
      if (self->script == NULL)
        {
          g_printerr ("%s: %s\n", g_get_prgname (), error->message);
          return EXIT_USAGE;
        }
      /* Run the script here, never in an instance that may already be running. */
      g_application_set_flags (application,
                               g_application_get_flags (application) | G_APPLICATION_NON_UNIQUE);
    }

  return G_APPLICATION_CLASS (playground_application_parent_class)
      ->handle_local_options (application, options);
}

static void
playground_application_startup (GApplication *application)
{
  g_autoptr (GtkCssProvider) provider = gtk_css_provider_new ();

  G_APPLICATION_CLASS (playground_application_parent_class)->startup (application);

  gtk_css_provider_load_from_resource (provider, "/org/jankscope/Playground/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
playground_application_activate (GApplication *application)
{
  PlaygroundApplication *self = PLAYGROUND_APPLICATION (application);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (playground_window_new (GTK_APPLICATION (application)));
  gtk_window_present (window);

  if (self->script != NULL && !self->script_started)
    {
      self->script_started = TRUE;
      playground_script_start (self->script, PLAYGROUND_WINDOW (window));
    }
}

static void
playground_application_shutdown (GApplication *application)
{
  PlaygroundApplication *self = PLAYGROUND_APPLICATION (application);

  g_clear_pointer (&self->script, playground_script_free);

  G_APPLICATION_CLASS (playground_application_parent_class)->shutdown (application);
}

static void
playground_application_finalize (GObject *object)
{
  PlaygroundApplication *self = PLAYGROUND_APPLICATION (object);

  g_clear_pointer (&self->script, playground_script_free);

  G_OBJECT_CLASS (playground_application_parent_class)->finalize (object);
}

static void
playground_application_class_init (PlaygroundApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = playground_application_finalize;
  application_class->handle_local_options = playground_application_handle_local_options;
  application_class->startup = playground_application_startup;
  application_class->activate = playground_application_activate;
  application_class->shutdown = playground_application_shutdown;
}

static void
playground_application_init (PlaygroundApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
}

PlaygroundApplication *
playground_application_new (void)
{
  return g_object_new (PLAYGROUND_TYPE_APPLICATION, "application-id", "org.jankscope.Playground",
                       "flags", G_APPLICATION_FLAGS_NONE, NULL);
}
