/* jsr-json-guard.h: checks on raw JSON text that json-glib 1.6 does not make
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Estimated bytes of json-glib 1.6's tree per token, and the budget (see
 * jsr-json-guard.c). jsr-json-doc.c applies the same estimate while it parses, so
 * that every reader of the CLI accepts and refuses the same files. */
#define JSR_JSON_GUARD_OBJECT_COST    320
#define JSR_JSON_GUARD_ARRAY_COST     128
#define JSR_JSON_GUARD_STRING_COST    192 /* plus its bytes; a member's name is one too */
#define JSR_JSON_GUARD_SCALAR_COST    96  /* a number, true, false, null */
#define JSR_JSON_GUARD_MAX_TREE_BYTES (G_GUINT64_CONSTANT (2) << 30)

gboolean jsr_json_guard_check (const char *data,
                               gsize       length,
                               guint       max_depth,
                               GError    **error);

/* The errors of the guard, for a parser that makes the same checks. */
gboolean jsr_json_guard_check_integer (const char *token,
                                       gsize       length,
                                       guint       line,
                                       GError    **error);
void     jsr_json_guard_depth_error   (guint       line,
                                       guint       max_depth,
                                       GError    **error);
void     jsr_json_guard_budget_error  (GError    **error);

G_END_DECLS
