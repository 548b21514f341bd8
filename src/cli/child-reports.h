/* child-reports.h: the reports of a run's other monitored processes.
 *
 * Every monitored process of a run shares JANKSCOPE_REPORT: the first owns
 * PATH, every other one (a GLib child: a helper, a D-Bus service the app
 * spawned) writes PATH.PID (src/core/js-report-path.c). The summary of PATH
 * lists them, so that a child's jank is not missed.
 *
 * Only names PATH.DIGITS beside PATH, regular files (never followed
 * through a link), at most CLI_CHILD_REPORTS_MAX looked at; each read with
 * the reader's own checks (size limit, hostile input).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

/* Looked at (the lowest pids first); the others are counted only. */
#define CLI_CHILD_REPORTS_MAX 16

typedef struct
{
  char *path;
  gint64 pid;
  JsrReport *report; /* NULL when it could not be read: see error */
  char *error;
} CliChildReport;

/* The child reports of the report at @path, by pid (an empty array when
 * there are none, or when @path is itself a child's report); *n_more: those
 * past CLI_CHILD_REPORTS_MAX. */
GPtrArray *cli_child_reports_find (const char *path, guint *n_more);

/* "Child processes" as text (nothing without children); @show_paths: the
 * files stay (a run's private folder is removed). */
void cli_child_reports_format (const GPtrArray *children, guint n_more, gboolean show_paths,
                               GString *out);

G_END_DECLS
