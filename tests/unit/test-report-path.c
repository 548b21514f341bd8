/* Unit tests of report path templates and of who owns the plain path. */
#include "js-report-path.h"

#include <sys/wait.h>
#include <unistd.h>

static void
test_expand (void)
{
  const struct
  {
    const char *templ, *expected;
  } cases[] = {
    { "/tmp/r.json", "/tmp/r.json" },
    { "/tmp/r-%p.json", "/tmp/r-42.json" },
    { "/tmp/%e-%p.json", "/tmp/app-42.json" },
    { "/tmp/100%%.json", "/tmp/100%.json" },
    { "/tmp/%x%", "/tmp/%x%" }, /* unknown and trailing % stay as they are */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = js_report_path_expand (cases[i].templ, 42, "app");

      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_owner (void)
{
  g_autofree char *pid = g_strdup_printf ("%d", getpid ());
  const char *bad[] = { "", "abc", "12x", "-5", "0", "99999999999" };
  g_autofree char *mine = js_report_path_resolve ("/tmp/r.json", pid);
  g_autofree char *unset = js_report_path_resolve ("/tmp/r.json", NULL);

  /* The root itself, and GTK module mode (no root recorded): the plain path. */
  g_assert_cmpstr (mine, ==, "/tmp/r.json");
  g_assert_cmpstr (unset, ==, "/tmp/r.json");
  /* A value that is no pid cannot take the path away. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *got = js_report_path_resolve ("/tmp/r.json", bad[i]);

      g_assert_cmpstr (got, ==, "/tmp/r.json");
    }
}

/* In a fork child of this GLib program (libglib mapped, same uid): runs
 * `check` there and passes its verdict back as the exit status. */
static gboolean
in_child (gboolean (*check) (int parent), int *child_pid)
{
  int parent = getpid (), status = 0;
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (check (parent) ? 0 : 1);
  *child_pid = pid;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status) == 0;
}

static gboolean
child_of_glib_root (int parent)
{
  g_autofree char *owner = g_strdup_printf ("%d", parent);
  g_autofree char *path = js_report_path_resolve ("/tmp/r.json", owner);
  g_autofree char *with_p = js_report_path_resolve ("/tmp/r-%p.json", owner);
  g_autofree char *expected = g_strdup_printf ("/tmp/r.json.%d", getpid ());
  g_autofree char *expected_p = g_strdup_printf ("/tmp/r-%d.json", getpid ());

  return g_strcmp0 (path, expected) == 0 && g_strcmp0 (with_p, expected_p) == 0;
}

static gboolean
gone_root (int parent)
{
  int dead = 0;

  /* A root that no longer exists (a child of ours, reaped): unsure, so never
   * the plain path. */
  in_child (child_of_glib_root, &dead);
  {
    g_autofree char *owner = g_strdup_printf ("%d", dead);
    g_autofree char *path = js_report_path_resolve ("/tmp/r.json", owner);
    g_autofree char *expected = g_strdup_printf ("/tmp/r.json.%d", getpid ());

    return g_strcmp0 (path, expected) == 0;
  }
}

static void
test_child (void)
{
  int pid;

  /* The root is this process, a GLib program: its child writes PATH.PID. */
  g_assert_true (in_child (child_of_glib_root, &pid));
  g_assert_true (in_child (gone_root, &pid));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ReportPath/expand", test_expand);
  g_test_add_func ("/ReportPath/owner", test_owner);
  g_test_add_func ("/ReportPath/child", test_child);
  return g_test_run ();
}
