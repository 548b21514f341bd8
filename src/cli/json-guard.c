/* json-guard.c: checks on raw JSON text that json-glib 1.6 does not make
 *
 * A report is untrusted input. json-glib 1.6 (Debian 12) has two failure
 * modes on hostile text, both measured:
 *  - its parser recurses once per nesting level: 100000 '[' overflow the
 *    stack (SIGSEGV);
 *  - integers beyond 64 bits wrap silently: 99999999999999999999999 reads
 *    as -1 and -9223372036854775809 as G_MAXINT64.
 * This lexical pass runs before the parser and rejects both. It is not a
 * JSON validator: everything else is left to json-glib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "json-guard.h"
#include "report-reader.h"

/* Longer number tokens are out of range if they are plain digits, and left
 * to the parser otherwise. */
#define MAX_NUMBER_TOKEN 64

static gboolean
is_number_char (char c)
{
  return g_ascii_isdigit (c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static gboolean
check_integer (const char *token,
               gsize       length,
               guint       line,
               GError    **error)
{
  char buffer[MAX_NUMBER_TOKEN + 1];
  g_autoptr (GError) local_error = NULL;
  gint64 value;

  /* A fraction or an exponent makes a double, which json-glib reads fine. */
  for (gsize i = 0; i < length; i++)
    if (token[i] == '.' || token[i] == 'e' || token[i] == 'E')
      return TRUE;

  if (length > MAX_NUMBER_TOKEN)
    {
      gsize digits = strspn (token + (token[0] == '-'), "0123456789");

      if (digits + (token[0] == '-') < length)
        return TRUE; /* not a number: a syntax error for the parser */
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_SYNTAX,
                   _("line %u: an integer of %" G_GSIZE_FORMAT " digits does not fit in 64 bits"),
                   line, digits);
      return FALSE;
    }

  memcpy (buffer, token, length);
  buffer[length] = '\0';

  if (!g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &value, &local_error) &&
      g_error_matches (local_error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_SYNTAX,
                   _("line %u: the integer %s does not fit in 64 bits"), line, buffer);
      return FALSE;
    }

  return TRUE;
}

gboolean
cli_json_guard_check (const char *data,
                      gsize       length,
                      guint       max_depth,
                      GError    **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;
  guint line = 1;
  gsize i = 0;

  while (i < length)
    {
      char c = data[i];

      if (c == '\n')
        line++;

      if (in_string)
        {
          if (c == '\\')
            i++; /* skip the escaped character, a quote in particular */
          else if (c == '"')
            in_string = FALSE;
          i++;
          continue;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;

        case '[':
        case '{':
          if (++depth > max_depth)
            {
              g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_SYNTAX,
                           _("line %u: the JSON is nested more than %u levels deep"),
                           line, max_depth);
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        default:
          if (c == '-' || g_ascii_isdigit (c))
            {
              gsize start = i;

              while (i < length && is_number_char (data[i]))
                i++;
              if (!check_integer (data + start, i - start, line, error))
                return FALSE;
              continue;
            }
          break;
        }

      i++;
    }

  return TRUE;
}
