/* jsui-module.c: libjankscope-gtk4.so's entry point.
 *
 * The core dlopens this module (next to itself) in GTK4 processes only, and
 * calls jankscope_gtk4_ui_start () on the main thread once GTK is
 * initialised. It is a guest like the core: hidden symbols but the entry,
 * its own GType prefix (Jsui), resource path (/org/jankscope/ui) and text
 * domain, never unloaded (-z nodelete: GTypes cannot be unregistered).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "jankscope-config.h"

#include <dlfcn.h>
#include <libintl.h>
#include <string.h>

#include <gtk/gtk.h>

#include "js-live.h"
#include "jsui-refresher.h"
#include "jsui-window.h"

#define CORE_LIBRARY "libjankscope-core.so"

static JsuiWindow *window;       /* main thread */
static JsuiRefresher *refresher; /* main thread */
static const JankscopeLiveApiV1 *live_api;

/* The core's live API: global when the core was loaded RTLD_GLOBAL, else
 * found through the core next to this module (already loaded: NOLOAD). */
static const JankscopeLiveApiV1 *
find_live_api (void)
{
  const JankscopeLiveApiV1 *api = dlsym (RTLD_DEFAULT, "jankscope_live_api_v1");
  Dl_info info;

  if (api == NULL && dladdr ((void *)find_live_api, &info) != 0 && info.dli_fname != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (info.dli_fname);
      g_autofree char *path = g_build_filename (dir, CORE_LIBRARY, NULL);
      void *core = dlopen (path, RTLD_LAZY | RTLD_NOLOAD);

      if (core != NULL)
        api = dlsym (core, "jankscope_live_api_v1");
      /* The handle is not closed: the core is never unloaded anyway. */
    }
  if (api != NULL && (api->version < 1 || api->size < sizeof (JankscopeLiveApiV1)))
    api = NULL;
  return api;
}

static GBytes *
live_source (guint64 *generation, gpointer user_data)
{
  return live_api != NULL ? live_api->get_snapshot (generation) : NULL;
}

static void
window_destroyed_cb (GtkWidget *widget, gpointer user_data)
{
  g_clear_pointer (&refresher, jsui_refresher_free);
  window = NULL;
}

/**
 * jankscope_gtk4_ui_start:
 *
 * Opens the jankscope window (or raises it when it is open). Main thread,
 * after GTK is initialised; does nothing otherwise.
 */
__attribute__ ((visibility ("default"))) void jankscope_gtk4_ui_start (void);

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

  /* Our own domain; the app's textdomain () and locale are left alone. */
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  live_api = find_live_api ();
  window = jsui_window_new ();
  g_signal_connect (window, "destroy", G_CALLBACK (window_destroyed_cb), NULL);
  refresher = jsui_refresher_new (window, live_source, NULL, JSUI_REFRESH_MS);
  gtk_window_present (GTK_WINDOW (window));
}
