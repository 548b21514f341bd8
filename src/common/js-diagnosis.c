/* js-diagnosis.c: the matching of js-diagnosis-table.c over a profile
 * (js-diagnosis.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-diagnosis.h"

#include <string.h>

/* Each rule's functions compiled once (the table is constant), so a node
 * costs one match per pattern and no allocation. */
typedef struct
{
  GPtrArray **specs; /* per rule: GPatternSpec, or NULL for a rule without functions */
  guint n_rules;
} Compiled;

static const Compiled *
compiled (void)
{
  static Compiled c;
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      const JsDiagnosisRule *rules = js_diagnosis_rules (&c.n_rules);

      c.specs = g_new0 (GPtrArray *, c.n_rules);
      for (guint r = 0; r < c.n_rules; r++)
        {
          if (rules[r].functions == NULL)
            continue;
          c.specs[r] = g_ptr_array_new ();
          for (guint k = 0; rules[r].functions[k] != NULL; k++)
            g_ptr_array_add (c.specs[r], g_pattern_spec_new (rules[r].functions[k]));
        }
      g_once_init_leave (&done, 1);
    }
  return &c;
}

static gboolean
matches (const Compiled *c, guint r, const char *function)
{
  gsize len;

  if (function == NULL || c->specs[r] == NULL)
    return FALSE;
  len = strlen (function);
  for (guint k = 0; k < c->specs[r]->len; k++)
    if (g_pattern_spec_match (g_ptr_array_index (c->specs[r], k), len, function, NULL))
      return TRUE;
  return FALSE;
}

guint64
js_diagnosis_match (const char *function)
{
  const Compiled *c = compiled ();
  guint64 mask = 0;

  for (guint r = 0; r < MIN (c->n_rules, 64); r++)
    if (matches (c, r, function))
      mask |= G_GUINT64_CONSTANT (1) << r;
  return mask;
}

gboolean
js_diagnosis_rule_matches (const JsDiagnosisRule *rule, const char *function)
{
  guint n;
  const JsDiagnosisRule *rules = js_diagnosis_rules (&n);

  if (rule < rules || rule >= rules + n)
    return FALSE;
  return matches (compiled (), (guint) (rule - rules), function);
}

gboolean
js_diagnosis_nameable (const char *function)
{
  static const char *const never[] = {
    "main",
    "_start",
    "__libc_start_main*",
    "__libc_start_call_main",
    "g_main_loop_run",
    "g_main_context_iteration",
    "g_main_context_iterate*",
    "g_main_context_dispatch*",
    "g_application_run",
    "gtk_main",
    "gtk_main_iteration*",
    "gtk_dialog_run",
  };

  if (function == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (never); i++)
    if (g_pattern_match_simple (never[i], function))
      return FALSE;
  return TRUE;
}

static gboolean
enough (gint64 evidence, gint64 attributed)
{
  return attributed > 0 && evidence >= JS_DIAGNOSIS_MIN_NS
         && (double) evidence >= JS_DIAGNOSIS_MIN_SHARE * (double) attributed;
}

static gint64
wait_time (const JsDiagnosisInput *in, const char *kind)
{
  gint64 ns = 0;

  for (guint k = 0; kind != NULL && k < in->n_waits; k++)
    if (in->wait_kind[k] != NULL && strcmp (in->wait_kind[k], kind) == 0)
      ns += MAX (in->wait_ns[k], 0);
  return ns;
}

static void
conclude (const JsDiagnosisInput *in, const JsDiagnosisRule *rule, gint64 evidence, guint32 node,
          const char *wait, JsDiagnosis *out)
{
  out->rule = rule;
  out->evidence_ns = MIN (evidence, in->attributed_ns);
  out->share = MIN (1.0, (double) out->evidence_ns / (double) in->attributed_ns);
  out->node = node;
  out->wait = wait;
}

gboolean
js_diagnosis_find (const JsDiagnosisInput *in, JsDiagnosis *out)
{
  const Compiled *c = compiled ();
  const JsDiagnosisRule *rules = js_diagnosis_rules (&(guint){ 0 });
  guint n = in->n_nodes;
  g_autofree gint64 *inclusive = g_new0 (gint64, MAX (n, 1));
  g_autofree guint64 *covered = g_new0 (guint64, MAX (n, 1));
  g_autofree gint64 *fn_ns = g_new0 (gint64, c->n_rules);
  g_autofree guint32 *best = g_new (guint32, c->n_rules);
  gint best_rule = -1;
  gint64 best_ns = 0;

  memset (out, 0, sizeof *out);
  out->node = JS_DIAGNOSIS_NO_NODE;
  /* One bit per rule (tests/unit/test-diagnosis.c keeps the table within). */
  if (c->n_rules > 64)
    return FALSE;
  for (guint r = 0; r < c->n_rules; r++)
    best[r] = JS_DIAGNOSIS_NO_NODE;
  /* Inclusive times: children come after their parent. */
  for (guint i = n; i-- > 0;)
    {
      inclusive[i] += MAX (in->self_ns[i], 0);
      if (in->parent[i] < i)
        inclusive[in->parent[i]] += inclusive[i];
    }
  /* On each path, the outermost node matching a rule counts for it. */
  for (guint i = 0; i < n; i++)
    {
      guint64 above = in->parent[i] < i ? covered[in->parent[i]] : 0, here = 0;

      if (inclusive[i] > 0 && in->function[i] != NULL)
        here = in->masks != NULL ? in->masks[i] : js_diagnosis_match (in->function[i]);
      covered[i] = above | here;
      for (guint r = 0; r < c->n_rules; r++)
        if ((here & ~above) & (G_GUINT64_CONSTANT (1) << r))
          {
            fn_ns[r] += inclusive[i];
            if (best[r] == JS_DIAGNOSIS_NO_NODE || inclusive[i] > inclusive[best[r]])
              best[r] = i;
          }
    }
  for (guint r = 0; r < c->n_rules; r++)
    {
      gint64 ev;

      if (rules[r].kind != JS_DIAGNOSIS_SPECIFIC)
        continue;
      ev = MAX (fn_ns[r], wait_time (in, rules[r].wait));
      if (enough (ev, in->attributed_ns) && ev > best_ns)
        {
          best_rule = (gint) r;
          best_ns = ev;
        }
    }
  if (best_rule >= 0)
    {
      gint64 w = wait_time (in, rules[best_rule].wait);

      conclude (in, &rules[best_rule], best_ns, best[best_rule],
                w > fn_ns[best_rule] ? rules[best_rule].wait : NULL, out);
      return TRUE;
    }
  /* The rest: the culprit, if it explains enough. */
  if (in->culprit < n && js_diagnosis_nameable (in->function[in->culprit])
      && enough (in->culprit_ns, in->attributed_ns))
    for (guint r = 0; r < c->n_rules; r++)
      if (rules[r].kind == (in->frame ? JS_DIAGNOSIS_FRAME : JS_DIAGNOSIS_CALLBACK))
        {
          conclude (in, &rules[r], in->culprit_ns, in->culprit, NULL, out);
          return TRUE;
        }
  return FALSE;
}
