/* gio-plugin-host.c - a program not linked with GLib that dlopens a module
 * linked with GIO RTLD_LOCAL (gio-plugin.c): GLib and GIO are then outside
 * the global scope, where the preload's stand-ins (main loop, built-in
 * source tables, synchronous D-Bus calls) look for their functions first.
 *
 *   gio-plugin-host MODULE
 *
 * Prints what the module's js_plugin_call returns and exits 0.
 */
#include <dlfcn.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  void *handle;
  const char *(*call) (void);

  if (argc != 2)
    return 2;
  handle = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  call = handle != NULL ? (const char *(*) (void) ) dlsym (handle, "js_plugin_call") : NULL;
  if (call == NULL)
    {
      fprintf (stderr, "dlopen (%s): %s\n", argv[1], dlerror ());
      return 3;
    }
  printf ("%s\n", call ());
  return 0;
}
