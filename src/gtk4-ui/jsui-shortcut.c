/* jsui-shortcut.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdio.h>
#include <string.h>

#include "jsui-shortcut.h"

#define INSTALLED_KEY "jankscope-shortcut"

static void (*toggle_func) (void);
static GtkShortcutTrigger *trigger; /* shared by the windows' shortcuts */
static guint scan_idle;

/* "Ctrl+Shift+J" → "<Ctrl><Shift>J" (gtk_accelerator_parse's form). */
static char *
to_gtk_form (const char *text)
{
  g_auto (GStrv) parts = NULL;
  GString *out;
  guint n;

  if (strchr (text, '<') != NULL || strchr (text, '+') == NULL || g_str_has_suffix (text, "+"))
    return g_strdup (text);
  parts = g_strsplit (text, "+", -1);
  n = g_strv_length (parts);
  out = g_string_new (NULL);
  for (guint i = 0; i + 1 < n; i++)
    g_string_append_printf (out, "<%s>", g_strstrip (parts[i]));
  g_string_append (out, g_strstrip (parts[n - 1]));
  return g_string_free (out, FALSE);
}

gboolean
jsui_shortcut_parse (const char *text, guint *keyval, GdkModifierType *mods, char **error_message)
{
  g_autofree char *gtk_form = NULL;
  guint key = 0;
  GdkModifierType m = 0;
  gboolean printable;

  *error_message = NULL;
  if (text != NULL
      && (g_ascii_strcasecmp (text, "off") == 0 || g_ascii_strcasecmp (text, "none") == 0))
    {
      *keyval = 0;
      *mods = 0;
      return FALSE;
    }
  if (text == NULL || *text == '\0')
    text = JSUI_SHORTCUT_DEFAULT;
  gtk_form = to_gtk_form (text);
  if (gtk_accelerator_parse (gtk_form, &key, &m) && key != 0)
    {
      /* A letter alone (or with Shift) would eat the app's typing. */
      printable
          = gdk_keyval_to_unicode (key) != 0 && g_unichar_isgraph (gdk_keyval_to_unicode (key));
      if (!printable || (m & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
        {
          *keyval = gdk_keyval_to_lower (key);
          *mods = m;
          return TRUE;
        }
      *error_message = g_strdup_printf ("JANKSCOPE_SHORTCUT='%s' needs Control, Alt or Super; "
                                        "using Ctrl+Shift+J",
                                        text);
    }
  else
    *error_message = g_strdup_printf ("JANKSCOPE_SHORTCUT='%s' is not a key like Ctrl+Shift+J, "
                                      "<Control><Shift>j, F12, off or none; using Ctrl+Shift+J",
                                      text);
  gtk_accelerator_parse (JSUI_SHORTCUT_DEFAULT, keyval, mods);
  return FALSE;
}

static gboolean
activated_cb (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  if (toggle_func != NULL)
    toggle_func ();
  return TRUE;
}

static void
install_on (GtkWindow *window)
{
  GtkEventController *controller;
  GtkShortcut *shortcut;

  if (g_object_get_data (G_OBJECT (window), INSTALLED_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (window), INSTALLED_KEY, GINT_TO_POINTER (1));
  shortcut = gtk_shortcut_new (g_object_ref (trigger),
                               gtk_callback_action_new (activated_cb, NULL, NULL));
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_name (controller, JSUI_SHORTCUT_CONTROLLER);
  /* Bubble, added after the window's own: everything of the app's first. */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}

static gboolean
scan_cb (gpointer user_data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  scan_idle = 0;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      install_on (window);
    }
  return G_SOURCE_REMOVE;
}

static void
toplevels_changed_cb (GListModel *toplevels, guint position, guint removed, guint added,
                      gpointer user_data)
{
  /* Later, not in the middle of the window's construction: its own
   * controllers go first. G_PRIORITY_DEFAULT, not an idle priority: in an
   * app that always has a frame to draw or other work, an idle-priority
   * source never runs, and a window opened then would never get the
   * shortcut. */
  if (added > 0 && scan_idle == 0)
    {
      scan_idle = g_idle_add_full (G_PRIORITY_DEFAULT, scan_cb, NULL, NULL);
      g_source_set_name_by_id (scan_idle, "[jankscope-ui] shortcut");
    }
}

gboolean
jsui_shortcut_install (void (*toggle) (void))
{
  guint keyval;
  GdkModifierType mods;
  g_autofree char *error_message = NULL;

  if (trigger != NULL)
    return TRUE;
  if (!jsui_shortcut_parse (g_getenv ("JANKSCOPE_SHORTCUT"), &keyval, &mods, &error_message))
    {
      if (error_message == NULL)
        return FALSE; /* off */
      /* Like the core's warnings (never g_warning: it may abort the host). */
      fprintf (stderr, "jankscope: %s\n", error_message);
    }
  toggle_func = toggle;
  trigger = gtk_keyval_trigger_new (keyval, mods);
  g_signal_connect (gtk_window_get_toplevels (), "items-changed", G_CALLBACK (toplevels_changed_cb),
                    NULL);
  scan_cb (NULL);
  return TRUE;
}
