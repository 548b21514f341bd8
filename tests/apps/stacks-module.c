/* stacks-module.c - a tiny module that stacks-app dlopens, runs and dlcloses
 * (check_stacks.py "dlclose": a frame in a module unloaded before the
 * collector symbolizes it must still be named).
 *
 * Built without -z nodelete and without TLS or C++: dlclose really unmaps it.
 * Built twice: libstacks-module.so (js_test_module_busy) and, with
 * -DMODULE_BUSY=js_test_module2_busy, libstacks-module2.so, the same layout
 * under another name, which the loader tends to map where the first one was
 * ("dlclose-reuse").
 */
#include <time.h>

#define NS_PER_SEC 1000000000LL

#ifndef MODULE_BUSY
#define MODULE_BUSY js_test_module_busy
#endif

volatile unsigned long js_test_module_sink;

/* Spins on the CPU for @ms milliseconds. No helper functions (nothing is
 * inlined into it): every sample's innermost frame of this module is this
 * function. */
__attribute__ ((noinline, noclone, visibility ("default"))) void
MODULE_BUSY (unsigned int ms)
{
  struct timespec ts;
  long long end;
  unsigned long acc = js_test_module_sink;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  end = ts.tv_sec * NS_PER_SEC + ts.tv_nsec + (long long) ms * 1000000LL;
  for (;;)
    {
      for (int i = 0; i < 2000; i++)
        acc = acc * 2862933555777941757UL + 3037000493UL + (unsigned long) i;
      js_test_module_sink = acc;
      clock_gettime (CLOCK_MONOTONIC, &ts);
      if (ts.tv_sec * NS_PER_SEC + ts.tv_nsec >= end)
        break;
    }
}
