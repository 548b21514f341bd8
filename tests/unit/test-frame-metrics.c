/* Unit tests of the frame metrics (js-frame-metrics.c) on synthetic records:
 * frame time, slow and frozen frames, correlation with dispatches, idle
 * windows. */
#include "js-config.h"
#include "js-event-store.h"
#include "js-frame-metrics.h"

#define MS ((gint64) 1000000)
#define BUDGET 16666667

typedef struct
{
  JsConfig config;
  JsEventStore dispatches;
  JsFrameMetrics frames;
} Fixture;

static const char *
no_env (const char *name)
{
  return NULL;
}

static void
setup (Fixture *f, gconstpointer data)
{
  js_config_load (&f->config, no_env);
  js_event_store_init (&f->dispatches, &f->config);
  js_frame_metrics_init (&f->frames, &f->config, &f->dispatches);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  js_frame_metrics_clear (&f->frames);
  js_event_store_clear (&f->dispatches);
}

/* A frame of `work_ms` ending at `end_ms` on window 1, `late_ms` after it was due. */
static void
frame (Fixture *f, gint64 end_ms, double work_ms, gboolean animating, double paint_ms,
       gint64 late_ms)
{
  JsRecord r = {
    .kind = JS_RECORD_FRAME,
    .end_ns = end_ms * MS,
    .start_ns = end_ms * MS - (gint64) (work_ms * MS),
    .inner_ns = BUDGET,
    .count = 1,
    .code = (void *) 0xf00,
    .name_id = 0,
    .flags = (1u << JS_PHASE_BEFORE_PAINT) | (1u << JS_PHASE_PAINT) | (1u << JS_PHASE_AFTER_PAINT)
             | (animating ? 1u << JS_PHASE_UPDATE : 0),
    .delay_us = (guint32) (late_ms * 1000),
  };
  r.phase_us[JS_PHASE_PAINT] = (guint32) (paint_ms * 1000);
  js_frame_metrics_feed (&f->frames, &r);
}

static void
dispatch (Fixture *f, gint64 start_ms, gint64 end_ms, const void *code)
{
  JsRecord r = {
    .kind = JS_RECORD_DISPATCH, .start_ns = start_ms * MS, .end_ns = end_ms * MS, .code = code
  };
  js_frame_metrics_feed (&f->frames, &r);
}

static JsEvent *
frame_event (Fixture *f, guint i)
{
  JsEventStore *s = &f->frames.frame_store;

  return i < s->events->len ? g_ptr_array_index (s->events, i) : s->open;
}

static void
test_steady_animation (Fixture *f, gconstpointer data)
{
  /* 300 frames, one every 16.67 ms: P50 is the budget, nothing slow. */
  for (guint i = 1; i <= 300; i++)
    frame (f, 1000 + (gint64) (i * 16.667), 2, TRUE, 1, 0);
  g_assert_cmpuint (f->frames.total.frames, ==, 300);
  g_assert_cmpuint (f->frames.total.slow, ==, 0);
  g_assert_cmpint (ABS (js_histogram_percentile (&f->frames.total.hist, 0.5) - BUDGET), <, 1 * MS);
  g_assert_cmpuint (f->frames.total.animating_frames, ==, 299);
  g_assert_null (frame_event (f, 0));
}

static void
test_stall_in_paint (Fixture *f, gconstpointer data)
{
  frame (f, 1000, 152, FALSE, 150, 0);
  g_assert_cmpuint (f->frames.total.slow, ==, 1);
  g_assert_nonnull (frame_event (f, 0));
  g_assert_cmpint (frame_event (f, 0)->duration_ns, ==, 152 * MS);
  g_assert_cmpint (frame_event (f, 0)->longest.frame->phase_ns[JS_PHASE_PAINT], ==, 150 * MS);
  g_assert_true (frame_event (f, 0)->longest.frame->fully_blocking);
  g_assert_true (frame_event (f, 0)->longest.frame->dispatches[0].code == (void *) 0xf00);
  g_assert_cmpuint (frame_event (f, 0)->longest.frame->dropped_frames, ==, 9);
}

static void
test_animation_delayed_by_dispatch (Fixture *f, gconstpointer data)
{
  JsPart slow = { .type = JS_RECORD_DISPATCH,
                  .start_ns = 1010 * MS,
                  .end_ns = 1210 * MS,
                  .duration_ns = 200 * MS,
                  .tier = JS_TIER_SEVERE };

  frame (f, 1000, 2, TRUE, 1, 0);
  dispatch (f, 1010, 1210, (void *) 0xbad);
  js_event_store_add_part (&f->dispatches, &slow);
  frame (f, 1215, 2, TRUE, 1, 198); /* due at 1015, ran at 1213 */
  g_assert_cmpuint (f->frames.total.slow, ==, 1);
  g_assert_cmpint (frame_event (f, 0)->duration_ns, ==, 215 * MS);
  g_assert_true (frame_event (f, 0)->longest.frame->dispatches[0].code == (void *) 0xbad);
  g_assert_true (frame_event (f, 0)->longest.frame->fully_blocking);
  /* The slow dispatch knows it made one frame late. */
  g_assert_cmpuint (g_array_index (f->dispatches.open->parts, JsPart, 0).frames_delayed, ==, 1);
}

/* A process's first frames come after many dispatches (more than the
 * recent ones kept): the dispatch that made the first frame late is still
 * found, so the dispatches before any frame must be kept too. */
static void
test_first_frame_after_many_dispatches (Fixture *f, gconstpointer data)
{
  for (gint64 i = 0; i < 3 * JS_FRAME_RECENT_DISPATCHES; i++)
    dispatch (f, i, i + 1, (void *) 0x5);
  dispatch (f, 2000, 2300, (void *) 0xbad);
  frame (f, 2310, 5, FALSE, 2, 295); /* due at 2010, waited for 0xbad */
  g_assert_cmpuint (f->frames.total.frames, ==, 1);
  g_assert_cmpuint (f->frames.total.slow, ==, 1);
  g_assert_true (frame_event (f, 0)->longest.frame->dispatches[0].code == (void *) 0xbad);
  g_assert_true (frame_event (f, 0)->longest.frame->fully_blocking);
}

static void
test_many_small_stalls_partially_blocking (Fixture *f, gconstpointer data)
{
  frame (f, 1000, 2, TRUE, 1, 0);
  for (gint64 i = 0; i < 10; i++)
    dispatch (f, 1002 + i * 10, 1012 + i * 10, (void *) (0x100 + i));
  frame (f, 1105, 2, TRUE, 1, 85);
  g_assert_cmpuint (f->frames.total.slow, ==, 1);
  g_assert_false (frame_event (f, 0)->longest.frame->fully_blocking);
  g_assert_cmpuint (frame_event (f, 0)->longest.frame->n_dispatches, ==, JS_FRAME_MAX_DISPATCHES);
}

static void
test_idle_between_animations (Fixture *f, gconstpointer data)
{
  /* An animation stops; another starts 2 s later, on time: no slow frame. */
  frame (f, 1000, 2, TRUE, 1, 0);
  frame (f, 3000, 2, TRUE, 1, 0);
  g_assert_cmpuint (f->frames.total.slow, ==, 0);
  g_assert_cmpint (f->frames.total.hist.max_ns, <=, BUDGET + 2 * MS);
}

static void
test_frozen_and_windows (Fixture *f, gconstpointer data)
{
  JsRecord gone = { .kind = JS_RECORD_CLOCK_GONE, .count = 1 };

  frame (f, 1000, 800, FALSE, 790, 0);
  g_assert_cmpuint (f->frames.total.frozen, ==, 1);
  g_assert_cmpint (frame_event (f, 0)->longest.frame->tier, ==, JS_TIER_FROZEN);
  g_assert_cmpuint (f->frames.windows->len, ==, 1);
  js_frame_metrics_feed (&f->frames, &gone);
  g_assert_true (((JsFrameWindow *) g_ptr_array_index (f->frames.windows, 0))->gone);
  frame (f, 2000, 2, FALSE, 1, 0); /* a new clock that got the same id is a new window */
  g_assert_cmpuint (f->frames.windows->len, ==, 2);
}

/* JANKSCOPE_THRESHOLD_MS=20, JANKSCOPE_TIERS_MS=90,210,880,
 * JANKSCOPE_SLOW_FRAME_PCT=300. */
static const char *
thresholds_env (const char *name)
{
  if (g_str_equal (name, "JANKSCOPE_THRESHOLD_MS"))
    return "20";
  if (g_str_equal (name, "JANKSCOPE_TIERS_MS"))
    return "90,210,880";
  if (g_str_equal (name, "JANKSCOPE_SLOW_FRAME_PCT"))
    return "300";
  return NULL;
}

/* Frames are judged by the configured thresholds (src/common/): slow over
 * 300% of the budget (50 ms), noticeable from the threshold (not from a
 * fixed 50 ms), frozen over the configured frozen bound. */
static void
test_configured_thresholds (Fixture *f, gconstpointer data)
{
  teardown (f, data);
  js_config_load (&f->config, thresholds_env);
  js_event_store_init (&f->dispatches, &f->config);
  js_frame_metrics_init (&f->frames, &f->config, &f->dispatches);

  frame (f, 1000, 40, FALSE, 39, 0); /* 2.4 budgets: on time under this rule */
  g_assert_cmpuint (f->frames.total.slow, ==, 0);
  frame (f, 2000, 60, FALSE, 59, 0);
  g_assert_cmpuint (f->frames.total.slow, ==, 1);
  g_assert_cmpint (frame_event (f, 0)->longest.frame->tier, ==, JS_TIER_NOTICEABLE);
  frame (f, 4000, 215, FALSE, 214, 0);
  g_assert_cmpuint (f->frames.total.frozen, ==, 1);
  g_assert_cmpint (frame_event (f, 1)->longest.frame->tier, ==, JS_TIER_FROZEN);

  /* The default rule and another threshold: a slow 30 ms frame is light
   * under a 50 ms threshold, noticeable under a 20 ms one. */
  teardown (f, data);
  setup (f, data);
  frame (f, 1000, 30, FALSE, 29, 0);
  g_assert_cmpint (frame_event (f, 0)->longest.frame->tier, ==, JS_TIER_LIGHT);
  teardown (f, data);
  js_config_load (&f->config, thresholds_env);
  f->config.slow_frame_pct = 150;
  js_event_store_init (&f->dispatches, &f->config);
  js_frame_metrics_init (&f->frames, &f->config, &f->dispatches);
  frame (f, 1000, 30, FALSE, 29, 0);
  g_assert_cmpint (frame_event (f, 0)->longest.frame->tier, ==, JS_TIER_NOTICEABLE);
}

/* The live views' ring: every frame, oldest first, bounded, with its flags. */
static void
test_recent_frames (Fixture *f, gconstpointer data)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (JsRecentFrame));
  const JsRecentFrame *last;
  gint64 t = 1000;

  for (guint i = 0; i < JS_FRAME_RECENT_FRAMES + 10; i++)
    {
      /* One slow frame near the end: due on time, 83 ms late to start. */
      gboolean late = i == JS_FRAME_RECENT_FRAMES + 5;

      t += late ? 100 : 17;
      frame (f, t, 2, TRUE, 1.5, late ? 83 : 0);
    }
  js_frame_metrics_recent (&f->frames, 0, out);
  g_assert_cmpuint (out->len, ==, JS_FRAME_RECENT_FRAMES);
  for (guint i = 1; i < out->len; i++)
    g_assert_cmpint (g_array_index (out, JsRecentFrame, i - 1).end_ns, <,
                     g_array_index (out, JsRecentFrame, i).end_ns);
  last = &g_array_index (out, JsRecentFrame, out->len - 1);
  g_assert_cmpint (last->end_ns, ==, t * MS);
  g_assert_cmpuint (last->phase_us[JS_PHASE_PAINT], ==, 1500);
  g_assert_cmpuint (last->budget_us, ==, BUDGET / 1000);
  g_assert_true (last->flags & JS_RECENT_FRAME_ANIMATING);
  g_assert_cmpuint (g_array_index (out, JsRecentFrame, out->len - 5).flags & JS_RECENT_FRAME_SLOW,
                    !=, 0);
  g_assert_cmpint (g_array_index (out, JsRecentFrame, out->len - 5).frame_ns, ==, 100 * MS);

  /* Only the frames after `since`. */
  g_array_set_size (out, 0);
  js_frame_metrics_recent (&f->frames, (t - 17 * 3) * MS, out);
  g_assert_cmpuint (out->len, ==, 3);
}

/* Each recent frame keeps the longest dispatches inside its frame time:
 * the frame's own (its work), then those that overlapped it (own time). */
static void
test_recent_frame_dispatches (Fixture *f, gconstpointer data)
{
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (JsRecentFrame));
  const JsRecentFrame *slow, *quiet;

  frame (f, 1000, 2, FALSE, 1, 0);
  frame (f, 1017, 2, TRUE, 1, 0);
  /* Inside the next frame's time (1017..1120): 60 ms, 10 ms, 0.5 ms, 5 ms,
   * and one that started before it (only its part inside counts). */
  dispatch (f, 1010, 1030, (void *) 0xa0);
  dispatch (f, 1030, 1090, (void *) 0xa1);
  dispatch (f, 1090, 1100, (void *) 0xa2);
  {
    JsRecord r = { .kind = JS_RECORD_DISPATCH,
                   .start_ns = 1100 * MS,
                   .end_ns = 1100 * MS + MS / 2,
                   .code = (void *) 0xa3 };
    js_frame_metrics_feed (&f->frames, &r);
  }
  dispatch (f, 1105, 1110, (void *) 0xa4);
  frame (f, 1120, 8, TRUE, 6, 78); /* due at 1034, ran 78 ms late: 103 ms */
  /* A frame on time: its own dispatch only. */
  frame (f, 1137, 3, TRUE, 2, 0);

  js_frame_metrics_recent (&f->frames, 0, out);
  g_assert_cmpuint (out->len, ==, 4);
  slow = &g_array_index (out, JsRecentFrame, 2);
  g_assert_cmpint (slow->frame_ns, ==, 103 * MS);
  g_assert_true (slow->flags & JS_RECENT_FRAME_SLOW);
  g_assert_cmpuint (slow->n_dispatches, ==, JS_RECENT_FRAME_DISPATCHES);
  g_assert_true (slow->dispatches[0].code == (void *) 0xa1);
  g_assert_cmpuint (slow->dispatches[0].duration_us, ==, 60000);
  g_assert_cmpuint (slow->dispatches[0].offset_us, ==, 13000); /* 1030 - 1017 */
  /* 0xa0 ran 1010..1030: 13 ms of it inside; 0xa2 10 ms; 0xa4 5 ms is 4th. */
  g_assert_true (slow->dispatches[1].code == (void *) 0xa0);
  g_assert_cmpuint (slow->dispatches[1].duration_us, ==, 13000);
  g_assert_cmpuint (slow->dispatches[1].offset_us, ==, 0);
  g_assert_true (slow->dispatches[2].code == (void *) 0xa2);
  g_assert_cmpuint (slow->dispatches[2].duration_us, ==, 10000);

  quiet = &g_array_index (out, JsRecentFrame, 3);
  g_assert_false (quiet->flags & JS_RECENT_FRAME_SLOW);
  g_assert_cmpuint (quiet->n_dispatches, ==, 1);
  g_assert_true (quiet->dispatches[0].code == (void *) 0xf00); /* the frame's own dispatch */
  g_assert_cmpuint (quiet->dispatches[0].duration_us, ==, 3000);
  g_assert_cmpuint (quiet->dispatches[0].offset_us, ==, 14000); /* 17 ms frame, 3 ms work */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, setup, fn, teardown)
  ADD ("/FrameMetrics/steady-animation", test_steady_animation);
  ADD ("/FrameMetrics/stall-in-paint", test_stall_in_paint);
  ADD ("/FrameMetrics/animation-delayed", test_animation_delayed_by_dispatch);
  ADD ("/FrameMetrics/first-frame-after-many-dispatches", test_first_frame_after_many_dispatches);
  ADD ("/FrameMetrics/partially-blocking", test_many_small_stalls_partially_blocking);
  ADD ("/FrameMetrics/idle-between-animations", test_idle_between_animations);
  ADD ("/FrameMetrics/frozen-and-windows", test_frozen_and_windows);
  ADD ("/FrameMetrics/configured-thresholds", test_configured_thresholds);
  ADD ("/FrameMetrics/recent-ring", test_recent_frames);
  ADD ("/FrameMetrics/recent-dispatches", test_recent_frame_dispatches);
#undef ADD
  return g_test_run ();
}
