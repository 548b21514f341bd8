/* text-table.h: aligned text columns for terminal output
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CLI_ALIGN_LEFT,
  CLI_ALIGN_RIGHT,
} CliAlign;

typedef struct _CliTable CliTable;

CliTable *cli_table_new (guint n_columns);
void cli_table_free (CliTable *table);
void cli_table_set_align (CliTable *table, guint column, CliAlign align);
void cli_table_set_max_width (CliTable *table, guint column, guint max_width);
void cli_table_add_row (CliTable *table, const char *first_cell, ...) G_GNUC_NULL_TERMINATED;
void cli_table_format (CliTable *table, const char *indent, GString *out);

char *cli_text_sanitize (const char *text);
char *cli_text_truncate (const char *text, guint max_width);
guint cli_text_width (const char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliTable, cli_table_free)

G_END_DECLS
