/* jsr-json-writer.h: a parsed document (jsr-json-doc.h) written back
 *
 * The writer itself is common/js-json-writer.h (the core writes its reports
 * with it too); what it cannot know of is the reading side's document type.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-json-writer.h"
#include "jsr-json-doc.h"

G_BEGIN_DECLS

/* A parsed value as it is (every member, duplicates included). */
void jsr_json_writer_node (JsJsonWriter *writer, const JsrJsonNode *node);

G_END_DECLS
