/* jsr-json-writer.h: the reading side's one way to write JSON
 *
 * A streaming writer into a GString: objects, arrays, members, strings
 * (escaped, invalid UTF-8 replaced), integers, doubles, fixed-point numbers.
 * It puts the commas and the name separators; the layout is the style's,
 * plus the line breaks the caller asks for (jsr_json_writer_newline), so
 * that a hand-laid document (an aggregate, a Chrome trace) keeps its shape.
 * What it writes, jsr-json-doc.c reads back.
 *
 * Not thread-safe; nothing is allocated but the GString's growth.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-doc.h"

G_BEGIN_DECLS

typedef enum
{
  JSR_JSON_WRITER_COMPACT, /* "," and ":" */
  JSR_JSON_WRITER_SPACED,  /* ", " and ": " */
  /* json-glib 1.6's pretty printing (indent 2), byte for byte: each element
   * on a line of its own, two spaces per level, " : " after a name, "{" and
   * the indent and "}" for an empty object, "\b" and "\f" escaped short.
   * Only where json-glib wrote what is not JSON this writes JSON: U+001F
   * escaped, not raw; a double a JSON number (1e+20, not 1e+20.0; the
   * largest double, not inf.0). Line breaks are its own
   * (jsr_json_writer_newline does nothing). */
  JSR_JSON_WRITER_PRETTY,
} JsrJsonWriterStyle;

/* Containers nested deeper than this still get their commas right only at
 * the levels up to it (the readers refuse documents deeper than 64). */
#define JSR_JSON_WRITER_MAX_DEPTH 128

typedef struct
{
  /*< private >*/
  GString *out;
  JsrJsonWriterStyle style;
  guint depth;
  int newline;         /* the indent of a line break before the next element, -1: none */
  gboolean after_name; /* a member's name is written, its value is next */
  guint8 started[JSR_JSON_WRITER_MAX_DEPTH + 1]; /* the container at each depth has an element */
} JsrJsonWriter;

void jsr_json_writer_init (JsrJsonWriter *writer, GString *out, JsrJsonWriterStyle style);

/* Containers; an end with no container open writes nothing. */
void jsr_json_writer_begin_object (JsrJsonWriter *writer);
void jsr_json_writer_end_object (JsrJsonWriter *writer);
void jsr_json_writer_begin_array (JsrJsonWriter *writer);
void jsr_json_writer_end_array (JsrJsonWriter *writer);
/* A member's name; its value comes next. */
void jsr_json_writer_member (JsrJsonWriter *writer, const char *name);

/* NULL writes null. */
void jsr_json_writer_string (JsrJsonWriter *writer, const char *text);
void jsr_json_writer_int (JsrJsonWriter *writer, gint64 value);
void jsr_json_writer_uint (JsrJsonWriter *writer, guint64 value);
/* A count a reader takes back as an integer (jsr_json_read_count): at
 * most G_MAXINT64, past it G_MAXINT64 (a saturated sum stays a count). */
void jsr_json_writer_count (JsrJsonWriter *writer, guint64 value);
/* The shortest text that reads back the same (g_ascii_dtostr), with ".0"
 * when it would read as an integer; JSON has no infinity: ±G_MAXDOUBLE
 * stands for it, 0 for NaN. */
void jsr_json_writer_double (JsrJsonWriter *writer, double value);
/* value / scale with `digits` decimals, exactly (no binary noise, no
 * locale): (1234567, 1000, 3) writes 1234.567. */
void jsr_json_writer_fixed (JsrJsonWriter *writer, gint64 value, guint64 scale, int digits);
/* A number the caller formatted (g_ascii_formatd): written as it is. */
void jsr_json_writer_number (JsrJsonWriter *writer, const char *text);
void jsr_json_writer_bool (JsrJsonWriter *writer, gboolean value);
void jsr_json_writer_null (JsrJsonWriter *writer);

/* A member and its value in one call: jsr_json_writer_member (), then the
 * value as above. */
void jsr_json_writer_member_string (JsrJsonWriter *writer, const char *name, const char *text);
void jsr_json_writer_member_int (JsrJsonWriter *writer, const char *name, gint64 value);
void jsr_json_writer_member_uint (JsrJsonWriter *writer, const char *name, guint64 value);
void jsr_json_writer_member_count (JsrJsonWriter *writer, const char *name, guint64 value);
void jsr_json_writer_member_bool (JsrJsonWriter *writer, const char *name, gboolean value);

/* A parsed value as it is (every member, duplicates included). */
void jsr_json_writer_node (JsrJsonWriter *writer, const JsrJsonNode *node);

/* The next element, or the closing bracket, starts a new line indented by
 * `indent` spaces (its comma stays at the end of the line before). */
void jsr_json_writer_newline (JsrJsonWriter *writer, guint indent);

G_END_DECLS
