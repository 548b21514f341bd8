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
#include <unistd.h>

typedef unsigned (*GtkVersionFunc) (void);

void
js_process_info_read (JsProcessInfo *info)
{
  GtkVersionFunc major = (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_major_version");
  GtkVersionFunc minor = (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_minor_version");
  GtkVersionFunc micro = (GtkVersionFunc) dlsym (RTLD_DEFAULT, "gtk_get_micro_version");
  const char *prgname = g_get_prgname ();

  js_process_info_clear (info);
  info->exe = g_file_read_link ("/proc/self/exe", NULL);
  if (info->exe == NULL)
    info->exe = g_strdup ("");
  info->name = prgname ? g_strdup (prgname) : g_path_get_basename (info->exe);
  info->pid = getpid ();
  info->glib_version
      = g_strdup_printf ("%u.%u.%u", glib_major_version, glib_minor_version, glib_micro_version);
  info->toolkit = "glib";
  if (major != NULL && minor != NULL && micro != NULL)
    {
      unsigned m = major ();

      info->gtk_version = g_strdup_printf ("%u.%u.%u", m, minor (), micro ());
      info->toolkit = m == 4 ? "gtk4" : m == 3 ? "gtk3" : "gtk";
    }
}

void
js_process_info_clear (JsProcessInfo *info)
{
  g_clear_pointer (&info->exe, g_free);
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->glib_version, g_free);
  g_clear_pointer (&info->gtk_version, g_free);
}
