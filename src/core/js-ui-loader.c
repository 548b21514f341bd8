/* js-ui-loader.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-ui-loader.h"
#include "js-clock.h"
#include "js-log.h"
#include "js-mainloop.h"

#include <dlfcn.h>

#define CHECK_PERIOD_NS (250 * JS_NS_PER_MS)
#define MODULE_NAME "libjankscope-gtk4.so"

typedef enum
{
  STATE_OFF,      /* nothing to do, for good */
  STATE_WAIT_GTK, /* GTK 4 not loaded yet */
  STATE_ARMED,    /* loaded and armed, GTK not initialised yet */
} State;

static State state = STATE_OFF;
static gboolean open_window;
static void (*attach_entry) (int open);
static gboolean (*gtk_initialized) (void);

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

/* GTK 4 in the process: load and arm. Not yet: stay waiting. */
static void
try_load (void)
{
  guint (*major) (void) = (guint (*) (void)) dlsym (RTLD_DEFAULT, "gtk_get_major_version");
  g_autofree char *path = NULL;
  void *module;
  void (*arm) (void);

  if (major == NULL)
    return; /* not a GTK app, or GTK not loaded yet */
  state = STATE_OFF;
  if (major () != 4)
    {
      if (open_window)
        js_log_warning ("JANKSCOPE_INSPECTOR: the jankscope window needs GTK 4 and this app "
                        "uses GTK %u; the report is still written",
                        major ());
      return;
    }
  gtk_initialized = (gboolean (*) (void)) dlsym (RTLD_DEFAULT, "gtk_is_initialized");
  path = module_path ();
  module = path ? dlopen (path, RTLD_NOW | RTLD_LOCAL) : NULL;
  arm = module ? (void (*) (void)) dlsym (module, "jankscope_gtk4_ui_arm") : NULL;
  attach_entry = module ? (void (*) (int)) dlsym (module, "jankscope_gtk4_ui_attach") : NULL;
  if (arm == NULL || attach_entry == NULL || gtk_initialized == NULL)
    {
      /* Without the module the report is all there is: only say so when the
       * window was asked for. */
      if (open_window)
        js_log_warning ("cannot open the jankscope window (%s): %s", path ? path : MODULE_NAME,
                        dlerror ());
      else
        js_log_debug ("no GTK 4 UI module (%s)", path ? path : MODULE_NAME);
      return;
    }
  arm ();
  state = STATE_ARMED;
}

void
js_ui_loader_init (gboolean ui, gboolean open)
{
  open_window = open;
  if (!ui)
    {
      if (open)
        js_log_warning ("JANKSCOPE_UI=0 turns jankscope's window off: JANKSCOPE_INSPECTOR=1 "
                        "is ignored");
      state = STATE_OFF;
      return;
    }
  state = STATE_WAIT_GTK;
  try_load (); /* an app linked with GTK 4: before gtk_init () opens GTK's Inspector */
}

static gboolean
attach_cb (gpointer data)
{
  attach_entry (open_window);
  return G_SOURCE_REMOVE;
}

gint64
js_ui_loader_poll (gint64 now_ns)
{
  GSource *idle;

  if (state == STATE_OFF)
    return JS_POLL_OBSERVER_DONE;
  if (state == STATE_WAIT_GTK)
    try_load ();
  if (state != STATE_ARMED || !gtk_initialized ())
    return state != STATE_OFF ? now_ns + CHECK_PERIOD_NS : JS_POLL_OBSERVER_DONE;
  state = STATE_OFF;
  idle = g_idle_source_new ();
  g_source_set_static_name (idle, "[jankscope] ui-start");
  /* Once, and cheap (the shortcut; the window with JANKSCOPE_INSPECTOR=1):
   * at the priority of the app's events. GLib dispatches only the most
   * urgent ready sources, so at G_PRIORITY_DEFAULT_IDLE this would wait
   * for as long as the app always has a frame to draw (GDK_PRIORITY_REDRAW)
   * or other work: the shortcut did nothing, the window did not open. */
  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, attach_cb, NULL, NULL);
  g_source_attach (idle, g_main_context_default ());
  g_source_unref (idle);
  return JS_POLL_OBSERVER_DONE;
}
