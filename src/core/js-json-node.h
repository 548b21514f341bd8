/* js-json-node.h: a json-glib node written into the core's JSON writer
 *
 * The core writes JSON with common/js-json-writer.h and parses with
 * json-glib (a previous run's hang from its journal, an event of a live
 * snapshot); what it parsed goes back into a document it writes here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include "js-json-writer.h"

G_BEGIN_DECLS

/* `node` as the next value: objects' members in their order, doubles as the
 * writer writes them; NULL, and a value of a type JSON has not, as null.
 * The writer's filter applies (js_json_writer_set_filter). */
void js_json_write_node (JsJsonWriter *writer, JsonNode *node);

G_END_DECLS
