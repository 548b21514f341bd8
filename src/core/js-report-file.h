/* js-report-file.h: reading and writing the report's files, which are not ours.
 *
 * The report path comes from the environment (JANKSCOPE_REPORT): another
 * user may have put a FIFO, a device or a symbolic link there (in /tmp), or
 * an old report of any size. So:
 *  - a path is written only when it is a regular file or does not exist:
 *    a device, FIFO, socket, directory or symbolic link is refused, never
 *    opened (opening a device can have effects of its own);
 *  - a file is replaced atomically by a rename, from an unnamed temporary
 *    file (O_TMPFILE) that only gets a name once it is complete, so a
 *    process that dies while writing leaves nothing behind;
 *  - a file is read only when it is a regular file (O_NOFOLLOW, fstat), at
 *    most `max` bytes of it, and opening never blocks (O_NONBLOCK).
 * No file descriptor is kept open between calls: the app may close or reuse
 * any descriptor number at any time.
 *
 * Any thread but the app's main thread (these are system calls that can
 * wait for the disk).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when `path` may be written: it does not exist, or it is a regular
 * file. Else FALSE with a G_FILE_ERROR that says what it is. */
gboolean js_report_file_check_target (const char *path, GError **error);

/* Replaces (or creates) `path` with `length` bytes of `data`, atomically.
 * `sync`: flush to the disk before the rename (the final report). */
gboolean js_report_file_replace (const char *path, const char *data, gsize length, gboolean sync,
                                 GError **error);

/* Appends `length` bytes to `path` (created when missing) in one write
 * where the kernel allows it. */
gboolean js_report_file_append (const char *path, const char *data, gsize length, GError **error);

/* Removes `path` when it is a regular file; a missing file is fine. */
gboolean js_report_file_remove (const char *path, GError **error);

/* The last `max` bytes (or fewer) of the regular file `path`, NUL-terminated,
 * and (`file_size`) its whole size. NULL with an error when it is missing,
 * not a regular file, or unreadable. */
char *js_report_file_read_tail (const char *path, gsize max, gsize *length, guint64 *file_size,
                                GError **error);

G_END_DECLS
