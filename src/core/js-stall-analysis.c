/* js-stall-analysis.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stall-analysis.h"
#include "js-clock.h"

#include <string.h>

/* On-CPU share at or above which an event is compute, at or below which it
 * waits; in between, mixed. */
#define COMPUTE_SHARE 0.7
#define WAIT_SHARE 0.3

/* Is this module jankscope's own, libc, the loader or GLib's main loop? */
static gboolean
module_is_infrastructure (const JsModule *m)
{
  static const char *const prefixes[] = {
    "libc.so", "libc-", "ld-linux", "ld-musl", "libpthread", "libdl.so", "libm.so",
    "linux-vdso", "libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgmodule-2.0",
    "libffi", "libjankscope", "libunwind", "libgcc_s",
  };

  if (m == NULL || m->name == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (m->name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* The app's own code: the executable, or a library outside the system's
 * library directories (apps keep private ones in a subfolder). */
static gboolean
module_is_app (const JsModule *m)
{
  g_autofree char *dir = NULL;

  if (m == NULL)
    return FALSE;
  if (m->is_main)
    return TRUE;
  if (m->path == NULL || module_is_infrastructure (m))
    return FALSE;
  dir = g_path_get_dirname (m->path);
  return !(g_str_equal (dir, "/usr/lib") || g_str_equal (dir, "/lib")
           || g_str_equal (dir, "/usr/lib64") || g_str_equal (dir, "/lib64")
           || (g_str_has_prefix (dir, "/usr/lib/") && g_str_has_suffix (dir, "-linux-gnu"))
           || (g_str_has_prefix (dir, "/lib/") && g_str_has_suffix (dir, "-linux-gnu")));
}

/* The frame of a stack most likely to blame: the innermost frame of the
 * app's own code; else the innermost one outside libc/GLib/jankscope; else
 * the leaf. */
static guint
blame_frame (JsStallStore *store, const JsStack *stack, const char **reason)
{
  guint lib = G_MAXUINT;

  for (guint i = 0; i < stack->frames->len; i++)
    {
      const JsFrame *f = &g_array_index (stack->frames, JsFrame, i);
      const JsModule *m = js_modules_get (store->modules, f->module);

      if (module_is_app (m))
        {
          *reason = "app-code";
          return i;
        }
      if (lib == G_MAXUINT && m != NULL && !module_is_infrastructure (m))
        lib = i;
    }
  if (lib != G_MAXUINT)
    {
      *reason = "library";
      return lib;
    }
  *reason = "leaf";
  return 0;
}

static gint
by_time_desc (gconstpointer a, gconstpointer b)
{
  const JsStackCount *x = a, *y = b;

  if (x->time_ns != y->time_ns)
    return x->time_ns < y->time_ns ? 1 : -1;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  return (x->stack > y->stack) - (x->stack < y->stack);
}

typedef struct
{
  const JsFrame *frame;
  const char *reason;
  guint64 count;
  gint64 time_ns;
  gint64 last_ns;
} Blame;

static gboolean
same_place (const JsFrame *a, const JsFrame *b)
{
  if (a->function != NULL || b->function != NULL)
    return g_strcmp0 (a->function, b->function) == 0 && a->module == b->module;
  return a->module == b->module && a->offset == b->offset;
}

/* What the walk over the stalls adds up for the steps after it. */
typedef struct
{
  GHashTable *stack_index; /* stack id -> its index in the analysis' stacks + 1 */
  gint64 longest_ns;       /* length of the longest stall so far, -1 before the first */
  double cpu_ns, runnable_ns;
  gboolean cpu_known, runnable_known;
  guint64 wait_counts[JS_N_WAITS];
} Tally;

static void
analysis_init (JsStallAnalysis *a)
{
  memset (a, 0, sizeof *a);
  a->cpu_ns = -1;
  a->runnable_ns = -1;
  a->ping_latency_ns = -1;
  a->stacks = g_array_new (FALSE, FALSE, sizeof (JsStackCount));
  a->timeline = g_array_new (FALSE, FALSE, sizeof (JsStallSampleInfo));
}

/* The watchdog's members (tiers crossed, ping, detection) are those of the
 * longest stall, whole, not clipped to the event. */
static void
keep_if_longest (JsStallAnalysis *a, Tally *t, const JsStall *st, gint64 st_end)
{
  if (st_end - st->h.start_ns <= t->longest_ns)
    return;
  t->longest_ns = st_end - st->h.start_ns;
  memcpy (a->tier_at_ns, st->h.tier_at_ns, sizeof a->tier_at_ns);
  a->ping_latency_ns = st->h.ping_latency_ns;
  a->ping_caught = st->h.ping_caught;
  a->detected_ns = st->h.detected_ns;
}

/* The time sample `j` speaks for: the time nearer to it than to its
 * neighbours (the first one back to the stall's start, the last one up to
 * its end; a neighbour outside the event still counts), clipped to the
 * stall's part of the event [from, to]. */
static gint64
sample_span (const JsStall *st, guint j, gint64 st_end, gint64 from, gint64 to)
{
  const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);
  const JsStallSampleInfo *prev = j > 0 ? s - 1 : NULL;
  const JsStallSampleInfo *next = j + 1 < st->samples->len ? s + 1 : NULL;
  gint64 span_from = prev != NULL ? (prev->last_ns + s->time_ns) / 2 : st->h.start_ns;
  gint64 span_to = next != NULL ? (s->last_ns + next->time_ns) / 2 : st_end;

  return MAX (0, MIN (span_to, to) - MAX (span_from, from));
}

/* A sample with a stack: its samples and time go to its stack's entry (one
 * per distinct stack, in the order they were first sampled). */
static void
count_stack (JsStallAnalysis *a, GHashTable *index, const JsStallSampleInfo *s, gint64 span_ns)
{
  gpointer k = GUINT_TO_POINTER (s->stack);
  gpointer found;
  JsStackCount *sc;

  a->samples_with_stack += s->count;
  a->attributed_ns += span_ns;
  if (!g_hash_table_lookup_extended (index, k, NULL, &found))
    {
      JsStackCount fresh = { s->stack, 0, 0, 0 };

      g_array_append_val (a->stacks, fresh);
      found = GUINT_TO_POINTER (a->stacks->len);
      g_hash_table_insert (index, k, found);
    }
  sc = &g_array_index (a->stacks, JsStackCount, GPOINTER_TO_UINT (found) - 1);
  sc->count += s->count;
  sc->time_ns += span_ns;
  sc->last_ns = MAX (sc->last_ns, s->last_ns);
}

/* A stall's on-CPU time over `wall`: the thread's CPU clock between the
 * first and the last sample when they span at least 2 ms (and the time it
 * was runnable but not running, from the scheduler's run delay), else the
 * share of its samples that found it running. */
static void
add_cpu_time (Tally *t, const JsStallHeader *h, gint64 wall, guint64 running, guint64 total)
{
  if (h->cpu_first_ns >= 0 && h->cpu_last_at_ns - h->cpu_first_at_ns >= 2 * JS_NS_PER_MS)
    {
      double share = (double) (h->cpu_last_ns - h->cpu_first_ns)
                     / (double) (h->cpu_last_at_ns - h->cpu_first_at_ns);

      t->cpu_ns += CLAMP (share, 0.0, 1.0) * wall;
      t->cpu_known = TRUE;
      if (h->runnable_first_ns >= 0 && h->runnable_last_ns >= h->runnable_first_ns)
        {
          double waiting = (double) (h->runnable_last_ns - h->runnable_first_ns)
                           / (double) (h->cpu_last_at_ns - h->cpu_first_at_ns);

          t->runnable_ns += CLAMP (waiting, 0.0, 1.0 - CLAMP (share, 0.0, 1.0)) * wall;
          t->runnable_known = TRUE;
        }
    }
  else if (total > 0)
    {
      t->cpu_ns += (double) running / total * wall;
      t->cpu_known = TRUE;
    }
}

/* One stall's part of the event: its time, its samples inside the event
 * (timeline, states, waits, stacks), its on-CPU time. */
static void
add_stall (JsStallAnalysis *a, Tally *t, const JsStall *st, gint64 start_ns, gint64 end_ns)
{
  gint64 st_end = st->h.end_ns != 0 ? st->h.end_ns : st->h.last_seen_ns;
  gint64 from = MAX (st->h.start_ns, start_ns), to = MIN (st_end, end_ns);
  gint64 wall = to - from;
  guint64 running = 0, total = 0;

  if (wall <= 0)
    return;
  a->n_stalls++;
  a->watched_ns += wall;
  a->sampled_ns += MAX (0, to - MAX (from, st->h.detected_ns));
  keep_if_longest (a, t, st, st_end);
  for (guint j = 0; j < st->samples->len; j++)
    {
      const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);

      if (s->time_ns < start_ns || s->time_ns > end_ns)
        continue;
      g_array_append_val (a->timeline, *s);
      total += s->count;
      a->samples += s->count;
      if (s->state == JS_THREAD_RUNNING)
        {
          running += s->count;
          a->samples_running += s->count;
        }
      else if (s->state == JS_THREAD_WAITING)
        {
          a->samples_waiting += s->count;
          t->wait_counts[MIN (s->wait, JS_N_WAITS - 1)] += s->count;
        }
      if (s->stack != 0)
        count_stack (a, t->stack_index, s, sample_span (st, j, st_end, from, to));
    }
  add_cpu_time (t, &st->h, wall, running, total);
}

/* Compute, wait or mixed, from the on-CPU share of the watched time, and
 * for wait and mixed the wait kind sampled most. */
static void
classify (JsStallAnalysis *a, const Tally *t)
{
  double share;

  if (!t->cpu_known || a->watched_ns <= 0)
    return;
  /* Runnable time (the thread wanted a CPU the machine did not give it)
   * counts on the compute side: the app was not waiting for anything. */
  share = (t->cpu_ns + t->runnable_ns) / a->watched_ns;
  a->cpu_ns = (gint64) t->cpu_ns;
  if (t->runnable_known)
    a->runnable_ns = (gint64) t->runnable_ns;
  a->klass = share >= COMPUTE_SHARE ? "compute" : share <= WAIT_SHARE ? "wait" : "mixed";
  if (share < COMPUTE_SHARE)
    {
      guint best = JS_WAIT_OTHER;

      for (guint k = 1; k < JS_N_WAITS; k++)
        if (t->wait_counts[k] > t->wait_counts[best])
          best = k;
      a->wait = t->wait_counts[best] > 0 ? (JsWaitKind) best : JS_WAIT_OTHER;
    }
}

/* Each stack's samples and time go to its blamed frame (blame_frame);
 * stacks blamed on the same place add up. Blames come in the order of the
 * stacks (first sampled first), which settles exact ties. */
static GArray *
blame_stacks (JsStallStore *store, const JsStallAnalysis *a)
{
  GArray *blames = g_array_new (FALSE, FALSE, sizeof (Blame));

  for (guint i = 0; i < a->stacks->len; i++)
    {
      const JsStackCount *sc = &g_array_index (a->stacks, JsStackCount, i);
      const JsStack *stack = js_stack_table_get (store->stacks, sc->stack);
      const char *reason = NULL;
      const JsFrame *f;
      gboolean found = FALSE;

      if (stack == NULL || stack->frames->len == 0)
        continue;
      f = &g_array_index (stack->frames, JsFrame, blame_frame (store, stack, &reason));
      for (guint k = 0; k < blames->len && !found; k++)
        {
          Blame *b = &g_array_index (blames, Blame, k);

          if (same_place (b->frame, f))
            {
              b->count += sc->count;
              b->time_ns += sc->time_ns;
              b->last_ns = MAX (b->last_ns, sc->last_ns);
              found = TRUE;
            }
        }
      if (!found)
        {
          Blame b = { f, reason, sc->count, sc->time_ns, sc->last_ns };

          g_array_append_val (blames, b);
        }
    }
  return blames;
}

/* The blamed frame with the most time is the culprit; a tie goes to the one
 * sampled last (the first sample of a stall comes right after the
 * pre-trigger, the least representative moment). */
static void
pick_culprit (JsStallAnalysis *a, const GArray *blames)
{
  gint64 culprit_last_ns = 0;

  for (guint i = 0; i < blames->len; i++)
    {
      const Blame *b = &g_array_index (blames, Blame, i);

      if (a->culprit == NULL || b->time_ns > a->culprit_ns
          || (b->time_ns == a->culprit_ns && b->last_ns > culprit_last_ns))
        {
          a->culprit = b->frame;
          a->culprit_reason = b->reason;
          a->culprit_samples = b->count;
          a->culprit_ns = b->time_ns;
          culprit_last_ns = b->last_ns;
        }
    }
}

/* The culprit's share of the event's time, discounted for few samples
 * (n / (n + 1): one sample 0.5, four 0.8, twenty 0.95). */
static void
rate_confidence (JsStallAnalysis *a, gint64 duration_ns)
{
  double n = (double) a->samples_with_stack;

  if (a->culprit == NULL || a->attributed_ns <= 0 || duration_ns <= 0)
    return;
  a->confidence = MIN (1.0, (double) a->culprit_ns / duration_ns) * n / (n + 1);
}

void
js_stall_analysis_compute (JsStallStore *store, GPtrArray *stalls, gint64 start_ns, gint64 end_ns,
                           gint64 duration_ns, JsStallAnalysis *a)
{
  Tally t = { .longest_ns = -1 };
  g_autoptr (GArray) blames = NULL;

  analysis_init (a);
  if (stalls == NULL)
    return;
  t.stack_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < stalls->len; i++)
    add_stall (a, &t, g_ptr_array_index (stalls, i), start_ns, end_ns);
  g_hash_table_unref (t.stack_index);
  classify (a, &t);
  /* Blamed before the stacks are ranked: see blame_stacks. */
  blames = blame_stacks (store, a);
  g_array_sort (a->stacks, by_time_desc);
  pick_culprit (a, blames);
  rate_confidence (a, duration_ns);
}

void
js_stall_analysis_clear (JsStallAnalysis *a)
{
  g_clear_pointer (&a->stacks, g_array_unref);
  g_clear_pointer (&a->timeline, g_array_unref);
}
