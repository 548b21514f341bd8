/* Unit tests of the SPSC ring: order, drops, and a two-thread run. */
#include "js-ring.h"

static void
test_order_and_drops (void)
{
  JsRing *ring = js_ring_new (5); /* rounded up to 8 */
  JsRecord r = { 0 }, out[16];
  guint n;

  g_assert_cmpuint (js_ring_capacity (ring), ==, 8);
  for (guint i = 0; i < 10; i++)
    {
      r.count = i;
      g_assert_true (js_ring_push (ring, &r) == (i < 8));
    }
  g_assert_cmpuint (js_ring_dropped (ring), ==, 2);
  n = js_ring_pop (ring, out, 16);
  g_assert_cmpuint (n, ==, 8);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (out[i].count, ==, i);
  g_assert_cmpuint (js_ring_pop (ring, out, 16), ==, 0);
  js_ring_free (ring);
}

/* In place: the records in order, never past the ring's end in one piece,
 * and the slots read stay the consumer's until released (the producer
 * drops rather than overwrite them). */
static void
test_peek_release (void)
{
  JsRing *ring = js_ring_new (8);
  JsRecord r = { 0 };
  const JsRecord *first;
  guint n, next = 4;

  g_assert_cmpuint (js_ring_peek (ring, &first, 16), ==, 0);
  for (guint i = 0; i < 6; i++)
    {
      r.count = i;
      g_assert_true (js_ring_push (ring, &r));
    }
  n = js_ring_peek (ring, &first, 4);
  g_assert_cmpuint (n, ==, 4);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (first[i].count, ==, i);
  js_ring_release (ring, n);
  /* Records 4-11 fill the ring (slots 4-7, then 0-3). */
  for (guint i = 6; i < 12; i++)
    {
      r.count = i;
      g_assert_true (js_ring_push (ring, &r));
    }
  n = js_ring_peek (ring, &first, 16);
  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (first[0].count, ==, 4);
  /* Not released: the ring is full, the next push is dropped and the
   * records being read are intact. */
  r.count = 99;
  g_assert_false (js_ring_push (ring, &r));
  g_assert_cmpuint (js_ring_dropped (ring), ==, 1);
  /* Peeking again without a release reads the same records. */
  g_assert_cmpuint (js_ring_peek (ring, &first, 16), ==, n);
  g_assert_cmpuint (first[0].count, ==, 4);
  while ((n = js_ring_peek (ring, &first, 16)) > 0)
    {
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpuint (first[i].count, ==, next);
          /* Record 7 is in the last slot: a piece ends there. */
          if (next == 7)
            g_assert_cmpuint (i, ==, n - 1);
          next++;
        }
      js_ring_release (ring, n);
    }
  g_assert_cmpuint (next, ==, 12);
  g_assert_true (js_ring_is_empty (ring));
  /* Released: room again. */
  g_assert_true (js_ring_push (ring, &r));
  js_ring_free (ring);
}

typedef struct
{
  JsRing *ring;
  guint64 pushed;
} Producer;

#define N_RECORDS 2000000

static gpointer
produce (gpointer data)
{
  Producer *p = data;
  JsRecord r = { 0 };

  for (guint64 i = 0; i < N_RECORDS; i++)
    {
      r.start_ns = (gint64) i;
      if (js_ring_push (p->ring, &r))
        p->pushed++;
    }
  return NULL;
}

/* The same two-thread run, read in place: what the producer writes never
 * lands in slots still being read (a record out of order or changed after
 * it was checked would show it). */
static void
test_threaded_peek (void)
{
  Producer p = { js_ring_new (1024), 0 };
  GThread *t = g_thread_new ("producer", produce, &p);
  const JsRecord *first;
  gint64 last = -1;
  guint64 popped = 0;
  gboolean running = TRUE;

  while (running)
    {
      guint n;

      running = popped + js_ring_dropped (p.ring) < N_RECORDS;
      n = js_ring_peek (p.ring, &first, 100);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpint (first[i].start_ns, >, last);
          last = first[i].start_ns;
        }
      /* Still what was read above. */
      if (n > 0)
        g_assert_cmpint (first[n - 1].start_ns, ==, last);
      js_ring_release (p.ring, n);
      popped += n;
    }
  g_thread_join (t);
  {
    guint n;

    while ((n = js_ring_peek (p.ring, &first, 100)) > 0)
      {
        js_ring_release (p.ring, n);
        popped += n;
      }
  }
  g_assert_cmpuint (popped, ==, p.pushed);
  g_assert_cmpuint (popped + js_ring_dropped (p.ring), ==, N_RECORDS);
  js_ring_free (p.ring);
}

static void
test_threaded (void)
{
  Producer p = { js_ring_new (1024), 0 };
  GThread *t = g_thread_new ("producer", produce, &p);
  JsRecord out[256];
  gint64 last = -1;
  guint64 popped = 0;
  gboolean running = TRUE;

  /* Every record that was not dropped arrives, once, in order. */
  while (running)
    {
      guint n;

      running = popped + js_ring_dropped (p.ring) < N_RECORDS;
      n = js_ring_pop (p.ring, out, G_N_ELEMENTS (out));
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpint (out[i].start_ns, >, last);
          last = out[i].start_ns;
        }
      popped += n;
    }
  g_thread_join (t);
  popped += js_ring_pop (p.ring, out, G_N_ELEMENTS (out));
  g_assert_cmpuint (popped, ==, p.pushed);
  g_assert_cmpuint (popped + js_ring_dropped (p.ring), ==, N_RECORDS);
  js_ring_free (p.ring);
}

static guint wakes;

static void
count_wake (gpointer data)
{
  wakes++;
}

static void
test_wake_at_half (void)
{
  JsRing *ring = js_ring_new (16);
  JsRecord r = { 0 }, out[16];

  js_ring_set_wake (ring, count_wake, NULL);
  for (guint i = 0; i < 7; i++)
    js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 0);
  js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 1);
  for (guint i = 0; i < 3; i++)
    js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 1); /* once per half ring, not per record */
  js_ring_push (ring, &r);
  /* Three quarters and the consumer has not moved: the wake-up may have been
   * lost, one more. */
  g_assert_cmpuint (wakes, ==, 2);
  for (guint i = 0; i < 4; i++)
    js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 2); /* never more without progress */
  js_ring_pop (ring, out, 16);

  /* The consumer drained it: the next half ring wakes it again, however the
   * producer's cached view of the consumer was. */
  wakes = 0;
  for (guint i = 0; i < 8; i++)
    js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 1);
  js_ring_pop (ring, out, 4); /* progress, but still half behind */
  for (guint i = 0; i < 4; i++)
    js_ring_push (ring, &r);
  g_assert_cmpuint (wakes, ==, 2);
  js_ring_pop (ring, out, 16);
  js_ring_free (ring);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Ring/order-and-drops", test_order_and_drops);
  g_test_add_func ("/Ring/threaded", test_threaded);
  g_test_add_func ("/Ring/peek-release", test_peek_release);
  g_test_add_func ("/Ring/threaded-peek", test_threaded_peek);
  g_test_add_func ("/Ring/wake-at-half", test_wake_at_half);
  return g_test_run ();
}
