/* js-builtin-patch.h: time GLib's built-in source types without the preload.
 *
 * Used in GTK_MODULES mode, where nothing was preloaded: GLib's own tables
 * (g_idle_funcs, g_timeout_funcs, ...) live in libglib's writable .data, so
 * their `dispatch` member can be replaced in place by a timing wrapper that
 * calls the original. The tables keep their addresses, so every comparison
 * GLib makes against them (g_idle_remove_by_data ...) keeps working, and
 * sources created before the module loaded are timed too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-source-swap.h"

G_BEGIN_DECLS

/* Main thread, once. Returns how many of the six tables were patched (a
 * table on a read-only page is left alone). */
guint js_builtin_patch_install (JsDispatchHook hook);

G_END_DECLS
