/* main.c: jankscope-viewer, started by `jankscope view [PID]` and
 * `jankscope run --view`. A program of its own (not a guest): it owns its
 * locale.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "jsv-application.h"

int
main (int argc, char **argv)
{
  g_autoptr (JsvApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("jankscope-viewer");
  app = jsv_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
