/* js-gdk-threads.h: GDK 3's gdk_threads_add_* callbacks, looked through.
 *
 * gdk_threads_add_idle (), gdk_threads_add_timeout () & co. (GDK 3, and
 * GDK 2) attach a GLib source whose callback is GDK's own static
 * gdk_threads_dispatch () and whose data is a GdkThreadsDispatch
 * {func, data, destroy} holding the app's function (gdk/gdk.c). Every such
 * dispatch would be named after that one wrapper. The dispatch hook
 * records `func` instead: the wrapper's address is learned once at start-up
 * (js_gdk_threads_probe), and then each dispatch pays one compare.
 * GTK 4 has no such wrapper (and no gdk_threads_* functions).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* GDK's gdk_threads_dispatch, once the probe found it; else NULL. */
/* Hidden: read on every dispatch, without going through the GOT. */
extern __attribute__ ((visibility ("hidden"))) const void *js_gdk_threads_wrapper;

/* At start-up on the main thread, after GDK 3 may have been loaded: finds
 * the wrapper by making GDK wrap a function of ours (a timeout that never
 * fires, removed at once, never dispatched) and checks the layout of the
 * data it made. Nothing if GDK 3 is not loaded, or the layout is not the
 * one expected. Idempotent. Returns TRUE if the wrapper is known. */
gboolean js_gdk_threads_probe (void);

/* The dispatch hook's view of a source's callback: the app's function for
 * GDK's wrapper (its data is the GdkThreadsDispatch, alive for the whole
 * dispatch: GLib holds a reference on the callback data while it runs),
 * else `callback` itself. */
static inline const void *
js_gdk_threads_callback (const void *callback, const void *user_data)
{
  if (G_UNLIKELY (callback == js_gdk_threads_wrapper) && user_data != NULL)
    return *(const void *const *) user_data; /* GdkThreadsDispatch.func */
  return callback;
}

G_END_DECLS
