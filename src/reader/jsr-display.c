/* jsr-display.c: values from outside, as messages may quote them
 *
 * A report's strings, file names and option values may hold anything: an
 * escape sequence that retitles the terminal or clears it, a carriage
 * return that rewrites the line, a right-to-left override that makes the
 * rest read backwards, 10,000 characters. Quoted in a message, they are
 * shown, not obeyed, and cut. Plain GLib: the report reader and the
 * exporters use it too, and they are also compiled into the GTK 4 window.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jsr-display.h"

#define ELLIPSIS "…"

/* The visible form of a character a terminal would act on, or NULL: C0
 * controls and DEL as \n, \r, \t or \xHH; C1 controls, Unicode format
 * characters (bidirectional overrides, zero-width joiners) and the line and
 * paragraph separators as \uHHHH. */
static char *
escape_char (gunichar c)
{
  switch (c)
    {
    case '\n':
      return g_strdup ("\\n");
    case '\r':
      return g_strdup ("\\r");
    case '\t':
      return g_strdup ("\\t");
    default:
      break;
    }
  if (c < 0x20 || c == 0x7f)
    return g_strdup_printf ("\\x%02x", c);
  if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT
      || g_unichar_type (c) == G_UNICODE_LINE_SEPARATOR
      || g_unichar_type (c) == G_UNICODE_PARAGRAPH_SEPARATOR)
    return g_strdup_printf ("\\u%04x", c);
  return NULL;
}

char *
jsr_display_cut (const char *text, guint max_chars)
{
  g_autofree char *valid = NULL;
  GString *out;
  guint chars = 0;

  if (text == NULL)
    return g_strdup ("(null)");
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (MIN (strlen (valid), (gsize) max_chars * 4) + 8);
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      g_autofree char *escaped = escape_char (c);
      guint n = escaped != NULL ? (guint) strlen (escaped) : 1;

      /* Never half an escape: it goes whole or not at all. */
      if (max_chars > 0 && chars + n > max_chars)
        {
          g_string_append (out, ELLIPSIS);
          break;
        }
      if (escaped != NULL)
        g_string_append (out, escaped);
      else
        g_string_append_unichar (out, c);
      chars += n;
    }

  return g_string_free (out, FALSE);
}

char *
jsr_display (const char *text)
{
  return jsr_display_cut (text, JSR_DISPLAY_MAX_CHARS);
}

char *
jsr_display_filename (const char *path)
{
  g_autofree char *name = path != NULL ? g_filename_display_name (path) : NULL;

  return jsr_display (name);
}
