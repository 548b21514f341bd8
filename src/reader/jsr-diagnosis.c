/* jsr-diagnosis.c: reading a `diagnosis` (jsr-diagnosis.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "jsr-diagnosis.h"

#include <glib/gi18n.h>
#include "js-diagnosis-table.h"
#include "jsr-report.h"

void
jsr_diagnosis_free (JsrReportDiagnosis *d)
{
  if (d == NULL)
    return;
  g_free (d->id);
  g_free (d->title);
  g_free (d->fix);
  g_free (d->function);
  g_free (d->wait);
  g_free (d->caller);
  g_free (d->path);
  g_free (d->bus_name);
  g_free (d->object_path);
  g_free (d->interface);
  g_free (d->method);
  g_free (d);
}

static gboolean
valid_id (const char *id)
{
  gsize n = 0;

  for (const char *c = id; *c; c++, n++)
    if (!(g_ascii_islower (*c) || g_ascii_isdigit (*c) || *c == '-'))
      return FALSE;
  return n > 0 && n <= JSR_DIAGNOSIS_MAX_ID;
}

/* node: an integer from -1, or null/absent (-1). */
static gboolean
read_node (const JsrJsonNode *object, const JsrJsonPath *path, gint64 *out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (object, "node");

  *out = -1;
  if (jsr_json_is_absent (node))
    return TRUE;
  if (node->type != JSR_JSON_INT || node->v.integer < -1)
    return jsr_json_invalid (error, path, "node", _ ("an integer from -1, or null"), node);
  *out = node->v.integer;
  return TRUE;
}

/* A string of `detail`, or null: at most `max` bytes, no control
 * characters (it is shown on a line of its own kind). */
static gboolean
read_detail_string (const JsrJsonNode *detail, const JsrJsonPath *path, const char *member,
                    gsize max, char **out, GError **error)
{
  const JsrJsonNode *node = jsr_json_object_get (detail, member);

  if (!jsr_json_read_string (detail, path, member, TRUE, out, error))
    return FALSE;
  if (*out == NULL)
    return TRUE;
  /* The whole string's length (the copy is capped). */
  for (const char *c = *out; *c || node->length > max; c++)
    if (node->length > max || (guchar) *c < 0x20 || *c == 0x7f)
      {
        g_autofree char *problem = g_strdup_printf (
            _ ("a string of at most %u bytes without control characters, or null"), (guint) max);

        return jsr_json_invalid (error, path, member, problem,
                                 jsr_json_object_get (detail, member));
      }
  return TRUE;
}

static gboolean
read_detail (const JsrJsonNode *member, const JsrJsonPath *d_path, JsrReportDiagnosis *d,
             GError **error)
{
  JsrJsonPath path = JSR_JSON_MEMBER (d_path, "detail");
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *detail
      = jsr_json_read_optional_object (member, d_path, "detail", &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (detail == NULL)
    return TRUE;
  d->has_detail = TRUE;
  return read_detail_string (detail, &path, "path", JSR_DIAGNOSIS_MAX_PATH, &d->path, error)
         && read_detail_string (detail, &path, "bus_name", JSR_DIAGNOSIS_MAX_NAME, &d->bus_name,
                                error)
         && read_detail_string (detail, &path, "object_path", JSR_DIAGNOSIS_MAX_NAME,
                                &d->object_path, error)
         && read_detail_string (detail, &path, "interface", JSR_DIAGNOSIS_MAX_NAME, &d->interface,
                                error)
         && read_detail_string (detail, &path, "method", JSR_DIAGNOSIS_MAX_NAME, &d->method, error);
}

char *
jsr_diagnosis_detail_text (const JsrReportDiagnosis *d)
{
  GString *text;

  if (d == NULL || !d->has_detail)
    return NULL;
  if (d->path != NULL)
    return g_strdup (d->path);
  if (d->bus_name == NULL && d->object_path == NULL && d->interface == NULL && d->method == NULL)
    return NULL;
  text = g_string_new (NULL);
  if (d->bus_name != NULL)
    g_string_append (text, d->bus_name);
  if (d->object_path != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", d->object_path);
  if (d->interface != NULL || d->method != NULL)
    g_string_append_printf (
        text, "%s%s%s%s", text->len > 0 ? " " : "", d->interface != NULL ? d->interface : "",
        d->interface != NULL && d->method != NULL ? "." : "", d->method != NULL ? d->method : "");
  return g_string_free (text, FALSE);
}

gboolean
jsr_diagnosis_parse (const JsrJsonNode *object, const JsrJsonPath *path, JsrReportDiagnosis **out,
                     GError **error)
{
  JsrJsonPath d_path = JSR_JSON_MEMBER (path, "diagnosis");
  g_autoptr (GError) local_error = NULL;
  const JsrJsonNode *member;
  g_autoptr (JsrReportDiagnosis) d = NULL;

  *out = NULL;
  member = jsr_json_read_optional_object (object, path, "diagnosis", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (member == NULL)
    return TRUE;
  d = g_new0 (JsrReportDiagnosis, 1);
  if (!jsr_json_read_string (member, &d_path, "id", FALSE, &d->id, error))
    return FALSE;
  if (!valid_id (d->id))
    return jsr_json_invalid (error, &d_path, "id",
                             _ ("a short id of lower-case letters, digits and '-'"),
                             jsr_json_object_get (member, "id"));
  if (!jsr_json_read_string (member, &d_path, "title", TRUE, &d->title, error)
      || !jsr_json_read_string (member, &d_path, "fix", TRUE, &d->fix, error)
      || !jsr_json_read_string (member, &d_path, "function", TRUE, &d->function, error)
      || !jsr_json_read_string (member, &d_path, "wait", TRUE, &d->wait, error)
      || !jsr_json_read_string (member, &d_path, "caller", TRUE, &d->caller, error)
      || !jsr_json_read_optional_count (member, &d_path, "evidence_ns", &d->evidence_ns, error)
      || !jsr_json_read_fraction (member, &d_path, "share", &d->share, error)
      || !read_node (member, &d_path, &d->node, error) || !read_detail (member, &d_path, d, error))
    return FALSE;
  *out = g_steal_pointer (&d);
  return TRUE;
}

gboolean
jsr_diagnosis_check_node (const JsrReportDiagnosis *d, const JsrJsonPath *path, guint n_nodes,
                          GError **error)
{
  g_autofree char *full = NULL;

  if (d == NULL || d->node < (gint64) n_nodes)
    return TRUE;
  full = jsr_json_path_to_string (path, "diagnosis.node");
  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
               _ ("%s must be from -1 to %d (it is %lld)"), full, (int) n_nodes - 1,
               (long long) d->node);
  return FALSE;
}

const char *
jsr_diagnosis_title (const char *id, const char *fallback)
{
  const JsDiagnosisRule *rule = js_diagnosis_rule_by_id (id);

  /* The project's domain, not the default one: the window reads this inside
   * the app, whose text domain is its own. */
  if (rule != NULL)
    return g_dgettext (GETTEXT_PACKAGE, rule->title);
  return fallback != NULL ? fallback : id;
}

const char *
jsr_diagnosis_fix (const char *id, const char *fallback)
{
  const JsDiagnosisRule *rule = js_diagnosis_rule_by_id (id);

  return rule != NULL ? g_dgettext (GETTEXT_PACKAGE, rule->fix) : fallback;
}
