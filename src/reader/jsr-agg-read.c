/* jsr-agg-read.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsr-agg-read.h"

#include <glib/gi18n.h>

#include "jsr-report.h"

gboolean
jsr_agg_invalid (GError **error, const JsrJsonPath *path, const char *member, const char *problem)
{
  g_autofree char *full = jsr_json_path_to_string (path, member);

  /* Translators: a member of the aggregate, then what is wrong with it. */
  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID, _ ("%s %s"), full, problem);
  return FALSE;
}

gboolean
jsr_agg_read_u64 (const JsrJsonNode *object, const JsrJsonPath *path, const char *member,
                  guint64 *out, GError **error)
{
  gint64 value;

  if (!jsr_json_read_count (object, path, member, &value, error))
    return FALSE;
  *out = (guint64) value;
  return TRUE;
}
