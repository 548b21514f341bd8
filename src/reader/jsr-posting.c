/* jsr-posting.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "jsr-posting.h"

#include <glib/gi18n.h>
#include "jsr-json-doc.h"

void
jsr_posting_free (JsrPosting *p)
{
  if (p == NULL)
    return;
  g_free (p->kind);
  g_free (p->caller);
  g_free (p->caller_module);
  g_free (p->culprit);
  g_free (p->culprit_module);
  g_free (p->caller_place);
  g_free (p->culprit_place);
  g_free (p->signature);
  g_free (p->signature_id);
  for (guint i = 0; i < p->n_chain; i++)
    g_free (p->chain[i]);
  g_free (p);
}

/* A frame member (null or absent: NULLs): its function and module, and
 * where it is when it has no name ("module+0xOFFSET"). */
static gboolean
read_frame (const JsrJsonNode *object, const JsrJsonPath *path, const char *member, char **function,
            char **module, char **place, GError **error)
{
  g_autofree char *offset = NULL;
  JsrJsonPath frame_path = JSR_JSON_MEMBER (path, member);
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *frame = jsr_json_read_optional_object (object, path, member, &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (frame == NULL)
    return TRUE;
  if (!jsr_json_read_string (frame, &frame_path, "function", TRUE, function, error)
      || !jsr_json_read_string (frame, &frame_path, "module", TRUE, module, error)
      || !jsr_json_read_string (frame, &frame_path, "offset", TRUE, &offset, error))
    return FALSE;
  if (*function == NULL && *module != NULL && offset != NULL)
    *place = g_strdup_printf ("%s+%s", *module, offset);
  return TRUE;
}

gboolean
jsr_posting_parse (const JsrJsonNode *object, const JsrJsonPath *path, JsrPosting **out,
                   GError **error)
{
  JsrJsonPath p_path = JSR_JSON_MEMBER (path, "posted_from");
  JsrJsonPath chain_path = JSR_JSON_MEMBER (&p_path, "chain");
  g_autoptr (GError) local_error = NULL;
  g_autoptr (JsrPosting) p = NULL;
  const JsrJsonNode *member, *stack, *chain;

  *out = NULL;
  member = jsr_json_read_optional_object (object, path, "posted_from", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (member == NULL)
    return TRUE;
  p = g_new0 (JsrPosting, 1);
  if (!jsr_json_read_string (member, &p_path, "kind", TRUE, &p->kind, error)
      || !read_frame (member, &p_path, "caller", &p->caller, &p->caller_module, &p->caller_place,
                      error)
      || !read_frame (member, &p_path, "culprit", &p->culprit, &p->culprit_module,
                      &p->culprit_place, error)
      || !jsr_json_read_string (member, &p_path, "signature", TRUE, &p->signature, error)
      || !jsr_json_read_string (member, &p_path, "signature_id", TRUE, &p->signature_id, error))
    return FALSE;
  stack = jsr_json_read_optional_array (member, &p_path, "stack", &local_error);
  if (local_error == NULL)
    chain = jsr_json_read_optional_array (member, &p_path, "chain", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  p->has_stack = stack != NULL;
  if (p->has_stack
      && !jsr_json_read_optional_bool (member, &p_path, "stack_inherited", &p->stack_inherited,
                                       error))
    return FALSE;
  /* The writer keeps 3 links; more is not a report of ours. */
  if (chain != NULL && chain->length > JSR_POSTING_MAX_CHAIN)
    {
      g_autofree char *full = jsr_json_path_to_string (&chain_path, NULL);

      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID,
                   _ ("%s must have at most %d links (it has %u)"), full, JSR_POSTING_MAX_CHAIN,
                   chain->length);
      return FALSE;
    }
  for (guint i = 0; chain != NULL && i < chain->length; i++)
    {
      const JsrJsonNode *link = &chain->v.elements[i];
      JsrJsonPath link_path = JSR_JSON_ELEMENT (&chain_path, i);
      const JsrJsonNode *function;

      p->n_chain = i + 1;
      if (link->type == JSR_JSON_NULL)
        continue;
      if (link->type != JSR_JSON_OBJECT)
        return jsr_json_invalid (error, &chain_path, NULL, _ ("an array of frames or nulls"), link);
      function = jsr_json_object_get (link, "function");
      if (!jsr_json_is_absent (function) && function->type != JSR_JSON_STRING)
        return jsr_json_invalid (error, &link_path, "function", _ ("a string or null"), function);
      if (!jsr_json_is_absent (function))
        p->chain[i] = jsr_json_copy_capped (function->v.string);
    }
  *out = g_steal_pointer (&p);
  return TRUE;
}

const char *
jsr_posting_name (const JsrPosting *p)
{
  if (p == NULL)
    return NULL;
  if (p->culprit != NULL)
    return p->culprit;
  if (p->culprit_place != NULL)
    return p->culprit_place;
  if (p->caller != NULL)
    return p->caller;
  if (p->caller_place != NULL)
    return p->caller_place;
  return p->signature != NULL && p->signature[0] != '\0' ? p->signature : NULL;
}

gboolean
jsr_posting_name_inherited (const JsrPosting *p)
{
  const char *name = jsr_posting_name (p);

  /* The culprit was found on the stack of an earlier attach by the same
   * caller of the same callback, not on this attach's own. */
  return name != NULL && p->stack_inherited && (name == p->culprit || name == p->culprit_place);
}
