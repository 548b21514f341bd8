/* js-sample-detail.c: a sample's detail, interned and tallied
 * (js-sample-detail.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-sample-detail.h"

#include <string.h>

#include "js-dbus-calls.h"

char *
js_sample_detail_take (const JsThreadSnapshot *snap)
{
  char path[JS_THREAD_PROBE_MAX_PATH];

  if (js_thread_probe_file_path (snap, path, sizeof path))
    return g_strconcat ("F", path, NULL);
  return js_dbus_calls_current ();
}

/* The collector's only: the table is written there, the strings are never
 * moved or freed, so any thread may read an interned pointer it was given. */
static GHashTable *interned;
static GStringChunk *chunk;

const char *
js_sample_detail_intern (const char *detail)
{
  const char *known;

  if (detail == NULL || detail[0] == '\0')
    return NULL;
  if (interned == NULL)
    {
      interned = g_hash_table_new (g_str_hash, g_str_equal);
      chunk = g_string_chunk_new (4096);
    }
  known = g_hash_table_lookup (interned, detail);
  if (known != NULL)
    return known;
  if (g_hash_table_size (interned) >= JS_SAMPLE_DETAIL_MAX)
    return NULL;
  known = g_string_chunk_insert (chunk, detail);
  g_hash_table_add (interned, (gpointer) known);
  return known;
}

void
js_sample_details_add (JsSampleDetails *d, const char *detail, gint64 ns)
{
  if (detail == NULL || ns <= 0)
    return;
  for (guint i = 0; i < JS_SAMPLE_DETAILS; i++)
    {
      /* Interned: one pointer per text. */
      if (d->text[i] == detail)
        {
          d->ns[i] += ns;
          return;
        }
      if (d->text[i] == NULL)
        {
          d->text[i] = detail;
          d->ns[i] = ns;
          return;
        }
    }
  d->other_ns += ns;
}

void
js_sample_details_merge (JsSampleDetails *to, const JsSampleDetails *from, double share)
{
  for (guint i = 0; i < JS_SAMPLE_DETAILS && from->text[i] != NULL; i++)
    js_sample_details_add (to, from->text[i], (gint64) ((double) from->ns[i] * share));
  to->other_ns += (gint64) ((double) from->other_ns * share);
}

const char *
js_sample_details_heaviest (const JsSampleDetails *d, char kind)
{
  gint best = -1;

  for (guint i = 0; i < JS_SAMPLE_DETAILS && d->text[i] != NULL; i++)
    if (d->text[i][0] == kind && (best < 0 || d->ns[i] > d->ns[best]))
      best = (gint) i;
  return best >= 0 ? d->text[best] + 1 : NULL;
}
