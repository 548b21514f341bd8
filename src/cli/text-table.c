/* text-table.c: aligned text columns for terminal output
 *
 * Cells may come from an untrusted report: they are made valid UTF-8 and
 * control characters are replaced, so that a report cannot send escape
 * sequences to the terminal. Widths are counted in terminal cells (wide
 * CJK characters take two), not in bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "text-table.h"

#define COLUMN_GAP "  "
#define ELLIPSIS "..."

typedef struct
{
  CliAlign align;
  guint max_width; /* 0: no limit */
} Column;

struct _CliTable
{
  guint n_columns;
  Column *columns;
  GPtrArray *rows; /* of GStrv, n_columns cells each */
};

CliTable *
cli_table_new (guint n_columns)
{
  CliTable *table;

  g_return_val_if_fail (n_columns > 0, NULL);

  table = g_new0 (CliTable, 1);
  table->n_columns = n_columns;
  table->columns = g_new0 (Column, n_columns);
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  return table;
}

void
cli_table_free (CliTable *table)
{
  if (table == NULL)
    return;

  g_ptr_array_unref (table->rows);
  g_free (table->columns);
  g_free (table);
}

void
cli_table_set_align (CliTable *table, guint column, CliAlign align)
{
  g_return_if_fail (column < table->n_columns);

  table->columns[column].align = align;
}

void
cli_table_set_max_width (CliTable *table, guint column, guint max_width)
{
  g_return_if_fail (column < table->n_columns);
  g_return_if_fail (max_width == 0 || max_width > strlen (ELLIPSIS));

  table->columns[column].max_width = max_width;
}

static guint
unichar_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;

  return g_unichar_iswide (c) ? 2 : 1;
}

guint
cli_text_width (const char *text)
{
  guint width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += unichar_width (g_utf8_get_char (p));

  return width;
}

/* Returns valid UTF-8 without control characters (C0, DEL, C1). */
char *
cli_text_sanitize (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *clean = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c))
        g_string_append_c (clean, '?');
      else
        g_string_append_unichar (clean, c);
    }

  return g_string_free (clean, FALSE);
}

/* Cuts text to max_width cells, ending it with "..." when it was cut. */
static char *
truncate_to_width (const char *text, guint max_width)
{
  guint budget = max_width - strlen (ELLIPSIS);
  guint width = 0;
  const char *p;

  if (max_width == 0 || cli_text_width (text) <= max_width)
    return g_strdup (text);

  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      guint w = unichar_width (g_utf8_get_char (p));

      if (width + w > budget)
        break;
      width += w;
    }

  return g_strdup_printf ("%.*s%s", (int) (p - text), text, ELLIPSIS);
}

/* Sanitized, and cut to max_width cells (0: no limit) with "...". */
char *
cli_text_truncate (const char *text, guint max_width)
{
  g_autofree char *clean = cli_text_sanitize (text);

  g_return_val_if_fail (max_width == 0 || max_width > strlen (ELLIPSIS), NULL);

  return truncate_to_width (clean, max_width);
}

void
cli_table_add_row (CliTable *table, const char *first_cell, ...)
{
  char **row = g_new0 (char *, table->n_columns + 1);
  const char *cell = first_cell;
  va_list args;

  va_start (args, first_cell);
  for (guint i = 0; i < table->n_columns; i++)
    {
      g_autofree char *clean = cli_text_sanitize (cell != NULL ? cell : "");

      row[i] = truncate_to_width (clean, table->columns[i].max_width);
      if (cell != NULL)
        cell = va_arg (args, const char *);
    }
  va_end (args);

  g_ptr_array_add (table->rows, row);
}

static void
append_padding (GString *out, guint n)
{
  for (guint i = 0; i < n; i++)
    g_string_append_c (out, ' ');
}

/* The last column is not padded on the right: no trailing blanks. */
void
cli_table_format (CliTable *table, const char *indent, GString *out)
{
  g_autofree guint *widths = g_new0 (guint, table->n_columns);

  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);

      for (guint c = 0; c < table->n_columns; c++)
        widths[c] = MAX (widths[c], cli_text_width (row[c]));
    }

  for (guint r = 0; r < table->rows->len; r++)
    {
      char **row = g_ptr_array_index (table->rows, r);
      gsize line_start = out->len;

      g_string_append (out, indent);
      for (guint c = 0; c < table->n_columns; c++)
        {
          guint pad = widths[c] - cli_text_width (row[c]);
          gboolean last = (c + 1 == table->n_columns);

          if (c > 0)
            g_string_append (out, COLUMN_GAP);
          if (table->columns[c].align == CLI_ALIGN_RIGHT)
            append_padding (out, pad);
          g_string_append (out, row[c]);
          if (table->columns[c].align == CLI_ALIGN_LEFT && !last)
            append_padding (out, pad);
        }

      /* Empty trailing cells would leave blanks at the end of the line. */
      while (out->len > line_start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
}
