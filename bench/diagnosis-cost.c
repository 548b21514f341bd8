/* diagnosis-cost.c: what naming the anti-pattern (src/common/js-diagnosis.c)
 * costs the collector per part, matching every node's function each time
 * against matching each function once per event (js_diagnosis_match, what
 * src/core/js-report-diagnosis.c does) and reusing the masks for every part.
 *
 *   diagnosis-cost [NODES]
 *
 * A profile of NODES nodes (default 2048, the core's most), a 4-ary tree,
 * every node named and holding time (the worst case: every node is
 * matched), one in seven named like an API of the table. Both sides in the
 * same run, alternating, 7 rounds of 50 each; prints the medians.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdlib.h>

#include "js-diagnosis.h"

#define ROUNDS 7
#define REPEAT 50

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 2048;
  g_autofree guint32 *parent = g_new (guint32, MAX (n, 1));
  g_autofree const char **function = g_new (const char *, MAX (n, 1));
  g_autofree gint64 *self_ns = g_new (gint64, MAX (n, 1));
  g_autofree guint64 *masks = g_new (guint64, MAX (n, 1));
  const char *wait_kind[] = { "io" };
  gint64 wait_ns[] = { 0 };
  double each[ROUNDS], once[ROUNDS], part[ROUNDS];
  JsDiagnosisInput in = { 0 };
  JsDiagnosis d;

  for (guint i = 0; i < n; i++)
    {
      parent[i] = i == 0 ? JS_DIAGNOSIS_NO_NODE : (i - 1) / 4;
      function[i] = g_strdup_printf (i % 7 == 0 ? "g_file_get_contents_%u" : "lib_function_%u", i);
      self_ns[i] = 1000000;
    }
  in.n_nodes = n;
  in.parent = parent;
  in.function = function;
  in.self_ns = self_ns;
  in.wait_kind = wait_kind;
  in.wait_ns = wait_ns;
  in.n_waits = 1;
  in.attributed_ns = (gint64) n * 1000000;
  in.culprit = JS_DIAGNOSIS_NO_NODE;
  for (guint r = 0; r < ROUNDS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      in.masks = NULL;
      for (guint k = 0; k < REPEAT; k++)
        js_diagnosis_find (&in, &d);
      each[r] = (g_get_monotonic_time () - t0) / (double) REPEAT / 1000.0;
      t0 = g_get_monotonic_time ();
      for (guint k = 0; k < REPEAT; k++)
        for (guint i = 0; i < n; i++)
          masks[i] = js_diagnosis_match (function[i]);
      once[r] = (g_get_monotonic_time () - t0) / (double) REPEAT / 1000.0;
      in.masks = masks;
      t0 = g_get_monotonic_time ();
      for (guint k = 0; k < REPEAT; k++)
        js_diagnosis_find (&in, &d);
      part[r] = (g_get_monotonic_time () - t0) / (double) REPEAT / 1000.0;
    }
  qsort (each, ROUNDS, sizeof (double), (GCompareFunc) cmp_double);
  qsort (once, ROUNDS, sizeof (double), (GCompareFunc) cmp_double);
  qsort (part, ROUNDS, sizeof (double), (GCompareFunc) cmp_double);
  g_print ("profile of %u nodes, medians of %d rounds:\n", n, ROUNDS);
  g_print ("  matching every node per part    %.3f ms\n", each[ROUNDS / 2]);
  g_print ("  matching once per event (masks) %.3f ms\n", once[ROUNDS / 2]);
  g_print ("  a part with the event's masks   %.3f ms\n", part[ROUNDS / 2]);
  for (guint i = 0; i < n; i++)
    g_free ((char *) function[i]);
  return 0;
}
