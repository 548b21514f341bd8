/* Unit tests of report path templates. */
#include "js-report-path.h"

#include <unistd.h>

static void
test_expand (void)
{
  const struct { const char *templ, *expected; } cases[] = {
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
test_owner_and_child (void)
{
  g_autofree char *mine = NULL, *child = NULL, *child_p = NULL;
  g_autofree char *pid = g_strdup_printf ("%d", getpid ());

  g_unsetenv ("JANKSCOPE_REPORT_OWNER");
  mine = js_report_path_resolve ("/tmp/r.json", TRUE);
  g_assert_cmpstr (mine, ==, "/tmp/r.json");
  g_assert_cmpstr (g_getenv ("JANKSCOPE_REPORT_OWNER"), ==, pid);

  /* Another process owns the plain path: a child writes PATH.PID. */
  g_setenv ("JANKSCOPE_REPORT_OWNER", "1", TRUE);
  child = js_report_path_resolve ("/tmp/r.json", TRUE);
  g_assert_cmpstr (child, ==, g_strdup_printf ("/tmp/r.json.%d", getpid ()));
  child_p = js_report_path_resolve ("/tmp/r-%p.json", TRUE);
  g_assert_cmpstr (child_p, ==, g_strdup_printf ("/tmp/r-%d.json", getpid ()));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ReportPath/expand", test_expand);
  g_test_add_func ("/ReportPath/owner-and-child", test_owner_and_child);
  return g_test_run ();
}
