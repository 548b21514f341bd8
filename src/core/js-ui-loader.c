/* js-ui-loader.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-ui-loader.h"
#include "js-clock.h"
#include "js-log.h"

#include <dlfcn.h>

#define CHECK_PERIOD_NS (250 * JS_NS_PER_MS)
#define MODULE_NAME "libjankscope-gtk4.so"

static gboolean pending; /* wanted and not started (or given up) yet */
static gint64 last_check_ns;

void
js_ui_loader_init (gboolean wanted)
{
  pending = wanted;
}

static gboolean
start_ui (gpointer data)
{
  void (*entry) (void) = (void (*) (void)) data;

  entry ();
  return G_SOURCE_REMOVE;
}

static char *
module_path (void)
{
  Dl_info info;
  g_autofree char *dir = NULL;

  if (dladdr ((void *) js_ui_loader_init, &info) == 0 || info.dli_fname == NULL)
    return NULL;
  dir = g_path_get_dirname (info.dli_fname);
  return g_build_filename (dir, MODULE_NAME, NULL);
}

void
js_ui_loader_poll (gint64 now_ns)
{
  gboolean (*initialized) (void);
  guint (*major) (void);
  g_autofree char *path = NULL;
  void *module;
  void (*entry) (void);
  GSource *idle;

  if (G_LIKELY (!pending) || now_ns - last_check_ns < CHECK_PERIOD_NS)
    return;
  last_check_ns = now_ns;
  initialized = (gboolean (*) (void)) dlsym (RTLD_DEFAULT, "gtk_is_initialized");
  major = (guint (*) (void)) dlsym (RTLD_DEFAULT, "gtk_get_major_version");
  if (major != NULL && major () != 4)
    {
      pending = FALSE;
      js_log_warning ("JANKSCOPE_INSPECTOR: the jankscope window needs GTK 4 and this app "
                      "uses GTK %u; the report is still written",
                      major ());
      return;
    }
  if (initialized == NULL || major == NULL || !initialized ())
    return; /* not a GTK app, or GTK not initialised yet */
  pending = FALSE;
  path = module_path ();
  module = path ? dlopen (path, RTLD_NOW | RTLD_LOCAL) : NULL;
  entry = module ? (void (*) (void)) dlsym (module, "jankscope_gtk4_ui_start") : NULL;
  if (entry == NULL)
    {
      js_log_warning ("cannot open the jankscope window (%s): %s", path ? path : MODULE_NAME,
                      dlerror ());
      return;
    }
  idle = g_idle_source_new ();
  g_source_set_static_name (idle, "[jankscope] ui-start");
  g_source_set_priority (idle, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_callback (idle, start_ui, (gpointer) entry, NULL);
  g_source_attach (idle, g_main_context_default ());
  g_source_unref (idle);
}
