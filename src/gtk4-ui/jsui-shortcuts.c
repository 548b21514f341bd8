/* jsui-shortcuts.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsui-shortcuts.h"

#include <glib/gi18n-lib.h>

#define SHORTCUTS_UI "/org/jankscope/ui/jsui-shortcuts.ui"

GtkWindow *
jsui_shortcuts_window_show (GtkWindow *parent)
{
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource (SHORTCUTS_UI);
  GtkWindow *window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));

  gtk_window_set_transient_for (window, parent);
  gtk_window_present (window);
  return window;
}

static void
shortcuts_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  jsui_shortcuts_window_show (GTK_WINDOW (widget));
}

static void
about_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_show_about_dialog (GTK_WINDOW (widget), "program-name", "jankscope", "version",
                         JANKSCOPE_VERSION, "logo-icon-name", "org.jankscope.Viewer", "comments",
                         _ ("What made a GTK app stutter or freeze, and why"), "license-type",
                         GTK_LICENSE_LGPL_2_1, NULL);
}

void
jsui_shortcuts_install (GtkWidgetClass *window_class)
{
  gtk_widget_class_install_action (window_class, "jankscope.shortcuts", NULL, shortcuts_cb);
  gtk_widget_class_install_action (window_class, "jankscope.about", NULL, about_cb);
  gtk_widget_class_add_binding_action (window_class, GDK_KEY_question, GDK_CONTROL_MASK,
                                       "jankscope.shortcuts", NULL);
  /* GtkWindow's own action: closes this window, never the app. */
  gtk_widget_class_add_binding_action (window_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

GtkWidget *
jsui_primary_menu_button_new (void)
{
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource (SHORTCUTS_UI);
  GtkWidget *button = gtk_menu_button_new ();

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "open-menu-symbolic");
  gtk_menu_button_set_primary (GTK_MENU_BUTTON (button), TRUE);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button),
                                  G_MENU_MODEL (gtk_builder_get_object (builder, "primary_menu")));
  gtk_widget_set_tooltip_text (button, _ ("Main Menu"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Main Menu"), -1);
  return button;
}
