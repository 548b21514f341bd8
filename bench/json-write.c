/* json-write: the same documents written by json-glib 1.6 and by the reading
 * side's writer (src/common/js-json-writer.c), in the same run.
 *
 *   json-write [--runs N] [--copies N] FILE...
 *
 * The files are read as one document (an array of them, --copies times over:
 * default 20). Each side is timed --runs times (default 7), alternating, and
 * the median is printed:
 *  - pretty: json_generator_to_data (pretty, indent 2) of json-glib's tree
 *    against the writer's PRETTY style walking jsr-json-doc.c's tree; the
 *    two outputs must be the same bytes (the program fails otherwise);
 *  - compact: the same, compact;
 *  - build+compact: what the exporters would cost with json-glib as their
 *    writer (a JsonBuilder tree made from the values, then generated)
 *    against the writer alone.
 * Parsing is not timed (jsr-json-doc.c's reader is the same either way).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "jsr-json-doc.h"
#include "jsr-json-writer.h"

static void
build (JsonBuilder *builder, const JsrJsonNode *node)
{
  switch (node->type)
    {
    case JSR_JSON_BOOLEAN:
      json_builder_add_boolean_value (builder, node->v.boolean);
      break;
    case JSR_JSON_INT:
      json_builder_add_int_value (builder, node->v.integer);
      break;
    case JSR_JSON_DOUBLE:
      json_builder_add_double_value (builder, node->v.number);
      break;
    case JSR_JSON_STRING:
      json_builder_add_string_value (builder, node->v.string);
      break;
    case JSR_JSON_ARRAY:
      json_builder_begin_array (builder);
      for (guint32 i = 0; i < node->length; i++)
        build (builder, &node->v.elements[i]);
      json_builder_end_array (builder);
      break;
    case JSR_JSON_OBJECT:
      json_builder_begin_object (builder);
      for (guint32 i = 0; i < node->length; i++)
        {
          json_builder_set_member_name (builder, node->v.members[i].name);
          build (builder, &node->v.members[i].value);
        }
      json_builder_end_object (builder);
      break;
    default:
      json_builder_add_null_value (builder);
      break;
    }
}

static gsize
glib_generate (JsonNode *root, gboolean pretty)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  gsize length;

  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &length);
  return length;
}

static gsize
glib_build_generate (const JsrJsonNode *root)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) tree = NULL;

  build (builder, root);
  tree = json_builder_get_root (builder);
  return glib_generate (tree, FALSE);
}

static GString *
writer_generate (const JsrJsonNode *root, JsJsonWriterStyle style)
{
  GString *out = g_string_new (NULL);
  JsJsonWriter w;

  js_json_writer_init (&w, out, style);
  jsr_json_writer_node (&w, root);
  return out;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values, int n)
{
  qsort (values, n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int
main (int argc, char **argv)
{
  int runs = 7;
  int copies = 20;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs per side (default 7)", "N" },
    { "copies", 0, 0, G_OPTION_ARG_INT, &copies, "Copies of the files (default 20)", "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE...");
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) text = g_string_new ("[");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsrJsonDoc) doc = NULL;
  const JsrJsonNode *root;
  g_autofree double *glib_times = NULL;
  g_autofree double *writer_times = NULL;
  static const char *const cases[] = { "pretty", "compact", "build+compact" };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2 || runs < 1 || copies < 1)
    {
      g_printerr ("usage: json-write [--runs N] [--copies N] FILE...\n");
      return 2;
    }
  for (int c = 0; c < copies; c++)
    for (int i = 1; i < argc; i++)
      {
        g_autofree char *data = NULL;
        gsize length;

        if (!g_file_get_contents (argv[i], &data, &length, &error))
          {
            g_printerr ("json-write: %s\n", error->message);
            return 1;
          }
        if (text->len > 1)
          g_string_append_c (text, ',');
        g_string_append_len (text, data, length);
      }
  g_string_append_c (text, ']');

  if (!json_parser_load_from_data (parser, text->str, text->len, &error)
      || (doc = jsr_json_doc_parse (text->str, text->len, 66, &error)) == NULL)
    {
      g_printerr ("json-write: %s\n", error->message);
      return 1;
    }
  root = jsr_json_doc_get_root (doc);
  glib_times = g_new (double, runs);
  writer_times = g_new (double, runs);

  g_print ("json-write: %d files x %d copies, %.1f MB of JSON, %d runs per side\n", argc - 1,
           copies, text->len / 1e6, runs);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      gsize glib_bytes = 0, writer_bytes = 0;

      for (int r = 0; r < runs; r++)
        {
          g_autoptr (GString) out = NULL;
          gint64 t0 = g_get_monotonic_time ();

          if (k == 2)
            glib_bytes = glib_build_generate (root);
          else
            glib_bytes = glib_generate (json_parser_get_root (parser), k == 0);
          glib_times[r] = (g_get_monotonic_time () - t0) / 1e6;

          t0 = g_get_monotonic_time ();
          out = writer_generate (root, k == 0 ? JS_JSON_WRITER_PRETTY : JS_JSON_WRITER_COMPACT);
          writer_times[r] = (g_get_monotonic_time () - t0) / 1e6;
          writer_bytes = out->len;
          if (k == 0 && r == 0)
            {
              g_autoptr (JsonGenerator) generator = json_generator_new ();
              g_autofree char *expected = NULL;

              json_generator_set_pretty (generator, TRUE);
              json_generator_set_indent (generator, 2);
              json_generator_set_root (generator, json_parser_get_root (parser));
              expected = json_generator_to_data (generator, NULL);
              if (strcmp (expected, out->str) != 0)
                {
                  g_printerr ("json-write: the pretty outputs differ\n");
                  return 1;
                }
            }
        }
      {
        double g = median (glib_times, runs), w = median (writer_times, runs);

        g_print ("RESULT case=%s json_glib_s=%.4f writer_s=%.4f json_glib_mb_s=%.0f "
                 "writer_mb_s=%.0f speedup=%.1f\n",
                 cases[k], g, w, glib_bytes / 1e6 / g, writer_bytes / 1e6 / w, g / w);
      }
    }

  return 0;
}
