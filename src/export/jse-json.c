/* jse-json.c: "jankscope export --format=json": the inputs as one JSON
 * document, an array of the reports, each re-serialized whole (members this
 * CLI does not know included), in the order given; --scrub applies to every
 * string of them, and drops the focused window's title ("window_title": a
 * title may name a document or a person), as JANKSCOPE_SCRUB=1 does in the
 * app.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "jse-formats.h"
#include "jsr-display.h"

typedef void (*StringFunc) (JsonNode *node, gpointer data);

static void
walk_strings (JsonNode  *node,
              StringFunc func,
              gpointer   data)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, NULL, &member))
          walk_strings (member, func, data);
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          walk_strings (json_array_get_element (array, i), func, data);
      }
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        func (node, data);
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

static void
learn_string (JsonNode *node,
              gpointer  data)
{
  jse_scrubber_learn (data, json_node_get_string (node));
}

static void
scrub_string (JsonNode *node,
              gpointer  data)
{
  g_autofree char *scrubbed = jse_scrubber_apply (data, json_node_get_string (node));

  json_node_set_string (node, scrubbed);
}

/* Members that are user data in themselves, not paths. */
static void
drop_titles (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member))
        if (strcmp (name, "window_title") == 0)
          json_node_init_null (member);
        else
          drop_titles (member);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        drop_titles (json_array_get_element (array, i));
    }
}

/* The file again (with its journal folded in), checked again (it may have
 * changed since it was loaded: a running app keeps its report current, and
 * the path may be something else by now: read with the loaders' own checks,
 * a regular file of a bounded size), then parsed as plain JSON. */
static JsonNode *
read_report (const JseInput *input,
             GError        **error)
{
  g_autofree char *data = NULL;
  gsize length;
  g_autoptr (JsrReport) check = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local_error = NULL;

  if (!jsr_report_read_file (input->path, &data, &length, &local_error) ||
      (check = jsr_report_load_full_from_data (data, length, &local_error)) == NULL ||
      !json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_autofree char *name = jsr_display_filename (input->path);

      g_set_error (error, local_error->domain, local_error->code, "%s: %s", name,
                   local_error->message);
      return NULL;
    }

  return json_parser_steal_root (parser);
}

GBytes *
jse_format_json (JseContext *ctx,
                 GError    **error)
{
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);
  g_autoptr (JsonArray) reports = json_array_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  gsize length;
  char *text;

  for (guint i = 0; i < ctx->inputs->len; i++)
    {
      JsonNode *report = read_report (g_ptr_array_index (ctx->inputs, i), error);

      if (report == NULL)
        return NULL;
      json_array_add_element (reports, report);
    }

  json_node_set_array (root, reports);
  if (ctx->scrubber != NULL)
    {
      walk_strings (root, learn_string, ctx->scrubber);
      walk_strings (root, scrub_string, ctx->scrubber);
      drop_titles (root);
    }

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &length);
  text = g_realloc (text, length + 2);
  text[length++] = '\n';
  text[length] = '\0';

  return g_bytes_new_take (text, length);
}
