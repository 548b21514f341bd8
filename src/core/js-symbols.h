/* js-symbols.h: names for code addresses (callbacks, dispatch functions).
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

typedef struct _JsSymbols JsSymbols;

typedef struct
{
  const char *name;       /* the function, else "module+0xOFFSET" (or an address) */
  JsFrame frame;          /* the symbolizer's frame: function, file:line, module, offset */
  const JsModule *module; /* NULL when no module holds the address (or no symbolizer) */
} JsCallbackName;

JsSymbols *js_symbols_new (void);
void js_symbols_free (JsSymbols *symbols);

/* Names through `symbolizer` from now on (its thread's, with `modules`). */
void js_symbols_set_symbolizer (JsSymbols *symbols, JsSymbolizer *symbolizer, JsModules *modules);

/* Borrowed string, valid until js_symbols_free (); NULL for a NULL address. */
const char *js_symbols_lookup (JsSymbols *symbols, const void *address);

/* All of it; NULL for a NULL address. Valid until the next call. */
const JsCallbackName *js_symbols_describe (JsSymbols *symbols, const void *address);

G_END_DECLS
