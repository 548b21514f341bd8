/* Unit tests of JANKSCOPE_* parsing: every bad value gives its default. */
#include "js-config.h"

static GHashTable *env;

static const char *
fake_env (const char *name)
{
  return g_hash_table_lookup (env, name);
}

static void
load (JsConfig *c, const char *name, const char *value)
{
  g_hash_table_remove_all (env);
  if (name != NULL)
    g_hash_table_insert (env, (gpointer) name, (gpointer) value);
  js_config_load (c, fake_env);
}

static void
test_defaults (void)
{
  JsConfig c;

  load (&c, NULL, NULL);
  g_assert_cmpint (c.threshold_ns, ==, 50 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_SEVERE], ==, 200 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_FROZEN], ==, 700 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_HANG], ==, 3000 * (gint64) 1000000);
  g_assert_cmpint (c.merge_gap_ns, ==, 500 * 1000000);
  g_assert_cmpuint (c.max_events, ==, 1000);
  g_assert_null (c.report_path);
  g_assert_false (c.debug);
  /* Watchdog and sampler (5/50/100 ms intervals, 250 ms/1/3/5 s tiers). */
  g_assert_true (c.sampling);
  g_assert_true (c.sample_timer);
  g_assert_cmpint (c.pretrigger_ns, ==, 16 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[0], ==, 5 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[1], ==, 50 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[2], ==, 100 * 1000000);
  g_assert_cmpuint (c.n_watchdog_tiers, ==, 4);
  g_assert_cmpint (c.watchdog_tier_ns[0], ==, 250 * 1000000);
  g_assert_cmpint (c.watchdog_tier_ns[3], ==, 5000 * (gint64) 1000000);
  g_assert_cmpint (c.ping_period_ns, ==, 0);
  g_assert_cmpint (c.sample_signal, ==, -1);
  g_assert_false (c.debuginfod);
  js_config_clear (&c);
}

static void
test_valid_values (void)
{
  JsConfig c;

  load (&c, "JANKSCOPE_THRESHOLD_MS", "120");
  g_assert_cmpint (c.threshold_ns, ==, 120 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_NOTICEABLE], ==, 120 * 1000000);
  load (&c, "JANKSCOPE_TIERS_MS", " 100, 400 ,2000");
  g_assert_cmpint (c.tier_ns[JS_TIER_SEVERE], ==, 100 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_HANG], ==, 2000 * (gint64) 1000000);
  load (&c, "JANKSCOPE_MERGE_MS", "0");
  g_assert_cmpint (c.merge_gap_ns, ==, 0);
  load (&c, "JANKSCOPE_DEBUG", "yes");
  g_assert_true (c.debug);
  load (&c, "JANKSCOPE_SAMPLE_MS", "10");
  g_assert_cmpint (c.sample_interval_ns[0], ==, 10 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[2], ==, 10 * 1000000);
  load (&c, "JANKSCOPE_SAMPLE_MS", "2, 20,200");
  g_assert_cmpint (c.sample_interval_ns[1], ==, 20 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[2], ==, 200 * 1000000);
  load (&c, "JANKSCOPE_WATCHDOG_MS", "100,2000");
  g_assert_cmpuint (c.n_watchdog_tiers, ==, 2);
  g_assert_cmpint (c.watchdog_tier_ns[1], ==, 2000 * (gint64) 1000000);
  load (&c, "JANKSCOPE_PING_MS", "100");
  g_assert_cmpint (c.ping_period_ns, ==, 100 * 1000000);
  load (&c, "JANKSCOPE_SAMPLING", "off");
  g_assert_false (c.sampling);
  g_assert_true (c.sample_timer);
  load (&c, "JANKSCOPE_SAMPLE_TIMER", "0");
  g_assert_false (c.sample_timer);
  g_assert_true (c.sampling);
  load (&c, "JANKSCOPE_SAMPLE_TIMER", "1");
  g_assert_true (c.sample_timer);
  load (&c, "JANKSCOPE_SAMPLE_SIGNAL", "5");
  g_assert_cmpint (c.sample_signal, ==, 5);
  load (&c, "JANKSCOPE_REPORT", "/tmp/r-%p.json");
  g_assert_cmpstr (c.report_path, ==, "/tmp/r-%p.json");
  js_config_clear (&c);
}

typedef struct
{
  const char *name;
  const char *value;
} Bad;

static const Bad bad[] = {
  { "JANKSCOPE_THRESHOLD_MS", "abc" },
  { "JANKSCOPE_THRESHOLD_MS", "-5" },
  { "JANKSCOPE_THRESHOLD_MS", "0" },
  { "JANKSCOPE_THRESHOLD_MS", "999999999999999999999" },
  { "JANKSCOPE_THRESHOLD_MS", "50ms" },
  { "JANKSCOPE_TIERS_MS", "700,200,3000" },
  { "JANKSCOPE_TIERS_MS", "1,2" },
  { "JANKSCOPE_TIERS_MS", "a,b,c" },
  { "JANKSCOPE_MERGE_MS", "-1" },
  { "JANKSCOPE_MAX_EVENTS", "0" },
  { "JANKSCOPE_DEBUG", "maybe" },
  { "JANKSCOPE_SAMPLE_MS", "0" },
  { "JANKSCOPE_SAMPLE_MS", "5,50" },
  { "JANKSCOPE_SAMPLE_MS", "50,5,100" },
  { "JANKSCOPE_SAMPLE_MS", "fast" },
  { "JANKSCOPE_WATCHDOG_MS", "1000,250" },
  { "JANKSCOPE_WATCHDOG_MS", "1,2,3,4,5" },
  { "JANKSCOPE_WATCHDOG_MS", ""
                             "250,,1000" },
  { "JANKSCOPE_PRETRIGGER_MS", "0" },
  { "JANKSCOPE_PING_MS", "-1" },
  { "JANKSCOPE_SAMPLE_SIGNAL", "99" },
  { "JANKSCOPE_SAMPLING", "sometimes" },
  { "JANKSCOPE_SAMPLE_TIMER", "2" },
  { "JANKSCOPE_SAMPLE_TIMER", "cpu" },
};

static void
test_invalid_values_warn_and_default (void)
{
  /* Each value in a child: exactly one "jankscope:" line, naming the variable. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = g_strdup_printf ("/Config/invalid/subprocess/%u", i);
      g_autofree char *pattern = g_strdup_printf ("jankscope: %s=*using*\n", bad[i].name);

      g_test_trap_subprocess (path, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr (pattern);
      g_test_trap_assert_stderr_unmatched ("*\n*jankscope:*");
    }
}

static void
invalid_child (gconstpointer data)
{
  const Bad *b = data;
  JsConfig c;

  load (&c, b->name, b->value);
  /* Defaults stand. */
  g_assert_cmpint (c.threshold_ns, ==, 50 * 1000000);
  g_assert_cmpint (c.tier_ns[JS_TIER_SEVERE], ==, 200 * 1000000);
  g_assert_cmpint (c.merge_gap_ns, ==, 500 * 1000000);
  g_assert_cmpuint (c.max_events, ==, 1000);
  g_assert_false (c.debug);
  g_assert_true (c.sampling);
  g_assert_true (c.sample_timer);
  g_assert_cmpint (c.pretrigger_ns, ==, 16 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[0], ==, 5 * 1000000);
  g_assert_cmpint (c.sample_interval_ns[1], ==, 50 * 1000000);
  g_assert_cmpuint (c.n_watchdog_tiers, ==, 4);
  g_assert_cmpint (c.watchdog_tier_ns[1], ==, 1000 * 1000000);
  g_assert_cmpint (c.ping_period_ns, ==, 0);
  g_assert_cmpint (c.sample_signal, ==, -1);
  js_config_clear (&c);
}

static void
test_debug_dirs (void)
{
  JsConfig c;

  load (&c, "JANKSCOPE_DEBUG_DIRS", "/opt/debug:/home/me/build/debug");
  g_assert_nonnull (c.debug_dirs);
  g_assert_cmpuint (g_strv_length (c.debug_dirs), ==, 2);
  g_assert_cmpstr (c.debug_dirs[0], ==, "/opt/debug");
  g_assert_cmpstr (c.debug_dirs[1], ==, "/home/me/build/debug");
  js_config_clear (&c);
  load (&c, "JANKSCOPE_DEBUG_DIRS", "");
  g_assert_null (c.debug_dirs);
  js_config_clear (&c);
  /* Bad entries: one warning, the rest kept. */
  if (g_test_subprocess ())
    {
      load (&c, "JANKSCOPE_DEBUG_DIRS", "relative:/ok::also/relative");
      g_assert_cmpuint (g_strv_length (c.debug_dirs), ==, 1);
      g_assert_cmpstr (c.debug_dirs[0], ==, "/ok");
      js_config_clear (&c);
      load (&c, "JANKSCOPE_DEBUG_DIRS", "relative");
      g_assert_null (c.debug_dirs);
      js_config_clear (&c);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("jankscope: JANKSCOPE_DEBUG_DIRS='relative:/ok::also/relative': "
                             "3 entries left out*\njankscope: JANKSCOPE_DEBUG_DIRS='relative': "
                             "1 entry left out*");
}

/* JANKSCOPE_DEBUGINFOD=1 with no server: one warning, off. */
static void
test_debuginfod_urls (void)
{
  JsConfig c;

  g_hash_table_remove_all (env);
  g_hash_table_insert (env, "JANKSCOPE_DEBUGINFOD", "1");
  g_hash_table_insert (env, "DEBUGINFOD_URLS", "https://debuginfod.example");
  js_config_load (&c, fake_env);
  g_assert_true (c.debuginfod);
  js_config_clear (&c);
  if (g_test_subprocess ())
    {
      load (&c, "JANKSCOPE_DEBUGINFOD", "1");
      g_assert_false (c.debuginfod);
      js_config_clear (&c);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("jankscope: JANKSCOPE_DEBUGINFOD=1 but DEBUGINFOD_URLS is empty*");
}

static void
test_tiers (void)
{
  JsConfig c;

  load (&c, NULL, NULL);
  g_assert_cmpint (js_config_tier (&c, 50 * 1000000), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_config_tier (&c, 199999999), ==, JS_TIER_NOTICEABLE);
  g_assert_cmpint (js_config_tier (&c, 200 * 1000000), ==, JS_TIER_SEVERE);
  g_assert_cmpint (js_config_tier (&c, 700 * 1000000), ==, JS_TIER_FROZEN);
  g_assert_cmpint (js_config_tier (&c, 3000 * (gint64) 1000000), ==, JS_TIER_HANG);
  g_assert_cmpstr (js_tier_name (JS_TIER_FROZEN), ==, "frozen");
  js_config_clear (&c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  env = g_hash_table_new (g_str_hash, g_str_equal);
  g_test_add_func ("/Config/defaults", test_defaults);
  g_test_add_func ("/Config/valid", test_valid_values);
  g_test_add_func ("/Config/invalid", test_invalid_values_warn_and_default);
  g_test_add_func ("/Config/tiers", test_tiers);
  g_test_add_func ("/Config/debug-dirs", test_debug_dirs);
  g_test_add_func ("/Config/debuginfod-urls", test_debuginfod_urls);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = g_strdup_printf ("/Config/invalid/subprocess/%u", i);
      g_test_add_data_func (path, &bad[i], invalid_child);
    }
  return g_test_run ();
}
