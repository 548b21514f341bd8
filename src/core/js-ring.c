/* js-ring.c
 *
 * Classic Lamport ring: `head` is written only by the producer, `tail` only
 * by the consumer, both grow forever (64-bit, no wrap in practice) and index
 * with a mask. Each side caches the other's counter so that a push touches
 * the shared cache line of `tail` only when the ring looks full.
 *
 * Each slot's lines were last read by the consumer, on another core: a
 * store to them must first take them back (a read for ownership), and the
 * main thread pays that wait at its next fence or system call (the poll
 * that follows an iteration's record), ~25-40 ns a record on the VMs of
 * bench/README.md ("A floor, and one record an iteration"). So each push
 * asks for the lines of the slot PREFETCH_AHEAD records on, for writing
 * (PREFETCHW where the CPU has it): by the time that slot is written, they
 * are the producer's. A prefetch never faults and changes no data.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-ring.h"
#include "js-hot.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define CACHE_LINE 64
/* Far enough that the lines arrive before the slot is written (a burst of
 * dispatches with no work pushes a record every ~300 ns), near enough that
 * they are still there. */
#define PREFETCH_AHEAD 4

struct _JsRing
{
  /* producer side */
  guint64 head __attribute__ ((aligned (CACHE_LINE)));
  guint64 tail_cache;
  guint64 dropped;
  guint64 woken_at_tail; /* the consumer's tail at the last wake-up */
  gboolean rewoken;      /* woken a second time without progress */
  /* consumer side */
  guint64 tail __attribute__ ((aligned (CACHE_LINE)));
  guint64 head_cache;
  /* read-only after creation */
  guint64 mask __attribute__ ((aligned (CACHE_LINE)));
  guint64 check_mask; /* the lag is checked every check_mask + 1 pushes */
  gboolean prefetchw; /* x86: the CPU has PREFETCHW */
  JsRecord *slots;
  void (*wake) (gpointer data);
  gpointer wake_data;
};

JsRing *
js_ring_new (guint capacity)
{
  JsRing *ring;
  guint size = 1;

  while (size < capacity)
    size <<= 1;
  ring = g_aligned_alloc0 (1, sizeof *ring, CACHE_LINE);
  ring->mask = size - 1;
  ring->check_mask = MIN (63, MAX (size / 4, 1) - 1);
  ring->woken_at_tail = G_MAXUINT64;
  ring->slots = g_aligned_alloc0 (size, sizeof (JsRecord), CACHE_LINE);
#if defined(__x86_64__) || defined(__i386__)
  {
    unsigned int eax, ebx, ecx, edx;

    /* CPUID 0x80000001, ECX bit 8: PREFETCHW (Intel's PRFCHW, AMD's
     * 3DNowPrefetch). Without it the opcode is not used. */
    ring->prefetchw = __get_cpuid (0x80000001, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 8));
  }
#endif
  return ring;
}

void
js_ring_set_wake (JsRing *ring, void (*wake) (gpointer data), gpointer data)
{
  ring->wake_data = data;
  ring->wake = wake;
}

void
js_ring_free (JsRing *ring)
{
  if (ring == NULL)
    return;
  g_aligned_free (ring->slots);
  g_aligned_free (ring);
}

/* The lines of the slot PREFETCH_AHEAD on (a record may span two). */
static inline void
prefetch_for_write (JsRing *ring, guint64 head)
{
  const char *ahead = (const char *) &ring->slots[(head + PREFETCH_AHEAD) & ring->mask];
  const char *last = ahead + sizeof (JsRecord) - 1;

#if defined(__x86_64__) || defined(__i386__)
  if (G_LIKELY (ring->prefetchw))
    {
      __asm__ volatile("prefetchw %0" : : "m"(*ahead));
      __asm__ volatile("prefetchw %0" : : "m"(*last));
      return;
    }
#endif
  __builtin_prefetch (ahead, 1, 3);
  __builtin_prefetch (last, 1, 3);
}

JS_HOT gboolean
js_ring_push (JsRing *ring, const JsRecord *record)
{
  guint64 head = ring->head;

  if (head - ring->tail_cache > ring->mask)
    {
      ring->tail_cache = __atomic_load_n (&ring->tail, __ATOMIC_ACQUIRE);
      if (head - ring->tail_cache > ring->mask)
        {
          /* Full: drop, count, and never wait on the thread we measure. */
          __atomic_store_n (&ring->dropped, ring->dropped + 1, __ATOMIC_RELAXED);
          return FALSE;
        }
    }
  ring->slots[head & ring->mask] = *record;
  prefetch_for_write (ring, head);
  /* The release store publishes the slot written above to the consumer. */
  __atomic_store_n (&ring->head, head + 1, __ATOMIC_RELEASE);
  /* Every 64 pushes (a quarter of a small ring), one load of the consumer's
   * position: half a ring behind, wake it; once more at three quarters if it
   * has not moved since (a wake-up can be lost: the signal is sent without
   * the collector's mutex, which the main thread never takes). So a burst
   * is drained at once, and a consumer that keeps up is never woken. */
  if (G_UNLIKELY (((head + 1) & ring->check_mask) == 0) && ring->wake != NULL)
    {
      guint64 tail = __atomic_load_n (&ring->tail, __ATOMIC_ACQUIRE);
      guint64 lag = head + 1 - tail;
      guint64 half = (ring->mask + 1) / 2;

      ring->tail_cache = tail;
      if (lag >= half && tail != ring->woken_at_tail)
        {
          ring->woken_at_tail = tail;
          ring->rewoken = FALSE;
          ring->wake (ring->wake_data);
        }
      else if (lag >= half + half / 2 && tail == ring->woken_at_tail && !ring->rewoken)
        {
          ring->rewoken = TRUE;
          ring->wake (ring->wake_data);
        }
    }
  return TRUE;
}

guint
js_ring_pop (JsRing *ring, JsRecord *out, guint max)
{
  guint64 tail = ring->tail;
  guint n = 0;

  if (tail == ring->head_cache)
    ring->head_cache = __atomic_load_n (&ring->head, __ATOMIC_ACQUIRE);
  while (n < max && tail != ring->head_cache)
    {
      out[n++] = ring->slots[tail & ring->mask];
      tail++;
    }
  /* Frees the slots just copied for the producer. */
  __atomic_store_n (&ring->tail, tail, __ATOMIC_RELEASE);
  return n;
}

guint
js_ring_peek (JsRing *ring, const JsRecord **first, guint max)
{
  guint64 tail = ring->tail;
  guint64 index = tail & ring->mask;
  guint64 ready;

  if (tail == ring->head_cache)
    ring->head_cache = __atomic_load_n (&ring->head, __ATOMIC_ACQUIRE);
  /* Up to the end of the slots: the rest comes with the next call. */
  ready = MIN (ring->head_cache - tail, ring->mask + 1 - index);
  *first = &ring->slots[index];
  return (guint) MIN (ready, (guint64) max);
}

void
js_ring_release (JsRing *ring, guint n)
{
  /* The release store orders the consumer's reads of these slots before
   * the producer may write them again. */
  __atomic_store_n (&ring->tail, ring->tail + n, __ATOMIC_RELEASE);
}

guint64
js_ring_dropped (JsRing *ring)
{
  return __atomic_load_n (&ring->dropped, __ATOMIC_RELAXED);
}

guint
js_ring_capacity (JsRing *ring)
{
  return (guint) (ring->mask + 1);
}

gboolean
js_ring_is_empty (JsRing *ring)
{
  return __atomic_load_n (&ring->head, __ATOMIC_SEQ_CST) == ring->tail;
}
