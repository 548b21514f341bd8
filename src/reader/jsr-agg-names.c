/* jsr-agg-names.c: the nameless names of an aggregate and their build-ids
 * (jsr-agg-names.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsr-agg-names.h"

#include "jsr-agg-read.h"

#include <string.h>

#include <glib/gi18n.h>

gboolean
jsr_agg_is_nameless (const char *name)
{
  const char *plus = name != NULL ? strrchr (name, '+') : NULL;

  return plus != NULL && plus != name && g_str_has_prefix (plus, "+0x");
}

char *
jsr_agg_culprit_name (const JsrReport *report, const JsrReportCulprit *culprit,
                      const char **build_id)
{
  const JsrReportModule *m;

  *build_id = NULL;
  if (culprit == NULL)
    return NULL;
  if (culprit->function != NULL)
    return g_strdup (culprit->function);
  if (report == NULL || culprit->module == NULL || culprit->offset == NULL
      || !g_str_has_prefix (culprit->offset, "0x"))
    return NULL;
  m = jsr_report_find_module (report, culprit->module, NULL);
  if (m == NULL || !jsr_is_build_id (m->build_id))
    return NULL;
  *build_id = m->build_id;
  return g_strdup_printf ("%s+%s", culprit->module, culprit->offset);
}

gboolean
jsr_agg_read_build_id (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                       const char *beside, char **out, GError **error)
{
  const char *problem;

  if (!jsr_json_read_string (object, path, member, TRUE, out, error))
    return FALSE;
  if (*out == NULL)
    return TRUE;
  if (!jsr_is_build_id (*out))
    problem = _ ("must be hex digits (a build-id)");
  else if (!jsr_agg_is_nameless (beside))
    problem = _ ("must be beside a nameless function (“module+0x…”)");
  else
    return TRUE;
  g_clear_pointer (out, g_free);
  return jsr_agg_invalid (error, path, member, problem);
}

gboolean
jsr_agg_name_pair (char **name, char **build_id, JsrAggNameFunc func, gpointer data)
{
  char *named;

  if (*name == NULL || *build_id == NULL)
    return FALSE;
  named = func (*name, *build_id, data);
  if (named == NULL)
    return FALSE;
  g_free (*name);
  *name = named;
  g_clear_pointer (build_id, g_free);
  return TRUE;
}
