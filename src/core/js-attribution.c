/* js-attribution.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-attribution.h"
#include "js-clock.h"
#include "js-stack-path.h"
#include "js-stall-store.h"

#include <string.h>

/* At most this many chunks per stall: past it, the last one grows (it then
 * spans parts' edges, and goes to the part of its middle). */
#define MAX_CHUNKS 32
/* CPU clock readings spanning less than this say too little: the samples'
 * states decide. */
#define MIN_CPU_SPAN_NS (2 * JS_NS_PER_MS)

/* --- the aggregate ------------------------------------------------------ */

static void
part_init (JsPartAttribution *p)
{
  memset (p, 0, sizeof *p);
  p->weights = g_array_new (FALSE, FALSE, sizeof (JsNodeWeight));
  p->index = g_hash_table_new (g_direct_hash, g_direct_equal);
}

static void
part_clear (gpointer data)
{
  JsPartAttribution *p = data;

  g_clear_pointer (&p->weights, g_array_unref);
  g_clear_pointer (&p->index, g_hash_table_unref);
}

JsAttribution *
js_attribution_new (void)
{
  JsAttribution *a = g_new0 (JsAttribution, 1);

  a->profile = js_profile_new (JS_ATTRIBUTION_MAX_NODES);
  a->timeline = g_array_new (FALSE, FALSE, sizeof (JsSampleEntry));
  a->parts = g_array_new (FALSE, FALSE, sizeof (JsPartAttribution));
  g_array_set_clear_func (a->parts, part_clear);
  a->longest.length_ns = -1;
  a->longest.ping_latency_ns = -1;
  return a;
}

void
js_attribution_free (JsAttribution *a)
{
  if (a == NULL)
    return;
  js_profile_free (a->profile);
  g_array_unref (a->timeline);
  g_array_unref (a->parts);
  g_free (a);
}

JsAttribution *
js_attribution_copy (const JsAttribution *a)
{
  JsAttribution *c = g_memdup2 (a, sizeof *a);

  c->profile = js_profile_copy (a->profile);
  c->timeline = g_array_copy (a->timeline);
  c->parts = g_array_sized_new (FALSE, FALSE, sizeof (JsPartAttribution), a->parts->len);
  g_array_set_clear_func (c->parts, part_clear);
  for (guint i = 0; i < a->parts->len; i++)
    {
      const JsPartAttribution *from = &g_array_index (a->parts, JsPartAttribution, i);
      JsPartAttribution to = *from;

      to.weights = g_array_copy (from->weights);
      to.index = g_hash_table_new (g_direct_hash, g_direct_equal);
      for (guint k = 0; k < to.weights->len; k++)
        g_hash_table_insert (to.index,
                             GUINT_TO_POINTER (g_array_index (to.weights, JsNodeWeight, k).node),
                             GUINT_TO_POINTER (k + 1));
      g_array_append_val (c->parts, to);
    }
  return c;
}

JsPartAttribution *
js_attribution_part (JsAttribution *a, guint index)
{
  while (a->parts->len <= index)
    {
      JsPartAttribution p;

      part_init (&p);
      g_array_append_val (a->parts, p);
    }
  return &g_array_index (a->parts, JsPartAttribution, index);
}

static void
part_add (JsPartAttribution *p, guint32 node, guint64 samples, gint64 ns)
{
  gpointer found = g_hash_table_lookup (p->index, GUINT_TO_POINTER (node));

  p->samples += samples;
  p->time_ns += ns;
  if (found == NULL)
    {
      JsNodeWeight w = { node, 0, 0 };

      if (p->weights->len >= JS_ATTRIBUTION_MAX_PART_NODES)
        {
          p->other_samples += samples;
          p->other_ns += ns;
          return;
        }
      g_array_append_val (p->weights, w);
      found = GUINT_TO_POINTER (p->weights->len);
      g_hash_table_insert (p->index, GUINT_TO_POINTER (node), found);
    }
  g_array_index (p->weights, JsNodeWeight, GPOINTER_TO_UINT (found) - 1).samples += samples;
  g_array_index (p->weights, JsNodeWeight, GPOINTER_TO_UINT (found) - 1).ns += ns;
}

/* The statistics a part's samples and time go to (besides the event's). */
static JsSampleStats *
part_stats (JsAttribution *a, gint32 part)
{
  if (part >= 0)
    return &js_attribution_part (a, (guint) part)->stats;
  return part == JS_PART_UNLISTED ? &a->unlisted : NULL;
}

/* Samples and time at `node` of the event's profile, for `part`. */
static void
add_to_node (JsAttribution *a, gint32 part, guint32 node, guint64 samples, gint64 ns)
{
  js_profile_add (a->profile, node, samples, ns);
  if (part >= 0)
    part_add (js_attribution_part (a, (guint) part), node, samples, ns);
  else
    a->unlisted_ns += ns;
}

/* --- regions ------------------------------------------------------------ */

static gint
cmp_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

void
js_attribution_regions (const GArray *windows, gint64 from_ns, gint64 to_ns, GArray *out)
{
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) inside = g_array_new (FALSE, FALSE, sizeof (JsPartWindow));

  g_array_set_size (out, 0);
  if (to_ns <= from_ns)
    return;
  g_array_append_val (edges, from_ns);
  g_array_append_val (edges, to_ns);
  for (guint i = 0; windows != NULL && i < windows->len; i++)
    {
      const JsPartWindow *w = &g_array_index (windows, JsPartWindow, i);

      if (w->end_ns <= from_ns || w->start_ns >= to_ns || w->end_ns <= w->start_ns)
        continue;
      g_array_append_val (inside, *w);
      if (w->start_ns > from_ns)
        g_array_append_val (edges, w->start_ns);
      if (w->end_ns < to_ns)
        g_array_append_val (edges, w->end_ns);
    }
  g_array_sort (edges, cmp_gint64);
  for (guint i = 0; i + 1 < edges->len; i++)
    {
      gint64 a = g_array_index (edges, gint64, i), b = g_array_index (edges, gint64, i + 1);
      gint64 mid = a + (b - a) / 2;
      gint64 best_len = G_MAXINT64;
      JsRegion r = { a, b, JS_PART_NONE };

      if (b <= a)
        continue;
      /* The innermost part: the smallest window; the later one on a tie. */
      for (guint k = 0; k < inside->len; k++)
        {
          const JsPartWindow *w = &g_array_index (inside, JsPartWindow, k);

          if (w->start_ns <= mid && mid < w->end_ns && w->end_ns - w->start_ns <= best_len)
            {
              best_len = w->end_ns - w->start_ns;
              r.part = w->part;
            }
        }
      if (out->len > 0 && g_array_index (out, JsRegion, out->len - 1).part == r.part
          && r.part == JS_PART_NONE)
        g_array_index (out, JsRegion, out->len - 1).to_ns = b;
      else
        g_array_append_val (out, r);
    }
}

/* The region that holds `t`, or NULL. */
static const JsRegion *
region_at (const GArray *regions, gint64 t)
{
  guint lo = 0, hi = regions->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const JsRegion *r = &g_array_index (regions, JsRegion, mid);

      if (t < r->from_ns)
        hi = mid;
      else if (t >= r->to_ns)
        lo = mid + 1;
      else
        return r;
    }
  /* The stall's very end belongs to the last region. */
  if (regions->len > 0 && t == g_array_index (regions, JsRegion, regions->len - 1).to_ns)
    return &g_array_index (regions, JsRegion, regions->len - 1);
  return NULL;
}

/* --- a stall's time and CPU ---------------------------------------------- */

static gint64
stall_end (const JsStall *st)
{
  return st->h.end_ns != 0 ? st->h.end_ns : MAX (st->h.last_seen_ns, st->h.start_ns);
}

typedef struct
{
  gint64 t, cpu;
} CpuPoint;

static gint
cmp_point (gconstpointer a, gconstpointer b)
{
  const CpuPoint *x = a, *y = b;

  return (x->t > y->t) - (x->t < y->t);
}

/* The main thread's CPU clock over a stall, as the watchdog read it (with
 * each sample, and at the stall's first and last look), linear between
 * readings and at the ends the nearest pair's rate. */
typedef struct
{
  GArray *points; /* CpuPoint, by time */
  gboolean usable;
} CpuCurve;

static void
add_point (GArray *points, gint64 t, gint64 cpu)
{
  CpuPoint p = { t, cpu };

  if (t > 0)
    g_array_append_val (points, p);
}

static void
curve_init (CpuCurve *c, const JsStall *st)
{
  c->points = g_array_new (FALSE, FALSE, sizeof (CpuPoint));
  if (st->h.cpu_first_ns >= 0)
    {
      add_point (c->points, st->h.cpu_first_at_ns, st->h.cpu_first_ns);
      add_point (c->points, st->h.cpu_last_at_ns, st->h.cpu_last_ns);
    }
  for (guint i = 0; st->chunks != NULL && i < st->chunks->len; i++)
    {
      const JsStallChunk *ch = g_ptr_array_index (st->chunks, i);

      if (ch->cpu_known)
        {
          add_point (c->points, ch->from_ns, ch->cpu_from_ns);
          add_point (c->points, ch->to_ns, ch->cpu_to_ns);
        }
    }
  for (guint i = 0; i < st->samples->len; i++)
    {
      const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, i);

      if (s->cpu_ns >= 0)
        add_point (c->points, s->time_ns, s->cpu_ns);
    }
  g_array_sort (c->points, cmp_point);
  /* One reading per instant. */
  for (guint i = 1; i < c->points->len;)
    if (g_array_index (c->points, CpuPoint, i).t == g_array_index (c->points, CpuPoint, i - 1).t)
      g_array_remove_index (c->points, i);
    else
      i++;
  c->usable = c->points->len >= 2
              && g_array_index (c->points, CpuPoint, c->points->len - 1).t
                         - g_array_index (c->points, CpuPoint, 0).t
                     >= MIN_CPU_SPAN_NS;
}

static void
curve_clear (CpuCurve *c)
{
  g_array_unref (c->points);
}

static double
rate (const CpuPoint *a, const CpuPoint *b)
{
  return b->t > a->t ? MAX (0.0, (double) (b->cpu - a->cpu) / (double) (b->t - a->t)) : 0;
}

/* The CPU clock at `t`: between readings, on the line joining them; before
 * the first and after the last, at the nearest pair's rate (at most 1).
 * Between readings the rate is not capped at 1: a reading is taken a
 * moment after its sample's time, by a delay that varies, so with samples
 * a millisecond apart one interval shows more than 1 and the next less;
 * capping each would lose CPU time. The regions' CPU times are capped at
 * their wall time instead. */
static double
curve_at (const CpuCurve *c, gint64 t)
{
  const CpuPoint *p = (const CpuPoint *) c->points->data;
  guint n = c->points->len;

  if (t <= p[0].t)
    return (double) p[0].cpu - MIN (rate (&p[0], &p[1]), 1.0) * (double) (p[0].t - t);
  for (guint i = 1; i < n; i++)
    if (t <= p[i].t)
      return (double) p[i - 1].cpu + rate (&p[i - 1], &p[i]) * (double) (t - p[i - 1].t);
  return (double) p[n - 1].cpu + MIN (rate (&p[n - 2], &p[n - 1]), 1.0) * (double) (t - p[n - 1].t);
}

/* The share of the stall's samples that found it running (no usable clock). */
static double
running_share (const JsStall *st, gboolean *known)
{
  guint64 running = 0, total = 0;

  for (guint i = 0; st->chunks != NULL && i < st->chunks->len; i++)
    {
      const JsStallChunk *ch = g_ptr_array_index (st->chunks, i);

      running += ch->stats.samples_running;
      total += ch->stats.samples;
    }
  for (guint i = 0; i < st->samples->len; i++)
    {
      const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, i);

      total += s->count;
      if (s->state == JS_THREAD_RUNNING)
        running += s->count;
    }
  *known = total > 0;
  return total > 0 ? (double) running / (double) total : 0;
}

/* Runnable time (ready, no CPU) as a share of the stall's wall time, from
 * the scheduler's run delay at its first and last reading; < 0 unknown. */
static double
runnable_share (const JsStallHeader *h)
{
  double span = (double) (h->cpu_last_at_ns - h->cpu_first_at_ns);

  if (h->cpu_first_ns < 0 || span < MIN_CPU_SPAN_NS || h->runnable_first_ns < 0
      || h->runnable_last_ns < h->runnable_first_ns)
    return -1;
  return CLAMP ((double) (h->runnable_last_ns - h->runnable_first_ns) / span, 0.0, 1.0);
}

/* --- folding a stall into an event ------------------------------------- */

static gint64
overlap (gint64 a0, gint64 a1, gint64 b0, gint64 b1)
{
  return MAX (0, MIN (a1, b1) - MAX (a0, b0));
}

static void
add_counts (JsSampleStats *s, guint8 state, guint8 wait, guint64 count, gboolean with_stack)
{
  s->samples += count;
  if (with_stack)
    s->samples_with_stack += count;
  if (state == JS_THREAD_RUNNING)
    s->samples_running += count;
  else if (state == JS_THREAD_WAITING)
    {
      s->samples_waiting += count;
      s->wait_counts[MIN (wait, JS_N_WAITS - 1)] += count;
    }
}

/* A blocked sample's time (with a stack: what the profile speaks for) to its
 * wait kind. */
static void
add_wait_time (JsSampleStats *s, const JsStallSampleInfo *info, gint64 ns)
{
  if (s == NULL)
    return;
  if (info->state == JS_THREAD_WAITING)
    s->wait_ns[MIN (info->wait, JS_N_WAITS - 1)] += ns;
  /* And to the file or D-Bus call it showed. */
  js_sample_details_add (&s->details, info->detail, ns);
}

static void
add_stats_counts (JsSampleStats *to, const JsSampleStats *from)
{
  to->samples += from->samples;
  to->samples_with_stack += from->samples_with_stack;
  to->samples_running += from->samples_running;
  to->samples_waiting += from->samples_waiting;
  for (guint k = 0; k < JS_N_WAITS; k++)
    to->wait_counts[k] += from->wait_counts[k];
}

/* The time the stall spends in each region: watched, sampled, CPU,
 * runnable; and the stall counted once per part it covers. */
static gboolean
add_region_times (JsAttribution *a, const JsStall *st, const GArray *regions)
{
  gint64 st_start = st->h.start_ns, st_end = stall_end (st);
  gint64 detected = MAX (st->h.detected_ns, st_start);
  CpuCurve curve;
  gboolean share_known = FALSE;
  double share = 0, run_share = runnable_share (&st->h);
  gboolean any = FALSE;
  g_autoptr (GHashTable) counted = g_hash_table_new (g_direct_hash, g_direct_equal);

  /* The parts' array grown first: the statistics below are used by address. */
  for (guint i = 0; i < regions->len; i++)
    if (g_array_index (regions, JsRegion, i).part >= 0)
      js_attribution_part (a, (guint) g_array_index (regions, JsRegion, i).part);
  curve_init (&curve, st);
  if (!curve.usable)
    share = running_share (st, &share_known);
  for (guint i = 0; i < regions->len; i++)
    {
      const JsRegion *r = &g_array_index (regions, JsRegion, i);
      gint64 from = MAX (r->from_ns, st_start), to = MIN (r->to_ns, st_end);
      gint64 wall = to - from;
      JsSampleStats *targets[2] = { &a->stats, part_stats (a, r->part) };
      double cpu = -1;

      if (r->part == JS_PART_NONE || wall <= 0)
        continue;
      any = TRUE;
      if (curve.usable)
        cpu = CLAMP (curve_at (&curve, to) - curve_at (&curve, from), 0.0, (double) wall);
      else if (share_known)
        cpu = share * (double) wall;
      for (guint k = 0; k < 2; k++)
        {
          JsSampleStats *s = targets[k];

          if (s == NULL)
            continue;
          s->watched_ns += wall;
          s->sampled_ns += overlap (from, to, detected, st_end);
          if (cpu >= 0)
            {
              s->cpu_ns += cpu;
              s->cpu_known = TRUE;
              if (run_share >= 0)
                {
                  s->runnable_ns += MIN (run_share * (double) wall, (double) wall - cpu);
                  s->runnable_known = TRUE;
                }
            }
          /* Each stall once per part (and once for the event). */
          if (!g_hash_table_contains (counted, s))
            {
              g_hash_table_add (counted, s);
              s->stalls++;
            }
        }
    }
  curve_clear (&curve);
  return any;
}

static void
keep_if_longest (JsAttribution *a, const JsStall *st)
{
  gint64 length = stall_end (st) - st->h.start_ns;

  if (length <= a->longest.length_ns)
    return;
  a->longest.length_ns = length;
  a->longest.detected_ns = st->h.detected_ns;
  memcpy (a->longest.tier_at_ns, st->h.tier_at_ns, sizeof a->longest.tier_at_ns);
  a->longest.ping_latency_ns = st->h.ping_latency_ns;
  a->longest.ping_caught = st->h.ping_caught;
}

static void
timeline_add (GArray *timeline, const JsStallSampleInfo *s, guint32 node, gint32 part)
{
  JsSampleEntry e = {
    .t_ns = s->time_ns,
    .last_ns = s->count > 1 ? s->last_ns : s->time_ns,
    .count = s->count,
    .running = s->state == JS_THREAD_RUNNING ? s->count : 0,
    .node = node,
    .part = part,
    .syscall = s->syscall,
    .state = s->state,
    .wait = s->wait,
  };

  g_array_append_val (timeline, e);
  if (timeline->len >= 2 * JS_ATTRIBUTION_MAX_TIMELINE)
    js_timeline_shrink (timeline, JS_ATTRIBUTION_MAX_TIMELINE);
}

/* The node of the sample's stack in `profile`, or JS_PROFILE_NONE. */
static guint32
sample_node (JsProfile *profile, JsModules *modules, JsStackTable *stacks,
             const JsStallSampleInfo *s)
{
  const JsStack *stack = s->stack != 0 ? js_stack_table_get (stacks, s->stack) : NULL;
  const JsPathFrame *path;
  guint n;

  if (stack == NULL)
    return JS_PROFILE_NONE;
  path = js_stack_path_get (modules, stack, &n);
  /* Nothing but jankscope's own frames: no stack to speak of. */
  if (n == 0)
    return JS_PROFILE_NONE;
  return js_profile_intern (profile, path, n);
}

/* The time sample `j` of the raw samples speaks for: halfway to its
 * neighbours; the first from where the compacted ones stopped (or the
 * stall's start), the last up to the stall's end. */
static void
sample_cell (const JsStall *st, guint j, gint64 *from, gint64 *to)
{
  const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);
  const JsStallSampleInfo *prev = j > 0 ? s - 1 : NULL;
  const JsStallSampleInfo *next = j + 1 < st->samples->len ? s + 1 : NULL;

  *from = prev != NULL            ? (prev->last_ns + s->time_ns) / 2
          : st->cell_from_ns != 0 ? st->cell_from_ns
                                  : st->h.start_ns;
  *to = next != NULL ? (s->last_ns + next->time_ns) / 2 : stall_end (st);
  *to = MAX (*to, *from);
}

static void
fold_raw (JsAttribution *a, JsModules *modules, JsStackTable *stacks, const JsStall *st,
          const GArray *regions)
{
  for (guint j = 0; j < st->samples->len; j++)
    {
      const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);
      const JsRegion *at = region_at (regions, s->time_ns);
      guint32 node = sample_node (a->profile, modules, stacks, s);
      gint64 from, to;

      if (at != NULL && at->part != JS_PART_NONE)
        {
          JsSampleStats *ps = part_stats (a, at->part);

          add_counts (&a->stats, s->state, s->wait, s->count, node != JS_PROFILE_NONE);
          if (ps != NULL)
            add_counts (ps, s->state, s->wait, s->count, node != JS_PROFILE_NONE);
          if (node != JS_PROFILE_NONE)
            add_to_node (a, at->part, node, s->count, 0);
          timeline_add (a->timeline, s, node, at->part);
        }
      if (node == JS_PROFILE_NONE)
        continue;
      /* Its time, cut at the regions' edges. */
      sample_cell (st, j, &from, &to);
      for (guint k = 0; k < regions->len; k++)
        {
          const JsRegion *r = &g_array_index (regions, JsRegion, k);
          gint64 ns = overlap (from, to, r->from_ns, r->to_ns);

          if (ns > 0 && r->part != JS_PART_NONE)
            {
              add_to_node (a, r->part, node, 0, ns);
              add_wait_time (&a->stats, s, ns);
              add_wait_time (part_stats (a, r->part), s, ns);
            }
        }
    }
}

/* A copy of `p` with its times scaled to `share` of them (their sum
 * rounded, the remainder to the heaviest node). */
static JsProfile *
scaled (const JsProfile *p, double share)
{
  JsProfile *c = js_profile_copy (p);
  gint64 target = (gint64) ((double) p->time_ns * share), total = 0;
  guint32 heaviest = JS_PROFILE_NONE;

  for (guint32 i = 0; i < c->nodes->len; i++)
    {
      JsProfileNode *n = &g_array_index (c->nodes, JsProfileNode, i);

      n->self_ns = (gint64) ((double) n->self_ns * share);
      total += n->self_ns;
      if (heaviest == JS_PROFILE_NONE
          || n->self_ns > g_array_index (c->nodes, JsProfileNode, heaviest).self_ns)
        heaviest = i;
    }
  if (heaviest != JS_PROFILE_NONE)
    g_array_index (c->nodes, JsProfileNode, heaviest).self_ns += MAX (0, target - total);
  c->time_ns = MAX (target, total);
  return c;
}

static void
fold_chunk (JsAttribution *a, const JsStallChunk *ch, const GArray *regions)
{
  const JsRegion *at = region_at (regions, ch->from_ns + (ch->to_ns - ch->from_ns) / 2);
  g_autofree guint32 *map = NULL;
  g_autoptr (JsProfile) clipped = NULL;
  const JsProfile *profile = ch->profile;
  JsSampleStats *ps;
  gint64 inside;

  if (at == NULL || at->part == JS_PART_NONE)
    return;
  /* A part whose edge was not known yet when the chunk was made (the
   * record of a dispatch comes at its end) may cut it: the chunk goes to
   * the part that holds its middle, with its time cut to what lies in it. */
  inside = overlap (ch->from_ns, ch->to_ns, at->from_ns, at->to_ns);
  if (ch->to_ns > ch->from_ns && inside < ch->to_ns - ch->from_ns)
    profile = clipped = scaled (ch->profile, (double) inside / (double) (ch->to_ns - ch->from_ns));
  map = g_new (guint32, MAX (profile->nodes->len, 1));
  js_profile_merge (a->profile, profile, map);
  for (guint32 i = 0; i < profile->nodes->len; i++)
    {
      const JsProfileNode *n = js_profile_node (profile, i);

      if (n->self_samples == 0 && n->self_ns == 0)
        continue;
      if (at->part >= 0)
        part_add (js_attribution_part (a, (guint) at->part), map[i], n->self_samples, n->self_ns);
      else
        a->unlisted_ns += n->self_ns;
    }
  add_stats_counts (&a->stats, &ch->stats);
  ps = part_stats (a, at->part);
  if (ps != NULL)
    add_stats_counts (ps, &ch->stats);
  /* The blocked time, cut as the profile's was. */
  for (guint k = 0; k < JS_N_WAITS; k++)
    {
      gint64 ns = profile == ch->profile ? ch->stats.wait_ns[k]
                                         : (gint64) ((double) ch->stats.wait_ns[k] * (double) inside
                                                     / (double) (ch->to_ns - ch->from_ns));

      a->stats.wait_ns[k] += ns;
      if (ps != NULL)
        ps->wait_ns[k] += ns;
    }
  {
    double share
        = profile == ch->profile ? 1.0 : (double) inside / (double) (ch->to_ns - ch->from_ns);

    js_sample_details_merge (&a->stats.details, &ch->stats.details, share);
    if (ps != NULL)
      js_sample_details_merge (&ps->details, &ch->stats.details, share);
  }
  for (guint i = 0; i < ch->timeline->len; i++)
    {
      JsSampleEntry e = g_array_index (ch->timeline, JsSampleEntry, i);

      e.node = e.node != JS_PROFILE_NONE ? map[e.node] : JS_PROFILE_NONE;
      e.part = at->part;
      g_array_append_val (a->timeline, e);
    }
  if (a->timeline->len >= 2 * JS_ATTRIBUTION_MAX_TIMELINE)
    js_timeline_shrink (a->timeline, JS_ATTRIBUTION_MAX_TIMELINE);
}

void
js_attribution_fold_stall (JsAttribution *a, JsModules *modules, JsStackTable *stacks,
                           const JsStall *stall, const GArray *regions)
{
  if (!add_region_times (a, stall, regions))
    return; /* it covered none of the event's parts */
  keep_if_longest (a, stall);
  for (guint i = 0; stall->chunks != NULL && i < stall->chunks->len; i++)
    fold_chunk (a, g_ptr_array_index (stall->chunks, i), regions);
  fold_raw (a, modules, stacks, stall, regions);
}

/* --- a long stall's older samples, aggregated ---------------------------- */

void
js_stall_chunk_free (gpointer data)
{
  JsStallChunk *ch = data;

  if (ch == NULL)
    return;
  js_profile_free (ch->profile);
  g_array_unref (ch->timeline);
  g_free (ch);
}

/* The stretch between `edges` that holds `t` (edges sorted). */
static void
stretch_at (const GArray *edges, gint64 t, gint64 lo, gint64 hi, gint64 *from, gint64 *to)
{
  *from = lo;
  *to = hi;
  for (guint i = 0; edges != NULL && i < edges->len; i++)
    {
      gint64 e = g_array_index (edges, gint64, i);

      if (e <= t && e > *from)
        *from = e;
      if (e > t && e < *to)
        *to = e;
    }
}

/* The chunk for the stretch holding `t`: the stall's last one, unless a
 * part's edge lies between its end and `t` (and there is room for
 * another). */
static JsStallChunk *
chunk_for (JsStall *st, const GArray *edges, gint64 t, const CpuCurve *curve)
{
  JsStallChunk *last
      = st->chunks->len > 0 ? g_ptr_array_index (st->chunks, st->chunks->len - 1) : NULL;
  gint64 from, to;

  stretch_at (edges, t, st->h.start_ns, G_MAXINT64, &from, &to);
  if (last != NULL
      && (from < last->to_ns || last->to_ns <= last->from_ns || st->chunks->len >= MAX_CHUNKS))
    return last;
  last = g_new0 (JsStallChunk, 1);
  last->from_ns = last->to_ns = MAX (t, from);
  last->cpu_known = curve->usable;
  if (curve->usable)
    last->cpu_from_ns = last->cpu_to_ns = (gint64) curve_at (curve, last->from_ns);
  last->profile = js_profile_new (JS_ATTRIBUTION_MAX_NODES);
  last->timeline = g_array_new (FALSE, FALSE, sizeof (JsSampleEntry));
  g_ptr_array_add (st->chunks, last);
  return last;
}

void
js_attribution_compact (JsStall *st, JsModules *modules, JsStackTable *stacks, const GArray *edges,
                        gint64 before_ns)
{
  guint n = 0;
  CpuCurve curve;
  gint64 cell_to = 0;

  while (n + 1 < st->samples->len
         && g_array_index (st->samples, JsStallSampleInfo, n).time_ns < before_ns)
    n++;
  if (n == 0)
    return;
  if (st->chunks == NULL)
    st->chunks = g_ptr_array_new_with_free_func (js_stall_chunk_free);
  curve_init (&curve, st);
  for (guint j = 0; j < n; j++)
    {
      const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);
      gint64 from, to, t;
      JsStallChunk *ch;
      guint32 node;

      gboolean counted = FALSE;

      sample_cell (st, j, &from, &to);
      /* Its time cut at the edges, each piece to its stretch's chunk (in
       * time order: chunks only ever grow at the end), and its count where
       * it was taken. */
      for (t = from; t < to || !counted;)
        {
          gint64 seg_from, seg_to, piece_to;

          /* The stretch of the stall between parts' edges that holds t. */
          stretch_at (edges, t, st->h.start_ns, G_MAXINT64, &seg_from, &seg_to);
          piece_to = MIN (to, seg_to);
          ch = chunk_for (st, edges, t, &curve);
          node = sample_node (ch->profile, modules, stacks, s);
          if (node != JS_PROFILE_NONE && piece_to > t)
            {
              js_profile_add (ch->profile, node, 0, piece_to - t);
              add_wait_time (&ch->stats, s, piece_to - t);
            }
          if (!counted && (s->time_ns < piece_to || piece_to >= to))
            {
              add_counts (&ch->stats, s->state, s->wait, s->count, node != JS_PROFILE_NONE);
              if (node != JS_PROFILE_NONE)
                js_profile_add (ch->profile, node, s->count, 0);
              timeline_add (ch->timeline, s, node, JS_PART_UNLISTED);
              counted = TRUE;
            }
          ch->from_ns = MIN (ch->from_ns, t);
          ch->to_ns = MAX (ch->to_ns, piece_to);
          if (piece_to <= t)
            break;
          t = piece_to;
        }
      cell_to = to;
    }
  /* The CPU clock at each chunk's ends, while the samples' readings are
   * still there. */
  for (guint i = 0; i < st->chunks->len; i++)
    {
      JsStallChunk *ch = g_ptr_array_index (st->chunks, i);

      if (curve.usable && ch->cpu_known)
        ch->cpu_to_ns = MAX (ch->cpu_from_ns, (gint64) curve_at (&curve, ch->to_ns));
      js_timeline_shrink (ch->timeline, JS_ATTRIBUTION_MAX_TIMELINE);
    }
  curve_clear (&curve);
  for (guint j = 0; j < n; j++)
    js_stack_table_unref (stacks, g_array_index (st->samples, JsStallSampleInfo, j).stack);
  g_array_remove_range (st->samples, 0, n);
  st->cell_from_ns = cell_to;
}

/* --- the timeline -------------------------------------------------------- */

static gint
cmp_entry (gconstpointer a, gconstpointer b)
{
  const JsSampleEntry *x = a, *y = b;

  return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

static void
merge_into (JsSampleEntry *a, const JsSampleEntry *b)
{
  JsSampleEntry m = b->count > a->count ? *b : *a;

  m.t_ns = MIN (a->t_ns, b->t_ns);
  m.last_ns = MAX (MAX (a->last_ns, b->last_ns), MAX (a->t_ns, b->t_ns));
  m.count = a->count + b->count;
  m.running = a->running + b->running;
  m.merged = TRUE;
  *a = m;
}

/* One pass: neighbours merged two by two (of the same part only, unless
 * `any`). Returns whether it merged any. */
static gboolean
merge_pass (GArray *timeline, gboolean any)
{
  JsSampleEntry *e = (JsSampleEntry *) timeline->data;
  guint out = 0;
  gboolean merged = FALSE;

  for (guint i = 0; i < timeline->len;)
    {
      if (i + 1 < timeline->len && (any || e[i].part == e[i + 1].part))
        {
          JsSampleEntry m = e[i];

          merge_into (&m, &e[i + 1]);
          e[out++] = m;
          i += 2;
          merged = TRUE;
        }
      else
        e[out++] = e[i++];
    }
  g_array_set_size (timeline, out);
  return merged;
}

void
js_timeline_shrink (GArray *timeline, guint max)
{
  if (timeline->len <= max)
    return;
  g_array_sort (timeline, cmp_entry);
  while (timeline->len > max)
    if (!merge_pass (timeline, FALSE))
      merge_pass (timeline, TRUE);
}
