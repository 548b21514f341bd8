/* js-builtin-patch.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-builtin-patch.h"

#include <stdio.h>

static JsDispatchHook hook;

/* One wrapper per table: a GSource carries only its table pointer, and the
 * table is what we patch, so each wrapper must know its original. */
#define JS_PATCHED(name)                                                                           \
  static GSourceDispatchFunc name##_orig;                                                          \
  static gboolean name##_dispatch (GSource *s, GSourceFunc cb, gpointer ud)                        \
  {                                                                                                \
    return hook ((JsDispatchFunc) name##_orig, s, (void *) cb, ud);                                \
  }

typedef gboolean (*GSourceDispatchFunc) (GSource *, GSourceFunc, gpointer);

JS_PATCHED (idle)
JS_PATCHED (timeout)
JS_PATCHED (child_watch)
JS_PATCHED (io_watch)
JS_PATCHED (unix_signal)
JS_PATCHED (unix_fd)

/* Is [address, address + size) on a writable mapping? From /proc/self/maps:
 * writing to a RELRO page would crash the host. */
static gboolean
is_writable (const void *address, gsize size)
{
  FILE *maps = fopen ("/proc/self/maps", "re");
  char line[512];
  gboolean writable = FALSE;
  guintptr a = (guintptr) address;

  if (maps == NULL)
    return FALSE;
  while (fgets (line, sizeof line, maps))
    {
      unsigned long lo, hi;
      char perms[5];

      if (sscanf (line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && a >= lo && a + size <= hi)
        {
          writable = perms[1] == 'w';
          break;
        }
    }
  fclose (maps);
  return writable;
}

static gboolean
patch (GSourceFuncs *table, GSourceDispatchFunc *orig, GSourceDispatchFunc wrapper)
{
  if (table->dispatch == wrapper || !is_writable (table, sizeof *table))
    return FALSE;
  *orig = table->dispatch;
  /* One pointer-sized store: a thread dispatching right now reads the old
   * or the new function, both correct. */
  __atomic_store_n (&table->dispatch, wrapper, __ATOMIC_RELEASE);
  return TRUE;
}

guint
js_builtin_patch_install (JsDispatchHook the_hook)
{
  guint n = 0;

  hook = the_hook;
  n += patch (&g_idle_funcs, &idle_orig, idle_dispatch);
  n += patch (&g_timeout_funcs, &timeout_orig, timeout_dispatch);
  n += patch (&g_child_watch_funcs, &child_watch_orig, child_watch_dispatch);
  n += patch (&g_io_watch_funcs, &io_watch_orig, io_watch_dispatch);
  n += patch (&g_unix_signal_funcs, &unix_signal_orig, unix_signal_dispatch);
  n += patch (&g_unix_fd_source_funcs, &unix_fd_orig, unix_fd_dispatch);
  return n;
}
