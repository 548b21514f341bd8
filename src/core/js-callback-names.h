/* js-callback-names.h: names for code addresses (callbacks, dispatch
 * functions), the reports' `callback` and `callback_frame` members.
 *
 * The libdw symbolizer names them like stack frames (js-symbolizer.h: static
 * functions too, file:line where debug information exists); without one, or
 * for an address it cannot name, dladdr () against the dynamic symbol
 * tables: exported functions get their name, others "module+0xOFFSET" so
 * they can be symbolized offline. Cached per address (not while the
 * module's debug file is being fetched). Collector thread only: the main
 * thread only records the address.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-modules.h"
#include "js-symbolizer.h"

G_BEGIN_DECLS

typedef struct _JsCallbackNames JsCallbackNames;

typedef struct
{
  const char *name;       /* the function, else "module+0xOFFSET" (or an address) */
  JsFrame frame;          /* the symbolizer's frame: function, file:line, module, offset */
  const JsModule *module; /* NULL when no module holds the address (or no symbolizer) */
} JsCallbackName;

JsCallbackNames *js_callback_names_new (void);
void js_callback_names_free (JsCallbackNames *names);

/* Names through `symbolizer` from now on (its thread's, with `modules`). */
void js_callback_names_set_symbolizer (JsCallbackNames *names, JsSymbolizer *symbolizer,
                                       JsModules *modules);

/* Borrowed string, valid until js_callback_names_free (); NULL for a NULL address. */
const char *js_callback_names_lookup (JsCallbackNames *names, const void *address);

/* All of it; NULL for a NULL address. Valid until the next call. */
const JsCallbackName *js_callback_names_describe (JsCallbackNames *names, const void *address);

G_END_DECLS
