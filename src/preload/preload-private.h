/* preload-private.h: shared state of the LD_PRELOAD object (plain C, no GLib).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jankscope-bridge.h"
#include "js-hot.h"

#define JS_HIDDEN __attribute__ ((visibility ("hidden")))
#define JS_EXPORT __attribute__ ((visibility ("default")))
#define JS_UNLIKELY(x) __builtin_expect (!!(x), 0)

typedef enum
{
  JS_STATE_UNDECIDED = 0, /* not started yet: before main, before the first main-loop use,
                           * or GLib not loaded (yet) */
  JS_STATE_OFF,           /* not a GLib app, disabled, or the core failed */
  JS_STATE_ON,
} JsPreloadState;

JS_HIDDEN extern JsBridge js_preload_bridge;
JS_HIDDEN extern int js_preload_state;

/* dlclose calls seen (preload-unloads.c), for JsBridge.unloads. */
JS_HIDDEN extern unsigned js_preload_unloads;

/* Nonzero once the program's main () has started (preload-start.c). */
JS_HIDDEN extern int js_preload_main_started;

/* Called from an interposed entry point while the state is undecided:
 * decides (and starts the core) when called on the main thread after main ()
 * has started. */
JS_HIDDEN void js_preload_try_activate (void);

/* From the preload's constructor: learns whether the program's start code
 * will tell us when main () starts (preload-start.c). */
JS_HIDDEN void js_preload_start_init (void);

/* Replaces the lazy forwarders of the built-in source types with GLib's own
 * functions, once GLib is known to be loaded. */
JS_HIDDEN void js_preload_funcs_bind (void);

/* The annotation API's table the app finds first (preload-api.c); the core
 * fills in its functions when it starts. */
JS_HIDDEN void *js_preload_api_table (void);

/* After g_source_attach (source, context) gave the source its id:
 * tells the core where it was attached from (preload-post.c). */
JS_HIDDEN void js_preload_post_attach (const void *caller, void *context, unsigned id);

/* The dispatch path of every built-in source type. */
JS_HIDDEN int js_preload_dispatch (JsDispatchFunc real, void *source, void *callback,
                                   void *user_data);

/* `name` below the preload: dlsym (RTLD_NEXT), else in `library` when it is
 * loaded outside the global scope that RTLD_NEXT searches (a module's
 * dependency, dlopened RTLD_LOCAL by a program not linked with it: its
 * callers are linked with it, so it is loaded). NULL when neither has it. */
JS_HIDDEN void *js_preload_next_symbol (const char *name, const char *library);
/* A stand-in's real function, looked up once into `*slot`
 * (js_preload_next_symbol). Only code that has `library` loaded calls a
 * stand-in, so not finding it is a broken installation: one line, abort. */
JS_HIDDEN void *js_preload_real_symbol (void **slot, const char *name, const char *library);

static inline void *
js_load_hook (void *const *slot)
{
  return __atomic_load_n ((void **) slot, __ATOMIC_ACQUIRE);
}

/* The hooks are read with acquire loads; the state needs no ordering. */
static inline int
js_preload_undecided (void)
{
  return __atomic_load_n (&js_preload_state, __ATOMIC_RELAXED) == JS_STATE_UNDECIDED;
}

/* At a main-loop entry point: starts the core at the first use after main ().
 * Once decided, one relaxed load. */
static inline void
js_preload_first_use (void)
{
  if (JS_UNLIKELY (js_preload_undecided ()))
    js_preload_try_activate ();
}

/* Nonzero when the name `poll` resolves to the preload's guarded wrapper in
 * the global scope (preload-blocking.c): JsBridge.poll_wrapped. */
JS_HIDDEN int js_preload_poll_wrapped (void);
