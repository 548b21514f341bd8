/* jsr-json-guard.c: checks on raw JSON text that json-glib 1.6 does not make
 *
 * A report is untrusted input. json-glib 1.6 (Debian 12) has two failure
 * modes on hostile text, both measured:
 *  - its parser recurses once per nesting level: 100000 '[' overflow the
 *    stack (SIGSEGV);
 *  - integers beyond 64 bits wrap silently: 99999999999999999999999 reads
 *    as -1 and -9223372036854775809 as G_MAXINT64.
 * And its document tree takes far more memory than the text: some 290 bytes
 * per empty object, 120 per array, 80 per scalar (measured), so that 256 MB
 * of "{}," would need 25 GB. The pass estimates the tree's size and refuses
 * a file over a budget, which bounds the CLI's memory.
 * This lexical pass runs before the parser and rejects all three. It is not
 * a JSON validator: everything else is left to json-glib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "jsr-json-doc.h"
#include "jsr-json-guard.h"

/* Longer number tokens are out of range if they are plain digits, and left
 * to the parser otherwise. */
#define MAX_NUMBER_TOKEN 64

/* Estimated bytes of json-glib 1.6's tree per token (measured on x86-64,
 * rounded up), and the budget (jsr-json-guard.h). A real report is estimated at
 * 8 to 10 times its size (and takes 7 or so): reports up to some 200 MB pass,
 * a bigger one gets a clear error instead of exhausting the memory. */
#define OBJECT_COST    JSR_JSON_GUARD_OBJECT_COST
#define ARRAY_COST     JSR_JSON_GUARD_ARRAY_COST
#define STRING_COST    JSR_JSON_GUARD_STRING_COST
#define SCALAR_COST    JSR_JSON_GUARD_SCALAR_COST
#define MAX_TREE_BYTES JSR_JSON_GUARD_MAX_TREE_BYTES

static gboolean
is_number_char (char c)
{
  return g_ascii_isdigit (c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

gboolean
jsr_json_guard_check_integer (const char *token,
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
      gsize sign = token[0] == '-';
      gsize digits = 0;

      /* Bounded: the token need not be followed by a NUL. */
      while (sign + digits < length && g_ascii_isdigit (token[sign + digits]))
        digits++;

      if (digits + sign < length)
        return TRUE; /* not a number: a syntax error for the parser */
      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
                   _("line %u: an integer of %zu digits does not fit in 64 bits"),
                   line, digits);
      return FALSE;
    }

  memcpy (buffer, token, length);
  buffer[length] = '\0';

  if (!g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &value, &local_error) &&
      g_error_matches (local_error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
    {
      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
                   _("line %u: the integer %s does not fit in 64 bits"), line, buffer);
      return FALSE;
    }

  return TRUE;
}

void
jsr_json_guard_depth_error (guint    line,
                            guint    max_depth,
                            GError **error)
{
  g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
               _("line %u: the JSON is nested more than %u levels deep"), line, max_depth);
}

void
jsr_json_guard_budget_error (GError **error)
{
  g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_TOO_LARGE,
               _("the report holds too many values: loading it would take more than "
                 "%u MB of memory"),
               (guint) (MAX_TREE_BYTES >> 20));
}

gboolean
jsr_json_guard_check (const char *data,
                      gsize       length,
                      guint       max_depth,
                      GError    **error)
{
  gboolean in_string = FALSE;
  guint64 tree_bytes = 0;
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
          tree_bytes++;
          continue;
        }

      if (tree_bytes > MAX_TREE_BYTES)
        {
          jsr_json_guard_budget_error (error);
          return FALSE;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          tree_bytes += STRING_COST;
          break;

        case 't':
        case 'f':
        case 'n':
          /* true, false, null: skip the rest of the word */
          tree_bytes += SCALAR_COST;
          while (i + 1 < length && g_ascii_isalpha (data[i + 1]))
            i++;
          break;

        case '[':
        case '{':
          tree_bytes += c == '{' ? OBJECT_COST : ARRAY_COST;
          if (++depth > max_depth)
            {
              jsr_json_guard_depth_error (line, max_depth, error);
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

              tree_bytes += SCALAR_COST;
              while (i < length && is_number_char (data[i]))
                i++;
              if (!jsr_json_guard_check_integer (data + start, i - start, line, error))
                return FALSE;
              continue;
            }
          break;
        }

      i++;
    }

  return TRUE;
}
