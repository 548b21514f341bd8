/* shortcut-app.c: a GTK 4 app that binds Ctrl+Shift+J itself, for
 * check_inspector.py shortcut-app-wins: the app's own binding must win over
 * jankscope's shortcut.
 *
 * Usage: shortcut-app accel|widget
 *   accel   an application accelerator (gtk_application_set_accels_for_action)
 *   widget  a GtkShortcutController on the focused widget
 * Prints "app_shortcut=1" each time its binding runs; quits after 4 s.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

static const char *mode;

static void
mine_cb (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  printf ("app_shortcut=1\n");
  fflush (stdout);
}

static gboolean
widget_shortcut_cb (GtkWidget *widget, GVariant *args, gpointer data)
{
  mine_cb (NULL, NULL, NULL);
  return TRUE;
}

static gboolean
quit_cb (gpointer app)
{
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
activate_cb (GtkApplication *app, gpointer data)
{
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *button = gtk_button_new_with_label ("focus");

  gtk_window_set_title (GTK_WINDOW (window), "shortcut-app");
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 200);
  gtk_window_set_child (GTK_WINDOW (window), button);
  if (strcmp (mode, "widget") == 0)
    {
      GtkEventController *controller = gtk_shortcut_controller_new ();

      gtk_shortcut_controller_add_shortcut (
          GTK_SHORTCUT_CONTROLLER (controller),
          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_j, GDK_CONTROL_MASK | GDK_SHIFT_MASK),
                            gtk_callback_action_new (widget_shortcut_cb, NULL, NULL)));
      gtk_widget_add_controller (button, controller);
    }
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_grab_focus (button);
  g_timeout_add (4000, quit_cb, app);
}

int
main (int argc, char **argv)
{
  GtkApplication *app;
  int status;

  mode = argc > 1 ? argv[1] : "accel";
  app = gtk_application_new (NULL, G_APPLICATION_NON_UNIQUE);
  if (strcmp (mode, "accel") == 0)
    {
      GSimpleAction *action = g_simple_action_new ("mine", NULL);
      const char *accels[] = { "<Control><Shift>j", NULL };

      g_signal_connect (action, "activate", G_CALLBACK (mine_cb), NULL);
      g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (action));
      gtk_application_set_accels_for_action (app, "app.mine", accels);
    }
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  g_object_unref (app);
  return status;
}
