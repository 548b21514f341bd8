/* js-callback-names.h: names for code addresses (callbacks, dispatch functions).
 *
 * dladdr () against the dynamic symbol tables, cached per address: exported
 * functions get their name, others "module+0xOFFSET" so they can be
 * symbolized offline. Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _JsSymbols JsSymbols;

JsSymbols *js_symbols_new (void);
void js_symbols_free (JsSymbols *symbols);

/* Borrowed string, valid until js_symbols_free (); NULL for a NULL address. */
const char *js_symbols_lookup (JsSymbols *symbols, const void *address);

G_END_DECLS
