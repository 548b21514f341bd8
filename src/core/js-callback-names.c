/* js-callback-names.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-callback-names.h"

#include <dlfcn.h>

/* Bounded: past this many distinct addresses, lookups are not cached. */
#define MAX_CACHED 8192

struct _JsCallbackNames
{
  GHashTable *cache; /* address -> char* */
  GStringChunk *strings;
};

JsCallbackNames *
js_callback_names_new (void)
{
  JsCallbackNames *s = g_new0 (JsCallbackNames, 1);

  s->cache = g_hash_table_new (g_direct_hash, g_direct_equal);
  s->strings = g_string_chunk_new (4096);
  return s;
}

void
js_callback_names_free (JsCallbackNames *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->cache);
  g_string_chunk_free (s->strings);
  g_free (s);
}

static char *
describe (const void *address)
{
  Dl_info info;
  g_autofree char *base = NULL;

  if (dladdr (address, &info) == 0 || info.dli_fname == NULL)
    return g_strdup_printf ("0x%" G_GINTPTR_MODIFIER "x", (guintptr) address);
  if (info.dli_sname != NULL && info.dli_saddr == address)
    return g_strdup (info.dli_sname);
  base = g_path_get_basename (info.dli_fname[0] ? info.dli_fname : "?");
  if (info.dli_sname != NULL)
    return g_strdup_printf ("%s+0x%" G_GINTPTR_MODIFIER "x", info.dli_sname,
                            (guintptr) address - (guintptr) info.dli_saddr);
  return g_strdup_printf ("%s+0x%" G_GINTPTR_MODIFIER "x", base,
                          (guintptr) address - (guintptr) info.dli_fbase);
}

const char *
js_callback_names_lookup (JsCallbackNames *s, const void *address)
{
  const char *name;
  g_autofree char *fresh = NULL;

  if (address == NULL)
    return NULL;
  name = g_hash_table_lookup (s->cache, address);
  if (name != NULL)
    return name;
  fresh = describe (address);
  name = g_string_chunk_insert_const (s->strings, fresh);
  if (g_hash_table_size (s->cache) < MAX_CACHED)
    g_hash_table_insert (s->cache, (gpointer) address, (gpointer) name);
  return name;
}
