/* js-source-swap.h: timing copies of custom GSourceFuncs.
 *
 * GLib's built-in source types are timed by the preload's own tables. Every
 * other source type (GDK's event sources, GIO's, the app's) is timed by
 * pointing the source, when it is attached to the default context, at a copy
 * of its GSourceFuncs whose dispatch goes through the dispatch hook. The
 * preload's find-by-funcs interposers map the original funcs to the copy, so
 * g_main_context_find_source_by_funcs_user_data and
 * g_source_remove_by_funcs_user_data still find such sources.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "jankscope-bridge.h"

G_BEGIN_DECLS

#define JS_SOURCE_SWAP_MAX 256

typedef int (*JsDispatchHook) (JsDispatchFunc real, void *source, void *callback, void *user_data);

/* `hook` times a dispatch; `context` is the only context whose sources get copies. */
void js_source_swap_init (JsDispatchHook hook, GMainContext *context);

/* Bridge hooks (any thread). */
void js_source_swap_before_attach (void *source, void *context);
const void *js_source_swap_lookup (const void *funcs);

/* How many sources could not get a copy (table full or funcs changed in
 * place); their dispatches are only visible as iteration time. */
guint js_source_swap_refused (void);

/* Sources with these funcs (jankscope's own ping) are neither swapped nor
 * timed. */
void js_source_swap_exclude (const GSourceFuncs *funcs);

G_END_DECLS
