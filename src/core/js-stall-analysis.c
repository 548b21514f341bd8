/* js-stall-analysis.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stall-analysis.h"

#include <string.h>

/* On-CPU share at or above which an event is compute, at or below which it
 * waits; in between, mixed. */
#define COMPUTE_SHARE 0.7
#define WAIT_SHARE 0.3
/* The heaviest path goes on into a child holding at least this share of
 * its first node's time. */
#define DOMINANT_SHARE 0.5

/* Compute, wait or mixed, from the on-CPU share of the watched time, and
 * for wait and mixed the wait kind sampled most. */
static void
classify (const JsSampleStats *s, JsCause *c)
{
  double share;

  if (!s->cpu_known || s->watched_ns <= 0)
    return;
  /* Runnable time (the thread wanted a CPU the machine did not give it)
   * counts on the compute side: the app was not waiting for anything. */
  share = (s->cpu_ns + (s->runnable_known ? s->runnable_ns : 0)) / (double) s->watched_ns;
  c->cpu_ns = (gint64) s->cpu_ns;
  if (s->runnable_known)
    c->runnable_ns = (gint64) s->runnable_ns;
  c->klass = share >= COMPUTE_SHARE ? "compute" : share <= WAIT_SHARE ? "wait" : "mixed";
  if (share < COMPUTE_SHARE)
    {
      guint best = JS_WAIT_OTHER;

      for (guint k = 1; k < JS_N_WAITS; k++)
        if (s->wait_counts[k] > s->wait_counts[best])
          best = k;
      c->wait = s->wait_counts[best] > 0 ? (JsWaitKind) best : JS_WAIT_OTHER;
    }
}

typedef struct
{
  const JsProfile *p;
  guint n;
  guint64 *cand_samples; /* samples through the node, within the dispatch */
  gint64 *cand_ns;
} Tree;

static const JsProfileNode *
node (const Tree *t, guint32 i)
{
  return js_profile_node (t->p, i);
}

static gboolean
is_stop (const Tree *t, guint32 i)
{
  return (node (t, i)->flags & JS_NODE_STOP) != 0;
}

/* The time through each node from samples for which it is inside the
 * dispatch: a node's own, plus its children's unless a child is a stop (a
 * nested loop's dispatch, or what calls into a loop: the samples below it
 * belong to what that loop dispatched). Children come after their parent,
 * so one pass backwards adds up each subtree. */
static void
sum_candidates (Tree *t, const guint64 *samples, const gint64 *ns)
{
  for (guint32 i = t->n; i-- > 0;)
    {
      const JsProfileNode *n = node (t, i);

      t->cand_samples[i] += samples != NULL ? samples[i] : n->self_samples;
      t->cand_ns[i] += ns != NULL ? ns[i] : n->self_ns;
      if (is_stop (t, i))
        continue;
      if (n->parent != JS_PROFILE_NONE && !is_stop (t, n->parent))
        {
          t->cand_samples[n->parent] += t->cand_samples[i];
          t->cand_ns[n->parent] += t->cand_ns[i];
        }
    }
}

/* Is node `i` the first inside a dispatch (its parent a stop), or the root
 * of a stack with no stop at all (truncated, or whose unwinding stopped
 * early)? */
static gboolean
is_top (const Tree *t, guint32 i)
{
  const JsProfileNode *n = node (t, i);

  return !is_stop (t, i) && (n->parent == JS_PROFILE_NONE || is_stop (t, n->parent));
}

static gboolean
heavier (const Tree *t, guint32 a, guint32 b)
{
  if (b == JS_PROFILE_NONE)
    return TRUE;
  if (t->cand_ns[a] != t->cand_ns[b])
    return t->cand_ns[a] > t->cand_ns[b];
  if (t->cand_samples[a] != t->cand_samples[b])
    return t->cand_samples[a] > t->cand_samples[b];
  return a < b;
}

/* The time of samples that had the app's own code inside the dispatch. */
static gint64
app_code_time (const Tree *t, const gint64 *ns)
{
  g_autofree gboolean *in_app = g_new0 (gboolean, MAX (t->n, 1));
  gint64 total = 0;

  for (guint32 i = 0; i < t->n; i++)
    {
      const JsProfileNode *n = node (t, i);

      if (is_stop (t, i))
        continue;
      in_app[i] = (n->flags & JS_NODE_APP)
                  || (n->parent != JS_PROFILE_NONE && !is_stop (t, n->parent) && in_app[n->parent]);
      if (in_app[i])
        total += ns != NULL ? ns[i] : n->self_ns;
    }
  return total;
}

static gboolean
named (const JsProfileNode *n)
{
  return !(n->flags & JS_NODE_PSEUDO) && n->frame.function != NULL;
}

static gboolean
real (const JsProfileNode *n)
{
  return !(n->flags & JS_NODE_PSEUDO);
}

/* The culprit on the heaviest path `chain` (top first). */
static void
pick_on_path (const Tree *t, const guint32 *chain, guint len, JsCause *c)
{
  guint32 app = JS_PROFILE_NONE, lib_named = JS_PROFILE_NONE, lib = JS_PROFILE_NONE;
  guint32 any_named = JS_PROFILE_NONE, any = JS_PROFILE_NONE;

  for (guint k = 0; k < len; k++)
    {
      const JsProfileNode *n = node (t, chain[k]);

      if (!real (n))
        continue;
      any = chain[k];
      if (named (n))
        any_named = chain[k];
      if (n->flags & JS_NODE_APP)
        app = chain[k];
      else if (!(n->flags & JS_NODE_SYSTEM))
        {
          lib = chain[k];
          if (named (n))
            lib_named = chain[k];
        }
    }
  if (app != JS_PROFILE_NONE)
    {
      c->culprit = app;
      c->culprit_reason = "app-code";
    }
  else if (lib != JS_PROFILE_NONE)
    {
      c->culprit = lib_named != JS_PROFILE_NONE ? lib_named : lib;
      c->culprit_reason = "library";
    }
  else if (any != JS_PROFILE_NONE)
    {
      c->culprit = any_named != JS_PROFILE_NONE ? any_named : any;
      c->culprit_reason = "leaf";
    }
  /* What the loop dispatched: the first frame of the path outside libc
   * and GLib's dispatch glue. */
  if (len > 0 && node (t, chain[0])->parent != JS_PROFILE_NONE
      && (node (t, node (t, chain[0])->parent)->flags & JS_NODE_DISPATCH))
    for (guint k = 0; k < len && c->callback == JS_PROFILE_NONE; k++)
      {
        const JsProfileNode *n = node (t, chain[k]);

        if (real (n) && !(n->flags & JS_NODE_SYSTEM))
          c->callback = chain[k];
      }
}

static void
find_culprit (Tree *t, const gint64 *ns, gint64 duration_ns, JsCause *c)
{
  guint32 top = JS_PROFILE_NONE;
  g_autoptr (GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 at;
  double samples;

  for (guint32 i = 0; i < t->n; i++)
    if (is_top (t, i) && t->cand_ns[i] + (gint64) t->cand_samples[i] > 0 && heavier (t, i, top))
      top = i;
  if (top == JS_PROFILE_NONE)
    return;
  /* The heaviest path: into the heaviest child while it holds at least half
   * of the top's time. */
  at = top;
  for (;;)
    {
      guint32 best = JS_PROFILE_NONE;
      const JsProfileNode *n = node (t, at);

      g_array_append_val (chain, at);
      for (guint32 k = n->first_child; k != JS_PROFILE_NONE; k = node (t, k)->next_sibling)
        if (!is_stop (t, k) && heavier (t, k, best))
          best = k;
      if (n->other != JS_PROFILE_NONE && heavier (t, n->other, best))
        best = n->other;
      if (best == JS_PROFILE_NONE
          || (double) t->cand_ns[best] < DOMINANT_SHARE * (double) t->cand_ns[top]
          || (t->cand_ns[top] == 0
              && (double) t->cand_samples[best] < DOMINANT_SHARE * (double) t->cand_samples[top]))
        break;
      at = best;
    }
  pick_on_path (t, (const guint32 *) chain->data, chain->len, c);
  if (c->culprit == JS_PROFILE_NONE)
    return;
  c->culprit_ns = t->cand_ns[c->culprit];
  c->culprit_samples = t->cand_samples[c->culprit];
  c->app_code_ns = app_code_time (t, ns);
  /* Its share of the blocked time, discounted for few samples
   * (n / (n + 1): one sample 0.5, four 0.8, twenty 0.95). */
  samples = (double) c->of_samples;
  if (duration_ns > 0)
    c->confidence
        = MIN (1.0, (double) c->culprit_ns / (double) duration_ns) * samples / (samples + 1);
}

void
js_stall_analysis_cause (const JsProfile *profile, const guint64 *samples, const gint64 *ns,
                         const JsSampleStats *stats, gint64 duration_ns, JsCause *c)
{
  Tree t = { profile, profile != NULL ? profile->nodes->len : 0, NULL, NULL };

  memset (c, 0, sizeof *c);
  c->cpu_ns = -1;
  c->runnable_ns = -1;
  c->culprit = JS_PROFILE_NONE;
  c->callback = JS_PROFILE_NONE;
  if (stats != NULL)
    {
      classify (stats, c);
      c->of_samples = stats->samples_with_stack;
    }
  if (t.n == 0)
    return;
  t.cand_samples = g_new0 (guint64, t.n);
  t.cand_ns = g_new0 (gint64, t.n);
  sum_candidates (&t, samples, ns);
  find_culprit (&t, ns, duration_ns, c);
  g_free (t.cand_samples);
  g_free (t.cand_ns);
}
