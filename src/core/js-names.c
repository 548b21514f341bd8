/* js-names.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-names.h"

#include <string.h>

#define NAME_BYTES 96
#define INTERN_SLOTS (JS_NAMES_MAX * 2) /* open addressing, load <= 1/2 */
#define CACHE_SLOTS 512                 /* direct-mapped source -> id */
#define NAME_CACHE_SLOTS 256            /* direct-mapped name pointer -> id */

/* Written by the main thread before n_names is raised past them. */
static char names[JS_NAMES_MAX][NAME_BYTES] = { [JS_NAME_OVERFLOW] = "(other)" };
static guint32 n_names = JS_NAME_OVERFLOW + 1;

static guint32 intern_slots[INTERN_SLOTS]; /* name ids, 0 = empty */

typedef struct
{
  GSource *source;
  guint source_id;
  const char *name; /* the string the id was made from */
  guint32 id;
} CacheSlot;

static CacheSlot cache[CACHE_SLOTS];

/* A new source usually carries a name pointer seen before: GLib's and GTK's
 * sources are named with static strings (g_source_set_static_name), the same
 * pointer for every g_idle_add or every frame clock idle. So in front of the
 * string hash sits a cache keyed by the name's address. An address alone
 * proves nothing (a g_strdup'd name freed with its source and another one
 * allocated there), so a hit is checked against the interned copy: one
 * strncmp of a short string, a fraction of hashing it and probing the table. */
typedef struct
{
  const char *name;
  guint32 id;
} NameSlot;

static NameSlot name_cache[NAME_CACHE_SLOTS];
static guint64 hashed_lookups; /* js_names_intern calls from js_names_for_source */
/* Names of jankscope's own sources ("[jankscope] ...", "[jankscope-ui] ..."),
 * set once when the name is interned. */
static gboolean own[JS_NAMES_MAX];

guint32
js_names_intern (const char *name)
{
  guint hash = g_str_hash (name);
  gsize len;
  const char *valid_end;

  for (guint i = 0; i < INTERN_SLOTS; i++)
    {
      guint32 *slot = &intern_slots[(hash + i) & (INTERN_SLOTS - 1)];

      if (*slot == 0)
        {
          guint32 id = n_names;

          if (id >= JS_NAMES_MAX)
            return JS_NAME_OVERFLOW;
          /* Copy at most NAME_BYTES-1 bytes, cut at a character boundary. */
          len = strnlen (name, NAME_BYTES - 1);
          g_utf8_validate (name, (gssize) len, &valid_end);
          len = (gsize) (valid_end - name);
          memcpy (names[id], name, len);
          names[id][len] = '\0';
          own[id] = g_str_has_prefix (names[id], "[jankscope");
          *slot = id;
          /* Publishes names[id] to readers on other threads. */
          __atomic_store_n (&n_names, id + 1, __ATOMIC_RELEASE);
          return id;
        }
      if (strncmp (names[*slot], name, NAME_BYTES - 1) == 0)
        return *slot;
    }
  return JS_NAME_OVERFLOW;
}

/* A source not seen before (its own frame: the hit below saves no registers). */
static __attribute__ ((noinline)) guint32
name_of_new_source (GSource *source, const char *name, CacheSlot *slot)
{
  NameSlot *n = &name_cache[(GPOINTER_TO_SIZE (name) >> 3) & (NAME_CACHE_SLOTS - 1)];
  guint32 id;

  /* A slot holding JS_NAME_OVERFLOW never hits: its text, "(other)", is not
   * the name it stands for. */
  if (n->name == name && n->id > JS_NAME_OVERFLOW
      && strncmp (names[n->id], name, NAME_BYTES - 1) == 0)
    id = n->id;
  else
    {
      hashed_lookups++;
      id = js_names_intern (name);
      n->name = name;
      n->id = id;
    }
  slot->source = source;
  slot->source_id = source->source_id;
  slot->name = name;
  slot->id = id;
  return id;
}

guint32
js_names_for_source (GSource *source)
{
  const char *name = source->name;
  CacheSlot *slot;

  if (name == NULL)
    return JS_NAME_NONE;
  slot = &cache[(GPOINTER_TO_SIZE (source) >> 4) & (CACHE_SLOTS - 1)];
  /* source_id is unique over the process lifetime (until it wraps): a new
   * source at a recycled address never hits a stale slot. */
  if (G_LIKELY (slot->source == source && slot->source_id == source->source_id
                && slot->name == name))
    return slot->id;
  return name_of_new_source (source, name, slot);
}

guint64
js_names_hashed_lookups (void)
{
  return hashed_lookups;
}

const char *
js_names_get (guint32 id)
{
  if (id == JS_NAME_NONE || id >= __atomic_load_n (&n_names, __ATOMIC_ACQUIRE))
    return NULL;
  return names[id];
}

gboolean
js_names_is_own (guint32 id)
{
  return id < __atomic_load_n (&n_names, __ATOMIC_ACQUIRE) && own[id];
}
