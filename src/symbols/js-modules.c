/* js-modules.c
 *
 * The registry is a bounded array of entries (never freed, ids = index + 1)
 * and a second array of the entries loaded now, sorted by start address, for
 * a binary search. Both change only in refresh (), under the mutex.
 *
 * dl_iterate_phdr () reports dlpi_adds/dlpi_subs, the loader's counts of
 * loads and unloads: every resolve asks for them alone (the callback stops
 * at the first module, one short call under the loader's lock) and walks
 * the whole list only when they moved: on a miss, when anything was loaded
 * or unloaded; on a hit, when something was unloaded (the hit may be a
 * module gone since, or hide one loaded at its address).
 *
 * Thread-safe: every entry point takes the mutex. Entries are never freed,
 * so js_modules_get ()'s pointers stay valid; only `unloaded` and `resolved`
 * change afterwards (set atomically, read without the lock).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-modules.h"

#include <link.h>
#include <string.h>
#include <unistd.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

#define BUILD_ID_MAX 64 /* bytes; real ones are 20 (sha1) or 16 (md5/uuid) */

/* The public part first: a JsModule * is an Entry *. */
typedef struct
{
  JsModule pub;
  guint seen; /* the refresh that saw it loaded last */
} Entry;

struct _JsModules
{
  GMutex lock;
  Entry *entries[JS_MODULES_MAX]; /* id - 1 -> entry */
  guint n_entries;
  JsModule **loaded; /* sorted by start; capacity JS_MODULES_MAX */
  guint n_loaded;
  unsigned long long adds, subs; /* as of the last refresh */
  guint refreshes;
  char *exe_path;   /* /proc/self/exe, read once */
  gboolean offline; /* modules added by hand, never read from the process */
};

/* One refresh's scratch state, for the dl_iterate_phdr callback. */
typedef struct
{
  JsModules *modules;
  JsModule **seen; /* loaded now, found or new; capacity JS_MODULES_MAX */
  guint n_seen;
  gboolean first;
} Refresh;

JsModules *
js_modules_new (void)
{
  JsModules *modules = g_new0 (JsModules, 1);

  g_mutex_init (&modules->lock);
  modules->loaded = g_new0 (JsModule *, JS_MODULES_MAX);
  return modules;
}

void
js_modules_free (JsModules *modules)
{
  if (modules == NULL)
    return;
  for (guint i = 0; i < modules->n_entries; i++)
    {
      JsModule *m = &modules->entries[i]->pub;

      g_free (m->path);
      g_free (m->name);
      g_free (m->build_id);
      g_free (m);
    }
  g_free (modules->loaded);
  g_free (modules->exe_path);
  g_mutex_clear (&modules->lock);
  g_free (modules);
}

static const char *
exe_path (JsModules *modules)
{
  if (modules->exe_path == NULL)
    {
      modules->exe_path = g_file_read_link ("/proc/self/exe", NULL);
      if (modules->exe_path == NULL)
        modules->exe_path = g_strdup ("");
    }
  return modules->exe_path;
}

/* Whether [vaddr, vaddr + size) lies in the file-backed part of a PT_LOAD
 * segment: mapped and readable. */
static gboolean
is_loaded (const struct dl_phdr_info *info, ElfW (Addr) vaddr, ElfW (Xword) size)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];

      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && vaddr >= ph->p_vaddr
          && size <= ph->p_filesz && vaddr - ph->p_vaddr <= ph->p_filesz - size)
        return TRUE;
    }
  return FALSE;
}

/* The NT_GNU_BUILD_ID note of a loaded module, read from its PT_NOTE
 * segments in memory (they stay mapped: the loader holds its lock while
 * dl_iterate_phdr () calls us). */
static char *
read_build_id (const struct dl_phdr_info *info)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      const guint8 *p, *end;
      gsize align;

      if (ph->p_type != PT_NOTE || ph->p_memsz < sizeof (ElfW (Nhdr))
          || !is_loaded (info, ph->p_vaddr, ph->p_memsz))
        continue;
      p = (const guint8 *) (info->dlpi_addr + ph->p_vaddr);
      end = p + ph->p_memsz;
      align = ph->p_align == 8 ? 8 : 4;
      while ((gsize) (end - p) >= sizeof (ElfW (Nhdr)))
        {
          ElfW (Nhdr) note;
          gsize name_size, desc_size;
          const guint8 *name, *desc;

          memcpy (&note, p, sizeof note);
          name_size = (note.n_namesz + align - 1) & ~(align - 1);
          desc_size = (note.n_descsz + align - 1) & ~(align - 1);
          name = p + sizeof note;
          desc = name + name_size;
          if (name_size > (gsize) (end - name) || desc_size > (gsize) (end - desc))
            break;
          if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && memcmp (name, "GNU", 4) == 0
              && note.n_descsz > 0 && note.n_descsz <= BUILD_ID_MAX)
            {
              char *hex = g_malloc (note.n_descsz * 2 + 1);

              for (guint j = 0; j < note.n_descsz; j++)
                {
                  hex[2 * j] = "0123456789abcdef"[desc[j] >> 4];
                  hex[2 * j + 1] = "0123456789abcdef"[desc[j] & 0xf];
                }
              hex[note.n_descsz * 2] = '\0';
              return hex;
            }
          p = desc + desc_size;
        }
    }
  return NULL;
}

/* Index of the last loaded entry with start <= address, or -1. */
static int
find_loaded (JsModules *modules, guint64 address)
{
  guint lo = 0, hi = modules->n_loaded;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (modules->loaded[mid]->start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (int) lo - 1;
}

static JsModule *
lookup_loaded (JsModules *modules, guint64 address)
{
  int i = find_loaded (modules, address);

  if (i >= 0 && address < modules->loaded[i]->end)
    return modules->loaded[i];
  return NULL;
}

/* The loaded entry for this module as the loader reports it now, if the
 * previous refresh saw it already. */
static JsModule *
find_known (JsModules *modules, const char *path, guint64 base, guint64 start, guint64 end)
{
  int i = find_loaded (modules, start);

  if (i >= 0)
    {
      JsModule *m = modules->loaded[i];

      if (m->start == start && m->end == end && m->base == base && strcmp (m->path, path) == 0)
        return m;
    }
  return NULL;
}

static int
peek_counters (struct dl_phdr_info *info, size_t size, void *data)
{
  unsigned long long *counters = data;

  if (size < offsetof (struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    return 1;
  counters[0] = info->dlpi_adds;
  counters[1] = info->dlpi_subs;
  return 1; /* stop: the counters are the same in every call */
}

static int
refresh_one (struct dl_phdr_info *info, size_t size, void *data)
{
  Refresh *r = data;
  JsModules *modules = r->modules;
  gboolean is_main = r->first && (info->dlpi_name == NULL || info->dlpi_name[0] == '\0');
  const char *path = is_main ? exe_path (modules) : info->dlpi_name;
  guint64 start = G_MAXUINT64, end = 0;
  const ElfW (Phdr) *text = NULL;
  JsModule *m;
  Entry *e;

  r->first = FALSE;
  if (size >= offsetof (struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    {
      modules->adds = info->dlpi_adds;
      modules->subs = info->dlpi_subs;
    }
  if (path == NULL || path[0] == '\0')
    return 0; /* nameless and not the program: nothing to read symbols from */
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];

      if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
        continue;
      if (text == NULL && (ph->p_flags & PF_X) != 0)
        text = ph;
      start = MIN (start, (guint64) info->dlpi_addr + ph->p_vaddr);
      end = MAX (end, (guint64) info->dlpi_addr + ph->p_vaddr + ph->p_memsz);
    }
  if (start >= end || r->n_seen >= JS_MODULES_MAX)
    return 0;

  m = find_known (modules, path, info->dlpi_addr, start, end);
  if (m == NULL)
    {
      if (modules->n_entries >= JS_MODULES_MAX)
        return 0; /* full: this module stays unknown */
      e = g_new0 (Entry, 1);
      m = &e->pub;
      m->id = modules->n_entries + 1;
      m->path = g_strdup (path);
      m->name = g_path_get_basename (path);
      m->base = info->dlpi_addr;
      m->start = start;
      m->end = end;
      m->build_id = read_build_id (info);
      if (text != NULL)
        {
          m->text_vaddr = text->p_vaddr;
          m->text_offset = text->p_offset;
        }
      m->is_main = is_main;
      modules->entries[modules->n_entries++] = e;
    }
  ((Entry *) m)->seen = modules->refreshes;
  r->seen[r->n_seen++] = m;
  return 0;
}

static int
compare_start (gconstpointer a, gconstpointer b)
{
  const JsModule *ma = *(JsModule *const *) a, *mb = *(JsModule *const *) b;

  if (ma->start != mb->start)
    return ma->start < mb->start ? -1 : 1;
  /* Should two ever overlap, the newer one sorts last and wins the search. */
  return ma->id < mb->id ? -1 : ma->id > mb->id;
}

/* Called with the lock held. */
static void
refresh (JsModules *modules)
{
  Refresh r = { modules, g_new (JsModule *, JS_MODULES_MAX), 0, TRUE };

  modules->refreshes++;
  dl_iterate_phdr (refresh_one, &r);

  /* Whatever was loaded before and is not now was unloaded. `unloaded` is
   * read without the lock by holders of js_modules_get ()'s pointer. */
  for (guint i = 0; i < modules->n_loaded; i++)
    if (((Entry *) modules->loaded[i])->seen != modules->refreshes)
      g_atomic_int_set (&modules->loaded[i]->unloaded, TRUE);

  qsort (r.seen, r.n_seen, sizeof r.seen[0], compare_start);
  memcpy (modules->loaded, r.seen, r.n_seen * sizeof r.seen[0]);
  modules->n_loaded = r.n_seen;
  g_free (r.seen);
}

JsModules *
js_modules_new_offline (void)
{
  JsModules *modules = js_modules_new ();

  modules->offline = TRUE;
  return modules;
}

guint
js_modules_add (JsModules *modules, const char *path, const char *build_id, guint64 base,
                guint64 size)
{
  Entry *e;
  JsModule *m;

  if (modules == NULL || !modules->offline || path == NULL || size == 0
      || base > G_MAXUINT64 - size)
    return 0;
  g_mutex_lock (&modules->lock);
  if (modules->n_entries >= JS_MODULES_MAX)
    {
      g_mutex_unlock (&modules->lock);
      return 0;
    }
  e = g_new0 (Entry, 1);
  m = &e->pub;
  m->id = modules->n_entries + 1;
  m->path = g_strdup (path);
  m->name = g_path_get_basename (path);
  m->base = base;
  m->start = base;
  m->end = base + size;
  m->build_id = build_id != NULL ? g_ascii_strdown (build_id, -1) : NULL;
  /* Nothing of it is in this process's memory to be read. */
  m->unloaded = TRUE;
  modules->entries[modules->n_entries++] = e;
  modules->loaded[modules->n_loaded++] = m;
  qsort (modules->loaded, modules->n_loaded, sizeof modules->loaded[0], compare_start);
  g_mutex_unlock (&modules->lock);
  return m->id;
}

guint64
js_modules_unloads (void)
{
  unsigned long long counters[2] = { 0, 0 };

  dl_iterate_phdr (peek_counters, counters);
  return counters[1];
}

guint
js_modules_resolve (JsModules *modules, guint64 address)
{
  unsigned long long counters[2] = { 0, 0 };
  JsModule *m;
  guint id = 0;

  if (modules == NULL || address == 0)
    return 0;
  g_mutex_lock (&modules->lock);
  m = lookup_loaded (modules, address);
  if (modules->offline)
    {
      id = m != NULL ? m->id : 0;
      g_mutex_unlock (&modules->lock);
      return id;
    }
  dl_iterate_phdr (peek_counters, counters);
  /* A hit stands unless something was unloaded since (a module loaded
   * since may sit where it was); a miss, unless nothing changed. */
  if (modules->refreshes == 0 || counters[1] != modules->subs
      || (m == NULL && counters[0] != modules->adds))
    {
      refresh (modules);
      m = lookup_loaded (modules, address);
    }
  if (m != NULL)
    {
      id = m->id;
      /* Read without the lock by the report (js-report-stacks.c). */
      if (!g_atomic_int_get (&m->resolved))
        g_atomic_int_set (&m->resolved, TRUE);
    }
  g_mutex_unlock (&modules->lock);
  return id;
}

const JsModule *
js_modules_get (JsModules *modules, guint id)
{
  const JsModule *m = NULL;

  if (modules == NULL || id == 0)
    return NULL;
  g_mutex_lock (&modules->lock);
  if (id <= modules->n_entries)
    m = &modules->entries[id - 1]->pub;
  g_mutex_unlock (&modules->lock);
  return m;
}
