/* js-ring.h: a bounded single-producer single-consumer ring of JsRecords.
 *
 * The producer is the app's main thread and must never wait: when the ring
 * is full the record is dropped and counted. The consumer is the collector
 * thread. No locks, no allocation after js_ring_new ().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-record.h"

G_BEGIN_DECLS

typedef struct _JsRing JsRing;

/* `capacity` is rounded up to a power of two. */
JsRing *js_ring_new (guint capacity);
void js_ring_free (JsRing *ring);

/* Called by the producer, at most once per half ring of records, so that a
 * sleeping consumer drains before the ring fills. Must not block. */
void js_ring_set_wake (JsRing *ring, void (*wake) (gpointer data), gpointer data);

/* Producer only (one thread). FALSE when full: the record was dropped. */
gboolean js_ring_push (JsRing *ring, const JsRecord *record);

/* Consumer only (one thread). Copies up to `max` records, returns how many. */
guint js_ring_pop (JsRing *ring, JsRecord *out, guint max);

/* Consumer only: up to `max` of the oldest records, read in place (no copy):
 * sets `*first` and returns how many follow it in memory (fewer than are
 * ready when they wrap around the ring's end; 0: none). They stay the
 * consumer's, never overwritten, until js_ring_release () hands them back. */
guint js_ring_peek (JsRing *ring, const JsRecord **first, guint max);
/* Consumer only: frees the first `n` records of the last js_ring_peek (). */
void js_ring_release (JsRing *ring, guint n);

/* Any thread. */
guint64 js_ring_dropped (JsRing *ring);
/* Consumer only: nothing to pop (sequentially consistent load of the head). */
gboolean js_ring_is_empty (JsRing *ring);
guint js_ring_capacity (JsRing *ring);

G_END_DECLS
