/* js-callback-names.h: names for code addresses (callbacks, dispatch
 * functions), the reports' `callback` members.
 *
 * dladdr () against the dynamic symbol tables, cached per address: exported
 * functions get their name, others "module+0xOFFSET" so they can be
 * symbolized offline. Collector thread only. Sampled stacks go through the
 * libdw symbolizer instead (js-symbolizer.h: inline frames, file:line).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _JsCallbackNames JsCallbackNames;

JsCallbackNames *js_callback_names_new (void);
void js_callback_names_free (JsCallbackNames *symbols);

/* Borrowed string, valid until js_callback_names_free (); NULL for a NULL address. */
const char *js_callback_names_lookup (JsCallbackNames *symbols, const void *address);

G_END_DECLS
