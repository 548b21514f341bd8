/* js-names.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-names.h"

#include <string.h>

#define NAME_BYTES 96
#define INTERN_SLOTS (JS_NAMES_MAX * 2) /* open addressing, load <= 1/2 */
#define CACHE_SLOTS 512                 /* direct-mapped source -> id */

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
  if (slot->source == source && slot->source_id == source->source_id && slot->name == name)
    return slot->id;
  slot->source = source;
  slot->source_id = source->source_id;
  slot->name = name;
  slot->id = js_names_intern (name);
  return slot->id;
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
