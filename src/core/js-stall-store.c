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
