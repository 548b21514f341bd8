/* symbolize-modules.h: the modules a saved report names, found on this
 * machine for `jankscope symbolize`
 *
 * A report's frames name a module by its file name and build-id (`module`,
 * `build_id`); its module table (`modules`, absent in older reports) adds
 * the path it was loaded from, and `process.exe` is the executable's. This
 * finds a file that carries that build-id and gives each module its own
 * offline symbolizer (src/symbols/js-symbolizer.h, the core's own), so an
 * offset in the report is an address of that file:
 *
 *   1. a file of that name: the path the report's module table gives it,
 *      `process.exe` for the executable, DIR/NAME for each --debug-dir, the
 *      system's library folders;
 *   2. the module's file by build-id, ROOT/.build-id/xx/rest, for each root
 *      (the --debug-dir folders, then /usr/lib/debug);
 *   3. its separate debug file by build-id (ROOT/.build-id/xx/rest.debug):
 *      it holds the same addresses, symbols and DWARF;
 *   4. with debuginfod, that debug file downloaded (waited for, bounded).
 *
 * A module's own file is symbolized with the debug files the symbolizer
 * finds for it (.build-id, .gnu_debuglink, the same roots). Every candidate
 * must carry the report's build-id: a file of the module's name with
 * another build-id is refused (its names would be wrong), and when no file
 * matches, the module's frames are left as they are ("refused"). One line
 * on stderr per module that could not be had.
 *
 * Not thread-safe.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-symbolizer.h"

G_BEGIN_DECLS

typedef struct _CliSymModules CliSymModules;

typedef enum
{
  CLI_SYM_FOUND,
  CLI_SYM_REFUSED, /* a file of that name has another build-id, and none has the report's */
  CLI_SYM_MISSING, /* no file, or no build-id in the report */
} CliSymState;

/* `debug_dirs`: absolute folders, searched first (NULL: none);
 * `debuginfod`: download debug files missing here (DEBUGINFOD_URLS). */
CliSymModules *cli_sym_modules_new (const char *const *debug_dirs, gboolean debuginfod);
void cli_sym_modules_free (CliSymModules *modules);

/* The executable's path (the report's `process.exe`), or NULL. */
void cli_sym_modules_set_exe (CliSymModules *modules, const char *exe);

/* Where a module was loaded, from a report's module table (`modules`):
 * looked at first for module `name` with `build_id` (and, like every
 * candidate, used only when it carries that build-id). */
void cli_sym_modules_add_path (CliSymModules *modules, const char *name, const char *build_id,
                               const char *path);

/* The frames at `offset` in module `name` with `build_id` (hex), innermost
 * inline frame first, appended to `out` (JsFrame; strings owned by the
 * symbolizer); how many (0 when the module is not FOUND, state says why).
 * `is_return`: the offset is a return address. */
guint cli_sym_modules_lookup (CliSymModules *modules, const char *name, const char *build_id,
                              guint64 offset, gboolean is_return, GArray *out, CliSymState *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliSymModules, cli_sym_modules_free)

G_END_DECLS
