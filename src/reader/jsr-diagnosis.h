/* jsr-diagnosis.h: a part's or an event's `diagnosis` (docs/report-format.md,
 * "Diagnosis"), read from an untrusted report, and the words readers show
 * for it.
 *
 * An id is a short token ([a-z0-9-], at most JSR_DIAGNOSIS_MAX_ID bytes):
 * anything else fails the load, naming the member. Readers show the title
 * and fix of the rules they know (common/js-diagnosis-table.c, translated),
 * and the report's own English words for ids of a newer jankscope.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-read.h"

G_BEGIN_DECLS

#define JSR_DIAGNOSIS_MAX_ID 64
/* The longest `detail` strings read: a path, a D-Bus name. */
#define JSR_DIAGNOSIS_MAX_PATH 1024
#define JSR_DIAGNOSIS_MAX_NAME 256

typedef struct
{
  char *id;           /* never NULL */
  char *title;        /* the report's, may be NULL */
  char *fix;          /* the report's, may be NULL */
  char *function;     /* may be NULL */
  char *wait;         /* may be NULL */
  char *caller;       /* the app's function that made the mistake; may be NULL */
  gint64 evidence_ns; /* JSR_UNKNOWN when absent */
  double share;       /* 0..1; < 0 when unknown */
  gint64 node;        /* in the event's profile; -1 none, JSR_UNKNOWN absent (same value) */
  /* `detail` (docs/report-format.md): NULL members when null or absent. */
  gboolean has_detail; /* an object (file-io: a null path says no file was seen) */
  char *path;          /* file-io: the file */
  char *bus_name, *object_path, *interface, *method; /* dbus-sync: the call */
} JsrReportDiagnosis;

void jsr_diagnosis_free (JsrReportDiagnosis *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrReportDiagnosis, jsr_diagnosis_free)

/* `object`'s `diagnosis` member into `*out` (NULL when null or absent). */
gboolean jsr_diagnosis_parse (const JsrJsonNode *object, const JsrJsonPath *path,
                              JsrReportDiagnosis **out, GError **error);

/* Its node must be one of the event's profile's `n_nodes` (or -1). */
gboolean jsr_diagnosis_check_node (const JsrReportDiagnosis *d, const JsrJsonPath *path,
                                   guint n_nodes, GError **error);

/* The detail as one line for people and aggregates: the path, or "BUS
 * OBJECT_PATH INTERFACE.METHOD" (the names it has); NULL without one. */
char *jsr_diagnosis_detail_text (const JsrReportDiagnosis *d);

/* The title and fix to show for `id`: the table's, translated, when the id
 * is known; else `fallback` (the report's), else the id (title) or NULL
 * (fix). */
const char *jsr_diagnosis_title (const char *id, const char *fallback);
const char *jsr_diagnosis_fix (const char *id, const char *fallback);

G_END_DECLS
