/* js-report-path.h: where this process writes its report (who owns the
 * plain path: see js-report-path.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The report path of this process: `templ` with %p (pid), %e (executable
 * base name) and %% expanded; "PATH.PID" instead when the template has no %p
 * and another process of the run comes first. `owner` is the value of
 * JANKSCOPE_REPORT_OWNER (the run's root pid) as read at start-up, or NULL.
 * Reads /proc: call it off the main thread. */
char *js_report_path_resolve (const char *templ, const char *owner);

/* Whether a GLib program of ours (same uid, libglib mapped) comes before
 * this process in the run whose root is `root`: one of its ancestors up to
 * the root, or the root itself when it is not an ancestor any more
 * (daemonized). TRUE when unsure. */
gboolean js_report_path_under_monitored (int root);

/* Whether this process is a child in its run: `owner` (the run's root pid,
 * JANKSCOPE_REPORT_OWNER; NULL: none recorded, GTK module mode) names
 * another process and a GLib program of ours comes before this one
 * (js_report_path_under_monitored). A bad `owner` is no root: FALSE. Such a
 * process writes PATH.PID, and with JANKSCOPE_CHILDREN=0 is not monitored.
 * Reads /proc. */
gboolean js_report_path_is_child (const char *owner);

/* The expansion alone (for tests). */
char *js_report_path_expand (const char *templ, int pid, const char *exe_name);

G_END_DECLS
