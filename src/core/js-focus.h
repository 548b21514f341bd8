/* js-focus.h: the title of the app's focused window, GTK3 and GTK4.
 *
 * GTK is looked up, never linked. GObject's "notify" signal takes no
 * emission hooks (G_SIGNAL_NO_HOOKS), so the windows are found instead: at
 * most every 250 ms the poll function lists the toplevels (once GTK has made
 * a GtkWindow), and each window seen for the first time gets two handlers,
 * "notify::is-active" and "notify::title", which record a change as it
 * happens. A new window's state is read when it is found. Each change of the
 * focused window's title is one JS_RECORD_TITLE (the title interned in a
 * bounded table). With JANKSCOPE_SCRUB nothing here runs: no title is read.
 *
 * Main thread only (a jankscope thread never calls GTK).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-labels.h"
#include "js-ring.h"

G_BEGIN_DECLS

#define JS_FOCUS_TITLES 256      /* distinct titles kept */
#define JS_FOCUS_TITLE_BYTES 128 /* 127 bytes kept */

/* Start-up, on the main thread. Nothing happens unless `enabled`. */
void js_focus_init (JsRing *ring, gboolean enabled);

/* A poll observer (js-mainloop.h): scans every 250 ms; done once titles are
 * not tracked (off, GTK without the functions it needs, disabled). */
gint64 js_focus_poll (gint64 now_ns);

/* Exit, fork child. */
void js_focus_disable (void);

/* Any thread. */
const JsLabels *js_focus_titles (void);

G_END_DECLS
