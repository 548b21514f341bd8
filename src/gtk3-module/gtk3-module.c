/* gtk3-module.c: GTK_MODULES=jankscope for GTK3 apps.
 *
 * GTK3 dlopen()s $GTK_PATH/modules/libjankscope.so (or an absolute path from
 * GTK_MODULES) during gtk_init() and calls gtk_module_init(). The module is
 * only a loader: it starts the core in JS_MODE_GTK_MODULE, unless the preload
 * is loaded too: the preload starts the core itself, with all its hooks, at
 * the first main-loop use after main (). Without the preload there is no way
 * to see GLib's built-in sources from the inside (see preload-funcs.c), so
 * this mode times main-loop iterations only; the README says so.
 *
 * GTK4 has no GTK_MODULES: there LD_PRELOAD (jankscope run) is the way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "core-loader.h"

#include <dlfcn.h>
#include <stddef.h>

#define JS_EXPORT __attribute__ ((visibility ("default")))

static JsBridge module_bridge;

JS_EXPORT void gtk_module_init (int *argc, char ***argv);

void
gtk_module_init (int *argc, char ***argv)
{
  static int started;
  const int *preload_active = dlsym (RTLD_DEFAULT, "jankscope_preload_active");

  if (started++)
    return;
  /* The preload is there (running, or about to start at the next main-loop
   * use): it does the job in full. */
  if (preload_active != NULL)
    return;
  if (js_loader_disabled_by_env ())
    return;
  module_bridge.mode = JS_MODE_GTK_MODULE;
  js_loader_start_core ((const void *) gtk_module_init, &module_bridge);
}
