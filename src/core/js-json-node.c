/* js-json-node.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-json-node.h"

void
js_json_write_node (JsJsonWriter *w, JsonNode *node)
{
  switch (node != NULL ? JSON_NODE_TYPE (node) : JSON_NODE_NULL)
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *value;

        js_json_writer_begin_object (w);
        /* In the order the members were parsed or added. */
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &value))
          {
            js_json_writer_member (w, name);
            js_json_write_node (w, value);
          }
        js_json_writer_end_object (w);
        return;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        js_json_writer_begin_array (w);
        for (guint i = 0; i < n; i++)
          js_json_write_node (w, json_array_get_element (array, i));
        js_json_writer_end_array (w);
        return;
      }
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          js_json_writer_string (w, json_node_get_string (node));
          return;
        case G_TYPE_INT64:
          js_json_writer_int (w, json_node_get_int (node));
          return;
        case G_TYPE_DOUBLE:
          js_json_writer_double (w, json_node_get_double (node));
          return;
        case G_TYPE_BOOLEAN:
          js_json_writer_bool (w, json_node_get_boolean (node));
          return;
        default:
          break;
        }
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
  js_json_writer_null (w);
}
