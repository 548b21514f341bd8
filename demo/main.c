/* main.c: jankscope-playground, a GTK4 app that stalls on demand
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "playground-application.h"

int
main (int argc, char *argv[])
{
  g_autoptr (PlaygroundApplication) application = NULL;

  /* A standalone app: unlike the jankscope module, it owns its locale and text domain. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  application = playground_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
