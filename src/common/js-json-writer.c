/* js-json-writer.c: jankscope's one way to write JSON
 *
 * The core's reports, journal lines and live messages; aggregates, Chrome
 * traces, the JSON export and the journal's folded report are all written
 * here. Against json-glib 1.6's generator on the
 * same document it is 3.7 times faster pretty-printed and 4.8 times compact
 * (8 times against building a json-glib tree to generate), measured with
 * bench/json-write.c: it appends straight to the GString, copies the safe
 * bytes of a string by runs, checks UTF-8 only from the first byte past
 * ASCII and converts integers by hand. And it keeps a hand-laid layout (an
 * aggregate, a Chrome trace), which json-glib's two styles cannot.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "js-json-writer.h"

/* The bytes of a string that are not copied as they are: the quote, the
 * backslash, C0 controls and DEL are escaped (ESCAPE); from 0x80 a byte
 * starts a multi-byte character (UTF8): the rest of the string is checked
 * once, at the first of them. */
enum
{
  COPY,
  ESCAPE,
  UTF8,
};

/* Range designators: a GNU C extension (gnu11), which GCC and Clang have. */
static const guint8 byte_class[256] = {
  [0x00 ... 0x1f] = ESCAPE, ['"'] = ESCAPE,         ['\\'] = ESCAPE,
  [0x7f] = ESCAPE,          [0x80 ... 0xff] = UTF8,
};

/* g_string_append_len without a call when the bytes fit (GLib 2.74 has no
 * inline fast path for it; the writer appends many short pieces). */
static inline void
append_len (GString *out, const char *bytes, gsize length)
{
  if (G_LIKELY (out->len + length < out->allocated_len))
    {
      memcpy (out->str + out->len, bytes, length);
      out->len += length;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, bytes, length);
}

static void
append_spaces (GString *out, guint n)
{
  static const char spaces[] = "                                ";

  while (n > 0)
    {
      guint chunk = MIN (n, (guint) sizeof spaces - 1);

      append_len (out, spaces, chunk);
      n -= chunk;
    }
}

static void
append_uint (GString *out, guint64 value)
{
  char buffer[24];
  char *p = buffer + sizeof buffer;

  do
    {
      *--p = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  append_len (out, p, buffer + sizeof buffer - p);
}

static void
append_int (GString *out, gint64 value)
{
  if (value < 0)
    {
      g_string_append_c (out, '-');
      /* The magnitude unsigned: -G_MININT64 has no gint64. */
      append_uint (out, -(guint64) value);
    }
  else
    append_uint (out, (guint64) value);
}

/* `text` as a JSON string, invalid UTF-8 replaced (U+FFFD). json-glib
 * writes "\b" and "\f"; the other styles "\u0008", "\u000c". */
static void
append_string (GString *out, const char *text, gboolean short_bf)
{
  static const char hex[] = "0123456789abcdef";
  g_autofree char *valid = NULL;
  gsize start = out->len;
  gboolean checked = FALSE;
  const char *end = text + strlen (text);
  const char *run;
  const char *p;

restart:
  g_string_append_c (out, '"');
  run = text;
  for (p = text; p < end; p++)
    {
      guchar c = (guchar) *p;

      if (G_LIKELY (byte_class[c] == COPY))
        continue;
      if (byte_class[c] == UTF8)
        {
          /* All before is ASCII: p starts a character. */
          if (!checked && !g_utf8_validate_len (p, end - p, NULL))
            {
              valid = g_utf8_make_valid (text, end - text);
              text = valid;
              end = text + strlen (text);
              g_string_truncate (out, start);
              checked = TRUE;
              goto restart;
            }
          checked = TRUE;
          continue;
        }
      append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"':
          append_len (out, "\\\"", 2);
          break;
        case '\\':
          append_len (out, "\\\\", 2);
          break;
        case '\n':
          append_len (out, "\\n", 2);
          break;
        case '\t':
          append_len (out, "\\t", 2);
          break;
        case '\r':
          append_len (out, "\\r", 2);
          break;
        case '\b':
        case '\f':
          if (short_bf)
            {
              append_len (out, c == '\b' ? "\\b" : "\\f", 2);
              break;
            }
          G_GNUC_FALLTHROUGH;
        default:
          {
            char escape[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

            append_len (out, escape, sizeof escape);
          }
          break;
        }
    }
  append_len (out, run, end - run);
  g_string_append_c (out, '"');
}

void
js_json_writer_init (JsJsonWriter *writer, GString *out, JsJsonWriterStyle style)
{
  memset (writer, 0, sizeof *writer);
  writer->out = out;
  writer->style = style;
  writer->newline = -1;
}

void
js_json_writer_set_filter (JsJsonWriter *writer, JsJsonWriterFilter filter, gpointer data,
                           const char *withheld_member)
{
  writer->filter = filter;
  writer->filter_data = data;
  writer->withheld_member = withheld_member;
}

/* TRUE inside a withheld member's value: the call writes nothing.
 * `nesting`: 1 a container begins, -1 one ends, 0 a scalar. */
static inline gboolean
withheld (JsJsonWriter *w, int nesting)
{
  if (G_LIKELY (w->withheld == 0))
    return FALSE;
  if (w->withheld == 1 && nesting < 0)
    {
      /* No value came before the container's end: the end is the caller's. */
      w->withheld = 0;
      return FALSE;
    }
  w->withheld += nesting;
  /* Back at 1 after a scalar or the value's own end: the value is over. */
  if (w->withheld == 1 && nesting <= 0)
    w->withheld = 0;
  return TRUE;
}

static gboolean
take_started (JsJsonWriter *w)
{
  gboolean started;

  if (w->depth > JS_JSON_WRITER_MAX_DEPTH)
    return TRUE;
  started = w->started[w->depth];
  w->started[w->depth] = TRUE;
  return started;
}

/* The separator before a value: none after a name or at the top, else a
 * comma after the first element, and the line break asked for. */
static void
before_value (JsJsonWriter *w)
{
  gboolean started;

  if (w->after_name)
    {
      w->after_name = FALSE;
      return;
    }
  if (w->depth == 0)
    return;
  started = take_started (w);
  if (w->style == JS_JSON_WRITER_PRETTY)
    {
      g_string_append (w->out, started ? ",\n" : "\n");
      append_spaces (w->out, 2 * w->depth);
      return;
    }
  if (started)
    g_string_append_c (w->out, ',');
  if (w->newline >= 0)
    {
      g_string_append_c (w->out, '\n');
      append_spaces (w->out, (guint) w->newline);
      w->newline = -1;
    }
  else if (started && w->style == JS_JSON_WRITER_SPACED)
    g_string_append_c (w->out, ' ');
}

static void
begin (JsJsonWriter *w, char bracket)
{
  if (withheld (w, 1))
    return;
  before_value (w);
  g_string_append_c (w->out, bracket);
  w->depth++;
  if (w->depth <= JS_JSON_WRITER_MAX_DEPTH)
    w->started[w->depth] = FALSE;
}

static void
end (JsJsonWriter *w, char bracket)
{
  gboolean started = w->depth > JS_JSON_WRITER_MAX_DEPTH || w->started[w->depth];

  if (withheld (w, -1))
    return;
  /* A bracket no container is open for: the caller's mistake, ignored
   * without a critical (the GTK 4 window writes here, inside the app). */
  if (G_UNLIKELY (w->depth == 0))
    return;
  w->depth--;
  if (w->style == JS_JSON_WRITER_PRETTY)
    {
      /* json-glib: "\n" and the indent before the bracket; an empty object
       * gets the indent alone ("{    }"), an empty array nothing. */
      if (started)
        g_string_append_c (w->out, '\n');
      if (started || bracket == '}')
        append_spaces (w->out, 2 * w->depth);
    }
  else if (w->newline >= 0)
    {
      g_string_append_c (w->out, '\n');
      append_spaces (w->out, (guint) w->newline);
      w->newline = -1;
    }
  g_string_append_c (w->out, bracket);
}

void
js_json_writer_begin_object (JsJsonWriter *writer)
{
  begin (writer, '{');
}

void
js_json_writer_end_object (JsJsonWriter *writer)
{
  end (writer, '}');
}

void
js_json_writer_begin_array (JsJsonWriter *writer)
{
  begin (writer, '[');
}

void
js_json_writer_end_array (JsJsonWriter *writer)
{
  end (writer, ']');
}

void
js_json_writer_member (JsJsonWriter *writer, const char *name)
{
  if (G_UNLIKELY (writer->withheld != 0))
    return; /* a member of a withheld object */
  before_value (writer);
  append_string (writer->out, name, writer->style == JS_JSON_WRITER_PRETTY);
  switch (writer->style)
    {
    case JS_JSON_WRITER_PRETTY:
      append_len (writer->out, " : ", 3);
      break;
    case JS_JSON_WRITER_SPACED:
      append_len (writer->out, ": ", 2);
      break;
    case JS_JSON_WRITER_COMPACT:
    default:
      g_string_append_c (writer->out, ':');
      break;
    }
  writer->after_name = TRUE;
  if (G_UNLIKELY (writer->withheld_member != NULL) && strcmp (name, writer->withheld_member) == 0)
    {
      writer->after_name = FALSE;
      append_len (writer->out, "null", 4);
      writer->withheld = 1; /* what the caller writes next */
    }
}

void
js_json_writer_members_text (JsJsonWriter *w, const char *text, gsize length)
{
  /* Only where a member's name may come: in an object's value position or
   * inside a withheld value nothing is written (as for any member). */
  if (length == 0 || w->depth == 0 || w->after_name || w->withheld != 0)
    return;
  g_string_append_len (w->out, text, (gssize) length);
  if (w->depth <= JS_JSON_WRITER_MAX_DEPTH)
    w->started[w->depth] = TRUE;
}

void
js_json_writer_string (JsJsonWriter *writer, const char *text)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  if (text == NULL)
    append_len (writer->out, "null", 4);
  else if (G_UNLIKELY (writer->filter != NULL))
    {
      g_autofree char *filtered = writer->filter (writer->filter_data, text);

      append_string (writer->out, filtered, writer->style == JS_JSON_WRITER_PRETTY);
    }
  else
    append_string (writer->out, text, writer->style == JS_JSON_WRITER_PRETTY);
}

void
js_json_writer_int (JsJsonWriter *writer, gint64 value)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  append_int (writer->out, value);
}

void
js_json_writer_uint (JsJsonWriter *writer, guint64 value)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  append_uint (writer->out, value);
}

void
js_json_writer_count (JsJsonWriter *writer, guint64 value)
{
  js_json_writer_uint (writer, MIN (value, (guint64) G_MAXINT64));
}

void
js_json_writer_double (JsJsonWriter *writer, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (withheld (writer, 0))
    return;
  before_value (writer);
  /* The parser reads 1e400 as infinity: the largest double stands for it. */
  if (!isfinite (value))
    value = isnan (value) ? 0.0 : (value > 0 ? G_MAXDOUBLE : -G_MAXDOUBLE);
  g_ascii_dtostr (buffer, sizeof buffer, value);
  g_string_append (writer->out, buffer);
  /* Still a double when read again ("3" would be an integer). */
  if (strpbrk (buffer, ".eE") == NULL)
    append_len (writer->out, ".0", 2);
}

void
js_json_writer_fixed (JsJsonWriter *writer, gint64 value, guint64 scale, int digits)
{
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;
  guint64 fraction = magnitude % scale;
  char buffer[24];
  char *p = buffer + sizeof buffer;

  if (withheld (writer, 0))
    return;
  before_value (writer);
  if (value < 0)
    g_string_append_c (writer->out, '-');
  append_uint (writer->out, magnitude / scale);
  g_string_append_c (writer->out, '.');
  /* The fraction, zero-padded to `digits` (printf's "%0*"). */
  do
    {
      *--p = (char) ('0' + fraction % 10);
      fraction /= 10;
    }
  while (fraction != 0);
  for (int n = (int) (buffer + sizeof buffer - p); n < digits; n++)
    g_string_append_c (writer->out, '0');
  append_len (writer->out, p, buffer + sizeof buffer - p);
}

void
js_json_writer_number (JsJsonWriter *writer, const char *text)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  g_string_append (writer->out, text);
}

void
js_json_writer_bool (JsJsonWriter *writer, gboolean value)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  if (value)
    append_len (writer->out, "true", 4);
  else
    append_len (writer->out, "false", 5);
}

void
js_json_writer_member_string (JsJsonWriter *writer, const char *name, const char *text)
{
  js_json_writer_member (writer, name);
  js_json_writer_string (writer, text);
}

void
js_json_writer_member_int (JsJsonWriter *writer, const char *name, gint64 value)
{
  js_json_writer_member (writer, name);
  js_json_writer_int (writer, value);
}

void
js_json_writer_member_uint (JsJsonWriter *writer, const char *name, guint64 value)
{
  js_json_writer_member (writer, name);
  js_json_writer_uint (writer, value);
}

void
js_json_writer_member_count (JsJsonWriter *writer, const char *name, guint64 value)
{
  js_json_writer_member (writer, name);
  js_json_writer_count (writer, value);
}

void
js_json_writer_member_bool (JsJsonWriter *writer, const char *name, gboolean value)
{
  js_json_writer_member (writer, name);
  js_json_writer_bool (writer, value);
}

void
js_json_writer_null (JsJsonWriter *writer)
{
  if (withheld (writer, 0))
    return;
  before_value (writer);
  append_len (writer->out, "null", 4);
}

void
js_json_writer_newline (JsJsonWriter *writer, guint indent)
{
  if (writer->style != JS_JSON_WRITER_PRETTY && writer->withheld == 0)
    writer->newline = (int) indent;
}
