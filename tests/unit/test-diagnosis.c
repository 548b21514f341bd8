/* test-diagnosis.c: the table of named anti-patterns and its matching
 * (src/common/js-diagnosis-table.c, js-diagnosis.c) on synthetic profiles.
 *
 * Every rule of the table has a case below (a rule without one fails
 * /diagnosis/table/every-rule-has-a-case): a profile main → dispatch →
 * callback → FUNCTION → leaf whose 300 ms must be diagnosed with the rule's
 * id, and for rules with a wait kind the same time as a wait under frames
 * without names.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <string.h>

#include "js-diagnosis.h"

#define MS G_GINT64_CONSTANT (1000000)
#define NONE JS_DIAGNOSIS_NO_NODE

typedef struct
{
  const char *id;
  const char *function; /* a function the rule must match */
  const char *wait;     /* its wait kind, or NULL */
} Case;

/* One case per rule (a contributor adding a rule adds its line). */
static const Case cases[] = {
  { "file-io", "g_file_get_contents", "io" },
  { "file-io", "g_file_load_contents", "io" },
  { "file-io", "g_key_file_load_from_file", "io" },
  { "dbus-sync", "g_dbus_connection_call_sync", NULL },
  { "dbus-sync", "g_dbus_proxy_call_sync", NULL },
  { "dbus-sync", "g_dbus_connection_send_message_with_reply_sync", NULL },
  { "dbus-sync", "my_app_settings_proxy_new_for_bus_sync", NULL },
  { "subprocess-wait", "g_spawn_sync", "child" },
  { "subprocess-wait", "g_spawn_command_line_sync", "child" },
  { "subprocess-wait", "g_subprocess_wait_check", "child" },
  { "subprocess-wait", "waitpid", "child" },
  { "image-decoding", "gdk_pixbuf_new_from_file_at_scale", NULL },
  { "image-decoding", "gdk_texture_new_from_filename", NULL },
  { "image-decoding", "gdk_pixbuf_loader_write", NULL },
  { "json-decoding", "json_parser_load_from_data", NULL },
  { "json-decoding", "json_parser_load_from_mapped_file", NULL },
  { "regex", "g_regex_match_full", NULL },
  { "regex", "g_regex_new", NULL },
  { "regex", "pcre2_match_8", NULL },
  { "font-loading", "FcConfigAppFontAddFile", NULL },
  { "font-loading", "FcFontList", NULL },
  { "font-loading", "FcDirCacheScan", NULL },
  { "builder-template", "gtk_widget_init_template", NULL },
  { "builder-template", "gtk_builder_add_from_resource", NULL },
  { "sleep", "g_usleep", "sleep" },
  { "sleep", "clock_nanosleep", "sleep" },
  { "lock-wait", "g_mutex_lock", "lock" },
  { "lock-wait", "g_thread_join", "lock" },
  { "lock-wait", "pthread_cond_wait", "lock" },
  { "slow-callback", NULL, NULL },
  { "slow-frame", NULL, NULL },
};

static const char *const wait_names[] = { "lock", "sleep", "io", "poll", "ipc", "child", "other" };

/* A synthetic profile: up to 16 nodes, built by add(). */
typedef struct
{
  guint32 parent[16];
  const char *function[16];
  gint64 self_ns[16];
  gint64 wait_ns[G_N_ELEMENTS (wait_names)];
  guint n;
  JsDiagnosisInput in;
} Profile;

static guint32
add (Profile *p, guint32 parent, const char *function, gint64 self_ns)
{
  g_assert_cmpuint (p->n, <, 16);
  p->parent[p->n] = parent;
  p->function[p->n] = function;
  p->self_ns[p->n] = self_ns;
  return p->n++;
}

static void
set_wait (Profile *p, const char *kind, gint64 ns)
{
  for (guint k = 0; k < G_N_ELEMENTS (wait_names); k++)
    if (strcmp (wait_names[k], kind) == 0)
      p->wait_ns[k] = ns;
}

static const JsDiagnosisInput *
input (Profile *p, guint32 culprit, gint64 culprit_ns)
{
  gint64 total = 0;

  for (guint i = 0; i < p->n; i++)
    total += p->self_ns[i];
  p->in = (JsDiagnosisInput){
    .n_nodes = p->n,
    .parent = p->parent,
    .function = p->function,
    .self_ns = p->self_ns,
    .wait_kind = wait_names,
    .wait_ns = p->wait_ns,
    .n_waits = G_N_ELEMENTS (wait_names),
    .attributed_ns = total,
    .culprit = culprit,
    .culprit_ns = culprit_ns,
  };
  return &p->in;
}

/* main → g_main_context_dispatch → on_timeout: the callback's node. */
static guint32
callback_path (Profile *p)
{
  guint32 m = add (p, NONE, "main", 0);
  guint32 d = add (p, m, "g_main_context_dispatch", 0);

  return add (p, d, "on_timeout", 0);
}

static void
test_table (void)
{
  guint n;
  const JsDiagnosisRule *rules = js_diagnosis_rules (&n);
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_cmpuint (n, <=, 64); /* one bit per rule in the matching */
  for (guint r = 0; r < n; r++)
    {
      const JsDiagnosisRule *rule = &rules[r];

      g_assert_nonnull (rule->id);
      for (const char *c = rule->id; *c; c++)
        g_assert_true (g_ascii_islower (*c) || g_ascii_isdigit (*c) || *c == '-');
      g_assert_true (g_hash_table_add (ids, (gpointer) rule->id));
      g_assert_true (rule->title != NULL && rule->title[0] != '\0');
      g_assert_true (rule->fix != NULL && rule->fix[0] != '\0');
      if (rule->kind == JS_DIAGNOSIS_SPECIFIC)
        g_assert_true (rule->functions != NULL || rule->wait != NULL);
      else
        g_assert_true (rule->functions == NULL && rule->wait == NULL);
      g_assert_true (rule->wait == NULL
                     || g_strv_contains ((const char *const *) wait_names, rule->wait)
                     || strcmp (rule->wait, "other") == 0);
      g_assert_true (js_diagnosis_rule_by_id (rule->id) == rule);
    }
  g_assert_null (js_diagnosis_rule_by_id ("no-such-rule"));
  g_assert_null (js_diagnosis_rule_by_id (NULL));
}

static void
test_every_rule_has_a_case (void)
{
  guint n;
  const JsDiagnosisRule *rules = js_diagnosis_rules (&n);

  for (guint r = 0; r < n; r++)
    {
      gboolean found = FALSE;

      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        found |= strcmp (cases[c].id, rules[r].id) == 0;
      if (!found)
        g_test_message ("rule %s has no case in tests/unit/test-diagnosis.c", rules[r].id);
      g_assert_true (found);
    }
}

/* Each case: its function's 300 ms, under a callback, in a 320 ms part. */
static void
test_cases (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const Case *k = &cases[c];
      Profile p = { 0 };
      guint32 cb = callback_path (&p), f;
      JsDiagnosis d;

      g_test_message ("case %s: %s", k->id, k->function ? k->function : "(generic)");
      if (k->function == NULL)
        {
          /* The generic rules: the culprit, and no pattern anywhere. */
          guint32 leaf = add (&p, cb, "compute_everything", 300 * MS);

          p.self_ns[cb] = 20 * MS;
          input (&p, leaf, 300 * MS);
          p.in.frame = strcmp (k->id, "slow-frame") == 0;
          g_assert_true (js_diagnosis_find (&p.in, &d));
          g_assert_cmpstr (d.rule->id, ==, k->id);
          g_assert_cmpuint (d.node, ==, leaf);
          g_assert_cmpint (d.evidence_ns, ==, 300 * MS);
          continue;
        }
      f = add (&p, cb, k->function, 0);
      add (&p, f, "some_leaf", 300 * MS);
      p.self_ns[cb] = 20 * MS;
      input (&p, cb, 320 * MS);
      g_assert_true (js_diagnosis_rule_matches (js_diagnosis_rule_by_id (k->id), k->function));
      g_assert_true (js_diagnosis_find (&p.in, &d));
      g_assert_cmpstr (d.rule->id, ==, k->id);
      g_assert_cmpuint (d.node, ==, f);
      g_assert_cmpint (d.evidence_ns, ==, 300 * MS);
      g_assert_cmpfloat_with_epsilon (d.share, 300.0 / 320.0, 1e-9);
      g_assert_null (d.wait);
      if (k->wait != NULL)
        {
          /* The same time as a wait of its kind, under frames without names
           * (a static function of a stripped library). */
          Profile q = { 0 };
          guint32 cb2 = callback_path (&q), u = add (&q, cb2, NULL, 0);

          add (&q, u, NULL, 300 * MS);
          q.self_ns[cb2] = 20 * MS;
          set_wait (&q, k->wait, 300 * MS);
          input (&q, cb2, 320 * MS);
          g_assert_true (js_diagnosis_find (&q.in, &d));
          g_assert_cmpstr (d.rule->id, ==, k->id);
          g_assert_cmpuint (d.node, ==, NONE);
          g_assert_cmpstr (d.wait, ==, k->wait);
          g_assert_cmpint (d.evidence_ns, ==, 300 * MS);
        }
    }
}

/* One stray sample of file I/O in a long computation is no diagnosis of
 * file I/O: the computation's culprit is named instead. */
static void
test_one_sample_is_not_a_diagnosis (void)
{
  Profile p = { 0 };
  guint32 cb = callback_path (&p);
  guint32 spin = add (&p, cb, "spin", 290 * MS);
  guint32 io = add (&p, cb, "g_file_get_contents", 0);
  JsDiagnosis d;

  add (&p, io, "read", 10 * MS);
  g_assert_true (js_diagnosis_find (input (&p, spin, 290 * MS), &d));
  g_assert_cmpstr (d.rule->id, ==, "slow-callback");
  g_assert_cmpuint (d.node, ==, spin);
}

/* Both thresholds: 40 ms, and 30% of the attributed time. */
static void
test_thresholds (void)
{
  JsDiagnosis d;

  {
    /* 35 ms of a 50 ms part: 70%, but under 40 ms. */
    Profile p = { 0 };
    guint32 cb = callback_path (&p), f = add (&p, cb, "g_usleep", 0);

    add (&p, f, "clock_nanosleep", 35 * MS);
    p.self_ns[cb] = 15 * MS;
    g_assert_false (js_diagnosis_find (input (&p, cb, 15 * MS), &d));
    g_assert_null (d.rule);
  }
  {
    /* 80 ms of a 300 ms part: over 40 ms, but 27%. */
    Profile p = { 0 };
    guint32 cb = callback_path (&p), f = add (&p, cb, "g_usleep", 0);

    add (&p, f, "clock_nanosleep", 80 * MS);
    p.self_ns[cb] = 220 * MS;
    g_assert_true (js_diagnosis_find (input (&p, cb, 300 * MS), &d));
    g_assert_cmpstr (d.rule->id, ==, "slow-callback");
  }
  {
    /* 90 ms of 300: 30%, fires. */
    Profile p = { 0 };
    guint32 cb = callback_path (&p), f = add (&p, cb, "g_usleep", 0);

    add (&p, f, "clock_nanosleep", 90 * MS);
    p.self_ns[cb] = 210 * MS;
    g_assert_true (js_diagnosis_find (input (&p, cb, 300 * MS), &d));
    g_assert_cmpstr (d.rule->id, ==, "sleep");
  }
  {
    /* Nothing attributed: nothing to say. */
    Profile p = { 0 };

    callback_path (&p);
    g_assert_false (js_diagnosis_find (input (&p, NONE, 0), &d));
  }
}

/* A matching frame inside a matching frame counts once (the outermost);
 * matching frames on separate paths add up. */
static void
test_outermost_no_double_counting (void)
{
  Profile p = { 0 };
  guint32 cb = callback_path (&p);
  guint32 outer = add (&p, cb, "g_file_load_contents", 0);
  guint32 inner = add (&p, outer, "g_file_read", 0);
  guint32 other = add (&p, cb, "g_key_file_load_from_file", 0);
  JsDiagnosis d;

  add (&p, inner, "read", 30 * MS);
  add (&p, outer, "g_malloc", 10 * MS);
  add (&p, other, "read", 25 * MS);
  p.self_ns[cb] = 35 * MS;
  /* 40 + 25 of 100 ms: 65 ms, not 95 (the inner read counted twice). */
  g_assert_true (js_diagnosis_find (input (&p, cb, 100 * MS), &d));
  g_assert_cmpstr (d.rule->id, ==, "file-io");
  g_assert_cmpint (d.evidence_ns, ==, 65 * MS);
  g_assert_cmpuint (d.node, ==, outer);
}

/* Two rules fire: the one with the most evidence wins; the function and the
 * wait of one rule are one evidence (the larger), not a sum. */
static void
test_most_evidence_wins (void)
{
  Profile p = { 0 };
  guint32 cb = callback_path (&p);
  guint32 re = add (&p, cb, "g_regex_match", 0);
  guint32 js = add (&p, cb, "json_parser_load_from_data", 0);
  guint32 sl = add (&p, cb, "g_usleep", 0);
  JsDiagnosis d;

  add (&p, re, "pcre2_match_8", 100 * MS);
  add (&p, js, "json_scanner_get_next_token", 150 * MS);
  add (&p, sl, "clock_nanosleep", 120 * MS);
  set_wait (&p, "sleep", 120 * MS);
  g_assert_true (js_diagnosis_find (input (&p, cb, 0), &d));
  g_assert_cmpstr (d.rule->id, ==, "json-decoding");
  g_assert_cmpuint (d.node, ==, js);
}

/* The generic rules never name a frame that runs the program or the loop,
 * and need the same share. */
static void
test_generic_never_main (void)
{
  JsDiagnosis d;

  {
    Profile p = { 0 };
    guint32 m = add (&p, NONE, "main", 300 * MS);

    g_assert_false (js_diagnosis_find (input (&p, m, 300 * MS), &d));
  }
  {
    Profile p = { 0 };
    guint32 m = add (&p, NONE, "main", 0);
    guint32 r = add (&p, m, "g_main_loop_run", 300 * MS);

    g_assert_false (js_diagnosis_find (input (&p, r, 300 * MS), &d));
  }
  {
    Profile p = { 0 };
    guint32 cb = callback_path (&p);

    p.self_ns[cb] = 300 * MS;
    /* A culprit with a small share of the time: no diagnosis. */
    g_assert_false (js_diagnosis_find (input (&p, cb, 50 * MS), &d));
  }
  g_assert_false (js_diagnosis_nameable ("main"));
  g_assert_false (js_diagnosis_nameable ("__libc_start_main_impl"));
  g_assert_false (js_diagnosis_nameable ("g_main_context_dispatch_unlocked"));
  g_assert_false (js_diagnosis_nameable (NULL));
  g_assert_true (js_diagnosis_nameable ("load_settings"));
}

/* Patterns match whole names, not parts of them. */
static void
test_whole_names (void)
{
  const JsDiagnosisRule *io = js_diagnosis_rule_by_id ("file-io");
  const JsDiagnosisRule *sl = js_diagnosis_rule_by_id ("sleep");

  g_assert_false (js_diagnosis_rule_matches (io, "my_g_file_get_contents_cache"));
  g_assert_false (js_diagnosis_rule_matches (sl, "sleep_inhibitor_new"));
  g_assert_false (js_diagnosis_rule_matches (io, NULL));
  g_assert_false (js_diagnosis_rule_matches (NULL, "g_file_get_contents"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diagnosis/table/well-formed", test_table);
  g_test_add_func ("/diagnosis/table/every-rule-has-a-case", test_every_rule_has_a_case);
  g_test_add_func ("/diagnosis/cases", test_cases);
  g_test_add_func ("/diagnosis/one-sample", test_one_sample_is_not_a_diagnosis);
  g_test_add_func ("/diagnosis/thresholds", test_thresholds);
  g_test_add_func ("/diagnosis/outermost", test_outermost_no_double_counting);
  g_test_add_func ("/diagnosis/most-evidence-wins", test_most_evidence_wins);
  g_test_add_func ("/diagnosis/generic-never-main", test_generic_never_main);
  g_test_add_func ("/diagnosis/whole-names", test_whole_names);
  return g_test_run ();
}
