/* preload-interpose.c: the few GLib functions the preload stands in for.
 *
 * Only calls from outside libglib reach these (GLib's internal calls bind
 * directly), which is what each of them needs:
 *  - g_source_attach: sources of custom types (GDK's event sources, GIO's,
 *    the app's) are attached from outside GLib; the core may give them a
 *    timing copy of their GSourceFuncs; and where it was attached from
 *    (preload-post.c).
 *  - g_main_context_set/get_poll_func: the core keeps its poll function
 *    installed and chains to the one the app sets (and reports the app's
 *    back to it).
 *  - g_main_context_find_source_by_funcs_user_data and
 *    g_source_remove_by_funcs_user_data: a source whose funcs the core
 *    copied is found by its original funcs too.
 *  - g_main_context_iteration, g_main_loop_run, g_main_context_pending: only
 *    to start the core at the first main-loop use after main () (preload.c),
 *    before forwarding, so that the first iteration is timed. GTK, GIO and
 *    the app call them through their PLT; once started, each costs one
 *    relaxed load.
 *
 * Each forwards to GLib's function, found once (js_preload_real_symbol).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <stddef.h>

/* GLib may be loaded RTLD_LOCAL (a plugin's dependency): js_preload_real_symbol. */
#define REAL(name, type) ((type) js_preload_real_symbol (&real_##name, #name, "libglib-2.0.so.0"))

/* GLib's prototypes, without GLib's types. */
JS_EXPORT unsigned g_source_attach (void *source, void *context);
JS_EXPORT void g_main_context_set_poll_func (void *context, void *func);
JS_EXPORT void *g_main_context_get_poll_func (void *context);
JS_EXPORT void *g_main_context_find_source_by_funcs_user_data (void *context, void *funcs,
                                                               void *user_data);
JS_EXPORT int g_source_remove_by_funcs_user_data (void *funcs, void *user_data);
JS_EXPORT int g_main_context_iteration (void *context, int may_block);
JS_EXPORT void g_main_loop_run (void *loop);
JS_EXPORT int g_main_context_pending (void *context);

static void *real_g_source_attach JS_HOT_DATA;
static void *real_g_main_context_set_poll_func;
static void *real_g_main_context_get_poll_func;
static void *real_g_main_context_find_source_by_funcs_user_data;
static void *real_g_source_destroy;
static void *real_g_main_context_iteration;
static void *real_g_main_loop_run;
static void *real_g_main_context_pending;

static void *
hook_or_activate (void *const *slot)
{
  void *hook = js_load_hook (slot);

  if (JS_UNLIKELY (hook == NULL) && JS_UNLIKELY (js_preload_undecided ()))
    {
      js_preload_try_activate ();
      hook = js_load_hook (slot);
    }
  return hook;
}

JS_EXPORT JS_HOT unsigned
g_source_attach (void *source, void *context)
{
  void (*hook) (void *, void *) = hook_or_activate ((void **) &js_preload_bridge.before_attach);
  unsigned id;

  if (hook != NULL)
    hook (source, context);
  id = REAL (g_source_attach, unsigned (*) (void *, void *)) (source, context);
  js_preload_post_attach (__builtin_return_address (0), context, id);
  return id;
}

JS_EXPORT void
g_main_context_set_poll_func (void *context, void *func)
{
  int (*hook) (void *, void *) = hook_or_activate ((void **) &js_preload_bridge.set_poll_func);

  if (hook != NULL && hook (context, func))
    return;
  REAL (g_main_context_set_poll_func, void (*) (void *, void *)) (context, func);
}

JS_EXPORT void *
g_main_context_get_poll_func (void *context)
{
  int (*hook) (void *, void **) = js_load_hook ((void **) &js_preload_bridge.get_poll_func);
  void *func;

  if (hook != NULL && hook (context, &func))
    return func;
  return REAL (g_main_context_get_poll_func, void *(*) (void *) ) (context);
}

static void *
find_source (void *context, void *funcs, void *user_data)
{
  void *(*find) (void *, void *, void *)
      = REAL (g_main_context_find_source_by_funcs_user_data, void *(*) (void *, void *, void *) );
  const void *(*swapped) (const void *) = js_load_hook ((void **) &js_preload_bridge.swapped_funcs);
  void *source = find (context, funcs, user_data);
  const void *copy;

  if (source == NULL && swapped != NULL && funcs != NULL && (copy = swapped (funcs)) != NULL)
    source = find (context, (void *) copy, user_data);
  return source;
}

JS_EXPORT void *
g_main_context_find_source_by_funcs_user_data (void *context, void *funcs, void *user_data)
{
  return find_source (context, funcs, user_data);
}

/* Same contract as GLib's: find in the default context, destroy, TRUE. */
JS_EXPORT int
g_source_remove_by_funcs_user_data (void *funcs, void *user_data)
{
  void *source = find_source (NULL, funcs, user_data);

  if (source == NULL)
    return 0;
  REAL (g_source_destroy, void (*) (void *)) (source);
  return 1;
}

JS_EXPORT int
g_main_context_iteration (void *context, int may_block)
{
  js_preload_first_use ();
  return REAL (g_main_context_iteration, int (*) (void *, int)) (context, may_block);
}

JS_EXPORT void
g_main_loop_run (void *loop)
{
  js_preload_first_use ();
  REAL (g_main_loop_run, void (*) (void *)) (loop);
}

JS_EXPORT int
g_main_context_pending (void *context)
{
  js_preload_first_use ();
  return REAL (g_main_context_pending, int (*) (void *)) (context);
}
