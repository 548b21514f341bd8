/* jsr-input-queue.h: reports and aggregates loaded ahead by worker threads
 *
 * `jankscope report`, `merge` and `diff` read many files and fold them in
 * one by one. Parsing dominates, so worker threads load the next files while
 * the caller folds in the current one; the caller still gets the inputs in
 * the order given (results are deterministic), and at most a few files per
 * thread are held at a time, so memory stays bounded however many files
 * there are (load, fold in, free).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"
#include "jsr-report.h"

G_BEGIN_DECLS

typedef struct
{
  const char *path;        /* as given */
  JsrReport *report;       /* a report (loaded in full), or */
  JsrAggregate *aggregate; /* an aggregate, or */
  GError *error;           /* why neither */
} JsrInput;

typedef struct _JsrInputQueue JsrInputQueue;

/* `paths` must outlive the queue. threads 0: one per processor (at most 8).
 * Reports are loaded with `flags` (JSR_REPORT_LOAD_FULL at least). */
JsrInputQueue *jsr_input_queue_new (const char *const *paths, guint n_paths, guint threads,
                                    JsrReportLoadFlags flags);
/* The next input in order, NULL after the last. */
JsrInput *jsr_input_queue_next (JsrInputQueue *queue);
void jsr_input_queue_free (JsrInputQueue *queue);
void jsr_input_free (JsrInput *input);

/* Loads one file: a report (with `flags`) or an aggregate, by its "format". */
JsrInput *jsr_input_load (const char *path, JsrReportLoadFlags flags);

/* The arguments, with each folder replaced by its *.json files (sorted). */
GPtrArray *jsr_input_expand_paths (char **arguments, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrInputQueue, jsr_input_queue_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrInput, jsr_input_free)

G_END_DECLS
