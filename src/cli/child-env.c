/* child-env.c: the environment of the app started by "jankscope run"
 *
 * The app gets the CLI's environment plus LD_PRELOAD (the preload appended
 * to what is already there), JANKSCOPE_REPORT and, with --threshold,
 * JANKSCOPE_THRESHOLD_MS. Other JANKSCOPE_* settings pass through. Unless
 * the user set it, JANKSCOPE_EXIT_MS is raised to RUN_EXIT_MS: "run" reads
 * the report as soon as the app has ended, so a complete final report is
 * worth a longer wait at the app's exit than the default 100 ms.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "child-env.h"
#include "cli-common.h"

#define RUN_EXIT_MS "1000"

/* Separators of LD_PRELOAD entries for the glibc dynamic loader. */
#define LD_PRELOAD_SEPARATORS ": "

static gboolean
same_file (const char *a, const char *b)
{
  g_autofree char *real_a = NULL;
  g_autofree char *real_b = NULL;

  if (strcmp (a, b) == 0)
    return TRUE;

  real_a = realpath (a, NULL);
  real_b = realpath (b, NULL);
  return real_a != NULL && real_b != NULL && strcmp (real_a, real_b) == 0;
}

/* Returns existing with preload appended, unless it is already there. An
 * entry with the same base name (another copy of the preload, from an
 * install or another build) counts as already there: loading two copies
 * would hook everything twice. */
char *
cli_ld_preload_append (const char *existing, const char *preload)
{
  g_autofree char *basename = g_path_get_basename (preload);
  g_auto (GStrv) entries = NULL;
  g_autofree char *trimmed = NULL;
  gsize len;

  if (existing == NULL || existing[0] == '\0')
    return g_strdup (preload);

  entries = g_strsplit_set (existing, LD_PRELOAD_SEPARATORS, -1);
  for (char **entry = entries; *entry != NULL; entry++)
    {
      g_autofree char *entry_base = NULL;

      if ((*entry)[0] == '\0')
        continue;
      if (same_file (*entry, preload))
        return g_strdup (existing);

      entry_base = g_path_get_basename (*entry);
      if (strcmp (entry_base, basename) == 0)
        {
          g_autofree char *held = jsr_display_filename (*entry);
          g_autofree char *ours = jsr_display_filename (preload);

          cli_warning (_ ("LD_PRELOAD already holds %s: using it instead of %s"), held, ours);
          return g_strdup (existing);
        }
    }

  /* Keep the existing entries as they are, without a trailing separator. */
  trimmed = g_strdup (existing);
  len = strlen (trimmed);
  while (len > 0 && strchr (LD_PRELOAD_SEPARATORS, trimmed[len - 1]) != NULL)
    trimmed[--len] = '\0';
  if (len == 0)
    return g_strdup (preload);

  return g_strconcat (trimmed, ":", preload, NULL);
}

char **
cli_child_env_new (const char *preload, const char *report_path, const char *threshold_ms)
{
  char **env = g_get_environ ();
  g_autofree char *ld_preload = NULL;

  ld_preload = cli_ld_preload_append (g_environ_getenv (env, "LD_PRELOAD"), preload);
  env = g_environ_setenv (env, "LD_PRELOAD", ld_preload, TRUE);
  env = g_environ_setenv (env, "JANKSCOPE_REPORT", report_path, TRUE);
  if (threshold_ms != NULL)
    env = g_environ_setenv (env, "JANKSCOPE_THRESHOLD_MS", threshold_ms, TRUE);
  env = g_environ_setenv (env, "JANKSCOPE_EXIT_MS", RUN_EXIT_MS, FALSE);

  return env;
}
