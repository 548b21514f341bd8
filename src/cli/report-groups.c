/* report-groups.c: the tables by tier, class, source and scene (report-groups.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "report-groups.h"

#include <string.h>

#include <glib/gi18n.h>

#include "analysis.h"
#include "js-tiers.h"
#include "jsr-saturate.h"

static void
row_free (CliReportRow *row)
{
  g_free (row->label);
  g_free (row->callback);
  g_free (row);
}

static void
row_add (GPtrArray *rows, const char *label, const char *callback, const JsrAggStats *stats)
{
  CliReportRow *row = NULL;

  for (guint i = 0; i < rows->len && row == NULL; i++)
    {
      CliReportRow *r = g_ptr_array_index (rows, i);

      if (strcmp (r->label, label) == 0 && g_strcmp0 (r->callback, callback) == 0)
        row = r;
    }
  if (row == NULL)
    {
      row = g_new0 (CliReportRow, 1);
      row->label = g_strdup (label);
      row->callback = g_strdup (callback);
      g_ptr_array_add (rows, row);
    }
  row->stats.events = jsr_sat_add_u64 (row->stats.events, stats->events);
  row->stats.total_ns = jsr_sat_add_u64 (row->stats.total_ns, stats->total_ns);
  row->stats.max_ns = MAX (row->stats.max_ns, stats->max_ns);
  row->stats.attributed_ns = jsr_sat_add_u64 (row->stats.attributed_ns, stats->attributed_ns);
  row->stats.unattributed_ns = jsr_sat_add_u64 (row->stats.unattributed_ns, stats->unattributed_ns);
}

static int
row_compare_by_time (gconstpointer a, gconstpointer b)
{
  const CliReportRow *x = *(CliReportRow *const *) a, *y = *(CliReportRow *const *) b;

  if (x->stats.total_ns != y->stats.total_ns)
    return x->stats.total_ns > y->stats.total_ns ? -1 : 1;
  return strcmp (x->label, y->label);
}

void
cli_report_groups_clear (CliReportGroups *g)
{
  g_ptr_array_unref (g->tiers);
  g_ptr_array_unref (g->classes);
  g_ptr_array_unref (g->sources);
  g_ptr_array_unref (g->scenes);
  g_ptr_array_unref (g->ordered_tiers);
}

void
cli_report_groups_build (const JsrAggregate *agg, CliReportGroups *g)
{
  g_autoptr (GPtrArray) groups = jsr_aggregate_sorted_groups (agg);

  g->tiers = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g->scenes = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g->ordered_tiers = g_ptr_array_new ();
  g->any_scene = FALSE;
  for (guint i = 0; i < groups->len; i++)
    {
      const JsrAggGroup *group = g_ptr_array_index (groups, i);
      g_autofree char *klass = cli_format_class (&group->key);

      row_add (g->tiers, group->key.tier != NULL ? group->key.tier : "?", NULL, &group->stats);
      row_add (g->classes, klass, NULL, &group->stats);
      row_add (g->sources, group->key.source != NULL ? group->key.source : _ ("(unnamed)"),
               group->key.callback, &group->stats);
      row_add (g->scenes, group->key.scene != NULL ? group->key.scene : _ ("(none)"), NULL,
               &group->stats);
      g->any_scene = g->any_scene || group->key.scene != NULL;
    }
  if (agg->groups_other.events > 0)
    row_add (g->sources, _ ("(other)"), NULL, &agg->groups_other);

  /* Tiers mildest first; the others by blocked time. */
  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    for (guint i = 0; i < g->tiers->len; i++)
      if (strcmp (((CliReportRow *) g_ptr_array_index (g->tiers, i))->label,
                  js_tier_name (js_tier_by_mildness (t)))
          == 0)
        g_ptr_array_add (g->ordered_tiers, g_ptr_array_index (g->tiers, i));
  for (guint i = 0; i < g->tiers->len; i++)
    if (!g_ptr_array_find (g->ordered_tiers, g_ptr_array_index (g->tiers, i), NULL))
      g_ptr_array_add (g->ordered_tiers, g_ptr_array_index (g->tiers, i));
  g_ptr_array_sort (g->classes, row_compare_by_time);
  g_ptr_array_sort (g->sources, row_compare_by_time);
  g_ptr_array_sort (g->scenes, row_compare_by_time);
}
