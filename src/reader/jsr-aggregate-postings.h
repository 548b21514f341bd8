/* jsr-aggregate-postings.h: the slow dispatches of many reports counted by
 * posting signature (docs/aggregate-format.md, "postings"): "these 40 s of
 * first_validate_callback were posted from editor_document_load". Each
 * entry: the signature of the posting stack (or of the caller alone), its
 * posting culprit (else caller), the first callback seen for it, how many
 * events, parts and runs, and their blocked time. Exact and associative
 * while the table holds at most JSR_AGG_MAX_POSTINGS signatures (the rest
 * in postings_other).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-agg-names.h"
#include "jsr-json-doc.h"
#include "jsr-json-read.h"
#include "js-json-writer.h"
#include "jsr-report.h"

G_BEGIN_DECLS

#define JSR_AGG_MAX_POSTINGS 256

typedef struct
{
  char *signature;         /* the key */
  char *posted_from;       /* jsr_posting_name (): culprit, else caller, else the signature */
  char *callback;          /* the first dispatched callback seen posted from there; may be NULL */
  char *callback_build_id; /* of a nameless callback's module (jsr-agg-names.h), else NULL */
  guint64 events;          /* events with at least one part posted from there */
  guint64 parts;
  guint64 runs;
  guint64 total_ns; /* the parts' blocked time */
  guint64 last_run; /* internal */
} JsrAggPosting;

typedef struct
{
  GHashTable *by_signature; /* signature -> JsrAggPosting* */
  guint64 other_parts;
  guint64 other_ns; /* parts of signatures past JSR_AGG_MAX_POSTINGS */
  gboolean saturated;
  gboolean overflowed;
} JsrAggPostings;

void jsr_agg_postings_init (JsrAggPostings *p);
void jsr_agg_postings_clear (JsrAggPostings *p);

/* A stall event's dispatch parts (or the event itself when it lists none);
 * `report` (may be NULL) gives the build-ids of nameless callbacks. */
void jsr_agg_postings_add_event (JsrAggPostings *p, const JsrReport *report,
                                 const JsrReportEvent *event, guint64 run);
/* Names the nameless callbacks that carry a build-id (jsr-agg-names.h).
 * Returns how many were named. */
guint jsr_agg_postings_name_callbacks (JsrAggPostings *p, JsrAggNameFunc name, gpointer data);
void jsr_agg_postings_merge (JsrAggPostings *p, const JsrAggPostings *other);

/* The entries, most blocked time first (borrowed). */
GPtrArray *jsr_agg_postings_sorted (const JsrAggPostings *p);

/* "postings": [...], "postings_other": {...} as members of the object
 * being written, each on a line at `indent`. */
void jsr_agg_postings_write (JsJsonWriter *w, guint indent, const JsrAggPostings *p);
/* The same from an aggregate document (absent: none, an older aggregate). */
gboolean jsr_agg_postings_read (const JsrJsonNode *root, JsrAggPostings *p, GError **error);

G_END_DECLS
