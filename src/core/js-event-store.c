/* js-event-store.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-event-store.h"
#include "js-frame-metrics.h"
#include "js-stall-store.h"

#include <string.h>

static void
event_free (gpointer p)
{
  JsEvent *e = p;

  for (guint i = 0; i < e->parts->len; i++)
    g_free (g_array_index (e->parts, JsPart, i).frame);
  g_array_unref (e->parts);
  g_free (e->longest_frame);
  if (e->stalls != NULL)
    g_ptr_array_unref (e->stalls);
  js_attribution_free (e->attribution);
  if (e->windows != NULL)
    g_array_unref (e->windows);
  g_free (e->context);
  if (e->frozen != NULL)
    g_bytes_unref (e->frozen);
  if (e->journaled_json != NULL)
    g_bytes_unref (e->journaled_json);
  if (e->body != NULL)
    g_bytes_unref (e->body);
  g_free (e);
}

static void
set_longest (JsEvent *e, const JsPart *part)
{
  e->longest = *part;
  g_clear_pointer (&e->longest_frame, g_free);
  if (part->frame != NULL)
    e->longest_frame = g_memdup2 (part->frame, sizeof *part->frame);
  e->longest.frame = e->longest_frame;
}

void
js_event_store_init (JsEventStore *store, const JsConfig *config)
{
  memset (store, 0, sizeof *store);
  store->config = config;
  store->events = g_ptr_array_new_with_free_func (event_free);
  store->next_id = 1;
  store->ids = &store->next_id;
}

void
js_event_store_clear (JsEventStore *store)
{
  g_clear_pointer (&store->events, g_ptr_array_unref);
  g_clear_pointer (&store->open, event_free);
}

static JsEvent *
event_new (JsEventStore *store, const JsPart *part)
{
  JsEvent *e = g_new0 (JsEvent, 1);

  e->id = (*store->ids)++;
  e->start_ns = part->start_ns;
  e->end_ns = part->end_ns;
  e->parts = g_array_new (FALSE, FALSE, sizeof (JsPart));
  e->windows = g_array_new (FALSE, FALSE, sizeof (JsPartWindow));
  set_longest (e, part);
  return e;
}

/* Windows kept per event: the listed parts' (at most max_parts), and those
 * of parts left out while a stall may still need them (stalls are folded
 * in within seconds of their end). */
#define MAX_WINDOWS 1024
#define WINDOW_KEEP_NS (30000 * G_GINT64_CONSTANT (1000000))

static void
add_window (JsEvent *e, const JsPart *part, gint32 index)
{
  JsPartWindow w = { part->start_ns, part->end_ns, index };

  if (e->windows == NULL)
    return; /* frozen */
  /* The listed parts' windows come first (parts are listed until there are
   * max_parts). Unlisted ones long past, or the oldest of them when there
   * are too many, go. */
  while (e->windows->len > e->parts->len
         && (e->windows->len >= MAX_WINDOWS
             || g_array_index (e->windows, JsPartWindow, e->parts->len).end_ns
                    < part->end_ns - WINDOW_KEEP_NS))
    g_array_remove_index (e->windows, e->parts->len);
  g_array_append_val (e->windows, w);
}

/* The time a part kept the user waiting: a stall's own time, a frame's time
 * past its budget. */
static gint64
part_blocked_ns (const JsPart *part)
{
  if (part->frame != NULL)
    return MAX (0, part->duration_ns - part->frame->budget_ns);
  return MAX (0, part->duration_ns);
}

static void
event_add (JsEventStore *store, JsEvent *e, const JsPart *part)
{
  gboolean frames = part->type == JS_RECORD_FRAME;
  gint64 blocked = part_blocked_ns (part);

  e->start_ns = MIN (e->start_ns, part->start_ns);
  e->end_ns = MAX (e->end_ns, part->end_ns);
  e->duration_ns += part->duration_ns;
  e->blocked_ns = blocked > G_MAXINT64 - e->blocked_ns ? G_MAXINT64 : e->blocked_ns + blocked;
  e->changed = store->generation;
  e->body_changed = store->generation;
  e->parts_count++;
  if (part->duration_ns > e->longest.duration_ns)
    set_longest (e, part);
  e->tier = js_tier_of_episode (store->config->tier_ns, frames,
                                e->longest_frame != NULL ? e->longest_frame->tier : e->longest.tier,
                                e->blocked_ns);
  if (e->parts->len < store->config->max_parts)
    {
      g_array_append_val (e->parts, *part);
      add_window (e, part, (gint32) e->parts->len - 1);
    }
  else
    {
      g_free (part->frame);
      add_window (e, part, JS_PART_UNLISTED);
    }
}

static gboolean
foreach_in (JsEventStore *store, JsEvent *e, JsRecordKind type, gint64 start_ns, gint64 end_ns,
            void (*func) (JsPart *, gpointer), gpointer data)
{
  if (e->end_ns < start_ns)
    return FALSE; /* older events end even earlier */
  for (guint i = 0; i < e->parts->len; i++)
    {
      JsPart *p = &g_array_index (e->parts, JsPart, i);

      if (p->type == type && p->start_ns < end_ns && p->end_ns > start_ns)
        {
          func (p, data);
          js_event_store_touch (store, e);
        }
    }
  return TRUE;
}

void
js_event_store_foreach_overlapping (JsEventStore *store, JsRecordKind type, gint64 start_ns,
                                    gint64 end_ns, guint max_events,
                                    void (*func) (JsPart *, gpointer), gpointer data)
{
  if (store->open != NULL && !foreach_in (store, store->open, type, start_ns, end_ns, func, data))
    return;
  for (guint i = store->events->len; i-- > 0 && max_events-- > 0;)
    if (!foreach_in (store, g_ptr_array_index (store->events, i), type, start_ns, end_ns, func,
                     data))
      return;
}

/* Index of the oldest event of the lowest tier, if that tier is below `tier`. */
static gint
victim_below (JsEventStore *store, JsTier tier)
{
  gint best = -1;

  for (guint i = 0; i < store->events->len; i++)
    {
      JsEvent *e = g_ptr_array_index (store->events, i);

      if (js_tier_mildness (e->tier) < js_tier_mildness (tier)
          && (best < 0
              || js_tier_mildness (e->tier) < js_tier_mildness (
                     ((JsEvent *) g_ptr_array_index (store->events, best))->tier)))
        best = (gint) i;
    }
  return best;
}

static void
close_open (JsEventStore *store, gint64 now_ns)
{
  JsEvent *e = g_steal_pointer (&store->open);
  gint victim;

  if (e == NULL)
    return;
  e->closed_ns = MAX (now_ns, 1);
  /* Changed for the journal; not its text before its context (body_changed):
   * closing it is nowhere in that. */
  e->changed = ++store->generation;
  if (store->events->len < store->config->max_events)
    {
      g_ptr_array_add (store->events, e);
      return;
    }
  victim = victim_below (store, e->tier);
  if (victim < 0)
    {
      store->dropped_by_tier[e->tier]++;
      event_free (e);
      return;
    }
  store->dropped_by_tier[((JsEvent *) g_ptr_array_index (store->events, victim))->tier]++;
  g_ptr_array_remove_index (store->events, (guint) victim); /* keeps the order */
  g_ptr_array_add (store->events, e);
}

/* The merge rule: a part less than the merge gap after `e`'s end is part of
 * the same episode. */
static gboolean
joins (const JsEventStore *store, const JsEvent *e, const JsPart *part)
{
  return part->start_ns - e->end_ns < store->config->merge_gap_ns;
}

/* A part can start before the tick that closed the latest event (a frame
 * starts when its clock was due, and its record comes after its end): less
 * than the merge gap after that event, it belongs to it, which is open again
 * (unless it was frozen or dropped meanwhile). */
static gboolean
reopen_latest (JsEventStore *store, const JsPart *part)
{
  JsEvent *latest;

  if (store->events->len == 0)
    return FALSE;
  latest = g_ptr_array_index (store->events, store->events->len - 1);
  if (latest->frozen != NULL || !joins (store, latest, part))
    return FALSE;
  store->open = g_ptr_array_steal_index (store->events, store->events->len - 1);
  store->open->closed_ns = 0;
  return TRUE;
}

void
js_event_store_add_part (JsEventStore *store, const JsPart *part)
{
  store->generation++;
  if (store->open != NULL && !joins (store, store->open, part))
    close_open (store, part->start_ns);
  if (store->open == NULL && !reopen_latest (store, part))
    store->open = event_new (store, part);
  event_add (store, store->open, part);
}

gint64
js_event_store_horizon (const JsEventStore *store)
{
  return store->open != NULL ? store->open->end_ns + store->config->merge_gap_ns : 0;
}

void
js_event_store_tick (JsEventStore *store, gint64 now_ns, gint64 busy_since_ns, gboolean force)
{
  gint64 horizon = js_event_store_horizon (store);

  if (horizon == 0)
    return;
  if (force || (now_ns >= horizon && (busy_since_ns == 0 || busy_since_ns >= horizon)))
    {
      close_open (store, now_ns);
    }
}

void
js_event_store_touch (JsEventStore *store, JsEvent *e)
{
  e->changed = ++store->generation;
  e->body_changed = e->changed;
}

void
js_event_store_touch_context (JsEventStore *store, JsEvent *e)
{
  e->changed = ++store->generation;
}

/* The evidence `h` with one stall more (js_event_evidence_state): its
 * samples' count and its whole header, what the watchdog says of it (its
 * ping's latency comes after its end, the count of samples folded into the
 * last one grows while the array does not). */
static guint64
evidence_add (guint64 h, const JsStall *s)
{
  const guchar *bytes = (const guchar *) &s->h;

  h = (h ^ s->samples->len) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  for (gsize i = 0; i < sizeof s->h; i += sizeof (guint64))
    {
      guint64 word = 0;

      memcpy (&word, bytes + i, MIN (sizeof word, sizeof s->h - i));
      h = (h ^ word) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      h ^= h >> 29;
    }
  return h;
}

void
js_event_store_touch_folded (JsEventStore *store, JsEvent *e, const JsStall *stall)
{
  e->changed = ++store->generation;
  e->folded = evidence_add (e->folded, stall);
}

guint64
js_event_evidence_state (const JsEvent *e)
{
  guint64 h = e->folded;

  for (guint i = 0; e->stalls != NULL && i < e->stalls->len; i++)
    h = evidence_add (h, g_ptr_array_index (e->stalls, i));
  return h;
}

void
js_event_store_freeze (JsEventStore *store, JsEvent *e, GBytes *json)
{
  g_clear_pointer (&e->frozen, g_bytes_unref);
  e->frozen = json;
  for (guint i = 0; i < e->parts->len; i++)
    g_free (g_array_index (e->parts, JsPart, i).frame);
  /* A new, empty array: the old one's memory goes back. */
  g_array_unref (e->parts);
  e->parts = g_array_new (FALSE, FALSE, sizeof (JsPart));
  g_clear_pointer (&e->stalls, g_ptr_array_unref);
  g_clear_pointer (&e->attribution, js_attribution_free);
  g_clear_pointer (&e->windows, g_array_unref);
  g_clear_pointer (&e->body, g_bytes_unref);
  e->changed = ++store->generation;
  e->body_changed = e->changed;
}

guint64
js_event_stalls_state (const JsEvent *e)
{
  guint64 state = e->attribution != NULL ? e->attribution->stats.stalls : 0;

  for (guint i = 0; e->stalls != NULL && i < e->stalls->len; i++)
    {
      const JsStall *s = g_ptr_array_index (e->stalls, i);

      state += s->samples->len + (guint64) s->h.last_seen_ns + (guint64) s->h.end_ns;
    }
  return state;
}

void
js_event_store_count (const JsEventStore *store, guint64 by_tier[JS_N_EVENT_TIERS],
                      guint64 *dropped)
{
  *dropped = 0;
  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    {
      by_tier[t] = store->dropped_by_tier[t];
      *dropped += store->dropped_by_tier[t];
    }
  for (guint i = 0; i < store->events->len; i++)
    by_tier[((JsEvent *) g_ptr_array_index (store->events, i))->tier]++;
  if (store->open != NULL)
    by_tier[store->open->tier]++;
}

void
js_event_note_journaled (JsEvent *e, GBytes *json, gint64 now_ns)
{
  g_clear_pointer (&e->journaled_json, g_bytes_unref);
  if (e->frozen == NULL && json != NULL)
    e->journaled_json = g_bytes_ref (json);
  e->journaled = e->changed;
  e->journaled_stalls = js_event_stalls_state (e);
  e->journaled_ns = now_ns;
}

gboolean
js_event_journal_is_current (const JsEvent *e)
{
  return e->journaled != 0 && e->journaled == e->changed
         && e->journaled_stalls == js_event_stalls_state (e);
}

GBytes *
js_event_journaled_json (const JsEvent *e)
{
  return js_event_journal_is_current (e) ? e->journaled_json : NULL;
}

void
js_event_keep_body (JsEvent *e, GBytes *body, guint symbols)
{
  g_clear_pointer (&e->body, g_bytes_unref);
  if (e->frozen != NULL)
    return;
  e->body = g_bytes_ref (body);
  e->body_at = e->body_changed;
  e->body_evidence = js_event_evidence_state (e);
  e->body_symbols = symbols;
}

GBytes *
js_event_kept_body (const JsEvent *e, guint symbols)
{
  if (e->body == NULL || e->body_at != e->body_changed || e->body_symbols != symbols
      || e->body_evidence != js_event_evidence_state (e))
    return NULL;
  return e->body;
}
