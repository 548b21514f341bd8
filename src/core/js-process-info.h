/* js-process-info.h: what the report says about the monitored process.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *exe;  /* /proc/self/exe */
  char *name; /* g_get_prgname () or the exe's base name */
  int pid;
  char *glib_version;  /* of the GLib loaded in the process */
  char *gtk_version;   /* NULL without GTK */
  const char *toolkit; /* "gtk4", "gtk3", "glib" */
} JsProcessInfo;

/* Reads it now: GTK may have been loaded, the name set, the process forked
 * since the last call; what cannot change is kept from the last call. */
void js_process_info_read (JsProcessInfo *info);
void js_process_info_clear (JsProcessInfo *info);

G_END_DECLS
