/* js-stack-path.h: a sampled stack as a path of the profile, and what each
 * frame is to the culprit rules.
 *
 * jankscope's own frames on the main thread (its dispatch hook and the
 * timing copies of GSourceFuncs, the poll function, the signal handler, the
 * preload's wrappers of blocking calls: modules libjankscope*, but not the
 * window's libjankscope-gtk4) are left out, and where its dispatch hook sat,
 * the caller is marked as the loop's dispatch (JS_NODE_DISPATCH: with
 * GLib's symbols stripped, g_main_dispatch has no name, and this is how it
 * is known). Frames outside any module at the outermost end (an unwinding
 * that lost its way) are left out too. A stack deeper than was sampled
 * starts with a [truncated] frame.
 *
 * Each frame gets its flags: JS_NODE_DISPATCH for the loop's dispatch
 * functions (g_main_dispatch, g_main_context_dispatch, and the frame
 * clock's paint: gdk_frame_clock_paint_idle, _gdk_frame_clock_emit_*, when
 * they have names), JS_NODE_LOOP for what calls into the main loop or
 * starts the program (main, _start, __libc_start_main, g_application_run,
 * gtk_main, g_main_loop_run, g_main_context_iteration...), JS_NODE_APP for
 * the app's own code (the executable, or a library outside the system's
 * library folders), JS_NODE_SYSTEM for libc, the loader, GLib/GObject/GIO,
 * libffi and the unwinders.
 *
 * Collector thread only (js_stack_path_library_is_app: any thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-modules.h"
#include "js-profile.h"
#include "js-stack-table.h"

G_BEGIN_DECLS

/* The stack's path (root first), made once and kept with the stack. */
const JsPathFrame *js_stack_path_get (JsModules *modules, const JsStack *stack, guint *n);

/* Is this module jankscope's own code on the main thread (left out)? */
gboolean js_stack_path_module_is_own (const JsModule *m);

/* Is the library at `path` the app's own code (not in the system's library
 * folders, not GLib's, libc's or jankscope's)? Any thread. */
gboolean js_stack_path_library_is_app (const char *path);

G_END_DECLS
