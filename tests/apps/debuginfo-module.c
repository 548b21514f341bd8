/* debuginfo-module.c - a module whose stall is in static functions, for the
 * checks of where debug information comes from (check_stacks.py "debuginfo-*",
 * tests/unit/test-debug-routes.c).
 *
 * Built with -g, then split the ways distributions ship it
 * (tests/apps/split-debug.sh): stripped, with its debug file under
 * .build-id/ or found by its .gnu_debuglink, with MiniDebugInfo, or with
 * nothing. Its only exported function hands out the static callback; the
 * callback and the function it spins in are static, so only debug
 * information (or MiniDebugInfo) can name them. No GLib: the app attaches
 * the callback to its own main loop.
 */
#include <time.h>

#define NS_PER_SEC 1000000000LL

/* Keeps GCC from inlining, cloning (.constprop.0) or tail-calling them: the
 * names stay as written and each has a frame. */
#if defined(__GNUC__) && !defined(__clang__)
#define NOIPA __attribute__ ((noipa))
#else
#define NOIPA __attribute__ ((noinline))
#endif

/* What the app gives the callback as its data. */
typedef struct
{
  unsigned int ms;
  long long start_ns, end_ns; /* CLOCK_MONOTONIC, filled in by the callback */
} JsTestDebuginfoStall;

volatile unsigned long js_test_debuginfo_sink;

static long long
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* Spins on the CPU for `ms`: every sample of the stall has it as the
 * module's innermost frame. The clock is read once per ~100 µs of
 * arithmetic, so that hardly a sample lands inside clock_gettime (where the
 * spin would be a return address at its call, a frame of its own; a
 * vDSO read costs tens of ns on a guest whose clock is kvm-clock). */
static NOIPA void
debuginfo_static_spin (unsigned int ms)
{
  long long end = now_ns () + (long long) ms * 1000000LL;
  unsigned long acc = js_test_debuginfo_sink;

  while (now_ns () < end)
    {
      for (int i = 0; i < 100000; i++)
        acc = acc * 2862933555777941757UL + 3037000493UL + (unsigned long) i;
      js_test_debuginfo_sink = acc;
    }
}

/* A GSourceFunc: spins for data->ms once, then removes its source. */
static NOIPA int
debuginfo_static_callback (void *data)
{
  JsTestDebuginfoStall *stall = data;

  stall->start_ns = now_ns ();
  debuginfo_static_spin (stall->ms);
  stall->end_ns = now_ns ();
  js_test_debuginfo_sink++; /* after the call: not a tail call */
  return 0;
}

__attribute__ ((visibility ("default"))) void *js_test_debuginfo_callback (void);

void *
js_test_debuginfo_callback (void)
{
  return (void *) debuginfo_static_callback;
}
