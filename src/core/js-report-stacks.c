/* js-report-stacks.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-stacks.h"
#include "js-report-diagnosis.h"
#include "js-report-posting.h"
#include "js-sampler.h"
#include "js-stall-analysis.h"
#include "js-signature.h"
#include "js-json-writer.h"

#include <string.h>

struct _JsReportStacks
{
  JsStallStore *store;
  JsAttribution *a; /* owned, or the event's own (borrowed) */
  gboolean owned;
  gboolean no_parts;        /* the ongoing hang: one stall, no parts */
  GArray *stacks;           /* guint32 nodes listed in `stacks`, most time first */
  GHashTable *stack_of;     /* node -> index in stacks + 1 */
  guint stacks_total;       /* nodes that are stacks (listed or not) */
  guint64 *diagnosis_masks; /* the rules each node matches, made once for the event's parts */
};

/* --- frames -------------------------------------------------------------- */

static const JsModule *
module_of (JsReportStacks *rs, const JsFrame *f)
{
  return js_modules_get (rs->store->modules, f->module);
}

static void
member_offset (JsJsonWriter *b, const char *name, guint64 offset)
{
  g_autofree char *text = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", offset);

  js_json_writer_member_string (b, name, text);
}

static void
member_line (JsJsonWriter *b, guint line)
{
  if (line > 0)
    js_json_writer_member_int (b, "line", line);
  else
    js_json_writer_member_string (b, "line", NULL);
}

/* The raw name, where it is not `function` (a C++ or Rust name, demangled). */
static void
member_symbol (JsJsonWriter *b, const JsFrame *f)
{
  if (f->symbol != NULL)
    js_json_writer_member_string (b, "symbol", f->symbol);
}

void
js_report_add_frame (JsJsonWriter *b, const JsFrame *f, const JsModule *m)
{
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "function", f->function);
  member_symbol (b, f);
  js_json_writer_member_string (b, "module", m ? m->name : NULL);
  js_json_writer_member_string (b, "file", f->file);
  member_line (b, f->line);
  member_offset (b, "offset", f->offset);
  js_json_writer_member_string (b, "build_id", m ? m->build_id : NULL);
  if (f->inlined)
    {
      js_json_writer_member (b, "inlined");
      js_json_writer_bool (b, TRUE);
    }
  js_json_writer_end_object (b);
}

void
js_report_add_modules (JsJsonWriter *b, JsModules *modules)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const JsModule *m;

  js_json_writer_member (b, "modules");
  js_json_writer_begin_array (b);
  for (guint id = 1; (m = js_modules_get (modules, id)) != NULL; id++)
    {
      char *key;

      if (!g_atomic_int_get (&m->resolved))
        continue;
      key = g_strdup_printf ("%s\n%s", m->path, m->build_id != NULL ? m->build_id : "");
      if (!g_hash_table_add (seen, key))
        continue;
      js_json_writer_begin_object (b);
      js_json_writer_member_string (b, "name", m->name);
      /* The vDSO's "path" is its name: no file. */
      js_json_writer_member_string (b, "path", g_path_is_absolute (m->path) ? m->path : NULL);
      js_json_writer_member_string (b, "build_id", m->build_id);
      if (m->text_vaddr != 0 || m->text_offset != 0)
        {
          member_offset (b, "text_vaddr", m->text_vaddr);
          member_offset (b, "text_offset", m->text_offset);
        }
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
}

static void
add_frame (JsJsonWriter *b, JsReportStacks *rs, const JsFrame *f)
{
  js_report_add_frame (b, f, module_of (rs, f));
}

/* The frames of the stack that ends at `node`, leaf first; whether it was
 * truncated (its root is [truncated]). */
static GPtrArray *
path_frames (const JsProfile *p, guint32 node, gboolean *truncated)
{
  GPtrArray *frames = g_ptr_array_new ();

  *truncated = FALSE;
  for (guint32 i = node; i != JS_PROFILE_NONE; i = js_profile_node (p, i)->parent)
    {
      const JsProfileNode *n = js_profile_node (p, i);

      if (n->flags & JS_NODE_TRUNCATED)
        *truncated = TRUE;
      else if (!(n->flags & JS_NODE_PSEUDO))
        g_ptr_array_add (frames, (gpointer) &n->frame);
    }
  return frames;
}

/* The stack's signature (js-signature.h), with the default depth. */
static void
add_signature (JsJsonWriter *b, JsReportStacks *rs, GPtrArray *frames)
{
  g_autofree JsSignatureFrame *sig = g_new0 (JsSignatureFrame, MAX (frames->len, 1));
  g_autofree char *text = NULL;
  char id[17];

  for (guint i = 0; i < frames->len; i++)
    {
      const JsFrame *f = g_ptr_array_index (frames, i);
      const JsModule *m = module_of (rs, f);

      sig[i].function = f->function;
      sig[i].module = m ? m->name : NULL;
    }
  text = js_signature_compute (sig, frames->len, JS_SIGNATURE_DEFAULT_FRAMES, id);
  js_json_writer_member_string (b, "signature", text);
  js_json_writer_member_string (b, "signature_id", id);
}

/* --- building ------------------------------------------------------------ */

static gint
by_self_time (gconstpointer x, gconstpointer y, gpointer data)
{
  const JsProfile *p = data;
  guint32 a = *(const guint32 *) x, b = *(const guint32 *) y;
  const JsProfileNode *na = js_profile_node (p, a), *nb = js_profile_node (p, b);

  if (na->self_ns != nb->self_ns)
    return na->self_ns < nb->self_ns ? 1 : -1;
  if (na->self_samples != nb->self_samples)
    return na->self_samples < nb->self_samples ? 1 : -1;
  return (a > b) - (a < b);
}

/* The event's stacks: its profile's leaves (nodes with samples of their
 * own), most time first. */
static void
list_stacks (JsReportStacks *rs)
{
  const JsProfile *p = rs->a->profile;
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (guint32));

  rs->stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  rs->stack_of = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint32 i = 0; i < p->nodes->len; i++)
    {
      const JsProfileNode *n = js_profile_node (p, i);

      if (n->self_samples > 0 && !(n->flags & JS_NODE_PSEUDO))
        g_array_append_val (all, i);
    }
  g_array_sort_with_data (all, by_self_time, (gpointer) p);
  rs->stacks_total = all->len;
  for (guint i = 0; i < all->len && i < JS_REPORT_MAX_STACKS; i++)
    {
      g_array_append_val (rs->stacks, g_array_index (all, guint32, i));
      g_hash_table_insert (rs->stack_of, GUINT_TO_POINTER (g_array_index (all, guint32, i)),
                           GUINT_TO_POINTER (i + 1));
    }
}

static GArray *
event_windows (const JsEvent *e)
{
  return e->windows;
}

JsReportStacks *
js_report_stacks_new (JsStallStore *store, const JsEvent *e)
{
  JsReportStacks *rs = g_new0 (JsReportStacks, 1);
  gboolean pending = e->stalls != NULL && e->stalls->len > 0 && store != NULL;

  rs->store = store;
  if (store == NULL)
    {
      rs->a = js_attribution_new ();
      rs->owned = TRUE;
    }
  else if (!pending && e->attribution != NULL)
    rs->a = e->attribution;
  else
    {
      g_autoptr (GArray) regions = g_array_new (FALSE, FALSE, sizeof (JsRegion));

      rs->a = e->attribution != NULL ? js_attribution_copy (e->attribution) : js_attribution_new ();
      rs->owned = TRUE;
      for (guint i = 0; pending && i < e->stalls->len; i++)
        {
          const JsStall *st = g_ptr_array_index (e->stalls, i);
          gint64 end = st->h.end_ns != 0 ? st->h.end_ns : st->h.last_seen_ns;

          js_attribution_regions (event_windows (e), st->h.start_ns, end, regions);
          js_attribution_fold_stall (rs->a, store->modules, store->stacks, st, regions);
        }
    }
  list_stacks (rs);
  return rs;
}

JsAttribution *
js_report_stall_attribution (JsStallStore *store, const JsStall *stall)
{
  JsAttribution *a = js_attribution_new ();
  gint64 end
      = stall->h.end_ns != 0 ? stall->h.end_ns : MAX (stall->h.last_seen_ns, stall->h.start_ns);
  g_autoptr (GArray) windows = g_array_new (FALSE, FALSE, sizeof (JsPartWindow));
  g_autoptr (GArray) regions = g_array_new (FALSE, FALSE, sizeof (JsRegion));
  JsPartWindow w = { stall->h.start_ns, end, JS_PART_UNLISTED };

  g_array_append_val (windows, w);
  js_attribution_regions (windows, stall->h.start_ns, end, regions);
  js_attribution_fold_stall (a, store->modules, store->stacks, stall, regions);
  return a;
}

static JsReportStacks *
stacks_for_stall (JsStallStore *store, const JsStall *stall)
{
  JsReportStacks *rs = g_new0 (JsReportStacks, 1);

  rs->store = store;
  rs->a = js_report_stall_attribution (store, stall);
  rs->owned = TRUE;
  rs->no_parts = TRUE;
  list_stacks (rs);
  return rs;
}

void
js_report_stacks_free (JsReportStacks *rs)
{
  if (rs == NULL)
    return;
  if (rs->owned)
    js_attribution_free (rs->a);
  g_free (rs->diagnosis_masks);
  g_array_unref (rs->stacks);
  g_hash_table_unref (rs->stack_of);
  g_free (rs);
}

/* --- members ------------------------------------------------------------- */

static void
member_int_or_null (JsJsonWriter *b, const char *name, gboolean valid, gint64 value)
{
  js_json_writer_member (b, name);
  if (valid)
    js_json_writer_int (b, value);
  else
    js_json_writer_null (b);
}

static void
add_class_members (JsJsonWriter *b, const JsSampleStats *s, const JsCause *c)
{
  member_int_or_null (b, "cpu_ns", c->cpu_ns >= 0, c->cpu_ns);
  member_int_or_null (b, "off_cpu_ns", c->cpu_ns >= 0, MAX (0, s->watched_ns - c->cpu_ns));
  member_int_or_null (b, "runnable_ns", c->runnable_ns >= 0, c->runnable_ns);
  js_json_writer_member_int (b, "watched_ns", s->watched_ns);
  js_json_writer_member_int (b, "sampled_ns", s->sampled_ns);
  js_json_writer_member_int (b, "stalls", s->stalls);
  js_json_writer_member_string (b, "class", c->klass);
  js_json_writer_member_string (b, "wait",
                                c->klass != NULL && c->wait != JS_WAIT_NONE
                                        && g_strcmp0 (c->klass, "compute") != 0
                                    ? js_wait_kind_name (c->wait)
                                    : NULL);
}

static void
add_node_frame_ref (JsJsonWriter *b, JsReportStacks *rs, const char *name, guint32 node)
{
  const JsProfileNode *n;
  const JsModule *m;

  js_json_writer_member (b, name);
  if (node == JS_PROFILE_NONE)
    {
      js_json_writer_null (b);
      return;
    }
  n = js_profile_node (rs->a->profile, node);
  m = module_of (rs, &n->frame);
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "function", n->frame.function);
  js_json_writer_member_string (b, "module", m ? m->name : NULL);
  member_offset (b, "offset", n->frame.offset);
  js_json_writer_end_object (b);
}

static void
add_culprit (JsJsonWriter *b, JsReportStacks *rs, const JsCause *c)
{
  const JsProfileNode *n;
  const JsModule *m;

  js_json_writer_member (b, "culprit");
  if (c->culprit == JS_PROFILE_NONE)
    {
      js_json_writer_null (b);
      return;
    }
  n = js_profile_node (rs->a->profile, c->culprit);
  m = module_of (rs, &n->frame);
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "function", n->frame.function);
  member_symbol (b, &n->frame);
  js_json_writer_member_string (b, "module", m ? m->name : NULL);
  js_json_writer_member_string (b, "file", n->frame.file);
  member_line (b, n->frame.line);
  member_offset (b, "offset", n->frame.offset);
  js_json_writer_member_int (b, "node", c->culprit);
  js_json_writer_member (b, "confidence");
  js_json_writer_double (b, ((gint64) (c->confidence * 1000 + 0.5)) / 1000.0);
  js_json_writer_member_int (b, "time_ns", c->culprit_ns);
  js_json_writer_member_int (b, "samples", (gint64) c->culprit_samples);
  js_json_writer_member_int (b, "of_samples", (gint64) c->of_samples);
  js_json_writer_member_string (b, "reason", c->culprit_reason);
  add_node_frame_ref (b, rs, "callback", c->callback);
  js_json_writer_member_int (b, "app_code_ns", c->app_code_ns);
  js_json_writer_end_object (b);
}

static void
add_int_column (JsJsonWriter *b, const char *name, const gint64 *values, guint n)
{
  js_json_writer_member (b, name);
  js_json_writer_begin_array (b);
  for (guint i = 0; i < n; i++)
    js_json_writer_int (b, values[i]);
  js_json_writer_end_array (b);
}

/* The frames table's key of a node. */
static char *
frame_key (JsReportStacks *rs, const JsFrame *f)
{
  if (f->function != NULL)
    return g_strdup_printf ("%u:%s", f->module, f->function);
  return g_strdup_printf ("%u@%" G_GINT64_MODIFIER "x", f->module, f->offset);
}

static void
add_profile (JsJsonWriter *b, JsReportStacks *rs)
{
  const JsProfile *p = rs->a->profile;
  guint n = p->nodes->len;
  g_autofree gint64 *parent = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *frame = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *self_samples = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *self_ns = g_new (gint64, MAX (n, 1));
  g_autoptr (GHashTable) frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();

  for (guint32 i = 0; i < n; i++)
    {
      const JsProfileNode *node = js_profile_node (p, i);

      parent[i] = node->parent == JS_PROFILE_NONE ? -1 : (gint64) node->parent;
      self_samples[i] = (gint64) node->self_samples;
      self_ns[i] = node->self_ns;
      if (node->flags & JS_NODE_OTHER)
        frame[i] = -1;
      else if (node->flags & JS_NODE_TRUNCATED)
        frame[i] = -2;
      else
        {
          char *key = frame_key (rs, &node->frame);
          gpointer found;

          if (g_hash_table_lookup_extended (frames, key, NULL, &found))
            g_free (key);
          else
            {
              found = GUINT_TO_POINTER (order->len);
              g_hash_table_insert (frames, key, found);
              g_ptr_array_add (order, (gpointer) &node->frame);
            }
          frame[i] = GPOINTER_TO_UINT (found);
        }
    }
  js_json_writer_member (b, "profile");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "samples", (gint64) p->samples);
  js_json_writer_member_int (b, "time_ns", p->time_ns);
  js_json_writer_member_int (b, "nodes_max", p->max_nodes);
  js_json_writer_member (b, "frames");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < order->len; i++)
    {
      const JsFrame *f = g_ptr_array_index (order, i);
      const JsModule *m = module_of (rs, f);

      js_json_writer_begin_object (b);
      js_json_writer_member_string (b, "function", f->function);
      member_symbol (b, f);
      js_json_writer_member_string (b, "module", m ? m->name : NULL);
      if (f->function == NULL)
        {
          member_offset (b, "offset", f->offset);
          js_json_writer_member_string (b, "build_id", m ? m->build_id : NULL);
        }
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
  js_json_writer_member (b, "nodes");
  js_json_writer_begin_object (b);
  add_int_column (b, "parent", parent, n);
  add_int_column (b, "frame", frame, n);
  add_int_column (b, "self_samples", self_samples, n);
  add_int_column (b, "self_ns", self_ns, n);
  js_json_writer_end_object (b);
  /* The main loop's dispatch nodes (js-stack-path.h: known from jankscope's
   * own hook even where GLib has no symbols): the views start a stack at
   * the callback below the innermost one. */
  js_json_writer_member (b, "dispatch_nodes");
  js_json_writer_begin_array (b);
  for (guint32 i = 0; i < n; i++)
    if (js_profile_node (p, i)->flags & JS_NODE_DISPATCH)
      js_json_writer_int (b, (gint64) i);
  js_json_writer_end_array (b);
  js_json_writer_end_object (b);
}

static void
add_stacks (JsJsonWriter *b, JsReportStacks *rs)
{
  const JsProfile *p = rs->a->profile;

  js_json_writer_member (b, "stacks");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < rs->stacks->len; i++)
    {
      guint32 node = g_array_index (rs->stacks, guint32, i);
      const JsProfileNode *n = js_profile_node (p, node);
      gboolean truncated;
      g_autoptr (GPtrArray) frames = path_frames (p, node, &truncated);

      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "count", (gint64) n->self_samples);
      js_json_writer_member_int (b, "time_ns", n->self_ns);
      js_json_writer_member_int (b, "node", node);
      if (truncated)
        {
          js_json_writer_member (b, "truncated");
          js_json_writer_bool (b, TRUE);
        }
      add_signature (b, rs, frames);
      js_json_writer_member (b, "frames");
      js_json_writer_begin_array (b);
      for (guint k = 0; k < frames->len; k++)
        add_frame (b, rs, g_ptr_array_index (frames, k));
      js_json_writer_end_array (b);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
  js_json_writer_member_int (b, "stacks_omitted", rs->stacks_total - rs->stacks->len);
}

static const char *
state_name (guint8 state)
{
  return state == JS_THREAD_RUNNING   ? "running"
         : state == JS_THREAD_WAITING ? "waiting"
                                      : "unknown";
}

static void
add_timeline (JsJsonWriter *b, JsReportStacks *rs)
{
  g_autoptr (GArray) timeline = g_array_copy (rs->a->timeline);

  js_timeline_shrink (timeline, JS_ATTRIBUTION_MAX_TIMELINE);
  js_json_writer_member (b, "samples");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < timeline->len; i++)
    {
      const JsSampleEntry *s = &g_array_index (timeline, JsSampleEntry, i);
      gpointer stack = s->node != JS_PROFILE_NONE
                           ? g_hash_table_lookup (rs->stack_of, GUINT_TO_POINTER (s->node))
                           : NULL;

      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "t_ns", s->t_ns);
      if (s->count > 1 || s->merged)
        js_json_writer_member_int (b, "last_ns", s->last_ns);
      js_json_writer_member_int (b, "count", s->count);
      js_json_writer_member_string (b, "state", state_name (s->state));
      if (s->state == JS_THREAD_WAITING)
        {
          js_json_writer_member_string (b, "wait", js_wait_kind_name (s->wait));
          js_json_writer_member_int (b, "syscall", s->syscall);
        }
      js_json_writer_member_int (b, "stack",
                                 stack != NULL ? (gint64) GPOINTER_TO_UINT (stack) - 1 : -1);
      js_json_writer_member_int (b, "node", s->node != JS_PROFILE_NONE ? (gint64) s->node : -1);
      js_json_writer_member_int (b, "part", rs->no_parts ? -1 : s->part);
      if (s->merged)
        js_json_writer_member_int (b, "running", s->running);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
}

static void
add_watchdog (JsJsonWriter *b, const JsConfig *config, const JsAttribution *a)
{
  const JsWatchdogMembers *w = &a->longest;

  js_json_writer_member (b, "watchdog");
  if (w->length_ns < 0)
    {
      js_json_writer_null (b);
      return;
    }
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "detected_ns", w->detected_ns);
  js_json_writer_member (b, "tiers_crossed");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < config->n_watchdog_tiers; i++)
    if (w->tier_at_ns[i] != 0)
      {
        js_json_writer_begin_object (b);
        js_json_writer_member_int (b, "tier_ms", config->watchdog_tier_ns[i] / 1000000);
        js_json_writer_member_int (b, "at_ns", w->tier_at_ns[i]);
        js_json_writer_end_object (b);
      }
  js_json_writer_end_array (b);
  member_int_or_null (b, "ping_latency_ns", w->ping_latency_ns >= 0, w->ping_latency_ns);
  js_json_writer_member (b, "ping_caught");
  js_json_writer_bool (b, w->ping_caught);
  js_json_writer_end_object (b);
}

static void
add_counts (JsJsonWriter *b, const JsSampleStats *s)
{
  js_json_writer_member_int (b, "samples_total", (gint64) s->samples);
  js_json_writer_member_int (b, "samples_running", (gint64) s->samples_running);
  js_json_writer_member_int (b, "samples_waiting", (gint64) s->samples_waiting);
  js_json_writer_member_int (b, "samples_with_stack", (gint64) s->samples_with_stack);
}

static const guint64 *
diagnosis_masks (JsReportStacks *rs)
{
  if (rs->diagnosis_masks == NULL)
    rs->diagnosis_masks = js_report_diagnosis_masks (rs->a->profile);
  return rs->diagnosis_masks;
}

void
js_report_stacks_add_event (JsJsonWriter *b, const JsConfig *config, JsReportStacks *rs,
                            gint64 duration_ns, gboolean frame)
{
  JsAttribution *a = rs->a;
  JsCause c;
  gint64 attributed = MIN (a->profile->time_ns, MAX (duration_ns, 0));

  js_stall_analysis_cause (a->profile, NULL, NULL, &a->stats, duration_ns, &c);
  add_class_members (b, &a->stats, &c);
  add_culprit (b, rs, &c);
  js_report_add_diagnosis (b, a->profile, diagnosis_masks (rs), NULL, &a->stats, attributed, &c,
                           frame);
  js_json_writer_member_int (b, "attributed_ns", attributed);
  js_json_writer_member_int (b, "unattributed_ns", MAX (0, duration_ns - attributed));
  js_json_writer_member_int (b, "attributed_unlisted_ns",
                             rs->no_parts ? 0 : MIN (a->unlisted_ns, attributed));
  add_counts (b, &a->stats);
  add_profile (b, rs);
  add_stacks (b, rs);
  add_timeline (b, rs);
  add_watchdog (b, config, a);
}

/* The part's top stacks, most time first. */
static void
add_part_stacks (JsJsonWriter *b, JsReportStacks *rs, const JsPartAttribution *p)
{
  guint best[JS_REPORT_MAX_PART_STACKS];
  guint n = 0;

  for (guint i = 0; p != NULL && i < p->weights->len; i++)
    {
      const JsNodeWeight *w = &g_array_index (p->weights, JsNodeWeight, i);
      guint k;

      if (w->samples == 0 || (js_profile_node (rs->a->profile, w->node)->flags & JS_NODE_PSEUDO))
        continue;
      /* Insertion into the few best. */
      for (k = n; k > 0; k--)
        {
          const JsNodeWeight *o = &g_array_index (p->weights, JsNodeWeight, best[k - 1]);

          if (o->ns > w->ns || (o->ns == w->ns && o->samples >= w->samples))
            break;
          if (k < JS_REPORT_MAX_PART_STACKS)
            best[k] = best[k - 1];
        }
      if (k < JS_REPORT_MAX_PART_STACKS)
        {
          best[k] = i;
          n = MIN (n + 1, JS_REPORT_MAX_PART_STACKS);
        }
    }
  js_json_writer_member (b, "stacks");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const JsNodeWeight *w = &g_array_index (p->weights, JsNodeWeight, best[i]);
      gboolean truncated;
      g_autoptr (GPtrArray) frames = path_frames (rs->a->profile, w->node, &truncated);

      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "node", w->node);
      js_json_writer_member_int (b, "count", (gint64) w->samples);
      js_json_writer_member_int (b, "time_ns", w->ns);
      add_signature (b, rs, frames);
      js_json_writer_end_object (b);
    }
  js_json_writer_end_array (b);
}

static void
add_part_profile (JsJsonWriter *b, const JsPartAttribution *p)
{
  guint n = p != NULL ? p->weights->len : 0;
  g_autofree gint64 *node = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *samples = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *ns = g_new (gint64, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      const JsNodeWeight *w = &g_array_index (p->weights, JsNodeWeight, i);

      node[i] = w->node;
      samples[i] = (gint64) w->samples;
      ns[i] = w->ns;
    }
  js_json_writer_member (b, "profile");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "samples", p != NULL ? (gint64) p->samples : 0);
  js_json_writer_member_int (b, "time_ns", p != NULL ? p->time_ns : 0);
  add_int_column (b, "node", node, n);
  add_int_column (b, "self_samples", samples, n);
  add_int_column (b, "self_ns", ns, n);
  js_json_writer_member_int (b, "other_samples", p != NULL ? (gint64) p->other_samples : 0);
  js_json_writer_member_int (b, "other_ns", p != NULL ? p->other_ns : 0);
  js_json_writer_end_object (b);
}

void
js_report_stacks_add_part (JsJsonWriter *b, JsReportStacks *rs, guint index, gint64 duration_ns,
                           gboolean frame)
{
  const JsPartAttribution *p
      = index < rs->a->parts->len ? &g_array_index (rs->a->parts, JsPartAttribution, index) : NULL;
  JsSampleStats empty = { 0 };
  const JsSampleStats *s = p != NULL ? &p->stats : &empty;
  guint n = rs->a->profile->nodes->len;
  g_autofree guint64 *samples = g_new0 (guint64, MAX (n, 1));
  g_autofree gint64 *ns = g_new0 (gint64, MAX (n, 1));
  JsCause c;

  for (guint i = 0; p != NULL && i < p->weights->len; i++)
    {
      const JsNodeWeight *w = &g_array_index (p->weights, JsNodeWeight, i);

      samples[w->node] += w->samples;
      ns[w->node] += w->ns;
    }
  js_stall_analysis_cause (rs->a->profile, samples, ns, s, duration_ns, &c);
  add_class_members (b, s, &c);
  add_culprit (b, rs, &c);
  js_report_add_diagnosis (b, rs->a->profile, diagnosis_masks (rs), ns, s,
                           MIN (p != NULL ? p->time_ns : 0, MAX (duration_ns, 0)), &c, frame);
  js_json_writer_member_int (b, "attributed_ns",
                             MIN (p != NULL ? p->time_ns : 0, MAX (duration_ns, 0)));
  add_counts (b, s);
  add_part_profile (b, p);
  add_part_stacks (b, rs, p);
}

JsTier
js_report_ongoing_hang_span (const JsConfig *config, const JsStall *s, gint64 *end_ns,
                             gint64 *duration_ns)
{
  *end_ns = MAX (s->h.last_seen_ns, s->h.start_ns);
  *duration_ns = *end_ns - s->h.start_ns;
  return js_config_tier (config, *duration_ns);
}

void
js_report_add_ongoing_hang_members (JsJsonWriter *b, const JsConfig *config, JsStallStore *store,
                                    JsPostSites *sites, gint64 now_ns)
{
  JsStall *s = store->ongoing;
  gint64 end, duration;
  JsTier tier = js_report_ongoing_hang_span (config, s, &end, &duration);
  JsReportStacks *rs = stacks_for_stall (store, s);

  js_json_writer_member_int (b, "id", 0);
  js_json_writer_member_string (b, "type", "hang");
  js_json_writer_member (b, "ongoing");
  js_json_writer_bool (b, TRUE);
  js_json_writer_member_int (b, "start_ns", s->h.start_ns);
  js_json_writer_member_int (b, "end_ns", end);
  js_json_writer_member_int (b, "duration_ns", duration);
  js_json_writer_member_int (b, "max_part_ns", duration);
  js_json_writer_member_string (b, "tier", (gint) tier >= 0 ? js_tier_name (tier) : NULL);
  js_json_writer_member_string (b, "source", NULL);
  js_json_writer_member_string (b, "callback", NULL);
  /* The dispatch under way has no record yet: its site, as the watchdog
   * last saw it. */
  js_report_add_posted_from (b, sites, store, js_report_hang_post_site (sites, s));
  js_json_writer_member_int (b, "parts_count", 0);
  js_report_stacks_add_event (b, config, rs, duration, FALSE);
  js_json_writer_member (b, "parts");
  js_json_writer_begin_array (b);
  js_json_writer_end_array (b);
  js_report_stacks_free (rs);
}

void
js_report_add_sampler_summary (JsJsonWriter *b, JsStallStore *store, JsWatchdog *watchdog)
{
  JsWatchdogStats ws;
  JsSamplerCounters sc;
  JsSymbolizerStats ss = { 0 };
  g_autofree char *path_reason = NULL;
  const char *path;

  js_json_writer_member (b, "sampler");
  if (watchdog == NULL || store == NULL)
    {
      js_json_writer_null (b);
      return;
    }
  js_watchdog_get_stats (watchdog, &ws);
  js_sampler_get_counters (&sc);
  js_symbolizer_get_stats (store->symbolizer, &ss);
  js_json_writer_begin_object (b);
  js_json_writer_member (b, "signal");
  if (sc.signal != 0)
    js_json_writer_int (b, sc.signal);
  else
    js_json_writer_null (b);
  js_json_writer_member_string (b, "unwinder", sc.unwinder);
  js_json_writer_member (b, "signal_lost");
  js_json_writer_bool (b, sc.lost);
  path = js_watchdog_sampling_path (watchdog, &path_reason);
  js_json_writer_member_string (b, "sampling_path", path);
  js_json_writer_member_string (b, "sampling_path_reason", path_reason);
  js_json_writer_member_int (b, "stalls", (gint64) ws.stalls);
  js_json_writer_member_int (b, "stalls_without_event", (gint64) store->unattached);
  js_json_writer_member_int (b, "samples", (gint64) ws.samples);
  js_json_writer_member_int (b, "samples_running", (gint64) ws.samples_running);
  js_json_writer_member_int (b, "samples_timer", (gint64) ws.samples_timer);
  js_json_writer_member_int (b, "samples_waiting", (gint64) ws.samples_waiting);
  js_json_writer_member_int (b, "samples_folded", (gint64) ws.samples_folded);
  js_json_writer_member_int (b, "samples_failed", (gint64) ws.samples_failed);
  js_json_writer_member_int (b, "samples_dropped", (gint64) ws.samples_dropped);
  js_json_writer_member_int (b, "signals_sent", (gint64) sc.requested);
  js_json_writer_member_int (b, "signal_timeouts", (gint64) sc.timeouts);
  js_json_writer_member_int (b, "signal_late", (gint64) sc.late);
  js_json_writer_member_int (b, "signal_blocked", (gint64) ws.signal_blocked);
  js_json_writer_member_int (b, "signals_withheld", (gint64) sc.withheld);
  js_json_writer_member_int (b, "signals_deferred", (gint64) sc.deferred);
  js_json_writer_member_int (b, "blocking_calls_eintr", (gint64) sc.blocking_eintr);
  js_json_writer_member_int (b, "stack_copies_inconsistent", (gint64) ws.copies_inconsistent);
  js_json_writer_member_int (b, "handler_ns_total", ws.handler_ns_total);
  js_json_writer_member_int (b, "handler_ns_max", ws.handler_ns_max);
  js_json_writer_member_int (b, "watchdog_wakeups", (gint64) ws.wakeups);
  js_json_writer_member_int (b, "watchdog_parks", (gint64) ws.parks);
  js_json_writer_member_int (b, "watchdog_cpu_ns", ws.thread_cpu_ns);
  js_json_writer_member_int (b, "pings_sent", (gint64) ws.pings_sent);
  js_json_writer_member_int (b, "pings_caught", (gint64) ws.pings_caught);
  js_json_writer_member_int (b, "stacks_distinct",
                             (gint64) js_stack_table_interned (store->stacks));
  js_json_writer_member_int (b, "stacks_in_memory", js_stack_table_size (store->stacks));
  js_json_writer_member_int (b, "stacks_dropped", (gint64) js_stack_table_dropped (store->stacks));
  js_json_writer_member_int (b, "symbol_lookups", (gint64) ss.lookups);
  js_json_writer_member_int (b, "symbol_cache_hits", (gint64) ss.cache_hits);
  js_json_writer_member (b, "debuginfod");
  if (ss.debuginfod_on)
    {
      js_json_writer_begin_object (b);
      js_json_writer_member_int (b, "requested", ss.debuginfod.requested);
      js_json_writer_member_int (b, "found", ss.debuginfod.found);
      js_json_writer_member_int (b, "missing", ss.debuginfod.missing);
      js_json_writer_member_int (b, "given_up", ss.debuginfod.given_up);
      js_json_writer_member_int (b, "pending", ss.debuginfod.pending);
      js_json_writer_end_object (b);
    }
  else
    js_json_writer_null (b);
  js_json_writer_end_object (b);
}
