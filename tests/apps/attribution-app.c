/* attribution-app.c - a plain GLib program whose long or many-sided
 * episodes the stack sampler must explain in full (tests/check_attribution.py)
 *
 *   attribution-app SCENARIO [ARG]
 *
 * Scenarios:
 *   loader [SECONDS]  an idle callback that works 0.4 to 2 s each time it
 *                     runs, back to back, for SECONDS (15): one long episode
 *                     of many stalls, like a loader or a text view validating
 *                     a huge line
 *   two-causes        a 200 ms computation in one callback, then 100 ms later
 *                     a 120 ms sleep in another: one episode, two causes
 *
 * Each piece of work prints work=START_NS,END_NS (CLOCK_MONOTONIC, the
 * report's clock); the program quits 300 ms after the last and prints
 * done=1. The functions the checks look for (js_test_*) are non-static and
 * noinline, with no helper inlined into them.
 */
#include <glib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define QUIT_AFTER_MS 300

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

volatile guint64 js_test_sink;

static GMainLoop *loop;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Spins on the CPU until CLOCK_MONOTONIC reaches end_ns, in this frame. */
#define SPIN_UNTIL(end_ns)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    guint64 spin_acc_ = js_test_sink;                                                              \
    while (mono_ns () < (end_ns))                                                                  \
      {                                                                                            \
        for (int spin_i_ = 0; spin_i_ < 2000; spin_i_++)                                           \
          spin_acc_ = spin_acc_ * G_GUINT64_CONSTANT (2862933555777941757)                         \
                      + G_GUINT64_CONSTANT (3037000493) + (guint64) spin_i_;                       \
        js_test_sink = spin_acc_;                                                                  \
      }                                                                                            \
  }                                                                                                \
  G_STMT_END

static void
work_fact (gint64 start, gint64 end)
{
  printf ("work=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, end);
  fflush (stdout);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
quit_soon (void)
{
  g_timeout_add (QUIT_AFTER_MS, quit_cb, NULL);
}

/* --- loader ------------------------------------------------------------- */

static gint64 loader_end_ns;
static guint loader_chunks;

JS_TEST_FUNC void
js_test_load_chunk (gint64 ms)
{
  gint64 start = mono_ns ();

  SPIN_UNTIL (start + ms * NS_PER_MS);
  work_fact (start, mono_ns ());
}

static gboolean
loader_idle_cb (gpointer data)
{
  /* 0.4 to 2 s, in an order that mixes them. */
  static const gint64 ms[] = { 400, 1300, 700, 2000, 1000, 500, 1600, 900, 1900, 600 };

  js_test_load_chunk (ms[loader_chunks++ % G_N_ELEMENTS (ms)]);
  if (mono_ns () < loader_end_ns)
    return G_SOURCE_CONTINUE;
  quit_soon ();
  return G_SOURCE_REMOVE;
}

static gboolean
loader_start_cb (gpointer data)
{
  loader_end_ns = mono_ns () + GPOINTER_TO_INT (data) * G_GINT64_CONSTANT (1000000000);
  g_idle_add (loader_idle_cb, NULL);
  return G_SOURCE_REMOVE;
}

/* --- two causes ----------------------------------------------------------- */

JS_TEST_FUNC void
js_test_compute (void)
{
  gint64 start = mono_ns ();

  SPIN_UNTIL (start + 200 * NS_PER_MS);
  work_fact (start, mono_ns ());
}

JS_TEST_FUNC void
js_test_sleep (void)
{
  gint64 start = mono_ns ();

  /* Blocked in a system call: the watchdog copies the stack, which
   * unwinds through libc and the preload's wrapper back to this function. */
  usleep (120 * 1000);
  js_test_sink++;
  work_fact (start, mono_ns ());
}

static gboolean
sleep_cb (gpointer data)
{
  js_test_sleep ();
  quit_soon ();
  return G_SOURCE_REMOVE;
}

static gboolean
compute_cb (gpointer data)
{
  js_test_compute ();
  g_timeout_add (100, sleep_cb, NULL);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  const char *scenario = argc > 1 ? argv[1] : "";

  setvbuf (stdout, NULL, _IOLBF, 0);
  loop = g_main_loop_new (NULL, FALSE);
  if (strcmp (scenario, "loader") == 0)
    g_timeout_add (50, loader_start_cb, GINT_TO_POINTER (argc > 2 ? atoi (argv[2]) : 15));
  else if (strcmp (scenario, "two-causes") == 0)
    g_timeout_add (50, compute_cb, NULL);
  else
    {
      fprintf (stderr, "usage: attribution-app loader [SECONDS] | two-causes\n");
      return 2;
    }
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  printf ("done=1\n");
  return 0;
}
