/* jsui-module.c: libjankscope-gtk4.so's entry points.
 *
 * The core (src/core/js-ui-loader.c) dlopens this module (next to itself)
 * in GTK 4 processes only, unless JANKSCOPE_UI=0:
 *
 * 1. jankscope_gtk4_ui_arm (), as soon as GTK 4 is in the process (in an
 *    app linked with GTK 4: from the preload's constructor, before main ()
 *    and gtk_init ()): adds jankscope's page to GTK's Inspector. No display,
 *    window, timer or snapshot: "armed".
 * 2. jankscope_gtk4_ui_attach (open), on the main thread once GTK is
 *    initialised: installs the shortcut (jsui-shortcut.h) on the app's
 *    windows; open: also opens the window (JANKSCOPE_INSPECTOR=1).
 *
 * jankscope_gtk4_ui_start () opens (or raises) the window alone.
 *
 * It is a guest like the core: hidden symbols but the entries, its own
 * GType prefix (Jsui), resource path (/org/jankscope/ui) and text domain,
 * never unloaded (-z nodelete: GTypes cannot be unregistered).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <libintl.h>

#include <gtk/gtk.h>

#include "jsui-inspector-page.h"
#include "jsui-live.h"
#include "jsui-refresher.h"
#include "jsui-shortcut.h"
#include "jsui-window.h"

#define EXPORT __attribute__ ((visibility ("default")))

static JsuiWindow *window;       /* main thread */
static JsuiRefresher *refresher; /* main thread */

static void
window_destroyed_cb (GtkWidget *widget, gpointer user_data)
{
  g_clear_pointer (&refresher, jsui_refresher_free);
  window = NULL;
}

static void
init_once (void)
{
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  /* Our own domain; the app's textdomain () and locale are left alone. */
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  jsui_live_init ();
}

EXPORT void jankscope_gtk4_ui_arm (void);
EXPORT void jankscope_gtk4_ui_attach (int open);
EXPORT void jankscope_gtk4_ui_start (void);

/**
 * jankscope_gtk4_ui_start:
 *
 * Opens the jankscope window (or raises it when it is open). Main thread,
 * after GTK is initialised; does nothing otherwise.
 */
void
jankscope_gtk4_ui_start (void)
{
  if (!gtk_is_initialized ())
    return;
  if (window != NULL)
    {
      gtk_window_present (GTK_WINDOW (window));
      return;
    }
  init_once ();
  window = jsui_window_new ();
  g_signal_connect (window, "destroy", G_CALLBACK (window_destroyed_cb), NULL);
  refresher = jsui_refresher_new (jsui_window_get_panel (window), jsui_live_source, NULL,
                                  JSUI_REFRESH_MS);
  gtk_window_present (GTK_WINDOW (window));
}

/* The shortcut: open, or close (everything of the window goes with it:
 * its refresher, its timers, its snapshots). */
static void
toggle (void)
{
  if (window != NULL)
    gtk_window_destroy (GTK_WINDOW (window));
  else
    jankscope_gtk4_ui_start ();
}

/**
 * jankscope_gtk4_ui_arm:
 *
 * Adds jankscope's page to GTK's Inspector. Any time before the Inspector
 * opens (GTK_DEBUG=interactive opens it in gtk_init ()), GTK initialised or
 * not; main thread. Once.
 */
void
jankscope_gtk4_ui_arm (void)
{
  init_once ();
  jsui_inspector_page_register (jsui_live_source, NULL);
}

/**
 * jankscope_gtk4_ui_attach:
 * @open: also open the window
 *
 * Main thread, after GTK is initialised (does nothing otherwise): arms when
 * not armed yet, installs the shortcut on the app's windows.
 */
void
jankscope_gtk4_ui_attach (int open)
{
  if (!gtk_is_initialized ())
    return;
  jankscope_gtk4_ui_arm ();
  jsui_shortcut_install (toggle);
  if (open)
    jankscope_gtk4_ui_start ();
}
