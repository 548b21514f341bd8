/* jsr-posting.h: a part's or an event's `posted_from` (docs/report-format.md,
 * "Posting sites"), read and checked.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "jsr-json-read.h"

G_BEGIN_DECLS

#define JSR_POSTING_MAX_CHAIN 3

typedef struct
{
  char *kind;                         /* "idle", "timeout", ... or another; may be NULL */
  char *caller;                       /* the caller's function, may be NULL */
  char *caller_module;                /* may be NULL */
  char *culprit;                      /* the posting culprit's function, NULL: none */
  char *culprit_module;               /* may be NULL */
  char *caller_place, *culprit_place; /* "module+0xOFFSET" of a frame without a name, or NULL */
  char *signature;                    /* may be NULL */
  char *signature_id;                 /* may be NULL */
  gboolean has_stack;                 /* a full stack was taken */
  gboolean stack_inherited;           /* ... at an earlier attach from the same place */
  guint n_chain;                      /* links of the chain read (at most JSR_POSTING_MAX_CHAIN) */
  char *chain[JSR_POSTING_MAX_CHAIN]; /* their callers' functions, NULL: unknown */
} JsrPosting;

void jsr_posting_free (JsrPosting *posting);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrPosting, jsr_posting_free)

/* `posted_from` of `object` at `path`: *out NULL when null or absent. */
gboolean jsr_posting_parse (const JsrJsonNode *object, const JsrJsonPath *path, JsrPosting **out,
                            GError **error);

/* The one phrase readers show: "FUNCTION" of the culprit, else of the caller,
 * (either as "module+0xOFFSET" when it has no name), else the signature;
 * NULL when there is nothing to say. */
const char *jsr_posting_name (const JsrPosting *posting);

/* Does jsr_posting_name come from a stack the site inherited from an
 * earlier attach (`stack_inherited`)? */
gboolean jsr_posting_name_inherited (const JsrPosting *posting);

G_END_DECLS
