/* Unit tests of js-sampler: the signal handler and its handshake with the
 * main thread's blocking calls (src/bridge/js-call-guard.h).
 *
 * This program compiles js-sampler.c itself with -fsanitize=alignment
 * -fno-sanitize-recover=alignment (tests/unit/meson.build): a handler that
 * read memory it does not own with a typed load, such as the code bytes
 * before the interrupted pc (an odd address half the time), aborts the
 * program. The main thread spins in plain code, so the interrupted pcs are
 * odd and even, while another thread takes samples as the watchdog does.
 */
#define _GNU_SOURCE
#include "js-sampler.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#define N_SAMPLES 400
#define TIMEOUT_NS (2000 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  int stop;
  guint ok, in_call, other;
  guint64 odd_pcs;
} Watcher;

static volatile guint64 sink;

static gpointer
watcher_thread (gpointer data)
{
  Watcher *w = data;

  for (guint i = 0; i < N_SAMPLES; i++)
    {
      guint64 frames[64];
      guint n = 0;
      gboolean truncated = FALSE;
      gint64 cost = 0;

      switch (js_sampler_take (frames, G_N_ELEMENTS (frames), &n, &truncated, TIMEOUT_NS, &cost))
        {
        case JS_SAMPLER_OK:
          w->ok++;
          if (n > 0 && (frames[0] & 1))
            w->odd_pcs++;
          break;
        case JS_SAMPLER_IN_CALL:
          w->in_call++;
          break;
        default:
          w->other++;
          break;
        }
      g_usleep (200);
    }
  g_atomic_int_set (&w->stop, 1);
  return NULL;
}

/* The main thread: an arithmetic loop (no calls, no system calls), until the
 * watcher is done. Where a signal interrupts it depends on the CPU: on some,
 * every interrupt of a plain C loop lands at the instruction after its
 * multiply, at the same address each time; on this test's VM under ASan,
 * after the first and third of three multiplies far more often than after
 * the second. So the multiplies, each waiting for the last, sit at odd and
 * even addresses alike (a 1-byte nop after a 4-byte imul), and two loops
 * take turns whose layouts differ by one byte from their (aligned) heads:
 * whichever of its multiplies a CPU favours, one loop puts it at an odd
 * address. */
#if defined(__x86_64__)
/* One round of the loop: `lead` (nothing, or a nop that shifts the rest by
 * one byte), then three dependent multiplies, a nop after each of the
 * first two. */
#define SPIN_ROUND(lead, acc, mul, i)                                                              \
  __asm__ volatile(lead "imul %1, %0\n\t"                                                          \
                        "nop\n\t"                                                                  \
                        "imul %1, %0\n\t"                                                          \
                        "nop\n\t"                                                                  \
                        "imul %1, %0\n\t"                                                          \
                        "add %2, %0"                                                               \
                   : "+r"(acc)                                                                     \
                   : "r"(mul), "r"(i))
#else
#define SPIN_ROUND(lead, acc, mul, i) ((acc) = (acc) * (mul) + (i))
#endif

static void
spin_until_stopped (Watcher *w)
{
  guint64 acc = sink;
  guint64 mul = G_GUINT64_CONSTANT (6364136223846793005);
  guint round = 0;

  while (!g_atomic_int_get (&w->stop))
    {
      if (round++ % 2 == 0)
        for (guint64 i = 0; i < 1000; i++)
          SPIN_ROUND ("", acc, mul, i);
      else
        for (guint64 i = 0; i < 1000; i++)
          SPIN_ROUND ("nop\n\t", acc, mul, i);
    }
  sink = acc;
}

static void
init_sampler (void)
{
  static gboolean done;

  if (!done)
    g_assert_true (js_sampler_init ((pid_t) syscall (SYS_gettid), -1));
  done = TRUE;
}

static void
test_handler_spin (void)
{
  Watcher w = { 0 };
  JsSamplerCounters c;
  GThread *t;

  init_sampler ();
  t = g_thread_new ("watcher", watcher_thread, &w);
  spin_until_stopped (&w);
  g_thread_join (t);
  g_test_message ("%u samples, %" G_GUINT64_FORMAT " at an odd pc, %u in a call, %u other", w.ok,
                  w.odd_pcs, w.in_call, w.other);
  g_assert_cmpuint (w.ok + w.other, ==, N_SAMPLES);
  g_assert_cmpuint (w.in_call, ==, 0);
  /* Not vacuous: the handler did run at odd pcs. */
  g_assert_cmpuint (w.ok, >, N_SAMPLES / 2);
  g_assert_cmpuint (w.odd_pcs, >, 0);
  /* Every signal's handler has run: nothing is left in flight. */
  g_assert_cmpint (js_sampler_guard.in_flight, ==, 0);
  g_assert_cmpint (js_sampler_guard.depth, ==, 0);
  js_sampler_get_counters (&c);
  g_assert_cmpuint (c.withheld, ==, 0);
  g_assert_cmpuint (c.deferred, ==, 0);
  g_assert_cmpuint (js_sampler_guard.handled, >=, w.ok);
}

/* While the main thread is inside a guarded call, the watchdog sends
 * nothing: the call could not be cut short. */
static void
test_withheld_in_call (void)
{
  Watcher w = { 0 };
  JsSamplerCounters before, after;
  GThread *t;
  guint64 handled;

  init_sampler ();
  g_assert_true (pthread_equal (js_sampler_guard.thread, pthread_self ()));
  g_assert_cmpint (js_sampler_guard.signal, ==, js_sampler_signal ());
  js_sampler_get_counters (&before);
  handled = js_sampler_guard.handled;
  g_assert_false (js_call_guard_enter (&js_sampler_guard));
  t = g_thread_new ("watcher", watcher_thread, &w);
  spin_until_stopped (&w);
  js_call_guard_leave (&js_sampler_guard, FALSE);
  g_thread_join (t);
  js_sampler_get_counters (&after);
  g_assert_cmpuint (w.in_call, ==, N_SAMPLES);
  g_assert_cmpuint (after.withheld - before.withheld, ==, N_SAMPLES);
  g_assert_cmpuint (after.requested, ==, before.requested);
  g_assert_cmpuint (js_sampler_guard.handled, ==, handled);
  g_assert_cmpint (js_sampler_guard.in_flight, ==, 0);
}

/* A signal in flight when a call starts: the call holds it back, and it is
 * delivered (and counted as deferred) when the call ends. */
static void
test_held_back (void)
{
  JsCallGuard *g = &js_sampler_guard;
  JsCallHold hold;
  JsSamplerCounters before, after;
  union sigval value = { .sival_int = -1 };
  guint64 handled;
  sigset_t pending;

  init_sampler ();
  js_sampler_get_counters (&before);
  handled = g->handled;
  /* As the watchdog does just before it sends. */
  __atomic_add_fetch (&g->in_flight, 1, __ATOMIC_SEQ_CST);
  g_assert_true (js_call_guard_enter (g));
  js_call_guard_hold (g, &hold);
  g_assert_cmpint (pthread_sigqueue (pthread_self (), js_sampler_signal (), value), ==, 0);
  /* Still pending: the handler has not run. */
  sigemptyset (&pending);
  sigpending (&pending);
  g_assert_true (sigismember (&pending, js_sampler_signal ()));
  g_assert_cmpuint (g->handled, ==, handled);
  js_call_guard_release (g, &hold);
  js_call_guard_leave (g, FALSE);
  /* Delivered at the release: handled (a stale sequence, so "late"). */
  g_assert_cmpuint (g->handled, ==, handled + 1);
  g_assert_cmpint (g->in_flight, ==, 0);
  g_assert_cmpint (g->depth, ==, 0);
  js_sampler_get_counters (&after);
  g_assert_cmpuint (after.deferred, ==, before.deferred + 1);
  g_assert_cmpuint (after.late, ==, before.late + 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sampler/handler-spin", test_handler_spin);
  g_test_add_func ("/sampler/withheld-in-call", test_withheld_in_call);
  g_test_add_func ("/sampler/held-back", test_held_back);
  return g_test_run ();
}
