/* jsr-agg-read.h: what every part of the aggregate document
 * (docs/aggregate-format.md: jsr-aggregate-io.c, the diagnoses, the
 * postings, the names) reads and refuses the same way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-read.h"

G_BEGIN_DECLS

/* Sets "PATH.MEMBER PROBLEM" (member may be NULL: the path itself), an
 * invalid aggregate (JSR_REPORT_ERROR_INVALID); returns FALSE. */
gboolean jsr_agg_invalid (GError **error, const JsrJsonPath *path, const char *member,
                          const char *problem);

/* A count: an integer >= 0 (jsr_json_read_count), as the aggregate keeps it. */
gboolean jsr_agg_read_u64 (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                           guint64 *out, GError **error);

G_END_DECLS
