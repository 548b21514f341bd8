/* js-gdk-threads.c
 *
 * The wrapper is static in GDK: no symbol table names it in a stripped
 * library, and no exported function gives it. So GDK is asked to wrap a
 * function of ours: gdk_threads_add_timeout_full () attaches a timeout
 * whose callback, as GLib's public GSourceCallbackFuncs.get () gives it (the
 * function and data g_main_dispatch () would pass), is the wrapper with a
 * GdkThreadsDispatch of our making. The data is checked field by field
 * ({our function, our data, NULL}) before the wrapper is trusted: a GDK
 * that wraps differently is left alone. The timeout, due in 49 days at the
 * lowest priority, is destroyed before the probe returns: it never fires,
 * its data goes back to GDK's own free function, and the app sees nothing
 * but one source id used up. Made on the main thread, where the app's loop
 * runs, so no other thread is woken.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-gdk-threads.h"
#include "js-hot.h"
#include "js-log.h"

#include <dlfcn.h>

typedef guint (*AddTimeoutFull) (gint priority, guint interval, GSourceFunc function, gpointer data,
                                 GDestroyNotify notify);

const void *js_gdk_threads_wrapper JS_HOT_DATA;
static gboolean probed;
static char probe_data; /* its address is the data given to GDK */

static gboolean
probe_func (gpointer data)
{
  return G_SOURCE_REMOVE; /* never called: the source is destroyed unfired */
}

gboolean
js_gdk_threads_probe (void)
{
  AddTimeoutFull add;
  void *gdk;
  GSource *source;
  GSourceFunc func = NULL;
  gpointer data = NULL;
  guint id;

  if (probed)
    return js_gdk_threads_wrapper != NULL;
  /* GDK's own function, from its library: the preload's stand-in of the
   * same name (preload-post.c) comes first in the global scope. */
  gdk = dlopen ("libgdk-3.so.0", RTLD_NOW | RTLD_NOLOAD);
  if (gdk == NULL)
    return FALSE; /* no GDK 3 (yet): looked for again at the next probe */
  add = (AddTimeoutFull) dlsym (gdk, "gdk_threads_add_timeout_full");
  dlclose (gdk);
  if (add == NULL)
    return FALSE;
  probed = TRUE;
  id = add (G_PRIORITY_LOW, G_MAXUINT, probe_func, &probe_data, NULL);
  source = id != 0 ? g_main_context_find_source_by_id (NULL, id) : NULL;
  if (source == NULL)
    return FALSE;
  if (source->callback_funcs != NULL && source->callback_funcs->get != NULL)
    source->callback_funcs->get (source->callback_data, source, &func, &data);
  if (func != NULL && func != probe_func && data != NULL
      && ((gpointer *) data)[0] == (gpointer) probe_func && ((gpointer *) data)[1] == &probe_data
      && ((gpointer *) data)[2] == NULL)
    js_gdk_threads_wrapper = (const void *) func;
  g_source_destroy (source);
  if (js_gdk_threads_wrapper != NULL)
    js_log_debug ("GDK's gdk_threads_add_* wrapper is at %p: its callbacks are looked through",
                  js_gdk_threads_wrapper);
  else
    js_log_debug ("GDK's gdk_threads_add_* wrapper has another layout: not looked through");
  return js_gdk_threads_wrapper != NULL;
}
