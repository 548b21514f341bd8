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
  CliReport *report;       /* a report (loaded in full), or */
  CliAggregate *aggregate; /* an aggregate, or */
  GError *error;           /* why neither */
} CliInput;

typedef struct _CliInputQueue CliInputQueue;

/* `paths` must outlive the queue. threads 0: one per processor (at most 8).
 * Reports are loaded with `flags` (CLI_REPORT_LOAD_FULL at least). */
CliInputQueue *cli_input_queue_new  (const char *const *paths,
                                     guint              n_paths,
                                     guint              threads,
                                     CliReportLoadFlags flags);
/* The next input in order, NULL after the last. */
CliInput      *cli_input_queue_next (CliInputQueue     *queue);
void           cli_input_queue_free (CliInputQueue     *queue);
void           cli_input_free       (CliInput          *input);

/* Loads one file: a report (with `flags`) or an aggregate, by its "format". */
CliInput      *cli_input_load       (const char        *path,
                                     CliReportLoadFlags flags);

/* The arguments, with each folder replaced by its *.json files (sorted). */
GPtrArray     *cli_input_expand_paths (char           **arguments,
                                       GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliInputQueue, cli_input_queue_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliInput, cli_input_free)

G_END_DECLS
