/* js-posting.h: where each source of the main context was posted from.
 *
 * Written by whichever thread attaches (the preload's stand-ins call
 * js_posting_posted through JsBridge.posted), read by the main thread at
 * dispatch (one load: js_posting_at_dispatch) and by the collector for slow
 * dispatches (js_posting_read). Lock-free and bounded: nothing is allocated
 * after start-up.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "jankscope-bridge.h"

G_BEGIN_DECLS

/* Source ids of the main context, direct-mapped: GLib gives them out in
 * order, so an entry is overwritten only after this many later attaches. */
#define JS_POSTING_IDS 16384
/* Posting sites under way (a ring: the oldest is overwritten). */
#define JS_POSTING_RING 4096
/* Full stacks (a ring), each at most JS_POSTING_MAX_FRAMES deep. */
#define JS_POSTING_STACKS 256
#define JS_POSTING_MAX_FRAMES 48
/* Links of a chain kept beyond the site itself. */
#define JS_POSTING_CHAIN 3
/* Default ceiling of full stacks per second (JANKSCOPE_POST_STACKS). */
#define JS_POSTING_DEFAULT_STACKS_PER_S 200

/* Bit 0-31: the source id; 32-63: the posting site's index (0: none). */
extern guint64 js_posting_ids[JS_POSTING_IDS];

/* The posting site of the source with this id, 0 when unknown: at dispatch,
 * one load and a compare. */
static inline guint32
js_posting_at_dispatch (guint id)
{
  guint64 e = __atomic_load_n (&js_posting_ids[id % JS_POSTING_IDS], __ATOMIC_RELAXED);

  return (guint32) e == id ? (guint32) (e >> 32) : 0;
}

/* `stacks_per_s`: the ceiling of full stacks per second (0: none);
 * `main_context` the context whose sources count. */
void js_posting_init (GMainContext *main_context, guint stacks_per_s);

/* The unwinder for full stacks (js-sampler.c's), or NULL. */
void js_posting_set_unwinder (int (*backtrace) (void **buffer, int size));

/* JsBridge.posted. */
void js_posting_posted (int kind, const void *caller, const void *func, unsigned id, void *context,
                        void *task);

/* The watchdog is investigating a stall: every attach gets a full stack
 * (within the budget). */
void js_posting_set_stall (gboolean stalled);

/* A callback (the `code` of a dispatch) was slow: its next attaches get full
 * stacks (within the budget). Collector. */
void js_posting_mark_slow (const void *func);

/* A posting site, as read by the collector. */
typedef struct
{
  guint8 kind; /* JsPostKind */
  gboolean main_thread;
  const void *caller;
  const void *chain[JS_POSTING_CHAIN]; /* the callers that posted the dispatches it ran in */
  guint n_chain;
  guint64 frames[JS_POSTING_MAX_FRAMES]; /* the full stack, leaf first (n_frames 0: none) */
  guint n_frames;
  gboolean truncated;
  /* The stack is an earlier attach's, by the same caller of the same
   * callback (a library's caller between two of its own stacks). */
  gboolean stack_inherited;
} JsPostSite;

/* The site `post` (a dispatch record's `post`, or a GTask's:
 * js_posting_task_post). FALSE: unknown (overwritten, or posted where the
 * preload cannot see). */
gboolean js_posting_read (guint32 post, JsPostSite *out);

/* The site of the GTask at address `task` (a dispatch's data: a task's
 * completion), if its creation was seen, else 0. Any thread; the address is
 * only compared, never followed. */
guint32 js_posting_task_post (const void *task);

typedef struct
{
  guint64 attaches;           /* posting sites noted */
  guint64 stacks;             /* of them with a full stack */
  guint64 stacks_over_budget; /* wanted a full stack past the ceiling */
  guint stacks_per_s;         /* the ceiling */
  guint64 stacks_library;     /* of `stacks`, taken by the library callers' rule */
} JsPostingStats;

void js_posting_get_stats (JsPostingStats *stats);

G_END_DECLS
