/* js-event-store.h: jank events (episodes of slow parts), bounded.
 *
 * Parts (a slow dispatch, a slow iteration) less than merge_gap_ns apart are
 * one episode: one stutter for the user, with every part kept (up to
 * max_parts; past that they are counted and their time still adds up).
 * At most max_events episodes are kept: when full, a more severe episode
 * evicts the oldest of the least severe ones; otherwise the new one is
 * dropped. Either way it is counted, per tier.
 *
 * Collector thread only (readers take the collector's lock).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-attribution.h"
#include "js-config.h"
#include "js-record.h"

G_BEGIN_DECLS

typedef struct _JsFrameInfo JsFrameInfo;       /* js-frame-metrics.h */
typedef struct _JsEventContext JsEventContext; /* js-context.h */

typedef struct
{
  JsRecordKind type;
  gint64 start_ns;
  gint64 end_ns;
  gint64 duration_ns; /* own time (dispatch) or unexplained busy time (iteration) */
  gint64 nested_ns;
  JsTier tier;
  guint32 name_id; /* dispatch: its source; iteration: its main contributor */
  const void *code;
  guint32 code_is_dispatch;
  gint16 priority;
  guint8 depth;
  guint32 dispatches;     /* iteration: dispatches in it */
  gint64 top_ns;          /* iteration: own time of its main contributor (name_id, code) */
  guint32 frames_delayed; /* dispatch: slow frames it overlapped */
  guint32 post;           /* dispatch: its posting site (js-post-sites.h), 0: unknown */
  JsFrameInfo *frame;     /* frame parts only: owned by the event once added */
} JsPart;

typedef struct
{
  guint64 id;
  gint64 start_ns;
  gint64 end_ns;
  gint64 duration_ns; /* sum of the parts */
  /* What the user sat through: the parts' own time (stall events) or the
   * frames' time past their budget (frame events), summed; and the tier it
   * gives the episode with its longest part (common/js-tiers.h,
   * js_tier_of_episode). A frame event's tier may be light. */
  gint64 blocked_ns;
  JsTier tier;
  guint parts_count; /* including parts left out of `parts` */
  JsPart longest;
  GArray *parts;              /* JsPart, at most max_parts */
  JsFrameInfo *longest_frame; /* copy of longest.frame (frame events) */
  /* What the watchdog's stalls say, aggregated (js-attribution.h): each
   * stall is folded in once it can no longer change (js-stall-store.h), and
   * let go. NULL until the first. */
  JsAttribution *attribution;
  GPtrArray *stalls; /* stalls it overlaps not folded in yet (js-stall-store.h), or NULL */
  guint stalls_dropped;
  /* Every part's span (those left out of `parts` too, as long as a stall
   * may still need them): where its samples go. */
  GArray *windows;         /* JsPartWindow */
  JsEventContext *context; /* scene, marks, system state: set once closed (js-context.h) */

  /* Once it can no longer change (closed, its stalls attached, its frames
   * seen), the event is serialized once (js-report.c) and its parts and
   * stalls are let go: a kept event then costs its JSON text, and the
   * report is a concatenation, not a new analysis of every event. */
  GBytes *frozen;           /* its report JSON (one line), or NULL */
  gint64 closed_ns;         /* when it closed (0: open) */
  guint64 changed;          /* the store's generation at its last change */
  guint64 journaled;        /* `changed` when last written to the journal, 0 never */
  guint64 journaled_stalls; /* js_event_stalls_state () then */
  gint64 journaled_ns;
  gsize journaled_bytes; /* the size of its JSON then */
  /* That JSON (a reference), until the event is frozen: if nothing changed
   * since, it is the frozen form, and the journal has it already. */
  GBytes *journaled_json;
  /* Its report JSON up to its context (js-report.c), kept while it is not
   * frozen: built again, an event is mostly what it was (closed, its
   * context set, a stall it showed pending folded in). */
  guint64 body_changed; /* the store's generation at its last change of parts or stalls */
  guint64 folded;       /* the stalls folded into `attribution`, in order (a hash) */
  GBytes *body;
  guint64 body_at;       /* body_changed when it was built */
  guint64 body_evidence; /* js_event_evidence_state () then */
  guint body_symbols;    /* the caller's symbol generation then */
} JsEvent;

typedef struct
{
  const JsConfig *config;
  GPtrArray *events; /* closed JsEvents, by start */
  JsEvent *open;     /* the episode still accepting parts, or NULL */
  guint64 next_id;
  guint64 *ids; /* where event ids come from: &next_id, or a counter shared by stores */
  guint64 dropped_by_tier[JS_N_EVENT_TIERS];
  guint64 generation; /* bumped on every change: "is the report stale?" */
} JsEventStore;

void js_event_store_init (JsEventStore *store, const JsConfig *config);
void js_event_store_clear (JsEventStore *store);

/* Takes ownership of part->frame. */
void js_event_store_add_part (JsEventStore *store, const JsPart *part);

/* Calls `func` on every part of `type` (recent events first) that overlaps
 * [start_ns, end_ns], looking back at most `max_events` events. */
void js_event_store_foreach_overlapping (JsEventStore *store, JsRecordKind type, gint64 start_ns,
                                         gint64 end_ns, guint max_events,
                                         void (*func) (JsPart *part, gpointer data), gpointer data);

/* When the open episode may close, the merge gap after its end; 0 when none
 * is open. */
gint64 js_event_store_horizon (const JsEventStore *store);

/* Closes the open episode when no part can join it any more: `now_ns` is past
 * its end by the merge gap and the main loop is not in the middle of an
 * iteration that started before that (`busy_since_ns`, 0 when idle).
 * `force` closes it regardless (exit). A frame can still start before that
 * (its clock was due earlier): its part opens the latest event again. */
void js_event_store_tick (JsEventStore *store, gint64 now_ns, gint64 busy_since_ns, gboolean force);

/* Marks `e` changed (for the journal). */
void js_event_store_touch (JsEventStore *store, JsEvent *e);
/* Marks only `e`'s context changed (js-context.h): the rest of its text is
 * what it was. */
void js_event_store_touch_context (JsEventStore *store, JsEvent *e);
/* `stall` was folded into `e`'s attribution (js-stall-store.h): changed for
 * the journal; its text is what it was if the stall was pending in it, as
 * it is now, when that text was built (js_event_evidence_state). */
void js_event_store_touch_folded (JsEventStore *store, JsEvent *e, const JsStall *stall);

/* `e` was serialized for good (`json`, taken): its parts and stalls go. */
void js_event_store_freeze (JsEventStore *store, JsEvent *e, GBytes *json);

/* Changes whenever a stall of the event gets samples or ends. */
guint64 js_event_stalls_state (const JsEvent *e);

/* The journal's bookkeeping: `e` was written as `json` (a reference is kept
 * while `e` is not frozen). */
void js_event_note_journaled (JsEvent *e, GBytes *json, gint64 now_ns);
/* Nothing changed since it was last written: no part, stall or context. */
gboolean js_event_journal_is_current (const JsEvent *e);
/* The text last written for `e` while it is current, else NULL: what
 * serializing it again would give (not a new reference). */
GBytes *js_event_journaled_json (const JsEvent *e);

/* The report's text of `e` up to its context as just built (a reference is
 * kept until it is frozen), for `symbols`: the generation of what names its
 * frames (js_symbolizer_generation), which may name them better later. */
void js_event_keep_body (JsEvent *e, GBytes *body, guint symbols);
/* That text while nothing it shows changed since: only its context or its
 * closing (neither is in it), and its stalls as they were, folded in since
 * or not, nor `symbols`; else NULL (not a new reference). */
GBytes *js_event_kept_body (const JsEvent *e, guint symbols);
/* The stalls its text shows, in the order it folds them: those folded in,
 * then those pending, each with its samples, last sample and end (a hash).
 * A pending stall folded in as it was leaves it as it was. */
guint64 js_event_evidence_state (const JsEvent *e);

/* Events per tier, dropped ones included; and all dropped. */
void js_event_store_count (const JsEventStore *store, guint64 by_tier[JS_N_EVENT_TIERS],
                           guint64 *dropped);

G_END_DECLS
