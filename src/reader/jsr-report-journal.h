/* jsr-report-journal.h: a report and its journal, read as one document
 *
 * While an app runs, jankscope keeps its report current with journal lines
 * appended to PATH.journal and rewrites PATH only now and then
 * (docs/report-format.md, "The report on disk"). A report whose app was
 * killed, or that is read while the app runs, is PATH with the journal's
 * newer lines folded in: events replaced by id, the hang under way, and the
 * top-level members of "set" lines.
 *
 * Any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The journal of the report at `path` (PATH.journal), read whole, or NULL
 * when there is none or it cannot be one (not a regular file, too large).
 * Read it before the report: the app writes a new report before it starts
 * a new journal, so that order never misses a line. */
char *jsr_report_journal_read (const char *path, gsize *length);

/* `report` (`report_length` bytes) with the newer lines of `journal`
 * folded in, as a new JSON text; NULL when nothing applies (no "journal"
 * member, no line of its run past its sequence number, or a report that is
 * not valid JSON: its reader says why). */
char *jsr_report_journal_fold (const char *report, gsize report_length, const char *journal,
                               gsize journal_length, gsize *folded_length);

G_END_DECLS
