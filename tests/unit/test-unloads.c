/* Unit tests of the preload's dlclose count (preload-unloads.c), linked into
 * this program as the preload's is into an app: every dlclose, the
 * program's own and a library's (GModule's g_module_close), moves the count
 * before the real dlclose runs, and the real one still unloads. */
#include "preload-private.h"

#include <dlfcn.h>
#include <glib.h>
#include <gmodule.h>

/* The preload's other state, which preload-unloads.c does not use. */
int js_preload_state;

static void
test_own_dlclose (void)
{
  unsigned before = __atomic_load_n (&js_preload_unloads, __ATOMIC_SEQ_CST);
  void *h = dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_LOCAL);

  g_assert_nonnull (h);
  g_assert_nonnull (dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_NOLOAD));
  g_assert_cmpint (dlclose (h), ==, 0); /* the NOLOAD reference */
  g_assert_cmpuint (js_preload_unloads - before, ==, 1);
  g_assert_cmpint (dlclose (h), ==, 0);
  g_assert_cmpuint (js_preload_unloads - before, ==, 2);
  /* Unloaded for real. */
  g_assert_null (dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_NOLOAD));
}

static void
test_library_dlclose (void)
{
  unsigned before = js_preload_unloads;
  GModule *m = g_module_open (SYMBOLIZER_MODULE_PATH, G_MODULE_BIND_LOCAL);

  g_assert_nonnull (m);
  g_assert_true (g_module_close (m));
  g_assert_cmpuint (js_preload_unloads - before, ==, 1);
  g_assert_null (dlopen (SYMBOLIZER_MODULE_PATH, RTLD_NOW | RTLD_NOLOAD));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/unloads/own-dlclose", test_own_dlclose);
  g_test_add_func ("/unloads/library-dlclose", test_library_dlclose);
  return g_test_run ();
}
