/* preload-locator.c: finds libjankscope-preload.so for "jankscope run"
 *
 * In order: $JANKSCOPE_PRELOAD (it must exist: a typo must not silently fall
 * back to another copy), next to the CLI in a build tree
 * (build/src/cli/jankscope -> build/src/libjankscope-preload.so), then
 * $libdir/jankscope/ relative to the CLI's own folder (an installed tree,
 * wherever it was moved), then the configured $libdir/jankscope/. The result is an absolute path,
 * since the app may change its working directory before it starts children that inherit LD_PRELOAD.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "preload-locator.h"

/* The dynamic loader splits LD_PRELOAD at colons and spaces. */
static gboolean
check_usable (const char *path, GError **error)
{
  if (strpbrk (path, ": \t\n") != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _ ("the path of the preload library “%s” contains a colon or a space, which "
                      "LD_PRELOAD cannot hold"),
                   path);
      return FALSE;
    }

  return TRUE;
}

/* @relative (to the CLI's folder), NULL when the CLI's path is unknown. */
static char *
beside_cli (const char *relative)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;

  if (exe == NULL)
    return NULL;

  dir = g_path_get_dirname (exe);
  return g_canonicalize_filename (relative, dir);
}

char *
cli_preload_find (GError **error)
{
  const char *from_env = g_getenv ("JANKSCOPE_PRELOAD");
  g_autofree char *build_tree = NULL;
  const char *installed = JANKSCOPE_PKGLIBDIR "/" CLI_PRELOAD_NAME;

  if (from_env != NULL && from_env[0] != '\0')
    {
      g_autofree char *path = g_canonicalize_filename (from_env, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                       _ ("JANKSCOPE_PRELOAD is set to “%s”, which is not a file"), from_env);
          return NULL;
        }
      return check_usable (path, error) ? g_steal_pointer (&path) : NULL;
    }

  build_tree = beside_cli ("../" CLI_PRELOAD_NAME);
  if (build_tree != NULL && g_file_test (build_tree, G_FILE_TEST_IS_REGULAR))
    return check_usable (build_tree, error) ? g_steal_pointer (&build_tree) : NULL;

#ifdef CLI_PKGLIBDIR_FROM_BINDIR
  {
    /* An install that was moved (a DESTDIR): BINDIR/../LIBDIR/jankscope. */
    g_autofree char *moved = beside_cli (CLI_PKGLIBDIR_FROM_BINDIR "/" CLI_PRELOAD_NAME);

    if (moved != NULL && g_file_test (moved, G_FILE_TEST_IS_REGULAR))
      return check_usable (moved, error) ? g_steal_pointer (&moved) : NULL;
  }
#endif

  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return check_usable (installed, error) ? g_strdup (installed) : NULL;

  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
               _ ("cannot find %s (looked for %s and %s); set JANKSCOPE_PRELOAD to its path"),
               CLI_PRELOAD_NAME, build_tree != NULL ? build_tree : "/proc/self/exe/../", installed);
  return NULL;
}
