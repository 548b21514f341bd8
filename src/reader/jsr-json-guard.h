/* jsr-json-guard.h: the limits on untrusted JSON (nesting, 64-bit integers,
 * the memory budget) and their errors, which jsr-json-doc.c keeps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Estimated bytes of json-glib 1.6's tree per token (measured on x86-64,
 * rounded up), and the budget (see jsr-json-guard.c). jsr-json-doc.c applies
 * the estimate while it parses, so that every reader accepts and refuses the
 * same files. */
#define JSR_JSON_GUARD_OBJECT_COST 320
#define JSR_JSON_GUARD_ARRAY_COST 128
#define JSR_JSON_GUARD_STRING_COST 192 /* plus its bytes; a member's name is one too */
#define JSR_JSON_GUARD_SCALAR_COST 96  /* a number, true, false, null */
#define JSR_JSON_GUARD_MAX_TREE_BYTES (G_GUINT64_CONSTANT (2) << 30)

/* An integer token (a fraction or an exponent makes a double: TRUE) that
 * does not fit in 64 bits: FALSE with a JSR_JSON_ERROR_SYNTAX error. */
gboolean jsr_json_guard_check_integer (const char *token, gsize length, guint line, GError **error);
/* The errors of the other two limits, for the parser that keeps them. */
void jsr_json_guard_depth_error (guint line, guint max_depth, GError **error);
void jsr_json_guard_budget_error (GError **error);

G_END_DECLS
