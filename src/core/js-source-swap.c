/* js-source-swap.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-source-swap.h"
#include "js-hot.h"

typedef struct
{
  GSourceFuncs funcs;       /* what the source points at: must stay first */
  const GSourceFuncs *orig; /* what the app gave */
} FuncsCopy;

/* Copies are never freed: sources point at them for as long as they live, and
 * there is one per distinct GSourceFuncs table (a few dozen in a big app). */
static FuncsCopy copies[JS_SOURCE_SWAP_MAX];
static guint n_copies; /* raised under `lock`, read without it (acquire) */
static GMutex lock;
static guint refused;
static const GSourceFuncs *excluded; /* jankscope's own source type */

static JsDispatchHook dispatch_hook JS_HOT_DATA;
static GMainContext *watched_context JS_HOT_DATA;

static JS_HOT gboolean
copy_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  const FuncsCopy *copy = (const FuncsCopy *) source->source_funcs;

  /* The original's dispatch is read at each call, not copied: should the app
   * free its table and a new one appear at the same address, the copy still
   * forwards to whatever is there now. */
  return dispatch_hook ((JsDispatchFunc) copy->orig->dispatch, source, callback, user_data);
}

static gboolean
is_copy (const GSourceFuncs *funcs)
{
  return (const void *) funcs >= (const void *) &copies[0]
         && (const void *) funcs < (const void *) &copies[JS_SOURCE_SWAP_MAX];
}

/* GLib compares these by address (g_idle_remove_by_data, g_source_set_closure):
 * they are timed by the preload's tables and must never be swapped. */
static gboolean
is_builtin (const GSourceFuncs *funcs)
{
  return funcs == &g_idle_funcs || funcs == &g_timeout_funcs || funcs == &g_child_watch_funcs
         || funcs == &g_io_watch_funcs || funcs == &g_unix_signal_funcs
         || funcs == &g_unix_fd_source_funcs;
}

static gboolean
copy_matches (const FuncsCopy *copy, const GSourceFuncs *orig)
{
  return copy->orig == orig && copy->funcs.prepare == orig->prepare
         && copy->funcs.check == orig->check && copy->funcs.finalize == orig->finalize
         && copy->funcs.closure_callback == orig->closure_callback
         && copy->funcs.closure_marshal == orig->closure_marshal;
}

static const FuncsCopy *
copy_for (const GSourceFuncs *orig)
{
  const FuncsCopy *found = NULL;

  g_mutex_lock (&lock);
  for (guint i = n_copies; i-- > 0;)
    if (copy_matches (&copies[i], orig))
      {
        found = &copies[i];
        break;
      }
  if (found == NULL && n_copies < JS_SOURCE_SWAP_MAX && orig->dispatch != NULL)
    {
      FuncsCopy *copy = &copies[n_copies];

      copy->funcs = *orig;
      copy->funcs.dispatch = copy_dispatch;
      copy->orig = orig;
      __atomic_store_n (&n_copies, n_copies + 1, __ATOMIC_RELEASE);
      found = copy;
    }
  g_mutex_unlock (&lock);
  return found;
}

void
js_source_swap_init (JsDispatchHook hook, GMainContext *context)
{
  dispatch_hook = hook;
  watched_context = context;
}

void
js_source_swap_before_attach (void *source_ptr, void *context)
{
  GSource *source = source_ptr;
  const FuncsCopy *copy;

  if (source == NULL || source->source_funcs == NULL)
    return;
  if ((context ? context : g_main_context_default ()) != watched_context)
    return;
  if (is_builtin (source->source_funcs) || is_copy (source->source_funcs)
      || source->source_funcs == __atomic_load_n (&excluded, __ATOMIC_ACQUIRE))
    return;
  copy = copy_for (source->source_funcs);
  if (copy == NULL)
    {
      g_atomic_int_inc (&refused);
      return;
    }
  /* The source is not attached yet: nobody else looks at it. */
  source->source_funcs = (GSourceFuncs *) &copy->funcs;
}

void
js_source_swap_exclude (const GSourceFuncs *funcs)
{
  __atomic_store_n (&excluded, funcs, __ATOMIC_RELEASE);
}

const void *
js_source_swap_lookup (const void *funcs)
{
  guint n = __atomic_load_n (&n_copies, __ATOMIC_ACQUIRE);

  for (guint i = n; i-- > 0;)
    if (copies[i].orig == funcs)
      return &copies[i].funcs;
  return NULL;
}

guint
js_source_swap_refused (void)
{
  return (guint) g_atomic_int_get (&refused);
}
