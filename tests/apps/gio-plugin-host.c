/* gio-plugin-host.c - a GLib program (not linked with GIO) that dlopens a
 * module linked with GIO RTLD_LOCAL and makes it call
 * g_dbus_connection_call_sync (gio-plugin.c), from a main-loop callback.
 *
 *   gio-plugin-host MODULE
 *
 * Prints "code=N" (G_IO_ERROR_TIMED_OUT's code is 24) and exits 0.
 */
#include <dlfcn.h>
#include <glib.h>
#include <stdio.h>

static GMainLoop *loop;
static const char *module;

static gboolean
call (gpointer data)
{
  void *handle = dlopen (module, RTLD_NOW | RTLD_LOCAL);
  int (*fn) (void) = handle != NULL ? (int (*) (void)) dlsym (handle, "js_plugin_call") : NULL;

  if (fn == NULL)
    {
      fprintf (stderr, "dlopen (%s): %s\n", module, dlerror ());
      g_main_loop_quit (loop);
      return G_SOURCE_REMOVE;
    }
  printf ("code=%d\n", fn ());
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  module = argv[1];
  loop = g_main_loop_new (NULL, FALSE);
  g_idle_add (call, NULL);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  return 0;
}
