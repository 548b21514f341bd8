/* jsr-json-doc.c: a small, fast JSON parser for untrusted reports and aggregates
 *
 * Recursive descent over the text, at most max_depth levels deep (checked
 * before recursing, so hostile nesting cannot overflow the stack). Children
 * of the containers being parsed wait on one scratch stack; when a container
 * closes, its children are copied into the arena as one contiguous block and
 * popped, so the tree costs 16 bytes per value (24 per member) plus the
 * strings, and nothing is allocated per value.
 *
 * The memory budget is jsr-json-guard.c's estimate of json-glib's tree, kept
 * while parsing, so that every reader of the CLI refuses the same files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n.h>

#include "jsr-json-doc.h"
#include "jsr-json-guard.h"

#define MIN_CHUNK (64 * 1024)
#define MAX_FIRST_CHUNK (64 * 1024 * 1024)

GQuark
jsr_json_error_quark (void)
{
  return g_quark_from_static_string ("jankscope-reader-json-error");
}

struct _JsrJsonDoc
{
  GPtrArray *chunks; /* of g_malloc'ed blocks */
  char *pos;         /* free space of the current chunk */
  char *end;
  const char *text; /* the document (lazy values are built from it) */
  gsize length;
  guint max_depth;
  JsrJsonNode root;
};

typedef struct
{
  const char *start;
  const char *p;
  const char *end;
  JsrJsonDoc *doc;
  JsrJsonMember *scratch; /* children of the open containers */
  gsize n_scratch;
  gsize scratch_size;
  guint depth;
  guint max_depth;
  guint64 cost;            /* jsr-json-guard.c's estimate */
  const char *const *lazy; /* member names whose values are only checked */
  GError **error;
} Parser;

/* A lazy value: where its text is, and what it needs to be built. */
typedef struct
{
  JsrJsonDoc *doc;
  const char *text;
  guint depth; /* of the value in the document */
  gboolean is_array;
  guint32 elements; /* when it is an array */
} Lazy;

/* ---- arena ---------------------------------------------------------------- */

static void
add_chunk (JsrJsonDoc *doc, gsize size)
{
  char *chunk = g_malloc (size);

  g_ptr_array_add (doc->chunks, chunk);
  doc->pos = chunk;
  doc->end = chunk + size;
}

static void *
arena_alloc (JsrJsonDoc *doc, gsize size)
{
  void *block;

  size = (size + 7) & ~(gsize) 7;
  if ((gsize) (doc->end - doc->pos) < size)
    add_chunk (doc, MAX (size, MIN_CHUNK * 4));
  block = doc->pos;
  doc->pos += size;
  return block;
}

/* ---- errors ---------------------------------------------------------------- */

static void
position_of (const Parser *ps, const char *at, guint *line, guint *column)
{
  const char *line_start = ps->start;

  *line = 1;
  for (const char *c = ps->start; c < at; c++)
    if (*c == '\n')
      {
        (*line)++;
        line_start = c + 1;
      }
  *column = (guint) g_utf8_strlen (line_start, at - line_start) + 1;
}

static guint
line_of (const Parser *ps, const char *at)
{
  guint line, column;

  position_of (ps, at, &line, &column);
  return line;
}

static gboolean G_GNUC_PRINTF (3, 4)
    syntax_error (Parser *ps, const char *at, const char *format, ...)
{
  g_autofree char *detail = NULL;
  guint line, column;
  va_list args;

  if (ps->error == NULL || *ps->error != NULL)
    return FALSE;
  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);
  /* Columns count characters; an invalid byte is counted as one. */
  position_of (ps, MIN (at, ps->end), &line, &column);
  g_set_error (ps->error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
               _ ("not valid JSON: line %u, column %u: %s"), line, column, detail);
  return FALSE;
}

static gboolean
unexpected (Parser *ps, const char *at)
{
  guchar c;

  if (at >= ps->end)
    return syntax_error (ps, at, "%s", _ ("unexpected end of the file"));
  c = (guchar) *at;
  if (c >= 0x21 && c < 0x7f)
    return syntax_error (ps, at, _ ("unexpected character “%c”"), c);
  return syntax_error (ps, at, _ ("unexpected byte 0x%02x"), c);
}

static gboolean
charge (Parser *ps, guint64 cost)
{
  ps->cost += cost;
  if (ps->cost > JSR_JSON_GUARD_MAX_TREE_BYTES)
    {
      if (ps->error != NULL && *ps->error == NULL)
        jsr_json_guard_budget_error (ps->error);
      return FALSE;
    }
  return TRUE;
}

/* ---- lexical ---------------------------------------------------------------- */

static inline void
skip_blanks (Parser *ps)
{
  const char *p = ps->p;

#ifdef __SSE2__
  /* Pretty-printed documents indent every line: a run of spaces after a
   * newline, skipped 16 bytes at a time. */
  if (p < ps->end && *p == '\n')
    {
      const __m128i space = _mm_set1_epi8 (' ');

      p++;
      while (ps->end - p >= 16)
        {
          int mask
              = _mm_movemask_epi8 (_mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) p), space));

          if (mask != 0xffff)
            {
              p += __builtin_ctz ((unsigned) ~mask);
              break;
            }
          p += 16;
        }
    }
#endif
  while (p < ps->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  ps->p = p;
}

/* Bytes that end the fast path of a string: quote, backslash, control
 * characters, and non-ASCII (validated on the slow path). */
static const guint8 string_stop[256] = {
  [0x00 ... 0x1f] = 1,
  ['"'] = 1,
  ['\\'] = 1,
  [0x80 ... 0xff] = 1,
};

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (Parser *ps, const char *at, gunichar *out)
{
  gunichar value = 0;

  if (ps->end - at < 4)
    return unexpected (ps, ps->end);
  for (int i = 0; i < 4; i++)
    {
      int digit = hex_value (at[i]);

      if (digit < 0)
        return syntax_error (ps, at + i, "%s", _ ("invalid \\u escape"));
      value = value * 16 + (gunichar) digit;
    }
  *out = value;
  return TRUE;
}

/* Length of the valid UTF-8 sequence at p (multi-byte only), 0 if invalid. */
static gsize
utf8_sequence (const guchar *p, const guchar *end)
{
  guchar c = p[0];
  gsize n;
  gunichar value;

  if (c >= 0xc2 && c <= 0xdf)
    n = 2, value = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, value = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, value = c & 0x07;
  else
    return 0;
  if ((gsize) (end - p) < n)
    return 0;
  for (gsize i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      value = (value << 6) | (p[i] & 0x3f);
    }
  /* Overlong forms, surrogates, beyond U+10FFFF. */
  if ((n == 3 && value < 0x800) || (n == 4 && (value < 0x10000 || value > 0x10ffff))
      || (value >= 0xd800 && value <= 0xdfff))
    return 0;
  return n;
}

/* The length of the run of plain characters at p (none of string_stop),
 * 16 bytes at a time where SSE2 is there: a signed compare below 0x20 finds
 * control characters and non-ASCII bytes (negative as signed) at once. */
static inline gsize
plain_run (const char *p, const char *end)
{
  const char *start = p;

#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8 ('"');
  const __m128i backslash = _mm_set1_epi8 ('\\');
  const __m128i space = _mm_set1_epi8 (0x20);

  while (end - p >= 16)
    {
      __m128i chunk = _mm_loadu_si128 ((const __m128i *) p);
      __m128i stop = _mm_or_si128 (
          _mm_or_si128 (_mm_cmpeq_epi8 (chunk, quote), _mm_cmpeq_epi8 (chunk, backslash)),
          _mm_cmplt_epi8 (chunk, space));
      int mask = _mm_movemask_epi8 (stop);

      if (mask != 0)
        return (gsize) (p - start) + (gsize) __builtin_ctz ((unsigned) mask);
      p += 16;
    }
#endif
  while (p < end && !string_stop[(guchar) *p])
    p++;
  return (gsize) (p - start);
}

/* A string; ps->p is on the opening quote. Sets *out (in the arena) and
 * *out_length. */
static gboolean
parse_string (Parser *ps, const char **out, guint32 *out_length)
{
  const char *p = ps->p + 1;
  const char *run;
  char *buffer, *w;
  gsize capacity, plain;

  /* The common case: no escape, no control character, ASCII. */
  plain = plain_run (p, ps->end);
  if (p + plain < ps->end && p[plain] == '"')
    {
      if (!charge (ps, JSR_JSON_GUARD_STRING_COST + plain))
        return FALSE;
      buffer = arena_alloc (ps->doc, plain + 1);
      memcpy (buffer, p, plain);
      buffer[plain] = '\0';
      *out = buffer;
      *out_length = (guint32) plain;
      ps->p = p + plain + 1;
      return TRUE;
    }

  /* The decoded string is never longer than the text (an escape is at
   * least as long as what it stands for): find the closing quote first. */
  run = p + plain;
  while (run < ps->end && *run != '"')
    run += (*run == '\\') ? 2 : 1;
  if (run >= ps->end)
    return unexpected (ps, ps->end);
  capacity = (gsize) (run - p) + 1;
  if (!charge (ps, JSR_JSON_GUARD_STRING_COST + (run - p)))
    return FALSE;
  buffer = w = arena_alloc (ps->doc, capacity);

  for (;;)
    {
      plain = plain_run (p, ps->end);
      memcpy (w, p, plain);
      w += plain;
      p += plain;

      if (*p == '"')
        break;
      if (*p == '\\')
        {
          char e = p[1];
          gunichar c;

          switch (e)
            {
            case '"':
              *w++ = '"';
              p += 2;
              continue;
            case '\\':
              *w++ = '\\';
              p += 2;
              continue;
            case '/':
              *w++ = '/';
              p += 2;
              continue;
            case 'b':
              *w++ = '\b';
              p += 2;
              continue;
            case 'f':
              *w++ = '\f';
              p += 2;
              continue;
            case 'n':
              *w++ = '\n';
              p += 2;
              continue;
            case 'r':
              *w++ = '\r';
              p += 2;
              continue;
            case 't':
              *w++ = '\t';
              p += 2;
              continue;
            case 'u':
              if (!read_hex4 (ps, p + 2, &c))
                return FALSE;
              p += 6;
              if (c >= 0xd800 && c <= 0xdbff && p[0] == '\\' && p[1] == 'u')
                {
                  gunichar low;

                  if (!read_hex4 (ps, p + 2, &low))
                    return FALSE;
                  if (low >= 0xdc00 && low <= 0xdfff)
                    {
                      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
                      p += 6;
                    }
                }
              /* NUL and lone surrogates: the replacement character. */
              if (c == 0 || (c >= 0xd800 && c <= 0xdfff))
                c = 0xfffd;
              w += g_unichar_to_utf8 (c, w);
              continue;
            default:
              if ((guchar) e >= 0x21 && (guchar) e < 0x7f)
                return syntax_error (ps, p, _ ("invalid escape “\\%c”"), e);
              return syntax_error (ps, p, "%s", _ ("invalid escape"));
            }
        }
      if ((guchar) *p < 0x20)
        return syntax_error (ps, p, "%s", _ ("a control character in a string"));
      {
        gsize n = utf8_sequence ((const guchar *) p, (const guchar *) ps->end);

        if (n == 0)
          return syntax_error (ps, p, "%s", _ ("invalid UTF-8"));
        memcpy (w, p, n);
        w += n;
        p += n;
      }
    }

  *w = '\0';
  *out = buffer;
  *out_length = (guint32) (w - buffer);
  ps->p = p + 1;
  return TRUE;
}

static gboolean
parse_number (Parser *ps, JsrJsonNode *node)
{
  const char *start = ps->p;
  const char *p = start;
  gboolean negative = FALSE, fraction = FALSE;
  guint64 value = 0;
  gboolean overflow = FALSE;

  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (p >= ps->end || !g_ascii_isdigit (*p))
    return syntax_error (ps, p, "%s", _ ("invalid number"));
  if (*p == '0')
    p++;
  else
    {
      /* 19 digits always fit in 64 bits: no check for them. */
      const char *fast_end = p + MIN (ps->end - p, 19);

      while (p < fast_end && g_ascii_isdigit (*p))
        value = value * 10 + (guint) (*p++ - '0');
      while (p < ps->end && g_ascii_isdigit (*p))
        {
          guint digit = (guint) (*p - '0');

          if (value > (G_MAXUINT64 - digit) / 10)
            overflow = TRUE;
          else
            value = value * 10 + digit;
          p++;
        }
    }
  if (p < ps->end && *p == '.')
    {
      fraction = TRUE;
      p++;
      if (p >= ps->end || !g_ascii_isdigit (*p))
        return syntax_error (ps, p, "%s", _ ("invalid number"));
      while (p < ps->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < ps->end && (*p == 'e' || *p == 'E'))
    {
      fraction = TRUE;
      p++;
      if (p < ps->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= ps->end || !g_ascii_isdigit (*p))
        return syntax_error (ps, p, "%s", _ ("invalid number"));
      while (p < ps->end && g_ascii_isdigit (*p))
        p++;
    }
  if (!charge (ps, JSR_JSON_GUARD_SCALAR_COST))
    return FALSE;

  if (fraction)
    {
      char small[64];
      gsize length = (gsize) (p - start);
      g_autofree char *large = NULL;
      char *text = small;

      if (length >= sizeof small)
        text = large = g_malloc (length + 1);
      memcpy (text, start, length);
      text[length] = '\0';
      node->type = JSR_JSON_DOUBLE;
      node->v.number = g_ascii_strtod (text, NULL);
    }
  else
    {
      if (overflow || (negative ? value > (guint64) G_MAXINT64 + 1 : value > G_MAXINT64))
        {
          jsr_json_guard_check_integer (start, p - start, line_of (ps, start), ps->error);
          if (ps->error != NULL && *ps->error == NULL)
            g_set_error (ps->error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
                         _ ("line %u: an integer does not fit in 64 bits"), line_of (ps, start));
          return FALSE;
        }
      node->type = JSR_JSON_INT;
      node->v.integer = negative ? (gint64) (0 - value) : (gint64) value;
    }
  ps->p = p;
  return TRUE;
}

static gboolean
parse_word (Parser *ps, const char *word, JsrJsonNode *node)
{
  gsize length = strlen (word);

  if ((gsize) (ps->end - ps->p) < length || memcmp (ps->p, word, length) != 0)
    return unexpected (ps, ps->p);
  ps->p += length;
  return charge (ps, JSR_JSON_GUARD_SCALAR_COST);
}

static gboolean enter (Parser *ps, guint64 cost);

/* ---- checking without building (lazy values) ------------------------------- */

/* A string checked like parse_string, not copied. */
static inline gboolean
skip_string (Parser *ps)
{
  const char *start = ps->p + 1;
  const char *p = start;

  for (;;)
    {
      p += plain_run (p, ps->end);
      if (p >= ps->end)
        return unexpected (ps, ps->end);
      if (*p == '"')
        break;
      if (*p == '\\')
        {
          gunichar c;

          if (p + 1 >= ps->end)
            return unexpected (ps, ps->end);
          switch (p[1])
            {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
              p += 2;
              continue;
            case 'u':
              if (!read_hex4 (ps, p + 2, &c))
                return FALSE;
              p += 6;
              continue;
            default:
              if ((guchar) p[1] >= 0x21 && (guchar) p[1] < 0x7f)
                return syntax_error (ps, p, _ ("invalid escape “\\%c”"), p[1]);
              return syntax_error (ps, p, "%s", _ ("invalid escape"));
            }
        }
      if ((guchar) *p < 0x20)
        return syntax_error (ps, p, "%s", _ ("a control character in a string"));
      {
        gsize n = utf8_sequence ((const guchar *) p, (const guchar *) ps->end);

        if (n == 0)
          return syntax_error (ps, p, "%s", _ ("invalid UTF-8"));
        p += n;
      }
    }
  if (!charge (ps, JSR_JSON_GUARD_STRING_COST + (p - start)))
    return FALSE;
  ps->p = p + 1;
  return TRUE;
}

/* A value checked like parse_value, not built; *elements: of an array. */
static gboolean
skip_value (Parser *ps, guint32 *elements)
{
  JsrJsonNode scalar;
  char open, close;
  guint32 n = 0;

  if (ps->p >= ps->end)
    return unexpected (ps, ps->p);
  switch (*ps->p)
    {
    case '"':
      return skip_string (ps);
    case 't':
      return parse_word (ps, "true", &scalar);
    case 'f':
      return parse_word (ps, "false", &scalar);
    case 'n':
      return parse_word (ps, "null", &scalar);
    case '{':
    case '[':
      break;
    default:
      if (*ps->p == '-' || g_ascii_isdigit (*ps->p))
        return parse_number (ps, &scalar);
      return unexpected (ps, ps->p);
    }

  open = *ps->p;
  close = open == '{' ? '}' : ']';
  if (!enter (ps, open == '{' ? JSR_JSON_GUARD_OBJECT_COST : JSR_JSON_GUARD_ARRAY_COST))
    return FALSE;
  ps->p++;
  skip_blanks (ps);
  if (ps->p < ps->end && *ps->p == close)
    ps->p++;
  else
    for (;;)
      {
        if (open == '{')
          {
            if (ps->p >= ps->end)
              return unexpected (ps, ps->p);
            if (*ps->p != '"')
              return syntax_error (ps, ps->p, "%s", _ ("expected a member name in quotes"));
            if (!skip_string (ps))
              return FALSE;
            skip_blanks (ps);
            if (ps->p >= ps->end || *ps->p != ':')
              return ps->p >= ps->end ? unexpected (ps, ps->p)
                                      : syntax_error (ps, ps->p, "%s", _ ("expected “:”"));
            ps->p++;
            skip_blanks (ps);
          }
        if (!skip_value (ps, NULL))
          return FALSE;
        n++;
        skip_blanks (ps);
        if (ps->p < ps->end && *ps->p == ',')
          {
            ps->p++;
            skip_blanks (ps);
            continue;
          }
        if (ps->p < ps->end && *ps->p == close)
          {
            ps->p++;
            break;
          }
        if (ps->p >= ps->end)
          return unexpected (ps, ps->p);
        return syntax_error (ps, ps->p, "%s",
                             open == '{' ? _ ("expected “,” or “}”") : _ ("expected “,” or “]”"));
      }
  ps->depth--;
  if (elements != NULL)
    *elements = n;
  return TRUE;
}

static gboolean
is_lazy_name (const Parser *ps, const char *name)
{
  for (guint i = 0; ps->lazy[i] != NULL; i++)
    if (name[0] == ps->lazy[i][0] && strcmp (name, ps->lazy[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A member's value to be built later: checked now. */
static gboolean
parse_lazy (Parser *ps, JsrJsonNode *node)
{
  Lazy *lazy = arena_alloc (ps->doc, sizeof (Lazy));

  lazy->doc = ps->doc;
  lazy->text = ps->p;
  lazy->depth = ps->depth;
  lazy->is_array = ps->p < ps->end && *ps->p == '[';
  lazy->elements = 0;
  if (!skip_value (ps, lazy->is_array ? &lazy->elements : NULL))
    return FALSE;
  node->type = JSR_JSON_LAZY;
  node->length = 0;
  node->v.elements = (const JsrJsonNode *) (gpointer) lazy;
  return TRUE;
}

/* ---- values ---------------------------------------------------------------- */

static gboolean parse_value (Parser *ps, JsrJsonNode *node);

/* A slot for one more child on the scratch stack; returns its index (the
 * stack may move while the child itself is parsed). */
static gsize
push_scratch (Parser *ps)
{
  if (ps->n_scratch == ps->scratch_size)
    {
      ps->scratch_size = MAX (64, ps->scratch_size * 2);
      ps->scratch = g_renew (JsrJsonMember, ps->scratch, ps->scratch_size);
    }
  return ps->n_scratch++;
}

static gboolean
enter (Parser *ps, guint64 cost)
{
  if (++ps->depth > ps->max_depth)
    {
      if (ps->error != NULL && *ps->error == NULL)
        jsr_json_guard_depth_error (line_of (ps, ps->p), ps->max_depth, ps->error);
      return FALSE;
    }
  return charge (ps, cost);
}

static gboolean
parse_array (Parser *ps, JsrJsonNode *node)
{
  gsize base = ps->n_scratch;
  JsrJsonNode *elements;
  gsize n;

  if (!enter (ps, JSR_JSON_GUARD_ARRAY_COST))
    return FALSE;
  ps->p++;
  skip_blanks (ps);
  if (ps->p < ps->end && *ps->p == ']')
    ps->p++;
  else
    for (;;)
      {
        gsize slot = push_scratch (ps);
        JsrJsonNode value;

        if (!parse_value (ps, &value))
          return FALSE;
        ps->scratch[slot].value = value;
        skip_blanks (ps);
        if (ps->p < ps->end && *ps->p == ',')
          {
            ps->p++;
            skip_blanks (ps);
            continue;
          }
        if (ps->p < ps->end && *ps->p == ']')
          {
            ps->p++;
            break;
          }
        if (ps->p >= ps->end)
          return unexpected (ps, ps->p);
        return syntax_error (ps, ps->p, "%s", _ ("expected “,” or “]”"));
      }

  n = ps->n_scratch - base;
  elements = n > 0 ? arena_alloc (ps->doc, n * sizeof (JsrJsonNode)) : NULL;
  for (gsize i = 0; i < n; i++)
    elements[i] = ps->scratch[base + i].value;
  ps->n_scratch = base;
  ps->depth--;
  node->type = JSR_JSON_ARRAY;
  node->length = (guint32) n;
  node->v.elements = elements;
  return TRUE;
}

static gboolean
parse_object (Parser *ps, JsrJsonNode *node)
{
  gsize base = ps->n_scratch;
  JsrJsonMember *members;
  gsize n;

  if (!enter (ps, JSR_JSON_GUARD_OBJECT_COST))
    return FALSE;
  ps->p++;
  skip_blanks (ps);
  if (ps->p < ps->end && *ps->p == '}')
    ps->p++;
  else
    for (;;)
      {
        gsize slot;
        const char *name;
        guint32 name_length;
        JsrJsonNode value;

        if (ps->p >= ps->end)
          return unexpected (ps, ps->p);
        if (*ps->p != '"')
          return syntax_error (ps, ps->p, "%s", _ ("expected a member name in quotes"));
        if (!parse_string (ps, &name, &name_length))
          return FALSE;
        skip_blanks (ps);
        if (ps->p >= ps->end || *ps->p != ':')
          return ps->p >= ps->end ? unexpected (ps, ps->p)
                                  : syntax_error (ps, ps->p, "%s", _ ("expected “:”"));
        ps->p++;
        skip_blanks (ps);
        slot = push_scratch (ps);
        if (ps->lazy != NULL && is_lazy_name (ps, name) && ps->p < ps->end
            && (*ps->p == '[' || *ps->p == '{'))
          {
            if (!parse_lazy (ps, &value))
              return FALSE;
          }
        else if (!parse_value (ps, &value))
          return FALSE;
        ps->scratch[slot].name = name;
        ps->scratch[slot].value = value;
        skip_blanks (ps);
        if (ps->p < ps->end && *ps->p == ',')
          {
            ps->p++;
            skip_blanks (ps);
            continue;
          }
        if (ps->p < ps->end && *ps->p == '}')
          {
            ps->p++;
            break;
          }
        if (ps->p >= ps->end)
          return unexpected (ps, ps->p);
        return syntax_error (ps, ps->p, "%s", _ ("expected “,” or “}”"));
      }

  n = ps->n_scratch - base;
  members = n > 0 ? arena_alloc (ps->doc, n * sizeof (JsrJsonMember)) : NULL;
  if (n > 0)
    memcpy (members, ps->scratch + base, n * sizeof (JsrJsonMember));
  ps->n_scratch = base;
  ps->depth--;
  node->type = JSR_JSON_OBJECT;
  node->length = (guint32) n;
  node->v.members = members;
  return TRUE;
}

static gboolean
parse_value (Parser *ps, JsrJsonNode *node)
{
  if (ps->p >= ps->end)
    return unexpected (ps, ps->p);

  node->length = 0;
  switch (*ps->p)
    {
    case '{':
      return parse_object (ps, node);
    case '[':
      return parse_array (ps, node);
    case '"':
      node->type = JSR_JSON_STRING;
      return parse_string (ps, &node->v.string, &node->length);
    case 't':
      node->type = JSR_JSON_BOOLEAN;
      node->v.boolean = TRUE;
      return parse_word (ps, "true", node);
    case 'f':
      node->type = JSR_JSON_BOOLEAN;
      node->v.boolean = FALSE;
      return parse_word (ps, "false", node);
    case 'n':
      node->type = JSR_JSON_NULL;
      node->v.integer = 0;
      return parse_word (ps, "null", node);
    default:
      if (*ps->p == '-' || g_ascii_isdigit (*ps->p))
        return parse_number (ps, node);
      return unexpected (ps, ps->p);
    }
}

/* ---- API ------------------------------------------------------------------- */

void
jsr_json_doc_free (JsrJsonDoc *doc)
{
  if (doc == NULL)
    return;
  g_ptr_array_unref (doc->chunks);
  g_free (doc);
}

JsrJsonDoc *
jsr_json_doc_parse_lazy (const char *data, gsize length, guint max_depth, const char *const *lazy,
                         GError **error)
{
  g_autoptr (JsrJsonDoc) doc = g_new0 (JsrJsonDoc, 1);
  Parser ps = {
    .start = data,
    .p = data,
    .end = data + length,
    .doc = doc,
    .max_depth = max_depth,
    .lazy = lazy != NULL && lazy[0] != NULL ? lazy : NULL,
    .error = error,
  };
  gboolean ok;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  doc->chunks = g_ptr_array_new_with_free_func (g_free);
  doc->text = data;
  doc->length = length;
  doc->max_depth = max_depth;
  /* The tree of a pretty-printed report takes some 60% of its text (less
   * with lazy members). */
  add_chunk (
      doc, CLAMP (ps.lazy != NULL ? length / 4 : length - length / 4, MIN_CHUNK, MAX_FIRST_CHUNK));

  skip_blanks (&ps);
  if (ps.p >= ps.end)
    {
      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
                   _ ("not valid JSON: the file holds no value"));
      return NULL;
    }
  ok = parse_value (&ps, &doc->root);
  g_free (ps.scratch);
  if (!ok)
    {
      /* A check that failed without a message (cannot happen, but an error
       * must never be lost). */
      if (error != NULL && *error == NULL)
        syntax_error (&ps, ps.p, "%s", _ ("invalid value"));
      return NULL;
    }
  skip_blanks (&ps);
  if (ps.p < ps.end)
    {
      syntax_error (&ps, ps.p, "%s", _ ("more text after the value"));
      return NULL;
    }

  return g_steal_pointer (&doc);
}

JsrJsonDoc *
jsr_json_doc_parse (const char *data, gsize length, guint max_depth, GError **error)
{
  return jsr_json_doc_parse_lazy (data, length, max_depth, NULL, error);
}

/* Builds a lazy value in place. It was checked with the same rules when the
 * document was parsed, so this cannot fail; if it did anyway, the value
 * reads as null (readers then say what they expected). */
static void
expand (JsrJsonNode *node)
{
  Lazy *lazy = (Lazy *) (gpointer) node->v.elements;
  Parser ps = {
    .start = lazy->doc->text,
    .p = lazy->text,
    .end = lazy->doc->text + lazy->doc->length,
    .doc = lazy->doc,
    .depth = lazy->depth,
    .max_depth = lazy->doc->max_depth,
  };
  JsrJsonNode built = { .type = JSR_JSON_NULL };

  if (!parse_value (&ps, &built))
    {
      built.type = JSR_JSON_NULL;
      built.length = 0;
    }
  g_free (ps.scratch);
  *node = built;
}

const JsrJsonNode *
jsr_json_doc_get_root (JsrJsonDoc *doc)
{
  return &doc->root;
}

static const JsrJsonMember *
find_member (const JsrJsonNode *object, const char *name)
{
  if (object == NULL || object->type != JSR_JSON_OBJECT)
    return NULL;

  /* Objects are small (at most some 30 members): a linear search, from the
   * end so that the last of duplicate members wins. */
  for (guint32 i = object->length; i-- > 0;)
    {
      const char *member = object->v.members[i].name;

      /* Names differ in their first two bytes most of the time. */
      if (member[0] == name[0] && (name[0] == '\0' || member[1] == name[1])
          && strcmp (member, name) == 0)
        return &object->v.members[i];
    }

  return NULL;
}

const JsrJsonNode *
jsr_json_object_get (const JsrJsonNode *object, const char *name)
{
  const JsrJsonMember *member = find_member (object, name);

  if (member == NULL)
    return NULL;
  /* The document is the parser's own memory: building in place is fine. */
  if (member->value.type == JSR_JSON_LAZY)
    expand ((JsrJsonNode *) &member->value);
  return &member->value;
}

gint64
jsr_json_object_array_length (const JsrJsonNode *object, const char *name)
{
  const JsrJsonMember *member = find_member (object, name);

  if (member == NULL)
    return -1;
  if (member->value.type == JSR_JSON_LAZY)
    {
      const Lazy *lazy = (const Lazy *) (gconstpointer) member->value.v.elements;

      return lazy->is_array ? (gint64) lazy->elements : -1;
    }
  return member->value.type == JSR_JSON_ARRAY ? (gint64) member->value.length : -1;
}
