/* js-stall-store.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stall-store.h"
#include "js-clock.h"

#include <string.h>

/* An ended stall waits this long for its event (the records that make the
 * event may reach the collector a tick after the stall's end). */
#define ATTACH_GRACE_NS (1500 * JS_NS_PER_MS)
/* How far back in a store to look for events a stall overlaps. */
#define LOOK_BACK_EVENTS 64
/* On-CPU share at or above which an event is compute, at or below which it
 * waits; in between, mixed. */
#define COMPUTE_SHARE 0.7
#define WAIT_SHARE 0.3

JsStall *
js_stall_ref (JsStall *stall)
{
  g_atomic_int_inc (&stall->ref);
  return stall;
}

void
js_stall_unref (gpointer p)
{
  JsStall *stall = p;

  if (stall == NULL || !g_atomic_int_dec_and_test (&stall->ref))
    return;
  /* Each sample's stack was interned for it: give the stacks back. */
  for (guint i = 0; i < stall->samples->len; i++)
    js_stack_table_unref (stall->stacks, g_array_index (stall->samples, JsStallSampleInfo, i).stack);
  g_array_unref (stall->samples);
  g_free (stall);
}

void
js_stall_store_init (JsStallStore *store, JsModules *modules, gboolean debuginfod)
{
  memset (store, 0, sizeof *store);
  store->modules = modules;
  store->symbolizer = js_symbolizer_new (modules, debuginfod);
  store->stacks = js_stack_table_new (store->symbolizer);
  store->live = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, js_stall_unref);
}

void
js_stall_store_clear (JsStallStore *store)
{
  g_clear_pointer (&store->live, g_hash_table_unref);
  g_clear_pointer (&store->stacks, js_stack_table_free);
  g_clear_pointer (&store->symbolizer, js_symbolizer_free);
  store->ongoing = NULL;
}

static JsStall *
lookup (JsStallStore *store, guint32 id, gboolean create)
{
  JsStall *stall = g_hash_table_lookup (store->live, GUINT_TO_POINTER (id));

  if (stall == NULL && create)
    {
      stall = g_new0 (JsStall, 1);
      stall->ref = 1;
      stall->h.id = id;
      stall->h.ping_latency_ns = -1;
      stall->samples = g_array_new (FALSE, FALSE, sizeof (JsStallSampleInfo));
      stall->stacks = store->stacks;
      g_hash_table_insert (store->live, GUINT_TO_POINTER (id), stall);
      store->stalls++;
    }
  return stall;
}

static void
add_sample (JsStallStore *store, JsStallSample *in)
{
  JsStackSample *s = &in->sample;
  JsStall *stall = lookup (store, in->stall_id, TRUE);
  JsStallSampleInfo info = {
    .time_ns = s->time_ns,
    .last_ns = s->last_ns,
    .cpu_ns = s->cpu_ns,
    .count = s->count,
    .state = s->state,
    .wait = s->wait,
    .flags = s->flags,
    .syscall = s->syscall,
  };

  if (s->copy != NULL)
    {
      /* A blocked thread's stack: unwind it here, off the main thread. */
      guint n = js_symbolizer_unwind_copy (store->symbolizer, s->copy, s->frames,
                                           JS_STACK_SAMPLE_MAX_FRAMES);

      s->n_frames = (guint16) MAX (n, 1);
      /* The thread is no longer blocked there, but its modules are very
       * likely still loaded: resolve them now. */
      for (guint i = 0; i < s->n_frames; i++)
        s->modules[i] = (guint16) js_modules_resolve (store->modules,
                                                      i > 0 ? s->frames[i] - 1 : s->frames[i]);
    }
  if (!(s->flags & JS_STACK_SAMPLE_NO_STACK) && s->n_frames > 0)
    info.stack = js_stack_table_intern (store->stacks, s->frames, s->modules, s->n_frames,
                                        (s->flags & JS_STACK_SAMPLE_TRUNCATED) != 0);
  g_array_append_val (stall->samples, info);
  if (stall == store->ongoing)
    store->generation++;
}

void
js_stall_store_feed (JsStallStore *store, GArray *headers, GPtrArray *samples)
{
  for (guint i = 0; i < headers->len; i++)
    {
      const JsStallHeader *h = &g_array_index (headers, JsStallHeader, i);
      JsStall *stall = lookup (store, h->id, FALSE);

      /* Ended stalls stay here for a grace period, so a late update (the
       * ping's answer) reaches the events that hold them. Past that, an
       * update is dropped rather than counted twice. */
      if (stall == NULL)
        {
          if (h->end_ns != 0 && h->id <= store->last_removed_id)
            continue;
          stall = lookup (store, h->id, TRUE);
        }
      stall->h = *h;
      if (h->end_ns == 0)
        {
          store->ongoing = stall;
          store->generation++;
        }
      else if (store->ongoing == stall)
        {
          store->ongoing = NULL;
          store->generation++;
        }
    }
  for (guint i = 0; i < samples->len; i++)
    {
      add_sample (store, g_ptr_array_index (samples, i));
      js_stall_sample_free (g_ptr_array_index (samples, i));
    }
  g_ptr_array_set_size (samples, 0);
}

static gboolean
overlaps (const JsStall *stall, const JsEvent *e)
{
  return stall->h.start_ns < e->end_ns && stall->h.end_ns > e->start_ns;
}

static guint
attach_to_store (JsStall *stall, JsEventStore *es)
{
  guint attached = 0;
  JsEvent *candidates[LOOK_BACK_EVENTS + 1];
  guint n = 0;

  if (es->open != NULL)
    candidates[n++] = es->open;
  for (guint i = es->events->len; i-- > 0 && n < G_N_ELEMENTS (candidates);)
    candidates[n++] = g_ptr_array_index (es->events, i);
  for (guint i = 0; i < n; i++)
    {
      JsEvent *e = candidates[i];

      if (!overlaps (stall, e) || e->frozen != NULL)
        continue;
      if (e->stalls != NULL)
        {
          gboolean has = FALSE;

          for (guint k = 0; k < e->stalls->len && !has; k++)
            has = g_ptr_array_index (e->stalls, k) == stall;
          if (has)
            continue;
        }
      if (e->stalls == NULL)
        e->stalls = g_ptr_array_new_with_free_func (js_stall_unref);
      if (e->stalls->len >= JS_EVENT_MAX_STALLS)
        e->stalls_dropped++;
      else
        g_ptr_array_add (e->stalls, js_stall_ref (stall));
      js_event_store_touch (es, e);
      attached++;
    }
  return attached;
}

void
js_stall_store_attach (JsStallStore *store, JsEventStore *const *stores, guint n_stores,
                       gint64 now_ns)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, store->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JsStall *stall = value;

      if (stall->h.end_ns == 0)
        continue;
      if (stall->ended_seen_ns == 0)
        stall->ended_seen_ns = now_ns;
      for (guint i = 0; i < n_stores; i++)
        stall->attached += attach_to_store (stall, stores[i]);
      if (now_ns - stall->ended_seen_ns >= ATTACH_GRACE_NS)
        {
          if (stall->attached == 0)
            store->unattached++;
          store->last_removed_id = MAX (store->last_removed_id, stall->h.id);
          g_hash_table_iter_remove (&iter);
        }
    }
}

/* --- analysis ---------------------------------------------------------- */

gboolean
js_stalls_module_is_infrastructure (const JsModule *m)
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
  if (m->path == NULL || js_stalls_module_is_infrastructure (m))
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
      if (lib == G_MAXUINT && m != NULL && !js_stalls_module_is_infrastructure (m))
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

void
js_stalls_analyze (JsStallStore *store, GPtrArray *stalls, gint64 start_ns, gint64 end_ns,
                   gint64 duration_ns, JsEventAnalysis *a)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) blames = g_array_new (FALSE, FALSE, sizeof (Blame));
  double cpu = 0, runnable = 0;
  gboolean cpu_known = FALSE, runnable_known = FALSE;
  gint64 longest = -1;
  guint64 wait_counts[JS_N_WAITS] = { 0 };
  gint64 culprit_last_ns = 0;

  memset (a, 0, sizeof *a);
  a->cpu_ns = -1;
  a->runnable_ns = -1;
  a->ping_latency_ns = -1;
  a->stacks = g_array_new (FALSE, FALSE, sizeof (JsStackCount));
  a->timeline = g_array_new (FALSE, FALSE, sizeof (JsStallSampleInfo));
  if (stalls == NULL)
    return;

  for (guint i = 0; i < stalls->len; i++)
    {
      const JsStall *st = g_ptr_array_index (stalls, i);
      gint64 st_end = st->h.end_ns != 0 ? st->h.end_ns : st->h.last_seen_ns;
      gint64 from = MAX (st->h.start_ns, start_ns), to = MIN (st_end, end_ns);
      gint64 wall = to - from;
      guint64 running = 0, total = 0;

      if (wall <= 0)
        continue;
      a->n_stalls++;
      a->watched_ns += wall;
      a->sampled_ns += MAX (0, to - MAX (from, st->h.detected_ns));
      if (st_end - st->h.start_ns > longest)
        {
          longest = st_end - st->h.start_ns;
          memcpy (a->tier_at_ns, st->h.tier_at_ns, sizeof a->tier_at_ns);
          a->ping_latency_ns = st->h.ping_latency_ns;
          a->ping_caught = st->h.ping_caught;
          a->detected_ns = st->h.detected_ns;
        }
      for (guint j = 0; j < st->samples->len; j++)
        {
          const JsStallSampleInfo *s = &g_array_index (st->samples, JsStallSampleInfo, j);
          const JsStallSampleInfo *prev = j > 0 ? s - 1 : NULL;
          const JsStallSampleInfo *next = j + 1 < st->samples->len ? s + 1 : NULL;
          gint64 span_from, span_to, weight;

          if (s->time_ns < start_ns || s->time_ns > end_ns)
            continue;
          /* Each sample speaks for the time nearer to it than to its
           * neighbours (the first one back to the stall's start, the last
           * one up to its end), clipped to the event. */
          span_from = prev != NULL ? (prev->last_ns + s->time_ns) / 2 : st->h.start_ns;
          span_to = next != NULL ? (s->last_ns + next->time_ns) / 2 : st_end;
          weight = MAX (0, MIN (span_to, to) - MAX (span_from, from));
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
              wait_counts[MIN (s->wait, JS_N_WAITS - 1)] += s->count;
            }
          if (s->stack != 0)
            {
              gpointer k = GUINT_TO_POINTER (s->stack);
              gpointer found;
              JsStackCount *sc;

              a->samples_with_stack += s->count;
              a->attributed_ns += weight;
              if (!g_hash_table_lookup_extended (index, k, NULL, &found))
                {
                  JsStackCount fresh = { s->stack, 0, 0, 0 };

                  g_array_append_val (a->stacks, fresh);
                  found = GUINT_TO_POINTER (a->stacks->len);
                  g_hash_table_insert (index, k, found);
                }
              sc = &g_array_index (a->stacks, JsStackCount, GPOINTER_TO_UINT (found) - 1);
              sc->count += s->count;
              sc->time_ns += weight;
              sc->last_ns = MAX (sc->last_ns, s->last_ns);
            }
        }
      /* On-CPU share: the thread's CPU clock between the first and the last
       * sample when they span at least 2 ms, else the share of samples that
       * found it running. */
      if (st->h.cpu_first_ns >= 0 && st->h.cpu_last_at_ns - st->h.cpu_first_at_ns >= 2 * JS_NS_PER_MS)
        {
          double share = (double) (st->h.cpu_last_ns - st->h.cpu_first_ns)
                         / (double) (st->h.cpu_last_at_ns - st->h.cpu_first_at_ns);

          cpu += CLAMP (share, 0.0, 1.0) * wall;
          cpu_known = TRUE;
          if (st->h.runnable_first_ns >= 0 && st->h.runnable_last_ns >= st->h.runnable_first_ns)
            {
              double waiting = (double) (st->h.runnable_last_ns - st->h.runnable_first_ns)
                               / (double) (st->h.cpu_last_at_ns - st->h.cpu_first_at_ns);

              runnable += CLAMP (waiting, 0.0, 1.0 - CLAMP (share, 0.0, 1.0)) * wall;
              runnable_known = TRUE;
            }
        }
      else if (total > 0)
        {
          cpu += (double) running / total * wall;
          cpu_known = TRUE;
        }
    }

  if (cpu_known && a->watched_ns > 0)
    {
      /* Runnable time (the thread wanted a CPU the machine did not give it)
       * counts on the compute side: the app was not waiting for anything. */
      double share = (cpu + runnable) / a->watched_ns;

      a->cpu_ns = (gint64) cpu;
      if (runnable_known)
        a->runnable_ns = (gint64) runnable;
      a->klass = share >= COMPUTE_SHARE ? "compute" : share <= WAIT_SHARE ? "wait" : "mixed";
      if (share < COMPUTE_SHARE)
        {
          guint best = JS_WAIT_OTHER;

          for (guint k = 1; k < JS_N_WAITS; k++)
            if (wait_counts[k] > wait_counts[best])
              best = k;
          a->wait = wait_counts[best] > 0 ? (JsWaitKind) best : JS_WAIT_OTHER;
        }
    }

  /* Blame: each stack's time goes to its blamed frame; the frame with the
   * most time is the culprit (a tie goes to the one sampled last: the first
   * sample of a stall comes right after the pre-trigger, the least
   * representative moment). */
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
  g_array_sort (a->stacks, by_time_desc);

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
  if (a->culprit != NULL && a->attributed_ns > 0 && duration_ns > 0)
    {
      /* Its share of the event's time, discounted for few samples
       * (n / (n + 1): one sample 0.5, four 0.8, twenty 0.95). */
      double n = (double) a->samples_with_stack;

      a->confidence = MIN (1.0, (double) a->culprit_ns / duration_ns) * n / (n + 1);
    }
}

void
js_event_analysis_clear (JsEventAnalysis *a)
{
  g_clear_pointer (&a->stacks, g_array_unref);
  g_clear_pointer (&a->timeline, g_array_unref);
}
