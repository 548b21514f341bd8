/* viewer-locator.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "viewer-locator.h"

#define VIEWER_NAME "jankscope-viewer"

char *
cli_viewer_find (GError **error)
{
  const char *from_env = g_getenv ("JANKSCOPE_VIEWER");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (from_env != NULL && from_env[0] != '\0')
    {
      if (g_file_test (from_env, G_FILE_TEST_IS_EXECUTABLE))
        return g_canonicalize_filename (from_env, NULL);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _ ("JANKSCOPE_VIEWER=%s is not an executable file"), from_env);
      return NULL;
    }
  if (exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (exe);
      g_autofree char *candidate = g_canonicalize_filename ("../viewer/" VIEWER_NAME, dir);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&candidate);
#ifdef CLI_VIEWER_FROM_BINDIR
      /* An install that was moved (a DESTDIR): BINDIR/../LIBEXECDIR/jankscope. */
      g_clear_pointer (&candidate, g_free);
      candidate = g_canonicalize_filename (CLI_VIEWER_FROM_BINDIR, dir);
      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&candidate);
#endif
    }
  if (g_file_test (JANKSCOPE_VIEWER_INSTALLED, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (JANKSCOPE_VIEWER_INSTALLED);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
               _ ("the viewer (%s) is not installed: jankscope was built without GTK 4"),
               JANKSCOPE_VIEWER_INSTALLED);
  return NULL;
}
