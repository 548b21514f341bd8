/* jsr-json-read.c: typed, checked access to the members of an untrusted document
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "jsr-json-read.h"

static void
append_path (GString *text, const JsrJsonPath *path)
{
  if (path == NULL)
    return;
  append_path (text, path->parent);
  if (path->member != NULL)
    {
      if (text->len > 0)
        g_string_append_c (text, '.');
      g_string_append (text, path->member);
    }
  else
    g_string_append_printf (text, "[%u]", path->index);
}

char *
jsr_json_path_to_string (const JsrJsonPath *path, const char *member)
{
  GString *text = g_string_new (NULL);

  append_path (text, path);
  if (member != NULL)
    {
      if (text->len > 0)
        g_string_append_c (text, '.');
      g_string_append (text, member);
    }
  return g_string_free (text, FALSE);
}

const char *
jsr_json_describe (const JsrJsonNode *node)
{
  switch ((JsrJsonType) node->type)
    {
    case JSR_JSON_OBJECT:
      return _ ("an object");
    case JSR_JSON_ARRAY:
      return _ ("an array");
    case JSR_JSON_NULL:
      return _ ("null");
    case JSR_JSON_INT:
      return _ ("an integer");
    case JSR_JSON_DOUBLE:
      return _ ("a number with a fraction or an exponent");
    case JSR_JSON_BOOLEAN:
      return _ ("a boolean");
    case JSR_JSON_STRING:
      return _ ("a string");
    default:
      return _ ("a value of unknown type");
    }
}

gboolean
jsr_json_invalid (GError **error, const JsrJsonPath *path, const char *member, const char *expected,
                  const JsrJsonNode *found)
{
  g_autofree char *full = jsr_json_path_to_string (path, member);

  if (found == NULL)
    g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID, _ ("%s is missing"), full);
  else
    g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID, _ ("%s must be %s, not %s"), full,
                 expected, jsr_json_describe (found));

  return FALSE;
}

gboolean
jsr_json_is_absent (const JsrJsonNode *node)
{
  return node == NULL || node->type == JSR_JSON_NULL;
}

static gboolean
holds (const JsrJsonNode *node, JsrJsonType type)
{
  return node != NULL && node->type == type;
}

gboolean
jsr_json_read_count (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                     gint64 *out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);

  if (!holds (node, JSR_JSON_INT))
    return jsr_json_invalid (error, path, member, _ ("an integer"), node);

  if (node->v.integer < 0)
    {
      g_autofree char *full = jsr_json_path_to_string (path, member);

      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID,
                   _ ("%s must not be negative (it is %lld)"), full, (long long) node->v.integer);
      return FALSE;
    }

  *out = node->v.integer;
  return TRUE;
}

gboolean
jsr_json_read_optional_count (const JsrJsonNode *object, const JsrJsonPath *path,
                              const char *member, gint64 *out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);

  *out = JSR_UNKNOWN;
  if (jsr_json_is_absent (node))
    return TRUE;
  if (!holds (node, JSR_JSON_INT))
    return jsr_json_invalid (error, path, member, _ ("an integer or null"), node);

  return jsr_json_read_count (object, path, member, out, error);
}

char *
jsr_json_copy_capped (const char *text)
{
  gsize length = strlen (text);

  if (length <= JSR_JSON_MAX_STRING)
    return g_strndup (text, length);

  length = JSR_JSON_MAX_STRING;
  /* Back off continuation bytes (10xxxxxx) to the start of a character. */
  for (guint i = 0; i < 4 && length > 0 && ((guchar) text[length] & 0xC0) == 0x80; i++)
    length--;

  return g_strndup (text, length);
}

gboolean
jsr_json_read_string (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                      gboolean nullable, char **out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);

  g_clear_pointer (out, g_free);

  if (nullable && jsr_json_is_absent (node))
    return TRUE;

  if (!holds (node, JSR_JSON_STRING))
    return jsr_json_invalid (error, path, member,
                             nullable ? _ ("a string or null") : _ ("a string"), node);

  *out = jsr_json_copy_capped (node->v.string);
  return TRUE;
}

gboolean
jsr_json_read_bool (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                    gboolean *out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);

  if (!holds (node, JSR_JSON_BOOLEAN))
    return jsr_json_invalid (error, path, member, _ ("a boolean"), node);

  *out = node->v.boolean;
  return TRUE;
}

gboolean
jsr_json_read_optional_bool (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                             gboolean *out, GError **error)
{
  *out = FALSE;
  if (jsr_json_is_absent (jsr_json_object_get (object, member)))
    return TRUE;

  return jsr_json_read_bool (object, path, member, out, error);
}

gboolean
jsr_json_read_fraction (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                        double *out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);
  double value;

  *out = -1;
  if (jsr_json_is_absent (node))
    return TRUE;
  if (holds (node, JSR_JSON_DOUBLE))
    value = node->v.number;
  else if (holds (node, JSR_JSON_INT))
    value = (double) node->v.integer;
  else
    return jsr_json_invalid (error, path, member, _ ("a number or null"), node);

  if (!(value >= 0.0 && value <= 1.0))
    {
      g_autofree char *full = jsr_json_path_to_string (path, member);

      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID,
                   _ ("%s must be from 0 to 1 (it is %g)"), full, value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

static const JsrJsonNode *
read_container (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                JsrJsonType type, gboolean optional, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, member);

  if (optional && jsr_json_is_absent (node))
    return NULL;
  if (!holds (node, type))
    {
      const char *expected;

      if (type == JSR_JSON_OBJECT)
        expected = optional ? _ ("an object or null") : _ ("an object");
      else
        expected = optional ? _ ("an array or null") : _ ("an array");
      jsr_json_invalid (error, path, member, expected, node);
      return NULL;
    }

  return node;
}

const JsrJsonNode *
jsr_json_read_object (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                      GError **error)
{
  return read_container (object, path, member, JSR_JSON_OBJECT, FALSE, error);
}

const JsrJsonNode *
jsr_json_read_array (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                     GError **error)
{
  return read_container (object, path, member, JSR_JSON_ARRAY, FALSE, error);
}

const JsrJsonNode *
jsr_json_read_optional_object (const JsrJsonNode *object, const JsrJsonPath *path,
                               const char *member, GError **error)
{
  return read_container (object, path, member, JSR_JSON_OBJECT, TRUE, error);
}

const JsrJsonNode *
jsr_json_read_optional_array (const JsrJsonNode *object, const JsrJsonPath *path,
                              const char *member, GError **error)
{
  return read_container (object, path, member, JSR_JSON_ARRAY, TRUE, error);
}

const JsrJsonNode *
jsr_json_read_element (const JsrJsonNode *array, const JsrJsonPath *path, GError **error)
{
  const JsrJsonNode *node = &array->v.elements[path->index];

  if (node->type != JSR_JSON_OBJECT)
    {
      g_autofree char *full = jsr_json_path_to_string (path, NULL);

      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID, _ ("%s must be %s, not %s"), full,
                   _ ("an object"), jsr_json_describe (node));
      return NULL;
    }

  return node;
}
