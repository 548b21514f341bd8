/* cxx-names.cc - a C++ GLib program, for demangling checks
 *
 * 50 ms into the main loop (a timeout adds it), an idle callback runs a method of a class in a
 * namespace (names_test::Worker::crunch), which runs a template function
 * (names_test::spin<unsigned long>) for 300 ms of CPU; it prints the stall
 * window on stdout as "stall=START_NS,END_NS" (CLOCK_MONOTONIC, as the
 * report's times) and quits. The template function's work is in another
 * one inlined into it (names_test::step<unsigned long>); nothing else is
 * inlined: the culprit is the template function, its caller the method.
 */
#include <glib.h>

#include <cstdio>
#include <ctime>

namespace names_test
{

volatile unsigned long sink;

gint64
now_ns ()
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Inlined into spin: its frames are inline frames, named by their linkage
 * name. */
template <typename T>
inline __attribute__ ((always_inline)) T
step (T x, int i)
{
  for (int k = 0; k < 100; k++)
    {
      x = x * 6364136223846793005UL + (T) (i + k);
      sink = x;
    }
  return x;
}

template <typename T>
__attribute__ ((noinline)) T
spin (T seed, gint64 until_ns)
{
  T x = seed;

  while (now_ns () < until_ns)
    for (int i = 0; i < 100; i++)
      x = step<T> (x, i);
  return x;
}

class Worker
{
public:
  __attribute__ ((noinline)) unsigned long crunch (gint64 duration_ns);
};

unsigned long
Worker::crunch (gint64 duration_ns)
{
  unsigned long x = spin<unsigned long> (1, now_ns () + duration_ns);

  sink = x; /* no tail call: this frame stays on the stack */
  return x;
}

GMainLoop *loop;

gboolean
slow_idle (gpointer data)
{
  Worker *worker = static_cast<Worker *> (data);
  gint64 start = now_ns ();

  worker->crunch (300 * G_GINT64_CONSTANT (1000000));
  std::printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, now_ns ());
  std::fflush (stdout);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

gboolean
start_stall (gpointer data)
{
  g_idle_add (slow_idle, data);
  return G_SOURCE_REMOVE;
}

} // namespace names_test

int
main ()
{
  names_test::Worker worker;

  names_test::loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (50, names_test::start_stall, &worker);
  g_main_loop_run (names_test::loop);
  g_main_loop_unref (names_test::loop);
  std::printf ("done=1\n");
  return 0;
}
