/* js-collector.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-collector.h"
#include "js-clock.h"
#include "js-detector.h"
#include "js-event-store.h"
#include "js-frame-detector.h"
#include "js-log.h"
#include "js-mainloop.h"
#include "js-process-info.h"
#include "js-report.h"
#include "js-source-swap.h"
#include "js-stats.h"
#include "js-symbols.h"

#define BATCH 1024
/* The thread wakes 4 times a second, and early when the main thread finds the
 * ring half full: a bursty app is drained at once, a steady one costs 4
 * wake-ups a second (a futex wake-up costs ~50 µs of CPU on a VM, so waking
 * at frame rate alone would cost 0.25% of a core). An event is seen at most
 * 250 ms after it ends and written 1 s later: on disk within 1.5 s. */
#define TICK_MS 250
#define EVENT_REPORT_DELAY_NS (1000 * JS_NS_PER_MS)
#define STATS_REPORT_PERIOD_NS (10000 * JS_NS_PER_MS)
#define POLL_CHECK_PERIOD_NS (1000 * JS_NS_PER_MS)

struct _JsCollector
{
  const JsConfig *config;
  JsRing *ring;
  char *report_path;
  const char *mode;
  gint64 start_ns;

  GThread *thread;
  GMutex lock;     /* guards the fields below and the state (for later readers) */
  GCond cond;
  gboolean quit;
  gboolean done;

  JsStats stats;
  JsEventStore store;
  JsDetector detector;
  JsFrameDetector frames;
  JsSymbols *symbols;
  JsProcessInfo process;

  guint64 records_seen;
  guint64 written_generation;  /* store generation in the last report */
  guint64 written_records;     /* records_seen in the last report */
  gint64 event_pending_since;  /* first unreported change of the store, 0 if none */
  gint64 last_write_ns;
  gint64 last_poll_check_ns;
  GQuark last_error_domain;    /* last write error, printed once */
  int last_error_code;
};

JsCollector *
js_collector_new (const JsConfig *config, JsRing *ring, const char *report_path,
                  const char *mode, gint64 start_ns)
{
  JsCollector *c = g_new0 (JsCollector, 1);

  c->config = config;
  c->ring = ring;
  c->report_path = g_strdup (report_path);
  c->mode = mode;
  c->start_ns = start_ns;
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  js_stats_init (&c->stats);
  js_event_store_init (&c->store, config);
  js_detector_init (&c->detector, config, &c->stats, &c->store);
  js_frame_detector_init (&c->frames, config, &c->store);
  c->symbols = js_symbols_new ();
  return c;
}

void
js_collector_wake (gpointer collector)
{
  JsCollector *c = collector;

  /* Without the mutex: a wake-up lost to a race only means the regular tick
   * drains the ring, at worst 250 ms later. g_cond_signal never blocks. */
  g_cond_signal (&c->cond);
}

/* Returns how many records it consumed. Called with c->lock held. */
static guint
drain (JsCollector *c)
{
  JsRecord batch[BATCH];
  guint n, total = 0;

  while ((n = js_ring_pop (c->ring, batch, BATCH)) > 0)
    {
      for (guint i = 0; i < n; i++)
        {
          js_detector_feed (&c->detector, &batch[i]);
          js_frame_detector_feed (&c->frames, &batch[i]);
        }
      total += n;
    }
  c->records_seen += total;
  return total;
}

static void
write_report (JsCollector *c, gint64 now, gboolean final)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  gsize length = 0;
  JsReportInput in = {
    .config = c->config,
    .process = &c->process,
    .mode = c->mode,
    .start_ns = c->start_ns,
    .now_ns = now,
    .final = final,
    .stats = &c->stats,
    .store = &c->store,
    .frames = &c->frames,
    .symbols = c->symbols,
    .records_dropped = js_ring_dropped (c->ring),
    .poll_reinstalls = js_mainloop_poll_reinstalls (),
    .sources_not_timed = js_source_swap_refused (),
  };

  js_process_info_read (&c->process);
  json = js_report_build (&in, &length);
  c->last_write_ns = now;
  c->written_generation = c->store.generation + c->frames.frame_store.generation;
  c->written_records = c->records_seen;
  c->event_pending_since = 0;
  if (js_report_write (c->report_path, json, length, &error))
    {
      c->last_error_domain = 0;
      return;
    }
  /* Once per kind of error (the message names a random temporary file): a
   * full disk must not flood the app's stderr. */
  if (!g_error_matches (error, c->last_error_domain, c->last_error_code))
    {
      js_log_warning ("cannot write the report %s: %s; monitoring goes on", c->report_path,
                      error->message);
      c->last_error_domain = error->domain;
      c->last_error_code = error->code;
    }
}

static void
maybe_write_report (JsCollector *c, gint64 now)
{
  if (c->report_path == NULL)
    return;
  if (c->store.generation + c->frames.frame_store.generation != c->written_generation
      && c->event_pending_since == 0)
    c->event_pending_since = now;
  if (c->last_write_ns == 0                                                      /* first */
      || (c->event_pending_since != 0 && now - c->event_pending_since >= EVENT_REPORT_DELAY_NS)
      || (c->records_seen != c->written_records && now - c->last_write_ns >= STATS_REPORT_PERIOD_NS))
    write_report (c, now, FALSE);
}

static gpointer
collector_thread (gpointer data)
{
  JsCollector *c = data;

  for (;;)
    {
      gboolean quit;
      gint64 now;

      g_mutex_lock (&c->lock);
      if (!c->quit)
        g_cond_wait_until (&c->cond, &c->lock,
                           g_get_monotonic_time () + TICK_MS * G_TIME_SPAN_MILLISECOND);
      quit = c->quit;

      drain (c);
      now = js_now_ns ();
      js_event_store_tick (&c->store, now, js_mainloop_busy_since (), quit);
      js_event_store_tick (&c->frames.frame_store, now, js_mainloop_busy_since (), quit);
      if (now - c->last_poll_check_ns >= POLL_CHECK_PERIOD_NS)
        {
          js_mainloop_ensure_poll_func ();
          c->last_poll_check_ns = now;
        }
      if (quit)
        {
          if (c->report_path != NULL)
            write_report (c, now, TRUE);
          c->done = TRUE;
          g_cond_broadcast (&c->cond);
          g_mutex_unlock (&c->lock);
          return NULL;
        }
      maybe_write_report (c, now);
      g_mutex_unlock (&c->lock);
    }
}

void
js_collector_start (JsCollector *c)
{
  c->thread = g_thread_new ("jankscope", collector_thread, c);
}

void
js_collector_finish (JsCollector *c, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;

  g_mutex_lock (&c->lock);
  c->quit = TRUE;
  g_cond_broadcast (&c->cond);
  while (!c->done)
    if (!g_cond_wait_until (&c->cond, &c->lock, deadline))
      break;
  g_mutex_unlock (&c->lock);
}
