/* js-stack-table.h: distinct stacks, interned and symbolized once.
 *
 * A stack is a list of code addresses (leaf first, as sampled) with the
 * module each one was in when sampled (a dlclosed module's addresses may be
 * reused by another). Interning
 * gives it a small id; the first time, each address is symbolized (inline
 * frames expanded). Samples keep ids, so a hang sampled 500 times with one
 * stack holds one copy of it. Bounded: past JS_STACK_TABLE_MAX stacks, new
 * ones get id 0 and are counted.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-symbolizer.h"

G_BEGIN_DECLS

#define JS_STACK_TABLE_MAX 8192

typedef struct
{
  guint id;
  guint n_addresses;
  guint64 *addresses; /* leaf first */
  guint16 *modules;   /* JsModules id of each address (0: unknown) */
  GArray *frames;     /* JsFrame, leaf first, inline frames expanded */
  gboolean truncated;
} JsStack;

typedef struct _JsStackTable JsStackTable;

JsStackTable *js_stack_table_new (JsSymbolizer *symbolizer);
void js_stack_table_free (JsStackTable *table);

/* Returns the stack's id (1...), or 0 when the table is full or n is 0. */
guint js_stack_table_intern (JsStackTable *table, const guint64 *addresses,
                             const guint16 *modules, guint n, gboolean truncated);

/* Borrowed; NULL for 0 or an unknown id. */
const JsStack *js_stack_table_get (JsStackTable *table, guint id);

guint js_stack_table_size (JsStackTable *table);
guint64 js_stack_table_dropped (JsStackTable *table);

G_END_DECLS
