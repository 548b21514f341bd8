/* js-process-info.c
 *
 * GTK is looked up, never linked: the core runs in GTK3, GTK4 and plain GLib
 * processes alike.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-process-info.h"

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

typedef unsigned (*GtkVersionFunc) (void);

/* The collector reads it for every journal tick (4 a second in an animating
 * app): what cannot change is kept from the first read. The executable
 * changes only with exec (which replaces jankscope too), GLib's version
 * never, GTK's once GTK is loaded; the name can change (g_set_prgname) and
 * the pid after fork. */
void
js_process_info_read (JsProcessInfo *info)
{
  const char *prgname = g_get_prgname ();

  info->pid = getpid ();
  if (info->exe == NULL)
    {
      info->exe = g_file_read_link ("/proc/self/exe", NULL);
      if (info->exe == NULL)
        info->exe = g_strdup ("");
    }
  if (info->name == NULL || (prgname != NULL && strcmp (info->name, prgname) != 0))
    {
      g_free (info->name);
      info->name = prgname ? g_strdup (prgname) : g_path_get_basename (info->exe);
    }
  if (info->glib_version == NULL)
    info->glib_version
        = g_strdup_printf ("%u.%u.%u", glib_major_version, glib_minor_version, glib_micro_version);
  if (info->toolkit == NULL)
    info->toolkit = "glib";
  if (info->gtk_version == NULL)
    {
      GtkVersionFunc major = (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_major_version");
      GtkVersionFunc minor
          = major ? (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_minor_version") : NULL;
      GtkVersionFunc micro
          = major ? (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_micro_version") : NULL;

      if (minor != NULL && micro != NULL)
        {
          unsigned m = major ();

          info->gtk_version = g_strdup_printf ("%u.%u.%u", m, minor (), micro ());
          info->toolkit = m == 4 ? "gtk4" : m == 3 ? "gtk3" : "gtk";
        }
    }
}

void
js_process_info_clear (JsProcessInfo *info)
{
  g_clear_pointer (&info->exe, g_free);
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->glib_version, g_free);
  g_clear_pointer (&info->gtk_version, g_free);
  info->toolkit = NULL;
}
