/* js-stack-table.h: distinct stacks, interned and symbolized once.
 *
 * A stack is a list of code addresses (leaf first, as sampled) with the
 * module each one was in when sampled (a dlclosed module's addresses may be
 * reused by another). Interning
 * gives it a small id and a reference; the first time, each address is
 * symbolized (inline frames expanded). Samples keep ids, so a hang sampled
 * 500 times with one stack holds one copy of it. A stack no sample refers
 * to any more is freed (an event that is kept carries its stacks in its own
 * JSON by then), and its id is used again: the table holds the stacks of
 * the stalls still in memory, not of the whole run. Bounded: past
 * JS_STACK_TABLE_MAX stacks at once, new ones get id 0 and are counted.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-profile.h"
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
  gboolean provisional; /* a frame's debug information may still come (debuginfod) */
  guint refs;
  /* Its frames as a profile path, root first, jankscope's own left out
   * (js-stack-path.h); made when first asked for. */
  JsPathFrame *path;
  guint n_path;
  gboolean have_path;
} JsStack;

typedef struct _JsStackTable JsStackTable;

JsStackTable *js_stack_table_new (JsSymbolizer *symbolizer);
void js_stack_table_free (JsStackTable *table);

/* Returns the stack's id (1...) with a new reference, or 0 when the table is
 * full or n is 0. */
guint js_stack_table_intern (JsStackTable *table, const guint64 *addresses, const guint16 *modules,
                             guint n, gboolean truncated);

/* Drops a reference (0: nothing); the stack is freed with its last. */
void js_stack_table_unref (JsStackTable *table, guint id);

/* Borrowed; NULL for 0 or an unknown id. */
const JsStack *js_stack_table_get (JsStackTable *table, guint id);

/* Symbolizes again the stacks that had provisional frames, if the
 * symbolizer learned something since (js_symbolizer_generation ()): a debug
 * file fetched from debuginfod names them better. Between uses of the
 * stacks (frames are replaced). */
void js_stack_table_refresh (JsStackTable *table);

/* Stacks in the table now. */
guint js_stack_table_size (JsStackTable *table);
/* Stacks added over the table's life (one freed and seen again counts twice). */
guint64 js_stack_table_interned (JsStackTable *table);
guint64 js_stack_table_dropped (JsStackTable *table);

G_END_DECLS
