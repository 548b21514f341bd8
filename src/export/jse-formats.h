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

GBytes *jse_format_chrome (JseContext *ctx, GError **error);
GBytes *jse_format_folded (JseContext *ctx, GError **error);
GBytes *jse_format_json (JseContext *ctx, GError **error);
#ifdef JANKSCOPE_HAVE_PPROF
GBytes *jse_format_pprof (JseContext *ctx, GError **error);
#endif
#ifdef JANKSCOPE_HAVE_SYSPROF
GBytes *jse_format_sysprof (JseContext *ctx, GError **error);
#endif

/* --folded-weight: time (the default, NULL) or samples. */
gboolean jse_folded_parse_weight (const char *text, JseFoldedWeight *out, GError **error);

/* --folded-prefix: checks a comma-separated list of process, class,
 * signature (or none). */
gboolean jse_folded_check_prefix (const char *prefix, GError **error);

G_END_DECLS
