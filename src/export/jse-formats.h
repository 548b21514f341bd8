/* jse-formats.h: the formats of "jankscope export" (docs/exports.md)
 *
 * Each turns the loaded inputs into the bytes of one output file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jse-common.h"

G_BEGIN_DECLS

GBytes *export_chrome  (ExportContext *ctx,
                        GError       **error);
GBytes *export_folded  (ExportContext *ctx,
                        GError       **error);
GBytes *export_json    (ExportContext *ctx,
                        GError       **error);
#ifdef JANKSCOPE_HAVE_PPROF
GBytes *export_pprof   (ExportContext *ctx,
                        GError       **error);
#endif
#ifdef JANKSCOPE_HAVE_SYSPROF
GBytes *export_sysprof (ExportContext *ctx,
                        GError       **error);
#endif

/* --folded-prefix: checks a comma-separated list of process, class,
 * signature (or none). */
gboolean export_folded_check_prefix (const char *prefix,
                                     GError    **error);

G_END_DECLS
