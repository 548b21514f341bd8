/* jsui-frame-stats.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "js-percentile.h"
#include "jsui-format.h"
#include "jsui-frame-stats.h"
#include "jsui-snapshot.h"

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least q of them at or below. */
static gint64
rank (const GArray *sorted, double q)
{
  return g_array_index (sorted, gint64, js_percentile_rank (sorted->len, q) - 1);
}

void
jsui_frame_stats_compute (const GArray *frames, const JsrReport *config, gint64 from_ns,
                          JsuiFrameStats *out)
{
  g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));

  memset (out, 0, sizeof *out);
  out->p50_ns = out->p95_ns = out->p99_ns = -1;
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);

      if (f->end_ns < from_ns)
        continue;
      g_array_append_val (durations, f->duration_ns);
      out->frames++;
      out->slow += jsui_frame_is_slow (config, f->duration_ns, f->budget_ns, NULL);
      out->frozen += jsui_frame_is_frozen (config, f->duration_ns);
    }
  if (durations->len == 0)
    return;
  g_array_sort (durations, compare_gint64);
  out->p50_ns = rank (durations, 0.50);
  out->p95_ns = rank (durations, 0.95);
  out->p99_ns = rank (durations, 0.99);
}
