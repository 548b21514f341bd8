/* analysis.h: what `jankscope report`, `merge` and `diff` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"

G_BEGIN_DECLS

typedef struct
{
  guint threads;       /* 0: one per processor */
  gboolean keep_going; /* skip unreadable inputs (with a warning) instead of failing */
} CliFoldOptions;

/* Loads FILE... (folders: their *.json) and folds each into `aggregate`,
 * streaming: load, fold in, free. Errors and warnings go to stderr
 * ("jankscope: FILE: ..."). A run already folded in is skipped with a
 * warning. Returns FALSE on the first unreadable input unless keep_going;
 * *n_skipped counts the inputs left out (may be NULL). */
gboolean cli_fold_files (JsrAggregate *aggregate, char **arguments, const CliFoldOptions *options,
                         guint *n_folded, guint *n_skipped);

/* "--signature-frames N" etc.: a positive integer option, checked. */
gboolean cli_parse_count (const char *text, guint min, guint max, guint *out);

char *cli_format_duration (guint64 ns); /* "3.2 s", "12.5 ms", "0.08 ms" */
/* To the millisecond from 1 s on ("3.214 s"): totals other tools show too
 * (the attributed time, every export's total). */
char *cli_format_duration_fine (guint64 ns);
char *cli_format_share (guint64 part, guint64 whole); /* "65%", "-" when whole is 0 */
char *cli_format_class (const JsrAggKey *key);        /* "compute", "wait (lock)", "unknown" */
const char *cli_format_signature (const char *text);
/* "function", or "callback → function" when the culprit is a library's
 * (the dispatched callback named); "-" without one. */
char *cli_format_culprit (const char *function, const char *callback);

G_END_DECLS
