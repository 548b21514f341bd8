/* js-report-path.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-path.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OWNER_VAR "JANKSCOPE_REPORT_OWNER"

char *
js_report_path_expand (const char *templ, int pid, const char *exe_name)
{
  GString *out = g_string_new (NULL);

  for (const char *p = templ; *p; p++)
    {
      if (p[0] != '%' || p[1] == '\0')
        {
          g_string_append_c (out, *p);
          continue;
        }
      p++;
      if (*p == 'p')
        g_string_append_printf (out, "%d", pid);
      else if (*p == 'e')
        g_string_append (out, exe_name);
      else if (*p == '%')
        g_string_append_c (out, '%');
      else
        {
          g_string_append_c (out, '%');
          g_string_append_c (out, *p);
        }
    }
  return g_string_free (out, FALSE);
}

char *
js_report_path_resolve (const char *templ, gboolean early)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe ? exe : "unknown");
  const char *owner = g_getenv (OWNER_VAR);
  int pid = getpid ();
  char *path = js_report_path_expand (templ, pid, exe_name);
  g_autofree char *pid_text = g_strdup_printf ("%d", pid);

  if (owner == NULL)
    {
      /* setenv is only safe while no other thread reads the environment. */
      if (early)
        setenv (OWNER_VAR, pid_text, 1);
    }
  else if (g_strcmp0 (owner, pid_text) != 0 && strstr (templ, "%p") == NULL)
    {
      char *child_path = g_strdup_printf ("%s.%d", path, pid);

      g_free (path);
      path = child_path;
    }
  return path;
}
