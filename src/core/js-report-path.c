/* js-report-path.c: where this process writes its report.
 *
 * All processes of a run share JANKSCOPE_REPORT; the first monitored process
 * of the run owns the plain path and every other one writes PATH.PID (a
 * template with %p names each process's file anyway). "First" must hold
 * however GLib was loaded (a Python app dlopen()s it, and starts late) and
 * whatever sits above the app (`sh -c`, xvfb-run):
 *
 *  - The preload's constructor in the run's first process (its root) sets
 *    JANKSCOPE_REPORT_OWNER to its own pid (src/preload/preload.c); every
 *    process of the run inherits it, a daemon whose parent chain is broken
 *    (double fork, D-Bus activation) too.
 *  - A process owns the plain path when the variable names itself, or is
 *    unset (GTK module mode: no preload, no root recorded).
 *  - Otherwise it walks its parent chain (/proc/PID/stat) up to the root. If
 *    one of those processes, root included, is a GLib program of ours (same
 *    uid, libglib-2.0 mapped: it is or will be monitored, as soon as it uses
 *    its main loop), that one comes first: PATH.PID. If none is (the root is
 *    a shell that never loads GLib), this process is the first: PATH.
 *  - When the root is not among its ancestors (daemonized), the root alone
 *    decides: a live GLib program of ours, or gone (its pid no longer names
 *    a process started before us): PATH.PID, so that it never writes over a
 *    report the root may have written. A live root that is not a GLib
 *    program: PATH.
 *
 * The /proc reads (a GTK app's maps is some hundred kB) run on the collector
 * thread, before its first write, never on the app's main thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-report-path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds of the walk and of what is read from one maps file. */
#define MAX_ANCESTORS 64
#define MAPS_CHUNK 65536
#define MAPS_MAX_BYTES (32 * 1024 * 1024)
#define GLIB_MAPPING "/libglib-2.0.so"

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

static int
open_proc (int pid, const char *what)
{
  char path[64];

  g_snprintf (path, sizeof path, "/proc/%d/%s", pid, what);
  return open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
}

/* The parent and the start time (clock ticks after boot) of `pid`, from
 * /proc/PID/stat. The command name may hold spaces and parentheses: the
 * fields are counted from the last ')'. */
static gboolean
read_stat (int pid, int *ppid, guint64 *start_time)
{
  char buf[2048];
  ssize_t n;
  const char *p;
  int fd = open_proc (pid, "stat");

  if (fd < 0)
    return FALSE;
  do
    n = read (fd, buf, sizeof buf - 1);
  while (n < 0 && errno == EINTR);
  close (fd);
  if (n <= 0)
    return FALSE;
  buf[n] = '\0';
  p = strrchr (buf, ')');
  if (p == NULL)
    return FALSE;
  /* After ')': state (3), ppid (4) ... starttime (22). */
  for (int field = 2; field < 22 && p != NULL; field++)
    {
      p = strchr (p + 1, ' ');
      if (p != NULL && field == 3)
        *ppid = atoi (p + 1);
    }
  if (p == NULL)
    return FALSE;
  *start_time = g_ascii_strtoull (p + 1, NULL, 10);
  return TRUE;
}

static gboolean
same_user (int pid)
{
  char path[32];
  struct stat st;

  g_snprintf (path, sizeof path, "/proc/%d", pid);
  return stat (path, &st) == 0 && st.st_uid == geteuid ();
}

/* Whether `pid` has libglib mapped: read in fixed chunks, a mapping's path
 * possibly split between two of them. */
static gboolean
maps_glib (int pid)
{
  const size_t keep = sizeof GLIB_MAPPING - 2;
  g_autofree char *buf = g_malloc (MAPS_CHUNK + keep + 1);
  size_t have = 0, total = 0;
  gboolean found = FALSE;
  int fd;

  if (!same_user (pid) || (fd = open_proc (pid, "maps")) < 0)
    return FALSE;
  while (!found && total < MAPS_MAX_BYTES)
    {
      ssize_t n = read (fd, buf + have, MAPS_CHUNK);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      total += (size_t) n;
      have += (size_t) n;
      buf[have] = '\0';
      found = memmem (buf, have, GLIB_MAPPING, sizeof GLIB_MAPPING - 1) != NULL;
      if (have > keep)
        {
          memmove (buf, buf + have - keep, keep);
          have = keep;
        }
    }
  close (fd);
  return found;
}

gboolean
js_report_path_under_monitored (int root)
{
  int chain[MAX_ANCESTORS];
  int n = 0, ppid = 0;
  guint64 self_start = 0, start = 0;

  if (!read_stat (getpid (), &ppid, &self_start))
    return TRUE; /* cannot tell: never take the plain path from the root */
  while (n < MAX_ANCESTORS && ppid > 0)
    {
      chain[n++] = ppid;
      if (ppid == root)
        {
          /* The root and its descendants above us: is one of them GLib's? */
          for (int i = 0; i < n; i++)
            if (maps_glib (chain[i]))
              return TRUE;
          return FALSE;
        }
      if (ppid == 1 || !read_stat (ppid, &ppid, &start))
        break;
    }
  /* Daemonized (or deeper than we look): the root alone decides. */
  if (!read_stat (root, &ppid, &start) || start > self_start)
    return TRUE; /* gone, or its pid reused */
  return maps_glib (root);
}

gboolean
js_report_path_is_child (const char *owner)
{
  char *end = NULL;
  gint64 root;

  if (owner == NULL)
    return FALSE;
  root = g_ascii_strtoll (owner, &end, 10);
  if (end == owner || *end != '\0' || root <= 0 || root > G_MAXINT || root == getpid ())
    return FALSE;
  return js_report_path_under_monitored ((int) root);
}

char *
js_report_path_resolve (const char *templ, const char *owner)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe ? exe : "unknown");
  int pid = getpid ();
  char *path = js_report_path_expand (templ, pid, exe_name);
  char *child_path;

  if (strstr (templ, "%p") != NULL || !js_report_path_is_child (owner))
    return path;
  child_path = g_strdup_printf ("%s.%d", path, pid);
  g_free (path);
  return child_path;
}
