/* js-debug-files.h: where distributions put a module's debug information,
 * found on this machine (no network: see js-debuginfod.h for that).
 *
 * A module is described by plain data (its file's path, its build-id, its
 * .gnu_debuglink name), never by the running process, so the same search
 * serves an offline symbolizer. Debug roots: the directories of
 * JANKSCOPE_DEBUG_DIRS, in order, then /usr/lib/debug. A module's separate
 * debug file is, in this order:
 *
 *   1. ROOT/.build-id/xx/rest.debug, for each root (xx: the build-id's first
 *      byte in hex, rest: the others);
 *   2. its .gnu_debuglink name beside the module, in .debug/ beside it, then
 *      ROOT/<the module's directory>/ for each root (GDB's order).
 *
 * Every candidate is opened without blocking (a FIFO is never waited on),
 * must be a regular file and must carry the module's build-id (a stale
 * debug file would give wrong names; without a build-id nothing is taken);
 * the module's own file is never taken as its debug file.
 *
 * Any thread; a JsDebugFiles is read-only once made.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_DEBUG_FILES_SYSTEM_ROOT "/usr/lib/debug"
#define JS_DEBUG_FILES_MAX_ROOTS 16

typedef struct _JsDebugFiles JsDebugFiles;

/* `dirs`: the extra roots, searched before /usr/lib/debug (NULL: none).
 * Only absolute paths are kept (the caller validated them). */
JsDebugFiles *js_debug_files_new (const char *const *dirs);
void js_debug_files_free (JsDebugFiles *files);

/* The roots, in search order, ':'-separated ("/a:/usr/lib/debug"): the
 * form of libdwfl's `debuginfo_path`. */
const char *js_debug_files_search_path (JsDebugFiles *files);

/* The separate debug file of the module at `module_path` (NULL: unknown),
 * as above: an fd (O_RDONLY) and, in *found_path, its path (malloc ()ed,
 * libdwfl frees it), or -1. */
int js_debug_files_open_debuginfo (JsDebugFiles *files, const char *module_path,
                                   const guint8 *build_id, gsize build_id_len,
                                   const char *debuglink, char **found_path);

/* The module's file itself, by build-id, for a module whose file is gone or
 * was replaced: ROOT/.build-id/xx/rest (without .debug), for each root. */
int js_debug_files_open_original (JsDebugFiles *files, const guint8 *build_id, gsize build_id_len,
                                  char **found_path);

/* `path` opened without blocking, if it is a regular file (and, with a
 * build-id, an ELF file that carries it); else -1. */
int js_debug_files_open_checked (const char *path, const guint8 *build_id, gsize build_id_len);

G_END_DECLS
