/* js-report-path.h: where this process writes its report.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Expands %p (pid), %e (executable base name) and %% in `templ`.
 *
 * The first monitored process of a tree owns the plain path: when `early`
 * (before main(), still single-threaded) it records its pid in
 * JANKSCOPE_REPORT_OWNER for its children. A monitored child (same
 * environment, other pid) writes "PATH.PID" instead, unless the template
 * has %p, so it never overwrites its parent's report. */
char *js_report_path_resolve (const char *templ, gboolean early);

/* The expansion alone (for tests). */
char *js_report_path_expand (const char *templ, int pid, const char *exe_name);

G_END_DECLS
