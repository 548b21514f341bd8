/* js-loop-stats.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-loop-stats.h"
#include "js-names.h"

#include <string.h>

typedef struct
{
  guint32 name_id;
  const void *code;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;

  return g_direct_hash (k->code) * 31 + k->name_id;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;

  return x->name_id == y->name_id && x->code == y->code;
}

void
js_loop_stats_init (JsLoopStats *stats)
{
  memset (stats, 0, sizeof *stats);
  /* The key is the start of the value (JsSourceStats begins with name_id, code). */
  stats->sources = g_hash_table_new_full (key_hash, key_equal, NULL, g_free);
}

void
js_loop_stats_clear (JsLoopStats *stats)
{
  g_clear_pointer (&stats->sources, g_hash_table_unref);
  memset (stats->cache, 0, sizeof stats->cache);
}

/* The cache slot of a key: the callback's address above its alignment,
 * mixed with the name (sources of one callback differ by name). */
static inline guint
cache_slot (guint32 name_id, const void *code)
{
  return (guint) ((GPOINTER_TO_SIZE (code) >> 4) ^ (name_id * 0x9E3779B1u))
         & (JS_LOOP_STATS_CACHE - 1);
}

/* The table's entry for a key, made if new (out of line: a cache hit saves
 * no registers for it). */
static G_GNUC_NO_INLINE JsSourceStats *
entry_for (JsLoopStats *stats, guint32 name_id, const void *code, gboolean is_dispatch)
{
  Key key = { name_id, code };
  JsSourceStats *s = g_hash_table_lookup (stats->sources, &key);

  if (s != NULL)
    return s;
  if (g_hash_table_size (stats->sources) >= JS_LOOP_STATS_MAX_SOURCES - 1)
    {
      /* Bounded: everything past the cap is one "(other)" entry. */
      key.name_id = JS_NAME_OVERFLOW;
      key.code = NULL;
      is_dispatch = FALSE;
      s = g_hash_table_lookup (stats->sources, &key);
      if (s != NULL)
        return s;
    }
  s = g_new0 (JsSourceStats, 1);
  s->name_id = key.name_id;
  s->code = key.code;
  s->code_is_dispatch = is_dispatch;
  g_hash_table_insert (stats->sources, s, s);
  return s;
}

void
js_loop_stats_add_dispatch (JsLoopStats *stats, const JsRecord *r, gint64 own_ns)
{
  /* Most dispatches come from a handful of sources: a hit here skips the
   * table's hash and compare calls (80 instructions a dispatch). An entry
   * holds its own key and lives as long as the table, so a hit is the
   * table's answer; a key past the cap (the "(other)" entry's) never
   * hits and takes the table's way each time. */
  JsSourceStats **slot = &stats->cache[cache_slot (r->name_id, r->code)];
  JsSourceStats *s = *slot;

  if (G_UNLIKELY (s == NULL || s->name_id != r->name_id || s->code != r->code))
    {
      s = entry_for (stats, r->name_id, r->code, (r->flags & JS_RECORD_CODE_IS_DISPATCH) != 0);
      *slot = s;
    }

  stats->dispatches++;
  if (r->flags & JS_RECORD_NESTED_LOOP)
    stats->nested_loops++;
  s->total_ns += own_ns;
  js_histogram_add (&s->hist, own_ns);
}

void
js_loop_stats_add_iteration (JsLoopStats *stats, const JsRecord *r)
{
  gint64 busy = r->end_ns - r->start_ns;

  stats->iterations++;
  stats->busy_ns += busy;
  js_histogram_add (&stats->iteration_hist, busy);
}

static gint
by_total_desc (gconstpointer a, gconstpointer b)
{
  const JsSourceStats *x = *(JsSourceStats *const *) a, *y = *(JsSourceStats *const *) b;

  return (x->total_ns < y->total_ns) - (x->total_ns > y->total_ns);
}

GPtrArray *
js_loop_stats_sorted_sources (JsLoopStats *stats)
{
  GPtrArray *out = g_ptr_array_sized_new (g_hash_table_size (stats->sources));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, stats->sources);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (out, value);
  g_ptr_array_sort (out, by_total_desc);
  return out;
}
