/* js-names.h: source names, interned so records carry a small id.
 *
 * A GSource's name may be freed with the source, long before the collector
 * looks at a record; so the main thread copies each distinct name once into
 * a fixed table and records its id. Interning is main-thread only; reading a
 * published name is safe from any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_NAME_NONE 0     /* the source has no name */
#define JS_NAME_OVERFLOW 1 /* the table is full: "(other)" */
#define JS_NAMES_MAX 1024

/* Main thread only. A hit (same source, same name) costs a few loads; a new
 * source whose name's address was seen before, a few more, and a strncmp
 * unless that address is a literal's (js_names_set_unloads). */
guint32 js_names_for_source (GSource *source);

/* Main thread only; exposed for tests. */
guint32 js_names_intern (const char *name);

/* The preload's count of dlclose calls (JsBridge.unloads), NULL: none. With
 * it, a name inside a loaded object's image (a literal) is trusted by its
 * address until the count moves. Before the first js_names_for_source. */
void js_names_set_unloads (const unsigned *counter);

/* Main thread only; for tests: how often js_names_for_source had to hash a
 * name (neither the source nor its name's address was known). */
guint64 js_names_hashed_lookups (void);

/* Main thread only; for tests: how often a known name's address had its
 * text compared (not trusted by js_names_set_unloads's rule). */
guint64 js_names_text_checks (void);

/* Any thread. NULL for JS_NAME_NONE and unknown ids. */
const char *js_names_get (guint32 id);

/* Is it one of jankscope's own sources ("[jankscope] ...", the window's
 * "[jankscope-ui] ...")? They are left out of statistics and events. */
gboolean js_names_is_own (guint32 id);

G_END_DECLS
