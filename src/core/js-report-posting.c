/* js-report-posting.c
 *
 * A posting site in the report (docs/report-format.md, "posted_from"): the
 * caller's frame, the full stack when there is one (jankscope's own frames
 * left out, as in every stack: js-stack-path.c), its signature, the posting
 * culprit (the innermost frame of the app's own code on it, below the loop's
 * dispatch when there is one) and the chain of
 * callers that posted the dispatches it was posted from.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-posting.h"
#include "js-json-writer.h"
#include "js-report-stacks.h"
#include "js-signature.h"
#include "js-stack-path.h"

static const char *const kind_names[JS_POST_N_KINDS] = {
  [JS_POST_IDLE] = "idle",   [JS_POST_TIMEOUT] = "timeout", [JS_POST_ATTACH] = "attach",
  [JS_POST_WATCH] = "watch", [JS_POST_GDK] = "gdk-threads", [JS_POST_TASK] = "task",
};

/* The stack's path, leaf first (the truncated pseudo-frame left out). */
static GPtrArray *
leaf_first (JsStallStore *stalls, guint id)
{
  GPtrArray *out = g_ptr_array_new ();
  const JsStack *stack = id != 0 ? js_stack_table_get (stalls->stacks, id) : NULL;
  const JsPathFrame *path;
  guint n;

  if (stack == NULL)
    return out;
  path = js_stack_path_get (stalls->modules, stack, &n);
  for (guint i = n; i-- > 0;)
    if (path[i].frame != NULL && !(path[i].flags & JS_NODE_PSEUDO))
      g_ptr_array_add (out, (gpointer) &path[i]);
  return out;
}

static void
add_frame (JsJsonWriter *b, JsStallStore *stalls, const JsFrame *f)
{
  js_report_add_frame (b, f, js_modules_get (stalls->modules, f->module));
}

/* The caller's frame: the innermost of those at the call (inlined ones
 * first), or null. */
static void
add_caller (JsJsonWriter *b, JsStallStore *stalls, guint id)
{
  const JsStack *stack = id != 0 ? js_stack_table_get (stalls->stacks, id) : NULL;

  if (stack == NULL || stack->frames->len == 0)
    js_json_writer_null (b);
  else
    add_frame (b, stalls, &g_array_index (stack->frames, JsFrame, 0));
}

void
js_report_add_posted_from (JsJsonWriter *b, JsPostSites *sites, JsStallStore *stalls, guint32 post)
{
  const JsPostSiteInfo *s = stalls != NULL ? js_post_sites_get (sites, post) : NULL;
  g_autoptr (GPtrArray) path = NULL;
  g_autofree JsSignatureFrame *sig = NULL;
  g_autofree char *signature = NULL;
  const JsPathFrame *culprit = NULL;
  gboolean below_dispatch = TRUE;
  const JsStack *full;
  char id[17];

  js_json_writer_member (b, "posted_from");
  if (s == NULL)
    {
      js_json_writer_null (b);
      return;
    }
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "kind", s->kind < JS_POST_N_KINDS ? kind_names[s->kind] : NULL);
  js_json_writer_member_string (b, "thread", s->main_thread ? "main" : "other");
  js_json_writer_member (b, "caller");
  add_caller (b, stalls, s->caller);

  full = s->stack != 0 ? js_stack_table_get (stalls->stacks, s->stack) : NULL;
  path = leaf_first (stalls, full != NULL ? s->stack : s->caller);
  js_json_writer_member (b, "stack");
  if (full != NULL)
    {
      js_json_writer_begin_array (b);
      for (guint i = 0; i < path->len; i++)
        add_frame (b, stalls, ((const JsPathFrame *) g_ptr_array_index (path, i))->frame);
      js_json_writer_end_array (b);
      js_json_writer_member (b, "stack_truncated");
      js_json_writer_bool (b, full->truncated);
      /* Not this attach's: an earlier one's by the same caller of the same
       * callback (js-posting.c, the library callers' rule). */
      js_json_writer_member (b, "stack_inherited");
      js_json_writer_bool (b, s->stack_inherited);
    }
  else
    js_json_writer_null (b);

  /* The signature: of the full stack, else of the caller alone. The
   * culprit: the innermost frame of the app's code, below the loop's
   * dispatch when the call was made inside one (above it are main and the
   * loop, which only ran GTK's or GLib's code that posted). */
  sig = g_new0 (JsSignatureFrame, MAX (path->len, 1));
  for (guint i = 0; i < path->len; i++)
    {
      const JsPathFrame *pf = g_ptr_array_index (path, i);
      const JsModule *m = js_modules_get (stalls->modules, pf->frame->module);

      sig[i].function = pf->frame->function;
      sig[i].module = m ? m->name : NULL;
      if (pf->flags & JS_NODE_DISPATCH)
        below_dispatch = FALSE;
      if (culprit == NULL && below_dispatch && (pf->flags & JS_NODE_APP))
        culprit = pf;
    }
  signature = js_signature_compute (sig, path->len, JS_SIGNATURE_DEFAULT_FRAMES, id);
  js_json_writer_member_string (b, "signature", signature);
  js_json_writer_member_string (b, "signature_id", id);

  js_json_writer_member (b, "culprit");
  if (culprit != NULL)
    add_frame (b, stalls, culprit->frame);
  else
    js_json_writer_null (b);
  js_json_writer_member_string (b, "culprit_reason",
                                culprit != NULL ? "app"
                                : full != NULL
                                    ? "no frame of the app's own code on the stack"
                                    : "no full stack, and the caller is not the app's code");

  js_json_writer_member (b, "chain");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < s->n_chain; i++)
    add_caller (b, stalls, s->chain[i]);
  js_json_writer_end_array (b);
  js_json_writer_end_object (b);
}

guint32
js_report_hang_post_site (JsPostSites *sites, JsStall *s)
{
  if (sites == NULL || s == NULL || s->h.post == 0)
    return 0;
  if (s->post_of_site != s->h.post)
    {
      s->post_of_site = s->h.post;
      s->post_site = js_post_sites_resolve_hang (sites, s->h.post);
    }
  return s->post_site;
}

void
js_report_add_posting_summary (JsJsonWriter *b, JsPostSites *sites)
{
  JsPostingStats st;
  JsPostSitesStats ps = { 0 };

  js_posting_get_stats (&st);
  if (sites != NULL)
    js_post_sites_get_stats (sites, &ps);
  js_json_writer_member (b, "posting");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "attaches", (gint64) st.attaches);
  js_json_writer_member_int (b, "stacks", (gint64) st.stacks);
  js_json_writer_member_int (b, "stacks_over_budget", (gint64) st.stacks_over_budget);
  js_json_writer_member_int (b, "stacks_per_s", st.stacks_per_s);
  js_json_writer_member_int (b, "stacks_library", (gint64) st.stacks_library);
  js_json_writer_member_int (b, "slow_resolved", (gint64) ps.resolved);
  js_json_writer_member_int (b, "slow_unknown", (gint64) ps.unknown);
  js_json_writer_member_int (b, "sites", ps.distinct);
  js_json_writer_member_int (b, "sites_dropped", (gint64) ps.dropped);
  js_json_writer_end_object (b);
}
