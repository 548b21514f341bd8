/* preload-private.h: shared state of the LD_PRELOAD object (plain C, no GLib).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jankscope-bridge.h"

#define JS_HIDDEN __attribute__ ((visibility ("hidden")))
#define JS_EXPORT __attribute__ ((visibility ("default")))
#define JS_UNLIKELY(x) __builtin_expect (!!(x), 0)

typedef enum
{
  JS_STATE_UNDECIDED = 0, /* GLib not loaded (yet): maybe it gets dlopen()ed later */
  JS_STATE_OFF,           /* not a GLib app, disabled, or the core failed */
  JS_STATE_ON,
} JsPreloadState;

JS_HIDDEN extern JsBridge js_preload_bridge;
JS_HIDDEN extern int js_preload_state;

/* Called from an interposed entry point while the state is undecided:
 * decides (and starts the core) when called on the main thread. */
JS_HIDDEN void js_preload_try_activate (void);

/* Replaces the lazy forwarders of the built-in source types with GLib's own
 * functions, once GLib is known to be loaded. */
JS_HIDDEN void js_preload_funcs_bind (void);

/* The dispatch path of every built-in source type. */
JS_HIDDEN int js_preload_dispatch (JsDispatchFunc real, void *source, void *callback,
                                   void *user_data);

static inline void *
js_load_hook (void *const *slot)
{
  return __atomic_load_n ((void **) slot, __ATOMIC_ACQUIRE);
}

static inline int
js_preload_undecided (void)
{
  return __atomic_load_n (&js_preload_state, __ATOMIC_ACQUIRE) == JS_STATE_UNDECIDED;
}
