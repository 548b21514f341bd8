/* child-reports.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "child-reports.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "jsr-display.h"
#include "text-table.h"

/* Entries of the folder read at most: a folder of thousands of files is
 * not walked whole for a summary. */
#define MAX_DIR_ENTRIES 100000
/* A pid has at most 10 digits (pid_max is at most 2^22). */
#define MAX_PID_DIGITS 10

static void
child_report_free (gpointer data)
{
  CliChildReport *c = data;

  g_free (c->path);
  g_clear_pointer (&c->report, jsr_report_free);
  g_free (c->error);
  g_free (c);
}

/* The pid of NAME when it is BASE.DIGITS, else 0. */
static gint64
child_pid (const char *name, const char *base, gsize base_len)
{
  const char *digits = name + base_len + 1;
  gsize n = strlen (name);
  gint64 pid = 0;

  if (n <= base_len + 1 || n - base_len - 1 > MAX_PID_DIGITS || strncmp (name, base, base_len) != 0
      || name[base_len] != '.')
    return 0;
  for (const char *p = digits; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return 0;
      pid = pid * 10 + (*p - '0');
    }
  return digits[0] == '0' ? 0 : pid;
}

static gint
by_pid (gconstpointer a, gconstpointer b)
{
  const CliChildReport *x = *(CliChildReport *const *) a, *y = *(CliChildReport *const *) b;

  return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Is @path a child's report itself (PATH.PID beside an existing PATH)? */
static gboolean
is_child_report (const char *path)
{
  const char *dot = strrchr (path, '.');
  g_autofree char *parent = NULL;
  struct stat st;

  if (dot == NULL || dot[1] == '\0' || strchr (dot, '/') != NULL)
    return FALSE;
  for (const char *p = dot + 1; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  parent = g_strndup (path, (gsize) (dot - path));
  return g_lstat (parent, &st) == 0 && S_ISREG (st.st_mode);
}

GPtrArray *
cli_child_reports_find (const char *path, guint *n_more)
{
  GPtrArray *children = g_ptr_array_new_with_free_func (child_report_free);
  g_autofree char *dirname = NULL;
  g_autofree char *base = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;
  gsize base_len;
  guint seen = 0;

  g_return_val_if_fail (path != NULL, children);

  *n_more = 0;
  if (is_child_report (path))
    return children;
  dirname = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  base_len = strlen (base);
  dir = g_dir_open (dirname, 0, NULL);
  if (dir == NULL)
    return children;
  while ((name = g_dir_read_name (dir)) != NULL && seen++ < MAX_DIR_ENTRIES)
    {
      gint64 pid = child_pid (name, base, base_len);
      CliChildReport *c;
      struct stat st;
      g_autofree char *child_path = NULL;

      if (pid <= 0)
        continue;
      child_path = g_build_filename (dirname, name, NULL);
      /* Regular files only, and not through a link (the reader opens with
       * O_NOFOLLOW too). */
      if (g_lstat (child_path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      c = g_new0 (CliChildReport, 1);
      c->path = g_steal_pointer (&child_path);
      c->pid = pid;
      g_ptr_array_add (children, c);
    }
  g_ptr_array_sort (children, by_pid);
  if (children->len > CLI_CHILD_REPORTS_MAX)
    {
      *n_more = children->len - CLI_CHILD_REPORTS_MAX;
      g_ptr_array_set_size (children, CLI_CHILD_REPORTS_MAX);
    }
  for (guint i = 0; i < children->len; i++)
    {
      CliChildReport *c = g_ptr_array_index (children, i);
      g_autoptr (GError) error = NULL;

      c->report = jsr_report_load (c->path, &error);
      if (c->report == NULL)
        c->error = g_strdup (error->message);
    }
  return children;
}

void
cli_child_reports_format (const GPtrArray *children, guint n_more, gboolean show_paths,
                          GString *out)
{
  g_autoptr (CliTable) table = NULL;
  guint n = children->len + n_more;

  if (n == 0)
    return;
  table = cli_table_new (5);
  cli_table_set_align (table, 0, CLI_ALIGN_RIGHT);
  cli_table_set_align (table, 2, CLI_ALIGN_RIGHT);
  cli_table_set_align (table, 3, CLI_ALIGN_RIGHT);
  cli_table_set_max_width (table, 1, 40);
  g_string_append_printf (out, "\n%s\n", _ ("Child processes (a report each, beside this one)"));
  cli_table_add_row (table, _ ("PID"), _ ("NAME"), _ ("STALL EVENTS"), _ ("FRAME EVENTS"),
                     show_paths ? _ ("REPORT") : "", NULL);
  for (guint i = 0; i < children->len; i++)
    {
      const CliChildReport *c = g_ptr_array_index (children, i);
      g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, c->pid);
      g_autofree char *file = jsr_display_filename (c->path);
      g_autofree char *name = NULL;
      g_autofree char *stalls = NULL;
      g_autofree char *frames = NULL;

      if (c->report == NULL)
        {
          g_autofree char *why = jsr_display (c->error);

          /* Translators: a child's report that could not be read, and why */
          name = g_strdup_printf (_ ("(unreadable: %s)"), why);
          cli_table_add_row (table, pid, name, "-", "-", show_paths ? file : "", NULL);
          continue;
        }
      name = jsr_display (c->report->name != NULL ? c->report->name : _ ("(unknown)"));
      stalls = g_strdup_printf ("%" G_GINT64_FORMAT, c->report->events_total);
      frames = g_strdup_printf ("%" G_GINT64_FORMAT, jsr_report_frame_events (c->report, NULL));
      cli_table_add_row (table, pid, name, stalls, frames, show_paths ? file : "", NULL);
    }
  cli_table_format (table, "  ", out);
  if (n_more > 0)
    g_string_append_printf (out,
                            g_dngettext (GETTEXT_PACKAGE, "  and %u more child report\n",
                                         "  and %u more child reports\n", n_more),
                            n_more);
  if (show_paths)
    g_string_append_printf (out, "  %s\n", _ ("“jankscope summary REPORT” shows one in full."));
}
