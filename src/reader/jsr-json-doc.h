/* jsr-json-doc.h: a small, fast JSON parser for untrusted reports and aggregates
 *
 * The whole document is parsed into one arena (freed at once): values are
 * 16-byte nodes, arrays hold their elements and objects their members
 * contiguously, strings are decoded, NUL-terminated UTF-8. It enforces the
 * rules of jsr-json-guard.c while it parses (nesting depth, 64-bit integers, the
 * memory budget), so no separate pass over the text is needed, and it is
 * some six times faster than json-glib 1.6 on reports (which matters to
 * `jankscope merge`, which reads thousands of them).
 *
 * Strict RFC 8259 JSON: no comments, no trailing commas, no NaN, no raw
 * control characters or invalid UTF-8 anywhere. "\u0000" and lone
 * surrogates decode to U+FFFD, so that a C string never hides a NUL.
 * Duplicate member names: the last one wins (as in json-glib).
 *
 * Any thread; a document is not shared between threads while it is built.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The JSON layer's errors (this parser, jsr-json-guard.h's rules and
 * jsr-json-read.h's getters); what a document means is its reader's (a
 * report's: JSR_REPORT_ERROR). */
#define JSR_JSON_ERROR (jsr_json_error_quark ())

typedef enum
{
  JSR_JSON_ERROR_SYNTAX,    /* not JSON, truncated, too deep, an integer out of range */
  JSR_JSON_ERROR_TOO_LARGE, /* past the memory budget */
  JSR_JSON_ERROR_INVALID,   /* a member is missing, or has the wrong type or value */
} JsrJsonError;

GQuark jsr_json_error_quark (void);

typedef enum
{
  JSR_JSON_NULL,
  JSR_JSON_BOOLEAN,
  JSR_JSON_INT,    /* an integer without fraction or exponent, in 64 bits */
  JSR_JSON_DOUBLE, /* any other number (may be infinite: 1e400) */
  JSR_JSON_STRING,
  JSR_JSON_ARRAY,
  JSR_JSON_OBJECT,
  JSR_JSON_LAZY, /* internal: a checked value not built yet (never seen by readers) */
} JsrJsonType;

typedef struct _JsrJsonNode JsrJsonNode;
typedef struct _JsrJsonMember JsrJsonMember;
typedef struct _JsrJsonDoc JsrJsonDoc;

struct _JsrJsonNode
{
  guint32 type;   /* JsrJsonType */
  guint32 length; /* string: bytes; array: elements; object: members */
  union
  {
    gint64 integer;
    double number;
    gboolean boolean;
    const char *string;           /* NUL-terminated */
    const JsrJsonNode *elements;  /* [length] */
    const JsrJsonMember *members; /* [length], in file order */
  } v;
};

struct _JsrJsonMember
{
  const char *name;
  JsrJsonNode value;
};

/* Parses `data` (not NUL-terminated; `length` bytes). On error returns NULL
 * and sets a JSR_JSON_ERROR: SYNTAX ("not valid JSON: line 3, column 7:
 * ...", nesting, integers out of range) or TOO_LARGE (the memory budget). */
JsrJsonDoc *jsr_json_doc_parse (const char *data, gsize length, guint max_depth, GError **error);
/* Like jsr_json_doc_parse, but the values of members named in `lazy` (a
 * NULL-terminated list) are only checked (the same rules) and built when
 * first read with jsr_json_object_get: a reader that never asks for them
 * saves most of their cost. `data` must then outlive the document. */
JsrJsonDoc *jsr_json_doc_parse_lazy (const char *data, gsize length, guint max_depth,
                                     const char *const *lazy, GError **error);
const JsrJsonNode *jsr_json_doc_get_root (JsrJsonDoc *doc);
void jsr_json_doc_free (JsrJsonDoc *doc);

/* The member `name` of an object (the last one of that name), or NULL when
 * absent or when `object` is not an object. A lazy member is built here. */
const JsrJsonNode *jsr_json_object_get (const JsrJsonNode *object, const char *name);
/* The number of elements of an array member without building it if it is
 * lazy; -1 when absent or not an array. */
gint64 jsr_json_object_array_length (const JsrJsonNode *object, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrJsonDoc, jsr_json_doc_free)

G_END_DECLS
