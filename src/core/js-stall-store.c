/* js-stall-store.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stall-store.h"
#include "js-clock.h"
#include "js-sample-detail.h"

#include <string.h>

/* An ended stall waits this long for its event (the records that make the
 * event may reach the collector a tick after the stall's end). */
#define ATTACH_GRACE_NS (1500 * JS_NS_PER_MS)
/* A stall with a stack whose module's debug file is being fetched
 * (debuginfod) waits for it this long at most before it settles: once
 * folded into a profile, a frame keeps the name it had. */
#define NAMES_WAIT_NS (30000 * JS_NS_PER_MS)
/* ... and its older samples are not aggregated either, unless it has this
 * many (a long hang during a slow download). */
#define NAMES_WAIT_MAX_SAMPLES (4 * JS_STALL_COMPACT_AT)
/* How far back in a store to look for events a stall overlaps. */
#define LOOK_BACK_EVENTS 64

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
    js_stack_table_unref (stall->stacks,
                          g_array_index (stall->samples, JsStallSampleInfo, i).stack);
  g_array_unref (stall->samples);
  if (stall->chunks != NULL)
    g_ptr_array_unref (stall->chunks);
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
    .detail = js_sample_detail_intern (in->detail),
  };

  if (s->copy != NULL)
    {
      /* A blocked thread's stack: unwind it here, off the main thread. */
      guint n = js_symbolizer_unwind_copy (store->symbolizer, s->copy, s->frames,
                                           JS_STACK_SAMPLE_MAX_FRAMES);

      s->n_frames = (guint16) MAX (n, 1);
      /* The thread is no longer blocked there, but its modules are very
       * likely still loaded: resolve them now, unless one was unloaded since
       * the copy was taken (another may sit where it was: no stack then). */
      for (guint i = 0; i < s->n_frames; i++)
        s->modules[i] = (guint16) js_modules_resolve (store->modules,
                                                      i > 0 ? s->frames[i] - 1 : s->frames[i]);
      if (js_modules_unloads () != s->unloads)
        {
          s->flags |= JS_STACK_SAMPLE_NO_STACK;
          info.flags |= JS_STACK_SAMPLE_NO_STACK;
        }
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
  gint64 end = stall->h.end_ns != 0 ? stall->h.end_ns : stall->h.last_seen_ns;

  return stall->h.start_ns < e->end_ns && end > e->start_ns;
}

/* The events of `es` that may overlap a stall: the open one and the last
 * LOOK_BACK_EVENTS closed ones. */
static guint
candidates (JsEventStore *es, JsEvent **out)
{
  guint n = 0;

  if (es->open != NULL)
    out[n++] = es->open;
  for (guint i = es->events->len; i-- > 0 && n < LOOK_BACK_EVENTS + 1;)
    out[n++] = g_ptr_array_index (es->events, i);
  return n;
}

static gboolean
pending_in (const JsEvent *e, const JsStall *stall)
{
  for (guint k = 0; e->stalls != NULL && k < e->stalls->len; k++)
    if (g_ptr_array_index (e->stalls, k) == stall)
      return TRUE;
  return FALSE;
}

/* Until a stall settles, the events it overlaps hold it (their reports
 * fold it in on the fly). */
static guint
attach_to_store (JsStall *stall, JsEventStore *es)
{
  guint attached = 0;
  JsEvent *events[LOOK_BACK_EVENTS + 1];
  guint n = candidates (es, events);

  for (guint i = 0; i < n; i++)
    {
      JsEvent *e = events[i];

      if (!overlaps (stall, e) || e->frozen != NULL || pending_in (e, stall))
        continue;
      if (e->stalls == NULL)
        e->stalls = g_ptr_array_new_with_free_func (js_stall_unref);
      if (e->stalls->len >= JS_EVENT_MAX_PENDING_STALLS)
        e->stalls_dropped++; /* only its interim reports miss it: it is folded in all the same */
      else
        g_ptr_array_add (e->stalls, js_stall_ref (stall));
      js_event_store_touch (es, e);
      attached++;
    }
  return attached;
}

/* The stall can no longer change, nor can the parts it overlaps: its
 * samples go into each event it overlaps, and the events let it go. */
static guint
settle_in_store (JsStallStore *store, JsStall *stall, JsEventStore *es, GArray *regions)
{
  guint folded = 0;
  JsEvent *events[LOOK_BACK_EVENTS + 1];
  guint n = candidates (es, events);

  for (guint i = 0; i < n; i++)
    {
      JsEvent *e = events[i];

      if (e->stalls != NULL)
        g_ptr_array_remove_fast (e->stalls, stall);
      if (!overlaps (stall, e) || e->frozen != NULL || e->windows == NULL)
        continue;
      js_attribution_regions (e->windows, stall->h.start_ns, stall->h.end_ns, regions);
      if (e->attribution == NULL)
        e->attribution = js_attribution_new ();
      js_attribution_fold_stall (e->attribution, store->modules, store->stacks, stall, regions);
      js_event_store_touch_folded (es, e, stall);
      folded++;
    }
  return folded;
}

/* The parts' edges inside the stall, over all stores: a long stall's older
 * samples are aggregated by the stretches between them. */
static void
part_edges (JsStall *stall, JsEventStore *const *stores, guint n_stores, GArray *edges)
{
  gint64 end = stall->h.end_ns != 0 ? stall->h.end_ns : stall->h.last_seen_ns;

  g_array_set_size (edges, 0);
  for (guint s = 0; s < n_stores; s++)
    {
      JsEvent *events[LOOK_BACK_EVENTS + 1];
      guint n = candidates (stores[s], events);

      for (guint i = 0; i < n; i++)
        for (guint k = 0; events[i]->windows != NULL && k < events[i]->windows->len; k++)
          {
            const JsPartWindow *w = &g_array_index (events[i]->windows, JsPartWindow, k);

            if (w->start_ns > stall->h.start_ns && w->start_ns < end)
              g_array_append_val (edges, w->start_ns);
            if (w->end_ns > stall->h.start_ns && w->end_ns < end)
              g_array_append_val (edges, w->end_ns);
          }
    }
}

/* The time of the stall's oldest sample whose stack may still be named
 * better (its module's debug file is being fetched), or G_MAXINT64. */
static gint64
first_provisional (JsStallStore *store, const JsStall *stall)
{
  for (guint i = 0; i < stall->samples->len; i++)
    {
      const JsStallSampleInfo *s = &g_array_index (stall->samples, JsStallSampleInfo, i);
      const JsStack *stack = s->stack != 0 ? js_stack_table_get (store->stacks, s->stack) : NULL;

      if (stack != NULL && stack->provisional)
        return s->time_ns;
    }
  return G_MAXINT64;
}

void
js_stall_store_attach (JsStallStore *store, JsEventStore *const *stores, guint n_stores,
                       gint64 now_ns)
{
  GHashTableIter iter;
  gpointer value;
  g_autoptr (GArray) regions = g_array_new (FALSE, FALSE, sizeof (JsRegion));
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_hash_table_iter_init (&iter, store->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      JsStall *stall = value;

      /* A long stall: its samples older than the parts that may still
       * arrive are aggregated, their stacks let go. */
      if (stall->samples->len > JS_STALL_COMPACT_AT)
        {
          gint64 before = now_ns - JS_STALL_COMPACT_AGE_NS;

          if (stall->samples->len <= NAMES_WAIT_MAX_SAMPLES)
            before = MIN (before, first_provisional (store, stall));
          part_edges (stall, stores, n_stores, edges);
          js_attribution_compact (stall, store->modules, store->stacks, edges, before);
          if (stall == store->ongoing)
            store->generation++;
        }
      if (stall->h.end_ns == 0)
        continue;
      if (stall->ended_seen_ns == 0)
        stall->ended_seen_ns = now_ns;
      for (guint i = 0; i < n_stores; i++)
        stall->attached += attach_to_store (stall, stores[i]);
      if (now_ns - stall->ended_seen_ns >= ATTACH_GRACE_NS
          && (now_ns - stall->ended_seen_ns >= NAMES_WAIT_NS
              || first_provisional (store, stall) == G_MAXINT64))
        {
          guint folded = 0;

          for (guint i = 0; i < n_stores; i++)
            folded += settle_in_store (store, stall, stores[i], regions);
          if (stall->attached == 0 && folded == 0)
            store->unattached++;
          store->last_removed_id = MAX (store->last_removed_id, stall->h.id);
          g_hash_table_iter_remove (&iter);
        }
    }
}
