/* jse-json.c: "jankscope export --format=json": the inputs as one JSON
 * document, an array of the reports, each re-serialized whole (members this
 * CLI does not know included), in the order given; --scrub applies to every
 * string of them, and drops the focused window's title ("window_title": a
 * title may name a document or a person), as JANKSCOPE_SCRUB=1 does in the
 * app. Parsed with jsr-json-doc.c and written with jsr-json-writer.c in
 * json-glib's pretty printing, as when both were json-glib's: the same bytes,
 * but where json-glib wrote what is not JSON (js-json-writer.h) or read a
 * string otherwise ("\u0000" cut it, a lone surrogate became invalid UTF-8;
 * the reader reads U+FFFD for both).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jse-formats.h"
#include "jsr-display.h"
#include "jsr-json-writer.h"

/* Objects up to this many members are checked for repeated names pair by
 * pair, larger ones through a hash table. */
#define SMALL_OBJECT 16

/* The members of an object as json-glib 1.6 kept them when this export was
 * written with it, and as the readers see them: a name once, at the place of
 * its first occurrence, with the value of its last. NULL when no name
 * repeats (the members as they are). */
static GArray *
unique_members (const JsrJsonNode *object)
{
  g_autoptr (GHashTable) seen = NULL;
  GArray *members = NULL;
  gboolean repeated = FALSE;

  if (object->length <= SMALL_OBJECT)
    {
      for (guint32 i = 1; i < object->length && !repeated; i++)
        for (guint32 j = 0; j < i && !repeated; j++)
          repeated = strcmp (object->v.members[i].name, object->v.members[j].name) == 0;
      if (!repeated)
        return NULL;
    }

  /* name -> index in `members` + 1 */
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  members = g_array_sized_new (FALSE, FALSE, sizeof (JsrJsonMember), object->length);
  for (guint32 i = 0; i < object->length; i++)
    {
      const JsrJsonMember *m = &object->v.members[i];
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (seen, m->name));

      if (at > 0)
        {
          repeated = TRUE;
          g_array_index (members, JsrJsonMember, at - 1).value = m->value;
          continue;
        }
      g_array_append_val (members, *m);
      g_hash_table_insert (seen, (gpointer) m->name, GUINT_TO_POINTER (members->len));
    }
  if (!repeated)
    g_clear_pointer (&members, g_array_unref);

  return members;
}

/* The string values, in document order. */
static void
learn_strings (JseScrubber *scrubber, const JsrJsonNode *node)
{
  switch (node->type)
    {
    case JSR_JSON_STRING:
      jse_scrubber_learn (scrubber, node->v.string);
      break;
    case JSR_JSON_ARRAY:
      for (guint32 i = 0; i < node->length; i++)
        learn_strings (scrubber, &node->v.elements[i]);
      break;
    case JSR_JSON_OBJECT:
      {
        g_autoptr (GArray) unique = unique_members (node);
        const JsrJsonMember *members
            = unique != NULL ? (const JsrJsonMember *) unique->data : node->v.members;
        guint length = unique != NULL ? unique->len : node->length;

        for (guint i = 0; i < length; i++)
          learn_strings (scrubber, &members[i].value);
      }
      break;
    default:
      break;
    }
}

/* A value as it was read, every string scrubbed with --scrub, and then the
 * members that are user data in themselves, not paths, null: the focused
 * window's title ("window_title": a title may name a document or a person). */
static void
write_value (JsJsonWriter *w, const JsrJsonNode *node, const JseScrubber *scrubber)
{
  switch (node->type)
    {
    case JSR_JSON_STRING:
      if (scrubber != NULL)
        {
          g_autofree char *scrubbed = jse_scrubber_apply (scrubber, node->v.string);

          js_json_writer_string (w, scrubbed);
        }
      else
        js_json_writer_string (w, node->v.string);
      break;
    case JSR_JSON_ARRAY:
      js_json_writer_begin_array (w);
      for (guint32 i = 0; i < node->length; i++)
        write_value (w, &node->v.elements[i], scrubber);
      js_json_writer_end_array (w);
      break;
    case JSR_JSON_OBJECT:
      {
        g_autoptr (GArray) unique = unique_members (node);
        const JsrJsonMember *members
            = unique != NULL ? (const JsrJsonMember *) unique->data : node->v.members;
        guint length = unique != NULL ? unique->len : node->length;

        js_json_writer_begin_object (w);
        for (guint i = 0; i < length; i++)
          {
            js_json_writer_member (w, members[i].name);
            if (scrubber != NULL && strcmp (members[i].name, "window_title") == 0)
              js_json_writer_null (w);
            else
              write_value (w, &members[i].value, scrubber);
          }
        js_json_writer_end_object (w);
      }
      break;
    default:
      jsr_json_writer_node (w, node);
      break;
    }
}

/* The file again (with its journal folded in), checked again (it may have
 * changed since it was loaded: a running app keeps its report current, and
 * the path may be something else by now: read with the loaders' own checks,
 * a regular file of a bounded size), then parsed as plain JSON. */
static JsrJsonDoc *
read_report (const JseInput *input, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;
  g_autoptr (JsrReport) check = NULL;
  g_autoptr (GError) local_error = NULL;
  JsrJsonDoc *doc = NULL;

  if (!jsr_report_read_file (input->path, &data, &length, &local_error)
      || (check = jsr_report_load_full_from_data (data, length, &local_error)) == NULL
      || (doc = jsr_json_doc_parse (data, length, JSR_REPORT_MAX_JSON_DEPTH, &local_error)) == NULL)
    {
      g_autofree char *name = jsr_display_filename (input->path);

      g_set_error (error, local_error->domain, local_error->code, "%s: %s", name,
                   local_error->message);
      return NULL;
    }

  return doc;
}

/* The reports in json-glib 1.6's pretty printing (js-json-writer.h), as
 * this export wrote them when it used json-glib. */
GBytes *
jse_format_json (JseContext *ctx, GError **error)
{
  g_autoptr (GPtrArray) docs = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_json_doc_free);
  g_autoptr (GString) out = g_string_new (NULL);
  JsJsonWriter w;

  /* Every report is read (and checked) before anything is written; with
   * --scrub the names of every report are learned before any is scrubbed. */
  for (guint i = 0; i < ctx->inputs->len; i++)
    {
      JsrJsonDoc *doc = read_report (g_ptr_array_index (ctx->inputs, i), error);

      if (doc == NULL)
        return NULL;
      g_ptr_array_add (docs, doc);
      if (ctx->scrubber != NULL)
        learn_strings (ctx->scrubber, jsr_json_doc_get_root (doc));
    }

  js_json_writer_init (&w, out, JS_JSON_WRITER_PRETTY);
  js_json_writer_begin_array (&w);
  for (guint i = 0; i < docs->len; i++)
    write_value (&w, jsr_json_doc_get_root (g_ptr_array_index (docs, i)), ctx->scrubber);
  js_json_writer_end_array (&w);
  g_string_append_c (out, '\n');

  return g_string_free_to_bytes (g_steal_pointer (&out));
}
