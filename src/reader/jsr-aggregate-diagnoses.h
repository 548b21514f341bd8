/* jsr-aggregate-diagnoses.h: the stall events of many reports counted by
 * diagnosis id (docs/aggregate-format.md, "diagnoses"): how many events had
 * a part of each kind of mistake, how many such parts, their blocked time
 * and evidence, and where (the places with the most time: the diagnosis's
 * caller, the app's own code; else the part's culprit when it is the app's
 * code, else the diagnosis's function, else the part's callback).
 *
 * Exact and associative while each id keeps at most
 * JSR_AGG_DIAGNOSIS_MAX_PLACES places (the rest of the time is counted in
 * places_other_ns) and the table at most JSR_AGG_MAX_DIAGNOSES ids (the
 * rest in diagnoses_other).
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

#define JSR_AGG_DIAGNOSIS_MAX_PLACES 8
/* Distinct details (files, D-Bus calls) kept per id. */
#define JSR_AGG_DIAGNOSIS_MAX_DETAILS 4
#define JSR_AGG_MAX_DIAGNOSES 256

typedef struct
{
  char *function;   /* a place's function; a detail's text (jsr_diagnosis_detail_text) */
  char *build_id;   /* of a nameless ("module+0x…") place's module, else NULL: part of the key */
  guint64 total_ns; /* blocked time of the parts diagnosed there (with that detail) */
} JsrAggPlace;

typedef struct
{
  char *id;
  char *title;         /* the reports' own (for ids this jankscope does not know); may be NULL */
  guint64 events;      /* stall events with at least one part of it */
  guint64 parts;       /* parts of it */
  guint64 runs;        /* runs with at least one */
  guint64 total_ns;    /* the parts' blocked time */
  guint64 evidence_ns; /* the time that made the diagnoses */
  GPtrArray *places;   /* of JsrAggPlace, most time first */
  guint64 places_other_ns;
  GPtrArray *details; /* of JsrAggPlace: the files or D-Bus calls, most time first */
  guint64 details_other_ns;
  guint64 last_run; /* internal */
} JsrAggDiagnosis;

typedef struct
{
  GHashTable *by_id; /* id -> JsrAggDiagnosis* */
  guint64 other_parts;
  guint64 other_ns; /* parts of ids past JSR_AGG_MAX_DIAGNOSES */
  gboolean saturated;
  gboolean overflowed;
} JsrAggDiagnoses;

void jsr_agg_diagnoses_init (JsrAggDiagnoses *d);
void jsr_agg_diagnoses_clear (JsrAggDiagnoses *d);

/* A stall event's parts (or the event itself when it lists none); `run`:
 * the aggregate's serial of the run it belongs to; `report` (may be NULL)
 * gives the build-ids of nameless places (jsr-agg-names.h). */
void jsr_agg_diagnoses_add_event (JsrAggDiagnoses *d, const JsrReport *report,
                                  const JsrReportEvent *event, guint64 run);
void jsr_agg_diagnoses_merge (JsrAggDiagnoses *d, const JsrAggDiagnoses *other);

/* Names the nameless places that carry a build-id (jsr-agg-names.h);
 * places of an entry that become one are one, their time summed. Returns
 * how many were named. */
guint jsr_agg_diagnoses_name_places (JsrAggDiagnoses *d, JsrAggNameFunc name, gpointer data);

/* The entries, most blocked time first (borrowed). */
GPtrArray *jsr_agg_diagnoses_sorted (const JsrAggDiagnoses *d);

/* "diagnoses": [...], "diagnoses_other": {...} as members of the object
 * being written, each on a line at `indent`. */
void jsr_agg_diagnoses_write (JsJsonWriter *w, guint indent, const JsrAggDiagnoses *d);
/* The same from an aggregate document (absent: none, an older aggregate). */
gboolean jsr_agg_diagnoses_read (const JsrJsonNode *root, JsrAggDiagnoses *d, GError **error);

G_END_DECLS
