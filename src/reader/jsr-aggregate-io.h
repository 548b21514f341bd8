/* jsr-aggregate-io.h: the aggregate document (docs/aggregate-format.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-aggregate.h"
#include "jsr-json-doc.h"

G_BEGIN_DECLS

/* The document, deterministic: the same aggregate gives the same bytes.
 * Keeps the aggregate's max_signatures signatures with the most time; the
 * others go to "signatures_other". */
char *jsr_aggregate_to_json (const JsrAggregate *aggregate);

/* An aggregate from a parsed document whose "format" is the aggregate's;
 * every member checked (JSR_REPORT_ERROR or JSR_JSON_ERROR, naming the member). */
JsrAggregate *jsr_aggregate_load_from_json (const JsrJsonNode *root, GError **error);

/* Is this parsed document an aggregate (by its "format")? */
gboolean jsr_aggregate_json_is_aggregate (const JsrJsonNode *root);

G_END_DECLS
