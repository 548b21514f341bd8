/* soak-app.c: a GLib program that janks on a schedule, for hours if asked
 * (bench/run-soak.py).
 *
 *   soak-app SECONDS INTERVAL_MS
 *
 * Every INTERVAL_MS a timeout stalls the main loop in one of several ways,
 * chosen by a fixed pseudo-random sequence (the same on both sides of a
 * benchmark): CPU work 60-400 ms at a recursion depth of 1-24 through one of
 * eight functions (so many distinct stacks, as in a real app), a sleep, a
 * mix of both, or now and then a 1.2 s freeze. Between stalls a 16 ms timer
 * does a little work, like an animation, so records flow all the time.
 * Prints "RESULT stalls=N" at the end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>

#include <stdlib.h>
#include <time.h>

#define SOAK_FUNC __attribute__ ((noinline, noclone))

static volatile guint64 sink;
static guint32 rng = 12345;
static guint stalls;
static GMainLoop *loop;

static guint32
next_random (void)
{
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}

static void
spin_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    for (int i = 0; i < 1000; i++)
      sink = sink * 6364136223846793005u + 1442695040888963407u;
}

typedef void (*Work) (guint depth, guint ms);

static void soak_dispatch_work (guint which, guint depth, guint ms);

#define SOAK_WORK(name)                                                                            \
  static SOAK_FUNC void name (guint depth, guint ms)                                               \
  {                                                                                                \
    if (depth > 0)                                                                                 \
      soak_dispatch_work ((guint) (sink % 8), depth - 1, ms);                                      \
    else                                                                                           \
      spin_ms (ms);                                                                                \
    sink++;                                                                                        \
  }

SOAK_WORK (soak_parse_document)
SOAK_WORK (soak_layout_rows)
SOAK_WORK (soak_measure_text)
SOAK_WORK (soak_load_thumbnails)
SOAK_WORK (soak_filter_model)
SOAK_WORK (soak_sort_items)
SOAK_WORK (soak_compute_diff)
SOAK_WORK (soak_render_chart)

static const Work works[8] = {
  soak_parse_document, soak_layout_rows, soak_measure_text, soak_load_thumbnails,
  soak_filter_model,   soak_sort_items,  soak_compute_diff, soak_render_chart,
};

static SOAK_FUNC void
soak_dispatch_work (guint which, guint depth, guint ms)
{
  works[which % 8](depth, ms);
}

static SOAK_FUNC void
soak_sleep (guint ms)
{
  g_usleep (ms * G_TIME_SPAN_MILLISECOND);
}

static gboolean
stall_cb (gpointer data)
{
  guint kind = next_random () % 16;
  guint ms = 60 + next_random () % 340;
  guint depth = 1 + next_random () % 24;

  sink = next_random ();
  if (kind == 0)
    soak_dispatch_work (next_random (), depth, 1200); /* a freeze */
  else if (kind < 10)
    soak_dispatch_work (next_random (), depth, ms);
  else if (kind < 13)
    soak_sleep (ms);
  else
    {
      soak_dispatch_work (next_random (), depth, ms / 2);
      soak_sleep (ms / 2);
    }
  stalls++;
  return G_SOURCE_CONTINUE;
}

static gboolean
tick_cb (gpointer data)
{
  spin_ms (1);
  return G_SOURCE_CONTINUE;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  guint seconds, interval_ms;

  if (argc != 3 || (seconds = (guint) atoi (argv[1])) == 0
      || (interval_ms = (guint) atoi (argv[2])) == 0)
    {
      g_printerr ("usage: soak-app SECONDS INTERVAL_MS\n");
      return 2;
    }
  loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (interval_ms, stall_cb, NULL);
  g_timeout_add (16, tick_cb, NULL);
  g_timeout_add_seconds (seconds, quit_cb, NULL);
  g_main_loop_run (loop);
  g_print ("RESULT stalls=%u\n", stalls);
  g_main_loop_unref (loop);
  return 0;
}
