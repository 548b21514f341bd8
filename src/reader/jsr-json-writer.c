/* jsr-json-writer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsr-json-writer.h"

void
jsr_json_writer_node (JsJsonWriter *writer, const JsrJsonNode *node)
{
  switch (node->type)
    {
    case JSR_JSON_BOOLEAN:
      js_json_writer_bool (writer, node->v.boolean);
      break;
    case JSR_JSON_INT:
      js_json_writer_int (writer, node->v.integer);
      break;
    case JSR_JSON_DOUBLE:
      js_json_writer_double (writer, node->v.number);
      break;
    case JSR_JSON_STRING:
      js_json_writer_string (writer, node->v.string);
      break;
    case JSR_JSON_ARRAY:
      js_json_writer_begin_array (writer);
      for (guint32 i = 0; i < node->length; i++)
        jsr_json_writer_node (writer, &node->v.elements[i]);
      js_json_writer_end_array (writer);
      break;
    case JSR_JSON_OBJECT:
      js_json_writer_begin_object (writer);
      for (guint32 i = 0; i < node->length; i++)
        {
          js_json_writer_member (writer, node->v.members[i].name);
          jsr_json_writer_node (writer, &node->v.members[i].value);
        }
      js_json_writer_end_object (writer);
      break;
    case JSR_JSON_NULL:
    case JSR_JSON_LAZY: /* not built: a lazily parsed document is not written back */
    default:
      js_json_writer_null (writer);
      break;
    }
}
