/* js-callback-names.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-callback-names.h"
#include "js-demangle.h"

#include <dlfcn.h>

/* Bounded: past this many distinct addresses, lookups are not cached. */
#define MAX_CACHED 8192

struct _JsCallbackNames
{
  GHashTable *cache; /* address -> JsCallbackName* */
  GStringChunk *strings;
  JsSymbolizer *symbolizer;
  JsModules *modules;
  GArray *frames;          /* scratch for the symbolizer */
  JsCallbackName uncached; /* the last one not cached */
};

JsCallbackNames *
js_callback_names_new (void)
{
  JsCallbackNames *s = g_new0 (JsCallbackNames, 1);

  s->cache = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  s->strings = g_string_chunk_new (4096);
  s->frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  return s;
}

void
js_callback_names_free (JsCallbackNames *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->cache);
  g_string_chunk_free (s->strings);
  g_array_unref (s->frames);
  g_free (s);
}

void
js_callback_names_set_symbolizer (JsCallbackNames *s, JsSymbolizer *symbolizer, JsModules *modules)
{
  s->symbolizer = symbolizer;
  s->modules = modules;
  g_hash_table_remove_all (s->cache);
}

static char *
describe (const void *address)
{
  Dl_info info;
  g_autofree char *base = NULL;
  g_autofree char *readable = NULL;
  const char *sname;

  if (dladdr (address, &info) == 0 || info.dli_fname == NULL)
    return g_strdup_printf ("0x%" G_GINTPTR_MODIFIER "x", (guintptr) address);
  /* Exported C++ and Rust functions: demangled, as the symbolizer's. */
  readable = js_demangle (info.dli_sname);
  sname = readable != NULL ? readable : info.dli_sname;
  if (sname != NULL && info.dli_saddr == address)
    return g_strdup (sname);
  base = g_path_get_basename (info.dli_fname[0] ? info.dli_fname : "?");
  if (sname != NULL)
    return g_strdup_printf ("%s+0x%" G_GINTPTR_MODIFIER "x", sname,
                            (guintptr) address - (guintptr) info.dli_saddr);
  return g_strdup_printf ("%s+0x%" G_GINTPTR_MODIFIER "x", base,
                          (guintptr) address - (guintptr) info.dli_fbase);
}

/* Fills `out`; FALSE if it must not be cached (its module's debug file is
 * being fetched, or the exit's deadline cut the lookup short). */
static gboolean
name (JsCallbackNames *s, const void *address, JsCallbackName *out)
{
  gboolean final = TRUE;
  g_autofree char *fallback = NULL;

  *out = (JsCallbackName){ 0 };
  if (s->symbolizer != NULL)
    {
      JsSymbolizerStats before, after;

      g_array_set_size (s->frames, 0);
      js_symbolizer_get_stats (s->symbolizer, &before);
      js_symbolizer_lookup (s->symbolizer, (guint64) (guintptr) address, FALSE, s->frames);
      js_symbolizer_get_stats (s->symbolizer, &after);
      if (s->frames->len > 0)
        {
          /* The function itself: the last frame, the others being
           * functions inlined into it at this address. */
          out->frame = g_array_index (s->frames, JsFrame, s->frames->len - 1);
          out->module = js_modules_get (s->modules, out->frame.module);
          final = !out->frame.provisional && after.deadline_skips == before.deadline_skips;
        }
    }
  if (out->frame.function != NULL)
    out->name = out->frame.function; /* the symbolizer's: lives as long as it */
  else
    {
      fallback = describe (address);
      out->name = g_string_chunk_insert_const (s->strings, fallback);
    }
  return final;
}

const JsCallbackName *
js_callback_names_describe (JsCallbackNames *s, const void *address)
{
  JsCallbackName *cached;

  if (address == NULL)
    return NULL;
  cached = g_hash_table_lookup (s->cache, address);
  if (cached != NULL)
    return cached;
  if (!name (s, address, &s->uncached) || g_hash_table_size (s->cache) >= MAX_CACHED)
    return &s->uncached;
  cached = g_memdup2 (&s->uncached, sizeof s->uncached);
  g_hash_table_insert (s->cache, (gpointer) address, cached);
  return cached;
}

const char *
js_callback_names_lookup (JsCallbackNames *s, const void *address)
{
  const JsCallbackName *n = js_callback_names_describe (s, address);

  return n != NULL ? n->name : NULL;
}
