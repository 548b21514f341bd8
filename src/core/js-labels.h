/* js-labels.h: bounded tables of interned strings (scene labels, mark names,
 * window titles).
 *
 * Records carry a small id; the string is copied once into a fixed table
 * (at most `capacity` strings of at most `bytes` - 1 bytes, cut at a UTF-8
 * character boundary; past that, JS_LABEL_OVERFLOW). The same scheme as
 * js-names.h: one thread interns (the main thread), any thread reads a
 * published string. Nothing is allocated after js_labels_init ().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_LABEL_NONE 0     /* no label */
#define JS_LABEL_OVERFLOW 1 /* the table is full: "(other)" */

#define JS_LABELS_CACHE_SLOTS 64

typedef struct
{
  guint capacity; /* ids 0 .. capacity-1 */
  guint bytes;    /* per string, with its NUL */
  char *strings;  /* capacity * bytes */
  guint32 *slots; /* open addressing, 2 * capacity, 0 = empty */
  guint32 count;  /* ids in use; raised (release) after the string is written */
  guint64 overflows;
  struct
  {
    const char *pointer;
    guint32 id;
  } cache[JS_LABELS_CACHE_SLOTS]; /* direct-mapped: the caller's pointer -> id */
} JsLabels;

/* `capacity` must be a power of two. Start-up. */
void js_labels_init (JsLabels *labels, guint capacity, guint bytes);

/* The interning thread only. NULL is interned as "(null)". A label the
 * caller passed before at the same address costs a pointer compare and a
 * string compare. */
guint32 js_labels_intern (JsLabels *labels, const char *label);

/* Any thread. NULL for JS_LABEL_NONE and unknown ids. */
const char *js_labels_get (const JsLabels *labels, guint32 id);

/* Any thread: labels that did not fit. */
guint64 js_labels_overflows (const JsLabels *labels);

G_END_DECLS
