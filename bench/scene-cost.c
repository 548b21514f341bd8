/* scene-cost.c: what the annotation API (include/jankscope.h) costs the
 * app's main thread, per call: jankscope_scene_push + jankscope_scene_pop,
 * jankscope_mark_begin + jankscope_mark_end, jankscope_is_active, and an
 * empty loop as the baseline.
 *
 * Run it without the preload (the API's "not loaded" path: one load and one
 * branch) and with it (run-scene-cost.py does both, alternating). The calls
 * run on the main thread (the one jankscope watches: they are recorded) in
 * batches of 2048 pairs (4096 ring records). With jankscope, every 12288
 * records (less than the ring's 16384) an untimed sleep lets the
 * collector drain at its 250 ms tick, so no record is dropped: a dropped
 * record would cost less than a recorded one. (The collector is also woken
 * at half ring, but that wake can be missed by a burst followed by an idle
 * gap; the tick never is.)
 *
 * The last lines are machine-readable ("RESULT case=... ns_per_call=...").
 */
#include <jankscope.h>

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 2048

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static volatile int sink;

typedef enum
{
  CASE_EMPTY,
  CASE_SCENE,
  CASE_MARK,
  CASE_ACTIVE,
} Case;

static const char *const case_names[]
    = { "empty", "scene-push-pop", "mark-begin-end", "is-active" };

/* Nanoseconds per call (a pair counts two calls; "empty" and "is-active"
 * one per round). */
static double
measure (Case c, guint batches)
{
  static const char *const labels[] = { "chat-list", "chat-view", "settings", "inbox" };
  static guint pending; /* records since the last pause */
  gboolean records = (c == CASE_SCENE || c == CASE_MARK) && jankscope_is_active ();
  gint64 total = 0;

  for (guint b = 0; b < batches; b++)
    {
      gint64 start;

      /* Untimed: the collector drains at its next tick (250 ms). */
      if (records && pending + 2 * BATCH > 3 * 2 * BATCH)
        {
          g_usleep (270 * 1000);
          pending = 0;
        }
      if (records)
        pending += 2 * BATCH;
      start = now_ns ();

      switch (c)
        {
        case CASE_EMPTY:
          for (guint i = 0; i < BATCH; i++)
            sink = (int) i;
          break;
        case CASE_SCENE:
          for (guint i = 0; i < BATCH; i++)
            {
              jankscope_scene_push (labels[i & 3]);
              jankscope_scene_pop ();
            }
          break;
        case CASE_MARK:
          for (guint i = 0; i < BATCH; i++)
            {
              jankscope_mark_begin (labels[i & 3]);
              jankscope_mark_end ();
            }
          break;
        case CASE_ACTIVE:
          for (guint i = 0; i < BATCH; i++)
            sink = jankscope_is_active ();
          break;
        }
      total += now_ns () - start;
    }
  return (double) total / ((double) batches * BATCH * (c == CASE_SCENE || c == CASE_MARK ? 2 : 1));
}

int
main (int argc, char **argv)
{
  guint batches = argc > 1 ? (guint) atoi (argv[1]) : 100;

  if (batches == 0)
    {
      fprintf (stderr, "usage: %s [BATCHES of %d pairs]\n", argv[0], BATCH);
      return 2;
    }
  printf ("jankscope %s; %u batches of %d\n", jankscope_is_active () ? "active" : "not loaded",
          batches, BATCH);
  /* Warm-up: labels interned, caches and the branch predictor warm. */
  measure (CASE_SCENE, 1);
  measure (CASE_MARK, 1);
  for (Case c = CASE_EMPTY; c <= CASE_ACTIVE; c++)
    printf ("RESULT case=%s ns_per_call=%.2f active=%d\n", case_names[c], measure (c, batches),
            jankscope_is_active ());
  return 0;
}
