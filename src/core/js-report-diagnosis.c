/* js-report-diagnosis.c: a part's or an event's `diagnosis`
 * (js-report-diagnosis.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-diagnosis.h"

#include "js-diagnosis.h"
#include "js-json-writer.h"
#include "js-stack-sample.h"

/* Where the mistake was made, for people: the innermost frame of the app's
 * own code at or above `from`, inside the dispatch (never `main`); else the
 * function the loop dispatched on the culprit's path. */
static const char *
caller_of (const JsProfile *profile, guint32 from, const JsCause *cause)
{
  for (guint32 i = from; i != JS_PROFILE_NONE;)
    {
      const JsProfileNode *node = js_profile_node (profile, i);

      if (node->flags & JS_NODE_STOP)
        break;
      if ((node->flags & JS_NODE_APP) && node->frame.function != NULL)
        return node->frame.function;
      i = node->parent;
    }
  if (cause->callback != JS_PROFILE_NONE)
    return js_profile_node (profile, cause->callback)->frame.function;
  return NULL;
}

/* The evidence a developer acts on: for file I/O the file (the path the
 * main thread was blocked on for the most time, or null when no sample found
 * it blocked on a file: a read from the page cache runs on the CPU and
 * shows no call's arguments); for a synchronous D-Bus call the call's
 * names (null when the preload did not see the call: js-dbus-calls.h). */
static void
add_detail (JsJsonWriter *b, const char *id, const JsSampleStats *stats)
{
  const char *text;

  js_json_writer_member (b, "detail");
  if (g_strcmp0 (id, "file-io") == 0)
    {
      js_json_writer_begin_object (b);
      js_json_writer_member_string (
          b, "path", js_sample_details_heaviest (&stats->details, JS_SAMPLE_DETAIL_FILE));
      js_json_writer_end_object (b);
    }
  else if (g_strcmp0 (id, "dbus-sync") == 0
           && (text = js_sample_details_heaviest (&stats->details, JS_SAMPLE_DETAIL_DBUS)) != NULL)
    {
      static const char *const names[] = { "bus_name", "object_path", "interface", "method" };
      g_auto (GStrv) fields = g_strsplit (text, "\n", G_N_ELEMENTS (names));

      js_json_writer_begin_object (b);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        js_json_writer_member_string (
            b, names[k], k < g_strv_length (fields) && fields[k][0] != '\0' ? fields[k] : NULL);
      js_json_writer_end_object (b);
    }
  else
    js_json_writer_null (b);
}

guint64 *
js_report_diagnosis_masks (const JsProfile *profile)
{
  guint n = profile != NULL ? profile->nodes->len : 0;
  guint64 *masks = g_new0 (guint64, MAX (n, 1));
  /* By the name's address: the symbolizer's string, shared by every frame of
   * its symbol (a name in two strings is only matched twice). */
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint32 i = 0; i < n; i++)
    {
      const JsProfileNode *node = js_profile_node (profile, i);
      gpointer known;

      if ((node->flags & JS_NODE_PSEUDO) || node->frame.function == NULL)
        continue;
      if (g_hash_table_lookup_extended (seen, node->frame.function, NULL, &known))
        masks[i] = *(guint64 *) known;
      else
        {
          masks[i] = js_diagnosis_match (node->frame.function);
          g_hash_table_insert (seen, (gpointer) node->frame.function, &masks[i]);
        }
    }
  return masks;
}

void
js_report_add_diagnosis (JsJsonWriter *b, const JsProfile *profile, const guint64 *masks,
                         const gint64 *ns, const JsSampleStats *stats, gint64 attributed_ns,
                         const JsCause *cause, gboolean frame)
{
  guint n = profile != NULL ? profile->nodes->len : 0;
  g_autofree guint32 *parent = g_new (guint32, MAX (n, 1));
  g_autofree const char **function = g_new (const char *, MAX (n, 1));
  g_autofree gint64 *self_ns = g_new (gint64, MAX (n, 1));
  const char *wait_kind[JS_N_WAITS];
  JsDiagnosisInput in = { 0 };
  JsDiagnosis d;
  const JsProfileNode *at;

  for (guint32 i = 0; i < n; i++)
    {
      const JsProfileNode *node = js_profile_node (profile, i);

      parent[i] = node->parent;
      function[i] = (node->flags & JS_NODE_PSEUDO) ? NULL : node->frame.function;
      self_ns[i] = ns != NULL ? ns[i] : node->self_ns;
    }
  for (guint k = 0; k < JS_N_WAITS; k++)
    wait_kind[k] = k == JS_WAIT_NONE ? NULL : js_wait_kind_name ((JsWaitKind) k);
  in.n_nodes = n;
  in.parent = parent;
  in.function = function;
  in.self_ns = self_ns;
  in.wait_kind = wait_kind;
  in.wait_ns = stats->wait_ns;
  in.n_waits = JS_N_WAITS;
  in.attributed_ns = attributed_ns;
  in.frame = frame;
  in.culprit = cause->culprit;
  in.culprit_ns = cause->culprit_ns;
  in.masks = masks;
  js_json_writer_member (b, "diagnosis");
  if (!js_diagnosis_find (&in, &d))
    {
      js_json_writer_null (b);
      return;
    }
  at = d.node != JS_DIAGNOSIS_NO_NODE ? js_profile_node (profile, d.node) : NULL;
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "id", d.rule->id);
  js_json_writer_member_string (b, "title", d.rule->title);
  js_json_writer_member_int (b, "evidence_ns", d.evidence_ns);
  js_json_writer_member (b, "share");
  js_json_writer_double (b, ((gint64) (d.share * 1000 + 0.5)) / 1000.0);
  js_json_writer_member_string (b, "function", at != NULL ? at->frame.function : NULL);
  js_json_writer_member_int (b, "node", at != NULL ? (gint64) d.node : -1);
  js_json_writer_member_string (b, "wait", d.wait);
  js_json_writer_member_string (
      b, "caller",
      caller_of (profile, d.node != JS_DIAGNOSIS_NO_NODE ? d.node : cause->culprit, cause));
  js_json_writer_member_string (b, "fix", d.rule->fix);
  add_detail (b, d.rule->id, stats);
  js_json_writer_end_object (b);
}
