/* js-json-writer.h: jankscope's one way to write JSON
 *
 * The core writes its reports, journal lines and live messages with it;
 * the reading side its aggregates, exports and --json output.
 *
 * A streaming writer into a GString: objects, arrays, members, strings
 * (escaped, invalid UTF-8 replaced), integers, doubles, fixed-point numbers.
 * It puts the commas and the name separators; the layout is the style's,
 * plus the line breaks the caller asks for (js_json_writer_newline), so
 * that a hand-laid document (an aggregate, a Chrome trace) keeps its shape.
 * What it writes, the reader's jsr-json-doc.c reads back; a document parsed
 * there is written back with jsr_json_writer_node (reader/jsr-json-writer.h),
 * one parsed by json-glib with the core's js_json_write_node (js-json-node.h).
 *
 * Not thread-safe; nothing is allocated but the GString's growth.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JS_JSON_WRITER_COMPACT, /* "," and ":" */
  JS_JSON_WRITER_SPACED,  /* ", " and ": " */
  /* json-glib 1.6's pretty printing (indent 2), byte for byte: each element
   * on a line of its own, two spaces per level, " : " after a name, "{" and
   * the indent and "}" for an empty object, "\b" and "\f" escaped short.
   * Only where json-glib wrote what is not JSON this writes JSON: U+001F
   * escaped, not raw; a double a JSON number (1e+20, not 1e+20.0; the
   * largest double, not inf.0). Line breaks are its own
   * (js_json_writer_newline does nothing). */
  JS_JSON_WRITER_PRETTY,
} JsJsonWriterStyle;

/* Containers nested deeper than this still get their commas right only at
 * the levels up to it (the readers refuse documents deeper than 64). */
#define JS_JSON_WRITER_MAX_DEPTH 128

/* A string value as it is to be written: newly allocated (js_json_writer_set_filter). */
typedef char *(*JsJsonWriterFilter) (gpointer data, const char *text);

typedef struct
{
  /*< private >*/
  GString *out;
  JsJsonWriterStyle style;
  guint depth;
  int newline;         /* the indent of a line break before the next element, -1: none */
  gboolean after_name; /* a member's name is written, its value is next */
  guint8 started[JS_JSON_WRITER_MAX_DEPTH + 1]; /* the container at each depth has an element */
  JsJsonWriterFilter filter;
  gpointer filter_data;
  const char *withheld_member;
  guint withheld; /* inside a withheld value: 1 + its containers open */
} JsJsonWriter;

void js_json_writer_init (JsJsonWriter *writer, GString *out, JsJsonWriterStyle style);

/* What a report must not say (the core's JANKSCOPE_SCRUB, js-scrub.h): every
 * string value is written as `filter` returns it (freed after), and every
 * member named `withheld_member` gets null, whatever value the caller
 * writes for it (its calls write nothing, a container's whole content
 * included). Names are written as they are. NULL: off. */
void js_json_writer_set_filter (JsJsonWriter *writer, JsJsonWriterFilter filter, gpointer data,
                                const char *withheld_member);

/* Containers; an end with no container open writes nothing. */
void js_json_writer_begin_object (JsJsonWriter *writer);
void js_json_writer_end_object (JsJsonWriter *writer);
void js_json_writer_begin_array (JsJsonWriter *writer);
void js_json_writer_end_array (JsJsonWriter *writer);
/* A member's name; its value comes next. */
void js_json_writer_member (JsJsonWriter *writer, const char *name);
/* Members a writer of the same style and filter wrote before as the first
 * ones of an object at this depth (text a caller kept: what followed the
 * opening bracket), appended as they are to the object just begun; the
 * next member gets its comma. Nothing is checked or filtered again. */
void js_json_writer_members_text (JsJsonWriter *writer, const char *text, gsize length);

/* NULL writes null. */
void js_json_writer_string (JsJsonWriter *writer, const char *text);
void js_json_writer_int (JsJsonWriter *writer, gint64 value);
void js_json_writer_uint (JsJsonWriter *writer, guint64 value);
/* A count a reader takes back as an integer (jsr_json_read_count): at
 * most G_MAXINT64, past it G_MAXINT64 (a saturated sum stays a count). */
void js_json_writer_count (JsJsonWriter *writer, guint64 value);
/* The shortest text that reads back the same (g_ascii_dtostr), with ".0"
 * when it would read as an integer; JSON has no infinity: ±G_MAXDOUBLE
 * stands for it, 0 for NaN. */
void js_json_writer_double (JsJsonWriter *writer, double value);
/* value / scale with `digits` decimals, exactly (no binary noise, no
 * locale): (1234567, 1000, 3) writes 1234.567. */
void js_json_writer_fixed (JsJsonWriter *writer, gint64 value, guint64 scale, int digits);
/* A number the caller formatted (g_ascii_formatd): written as it is. */
void js_json_writer_number (JsJsonWriter *writer, const char *text);
void js_json_writer_bool (JsJsonWriter *writer, gboolean value);
void js_json_writer_null (JsJsonWriter *writer);

/* A member and its value in one call: js_json_writer_member (), then the
 * value as above. */
void js_json_writer_member_string (JsJsonWriter *writer, const char *name, const char *text);
void js_json_writer_member_int (JsJsonWriter *writer, const char *name, gint64 value);
void js_json_writer_member_uint (JsJsonWriter *writer, const char *name, guint64 value);
void js_json_writer_member_count (JsJsonWriter *writer, const char *name, guint64 value);
void js_json_writer_member_bool (JsJsonWriter *writer, const char *name, gboolean value);

/* The next element, or the closing bracket, starts a new line indented by
 * `indent` spaces (its comma stays at the end of the line before). */
void js_json_writer_newline (JsJsonWriter *writer, guint indent);

G_END_DECLS
