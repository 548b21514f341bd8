/* preload-funcs.c: GLib's built-in source types, seen from the inside.
 *
 * libglib is linked -Bsymbolic-functions, so its internal calls (every
 * g_idle_add, g_timeout_add ...) never reach an interposed function. But it
 * reaches its built-in GSourceFuncs tables (g_idle_funcs, g_timeout_funcs, ...)
 * as *data*, through its GOT, and a data symbol defined by the preloaded object
 * wins. So we define those six tables here: each source GLib creates points at
 * our table, whose dispatch times the call and forwards to GLib's own table
 * (found with dlsym (RTLD_NEXT)). The address GLib compares against
 * (g_idle_remove_by_data compares source->source_funcs with &g_idle_funcs)
 * is ours everywhere, so those comparisons keep working.
 *
 * The tables are statically initialised with lazy forwarders, because a library
 * constructor may create a source before ours runs; js_preload_funcs_bind()
 * then replaces prepare/check/finalize with GLib's own functions, so only the
 * dispatch goes through us.
 *
 * Each table must be exactly sizeof (GSourceFuncs): an executable that refers
 * to one gets a copy relocation of that size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <dlfcn.h>
#include <stddef.h>

_Static_assert(sizeof (JsSourceFuncs) == 6 * sizeof (void *), "GSourceFuncs layout");

typedef int (*JsPrepareFunc) (void *source, int *timeout);
typedef int (*JsCheckFunc) (void *source);
typedef void (*JsFinalizeFunc) (void *source);

/* Used when GLib below us lacks a table: nothing calls it then, but never crash. */
static JsSourceFuncs js_null_funcs;

static JS_HOT JsSourceFuncs *
resolve_real (JsSourceFuncs **slot, const char *name, const JsSourceFuncs *ours)
{
  JsSourceFuncs *real = __atomic_load_n (slot, __ATOMIC_ACQUIRE);

  if (real == NULL)
    {
      /* GLib may be loaded RTLD_LOCAL (a plugin's dependency). */
      real = js_preload_next_symbol (name, "libglib-2.0.so.0");
      if (real == NULL || real == ours)
        real = &js_null_funcs;
      __atomic_store_n (slot, real, __ATOMIC_RELEASE);
    }
  return real;
}

/* GLib treats a NULL prepare/check as "not ready" and a NULL finalize as
 * nothing to do; the forwarders keep those meanings. */
static int
forward_prepare (const JsSourceFuncs *real, void *source, int *timeout)
{
  return real->prepare ? ((JsPrepareFunc) real->prepare) (source, timeout) : 0;
}

static int
forward_check (const JsSourceFuncs *real, void *source)
{
  return real->check ? ((JsCheckFunc) real->check) (source) : 0;
}

static void
forward_finalize (const JsSourceFuncs *real, void *source)
{
  if (real->finalize)
    ((JsFinalizeFunc) real->finalize) (source);
}

/* One table and four small forwarders per built-in type: each forwarder must
 * know which of GLib's tables it stands for, and a GSource carries no more
 * than its table pointer. */
#define JS_BUILTIN_FUNCS(name)                                                                     \
  static JsSourceFuncs *name##_real JS_HOT_DATA;                                                   \
  JS_EXPORT JsSourceFuncs name JS_HOT_DATA;                                                        \
  static JsSourceFuncs *name##_get (void) { return resolve_real (&name##_real, #name, &name); }    \
  static int name##_prepare (void *s, int *t) { return forward_prepare (name##_get (), s, t); }    \
  static int name##_check (void *s) { return forward_check (name##_get (), s); }                   \
  static void name##_finalize (void *s) { forward_finalize (name##_get (), s); }                   \
  static JS_HOT int name##_dispatch (void *s, void *cb, void *ud)                                  \
  {                                                                                                \
    return js_preload_dispatch ((JsDispatchFunc) name##_get ()->dispatch, s, cb, ud);              \
  }                                                                                                \
  JsSourceFuncs name = { (void *) name##_prepare,                                                  \
                         (void *) name##_check,                                                    \
                         (void *) name##_dispatch,                                                 \
                         (void *) name##_finalize,                                                 \
                         NULL,                                                                     \
                         NULL };

JS_BUILTIN_FUNCS (g_idle_funcs)
JS_BUILTIN_FUNCS (g_timeout_funcs)
JS_BUILTIN_FUNCS (g_child_watch_funcs)
JS_BUILTIN_FUNCS (g_io_watch_funcs)
JS_BUILTIN_FUNCS (g_unix_signal_funcs)
JS_BUILTIN_FUNCS (g_unix_fd_source_funcs)

static void
bind_one (JsSourceFuncs *ours, JsSourceFuncs *real)
{
  if (real == &js_null_funcs)
    return;
  /* Single pointer-sized stores: a concurrent reader sees the forwarder or
   * GLib's function, both correct. The dispatch stays ours. */
  __atomic_store_n (&ours->prepare, real->prepare, __ATOMIC_RELAXED);
  __atomic_store_n (&ours->check, real->check, __ATOMIC_RELAXED);
  __atomic_store_n (&ours->finalize, real->finalize, __ATOMIC_RELAXED);
  __atomic_store_n (&ours->closure_callback, real->closure_callback, __ATOMIC_RELAXED);
  __atomic_store_n (&ours->closure_marshal, real->closure_marshal, __ATOMIC_RELAXED);
}

void
js_preload_funcs_bind (void)
{
  bind_one (&g_idle_funcs, g_idle_funcs_get ());
  bind_one (&g_timeout_funcs, g_timeout_funcs_get ());
  bind_one (&g_child_watch_funcs, g_child_watch_funcs_get ());
  bind_one (&g_io_watch_funcs, g_io_watch_funcs_get ());
  bind_one (&g_unix_signal_funcs, g_unix_signal_funcs_get ());
  bind_one (&g_unix_fd_source_funcs, g_unix_fd_source_funcs_get ());
}
