/* jsr-json-guard.c: the limits on untrusted JSON, and their errors
 *
 * A report is untrusted input. The limits come from json-glib 1.6 (Debian
 * 12), which the reading side parsed with before jsr-json-doc.c, and whose
 * failure modes on hostile text were measured:
 *  - its parser recursed once per nesting level: 100000 '[' overflowed the
 *    stack (SIGSEGV). jsr-json-doc.c refuses a document nested deeper than
 *    its caller's max_depth (jsr_json_guard_depth_error);
 *  - integers beyond 64 bits wrapped silently: 99999999999999999999999 read
 *    as -1 and -9223372036854775809 as G_MAXINT64. They are refused
 *    (jsr_json_guard_check_integer);
 *  - its document tree took far more memory than the text: some 290 bytes
 *    per empty object, 120 per array, 80 per scalar, so that 256 MB of
 *    "{}," would have needed 25 GB. jsr-json-doc.c keeps the estimate of
 *    that tree while it parses (the costs in jsr-json-guard.h) and refuses a
 *    file over the budget (jsr_json_guard_budget_error), so that every
 *    reader accepts and refuses the same files as when they were
 *    json-glib's, and the readers' memory stays bounded.
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

/* A real report is estimated at 8 to 10 times its size (and json-glib took
 * 7 or so): reports up to some 200 MB pass, a bigger one gets a clear error
 * instead of exhausting the memory. */
#define MAX_TREE_BYTES JSR_JSON_GUARD_MAX_TREE_BYTES

gboolean
jsr_json_guard_check_integer (const char *token, gsize length, guint line, GError **error)
{
  char buffer[MAX_NUMBER_TOKEN + 1];
  g_autoptr (GError) local_error = NULL;
  gint64 value;

  /* A fraction or an exponent makes a double, which has no such limit. */
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
                   _ ("line %u: an integer of %zu digits does not fit in 64 bits"), line, digits);
      return FALSE;
    }

  memcpy (buffer, token, length);
  buffer[length] = '\0';

  if (!g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &value, &local_error)
      && g_error_matches (local_error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
    {
      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
                   _ ("line %u: the integer %s does not fit in 64 bits"), line, buffer);
      return FALSE;
    }

  return TRUE;
}

void
jsr_json_guard_depth_error (guint line, guint max_depth, GError **error)
{
  g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_SYNTAX,
               _ ("line %u: the JSON is nested more than %u levels deep"), line, max_depth);
}

void
jsr_json_guard_budget_error (GError **error)
{
  g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_TOO_LARGE,
               _ ("the report holds too many values: loading it would take more than "
                  "%u MB of memory"),
               (guint) (MAX_TREE_BYTES >> 20));
}
