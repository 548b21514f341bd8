/* js-names.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-names.h"
#include "js-hot.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#define NAME_BYTES 96
#define INTERN_SLOTS (JS_NAMES_MAX * 2) /* open addressing, load <= 1/2 */
#define CACHE_SLOTS 512                 /* direct-mapped source -> id */
#define NAME_CACHE_SLOTS 256            /* direct-mapped name pointer -> id */

/* Written by the main thread before n_names is raised past them. */
static char names[JS_NAMES_MAX][NAME_BYTES] = { [JS_NAME_OVERFLOW] = "(other)" };
static guint32 n_names JS_HOT_DATA = JS_NAME_OVERFLOW + 1;

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
 * strncmp of a short string, a fraction of hashing it and probing the table.
 *
 * Unless the address is inside a read-only segment of a loaded object (a
 * string literal; asked once per address, note_in_image): no allocation can
 * be made there while that object stays loaded, and nothing writes there,
 * so the string cannot have changed. The preload counts dlclose calls
 * (JsBridge.unloads); an answer holds until the count moves, then the next
 * hit checks the string and asks again. Without the count (GTK module mode)
 * or without _dl_find_object, every hit is checked. */
typedef struct
{
  const char *name;
  guint32 id;
  guint unloads; /* *unloads + 1 when `in_image` was found, 0: never */
  gboolean in_image;
} NameSlot;

static NameSlot name_cache[NAME_CACHE_SLOTS];
static const unsigned *unloads JS_HOT_DATA;
#ifdef DLFO_STRUCT_HAS_EH_DBASE
static int (*find_object) (void *address, struct dl_find_object *result) JS_HOT_DATA;
#endif
static guint64 hashed_lookups JS_HOT_DATA; /* js_names_intern calls from js_names_for_source */
static guint64 text_checks JS_HOT_DATA;    /* name cache hits checked by their text */
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

void
js_names_set_unloads (const unsigned *counter)
{
  unloads = counter;
#ifdef DLFO_STRUCT_HAS_EH_DBASE /* glibc >= 2.35: <dlfcn.h> has struct dl_find_object */
  find_object = counter != NULL ? dlsym (RTLD_DEFAULT, "_dl_find_object") : NULL;
#endif
}

/* The dlclose count + 1 now, 0 when unknown. */
static inline guint
unloads_now (void)
{
  return unloads != NULL ? __atomic_load_n (unloads, __ATOMIC_ACQUIRE) + 1 : 0;
}

#ifdef DLFO_STRUCT_HAS_EH_DBASE
/* dl_iterate_phdr's question: is `address` in a read-only PT_LOAD segment? */
typedef struct
{
  guintptr address;
  gboolean read_only;
} SegmentQuery;

static int
find_read_only_segment (struct dl_phdr_info *info, size_t size, void *data)
{
  SegmentQuery *q = data;

  (void) size;
  for (guint i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      guintptr start = info->dlpi_addr + ph->p_vaddr;

      if (ph->p_type == PT_LOAD && q->address >= start && q->address - start < ph->p_memsz)
        {
          q->read_only = (ph->p_flags & PF_W) == 0;
          return 1;
        }
    }
  return 0;
}
#endif

/* Whether `name` lies in a read-only segment of a loaded object (a string
 * literal: a writable static buffer may be rewritten), noted in its slot
 * with the count it holds for (read before asking: a dlclose after the
 * answer moves the count). _dl_find_object turns a heap address away
 * without a lock; only an address inside an object walks the objects'
 * segments (once per literal's address). */
static void
note_in_image (NameSlot *n, const char *name, guint now)
{
  n->unloads = now;
  n->in_image = FALSE;
#ifdef DLFO_STRUCT_HAS_EH_DBASE
  {
    struct dl_find_object found;
    SegmentQuery q = { (guintptr) name, FALSE };

    if (now != 0 && find_object != NULL && find_object ((void *) name, &found) == 0)
      {
        dl_iterate_phdr (find_read_only_segment, &q);
        n->in_image = q.read_only;
      }
  }
#endif
}

/* The id of `name` through the name cache's slot `n` when its text must be
 * compared (or it is not there): the string hash on a miss. A slot holding
 * JS_NAME_OVERFLOW never hits: its text, "(other)", is not the name it
 * stands for. Its own frame: the trusted hit (name_of_new_source) saves no
 * registers. */
static __attribute__ ((noinline)) guint32
checked_id (NameSlot *n, const char *name, guint now)
{
  guint32 id;

  if (n->name == name && n->id > JS_NAME_OVERFLOW)
    {
      text_checks++;
      if (strncmp (names[n->id], name, NAME_BYTES - 1) == 0)
        {
          if (n->unloads != now)
            note_in_image (n, name, now);
          return n->id;
        }
    }
  hashed_lookups++;
  id = js_names_intern (name);
  n->name = name;
  n->id = id;
  note_in_image (n, name, now);
  return id;
}

/* A source not seen before: a literal's address seen before costs a few
 * loads and compares, any other name checked_id. */
static JS_HOT __attribute__ ((noinline)) guint32
name_of_new_source (GSource *source, const char *name, CacheSlot *slot)
{
  NameSlot *n = &name_cache[(GPOINTER_TO_SIZE (name) >> 3) & (NAME_CACHE_SLOTS - 1)];
  guint now = unloads_now ();
  guint32 id;

  if (G_LIKELY (n->name == name && n->in_image && n->unloads == now && now != 0
                && n->id > JS_NAME_OVERFLOW))
    id = n->id;
  else
    id = checked_id (n, name, now);
  slot->source = source;
  slot->source_id = source->source_id;
  slot->name = name;
  slot->id = id;
  return id;
}

JS_HOT guint32
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

guint64
js_names_text_checks (void)
{
  return text_checks;
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
