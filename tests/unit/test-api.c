/* Unit tests of include/jankscope.h, the header-only annotation API.
 *
 * Built three times (tests/unit/meson.build):
 * - API_ABSENT: nothing defines jankscope_api_v1: jankscope is not loaded;
 * - API_PRESENT: this program defines (and exports) a table, as
 *   libjankscope-api.so does, and counts the calls;
 * - API_BAD_VERSION: a table of another version: treated as absent.
 */
#include <jankscope.h>

#include <glib.h>
#include <string.h>

#if defined(API_PRESENT) || defined(API_BAD_VERSION)
static guint pushes, pops, begins, ends;
static char last_label[64];

static void
fake_scene_push (const char *label)
{
  g_atomic_int_inc (&pushes);
  g_strlcpy (last_label, label ? label : "(null)", sizeof last_label);
}

static void
fake_scene_pop (void)
{
  g_atomic_int_inc (&pops);
}

static void
fake_mark_begin (const char *name)
{
  g_atomic_int_inc (&begins);
  g_strlcpy (last_label, name ? name : "(null)", sizeof last_label);
}

static void
fake_mark_end (void)
{
  g_atomic_int_inc (&ends);
}

static int
fake_is_active (void)
{
  return 1;
}

/* Exported (the executable is linked with -rdynamic): what dlsym
 * (RTLD_DEFAULT) finds, as it finds libjankscope-api.so's. */
__attribute__ ((visibility ("default"))) JankscopeApiV1 jankscope_api_v1 = {
  .size = sizeof (JankscopeApiV1),
#ifdef API_BAD_VERSION
  .version = JANKSCOPE_API_VERSION + 1,
#else
  .version = JANKSCOPE_API_VERSION,
#endif
  .scene_push = fake_scene_push,
  .scene_pop = fake_scene_pop,
  .mark_begin = fake_mark_begin,
  .mark_end = fake_mark_end,
  .is_active = fake_is_active,
};
#endif

#ifdef API_PRESENT
#define EXPECT_ACTIVE 1
#else
#define EXPECT_ACTIVE 0
#endif

static void
call_all (guint times)
{
  for (guint i = 0; i < times; i++)
    {
      jankscope_scene_push ("scene");
      jankscope_mark_begin ("mark");
      jankscope_mark_end ();
      jankscope_scene_pop ();
    }
}

static void
test_calls (void)
{
  /* Not looked up before the first call. */
  g_assert_cmpuint (*jankscope_api_cache_ (), ==, JANKSCOPE_API_UNRESOLVED_);
  call_all (1000);
  g_assert_cmpint (jankscope_is_active (), ==, EXPECT_ACTIVE);
#if EXPECT_ACTIVE
  g_assert_cmpuint (*jankscope_api_cache_ (), ==, (uintptr_t) &jankscope_api_v1);
  g_assert_cmpuint (pushes, ==, 1000);
  g_assert_cmpuint (pops, ==, 1000);
  g_assert_cmpuint (begins, ==, 1000);
  g_assert_cmpuint (ends, ==, 1000);
  g_assert_cmpstr (last_label, ==, "mark");
  jankscope_scene_push (NULL);
  g_assert_cmpstr (last_label, ==, "(null)");
  jankscope_scene_pop ();
#else
  /* "Not there" is cached: later calls are one load and one branch. */
  g_assert_cmpuint (*jankscope_api_cache_ (), ==, 0);
#if defined(API_BAD_VERSION)
  g_assert_cmpuint (pushes + pops + begins + ends, ==, 0);
#endif
#endif
}

static gpointer
race_thread (gpointer data)
{
  call_all (100);
  return GINT_TO_POINTER (jankscope_is_active ());
}

static void
test_threads (void)
{
  GThread *threads[8];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("race", race_thread, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_cmpint (GPOINTER_TO_INT (g_thread_join (threads[i])), ==, EXPECT_ACTIVE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* The first test looks the table up: it must run first. */
  g_test_add_func ("/Api/calls", test_calls);
  g_test_add_func ("/Api/threads", test_threads);
  return g_test_run ();
}
