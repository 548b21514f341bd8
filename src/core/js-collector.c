/* js-collector.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-collector.h"
#include "js-clock.h"
#include "js-context.h"
#include "js-detector.h"
#include "js-event-store.h"
#include "js-frame-detector.h"
#include "js-live.h"
#include "js-live-hang.h"
#include "js-log.h"
#include "js-mainloop.h"
#include "js-process-info.h"
#include "js-report.h"
#include "js-scrub.h"
#include "js-source-swap.h"
#include "js-stalls.h"
#include "js-stats.h"
#include "js-symbols.h"
#include "js-watchdog.h"

#include <json-glib/json-glib.h>

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
/* While the main loop is stuck past the first watchdog tier, the report (with
 * the stall's samples so far) is rewritten this often: a kill leaves it. */
#define HANG_REPORT_PERIOD_NS (1000 * JS_NS_PER_MS)

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
  JsContext context;      /* scenes, marks, focused window, CPU/load/memory */
  JsScrub *scrub;         /* JANKSCOPE_SCRUB: made on this thread (it reads passwd) */

  JsWatchdog *watchdog;   /* NULL: no watchdog */
  JsStallStore stalls;
  gboolean have_stalls;
  GArray *stall_headers;  /* scratch for js_watchdog_take */
  GPtrArray *stall_samples;
  guint64 written_stall_generation;
  JsonNode *previous_run; /* a previous run's unfinished hang, or NULL */
  gboolean previous_checked;

  guint64 records_seen;
  guint64 written_generation;  /* store generation in the last report */
  guint64 written_records;     /* records_seen in the last report */
  gint64 event_pending_since;  /* first unreported change of the store, 0 if none */
  gint64 last_write_ns;
  gint64 last_poll_check_ns;
  gint64 cpu_ns;               /* the collector thread's own CPU time, at the last tick */
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
  js_context_init (&c->context, config, start_ns);
  return c;
}

void
js_collector_set_watchdog (JsCollector *c, JsWatchdog *watchdog, JsModules *modules)
{
  c->watchdog = watchdog;
  js_stall_store_init (&c->stalls, modules, c->config->debuginfod);
  c->have_stalls = TRUE;
  c->stall_headers = g_array_new (FALSE, FALSE, sizeof (JsStallHeader));
  c->stall_samples = g_ptr_array_new ();
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
          js_context_feed (&c->context, &batch[i]);
        }
      total += n;
    }
  c->records_seen += total;
  return total;
}

/* The report document as of `now`: what the file gets, and (`live`) what
 * the live views get, with the recent frames. */
static char *
build_document (JsCollector *c, gint64 now, gboolean final, gboolean live, gsize *length)
{
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
    .stalls = c->have_stalls ? &c->stalls : NULL,
    .watchdog = c->watchdog,
    .previous_run = c->previous_run,
    .context = &c->context,
    .live = live,
    .collector_cpu_ns = c->cpu_ns,
  };

  js_process_info_read (&c->process);
  if (c->config->scrub && c->scrub == NULL)
    c->scrub = js_scrub_new_for_user ();
  in.scrub = c->scrub;
  return js_report_build (&in, length);
}

static void
write_report (JsCollector *c, gint64 now, gboolean final)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  gsize length = 0;

  json = build_document (c, now, final, FALSE, &length);
  c->last_write_ns = now;
  c->written_generation = c->store.generation + c->frames.frame_store.generation;
  c->written_records = c->records_seen;
  c->written_stall_generation = c->stalls.generation;
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

static gboolean
hang_in_progress (JsCollector *c, gint64 now)
{
  const JsStall *s = c->have_stalls ? c->stalls.ongoing : NULL;

  return s != NULL && now - s->h.start_ns >= c->config->watchdog_tier_ns[0];
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
      || (c->records_seen != c->written_records && now - c->last_write_ns >= STATS_REPORT_PERIOD_NS)
      || (hang_in_progress (c, now) && c->stalls.generation != c->written_stall_generation
          && now - c->last_write_ns >= HANG_REPORT_PERIOD_NS))
    write_report (c, now, FALSE);
}

/* Someone watches (the inspector window, the live viewer): a fresh snapshot
 * every JS_LIVE_PERIOD_MS, built here, off the main thread. */
static void
maybe_publish_live (JsCollector *c, gint64 now)
{
  gsize length = 0;
  char *json;

  if (!js_live_wanted (now) || now - js_live_last_publish_ns () < JS_LIVE_PERIOD_MS * JS_NS_PER_MS)
    return;
  json = build_document (c, now, FALSE, TRUE, &length);
  js_live_publish (g_bytes_new_take (json, length), now);
}

/* The watchdog's stalls: samples symbolized, stalls attached to events. */
static void
take_stalls (JsCollector *c, gint64 now)
{
  JsEventStore *stores[2] = { &c->store, &c->frames.frame_store };

  if (c->watchdog == NULL)
    return;
  js_watchdog_take (c->watchdog, c->stall_headers, c->stall_samples);
  js_stall_store_feed (&c->stalls, c->stall_headers, c->stall_samples);
  g_array_set_size (c->stall_headers, 0);
  js_stall_store_attach (&c->stalls, stores, G_N_ELEMENTS (stores), now);
}

/* A previous run that wrote to the same report and was killed during a hang
 * left its evidence there (an ongoing "hang" event, final: false): keep it
 * in this run's reports and say so once. */
static void
check_previous_run (JsCollector *c)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  JsonObject *root, *process;
  JsonArray *events;

  c->previous_checked = TRUE;
  if (c->report_path == NULL || !g_file_get_contents (c->report_path, &text, &length, NULL)
      || length > 64 * 1024 * 1024)
    return;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, (gssize) length, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  root = json_node_get_object (json_parser_get_root (parser));
  if (json_object_get_boolean_member_with_default (root, "final", TRUE)
      || !json_object_has_member (root, "events")
      || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "events")))
    return;
  events = json_object_get_array_member (root, "events");
  process = json_object_has_member (root, "process")
                && JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "process"))
              ? json_object_get_object_member (root, "process")
              : NULL;
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *node = json_array_get_element (events, i);
      JsonObject *e;
      g_autoptr (JsonBuilder) b = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      e = json_node_get_object (node);
      if (!json_object_get_boolean_member_with_default (e, "ongoing", FALSE))
        continue;
      b = json_builder_new ();
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, process ? json_object_get_int_member_with_default (process, "pid", 0) : 0);
      json_builder_set_member_name (b, "exe");
      json_builder_add_string_value (b, process ? json_object_get_string_member_with_default (process, "exe", "") : "");
      json_builder_set_member_name (b, "hang");
      json_builder_add_value (b, json_node_copy (node));
      json_builder_end_object (b);
      c->previous_run = json_builder_get_root (b);
      js_log_warning ("the previous run (pid %" G_GINT64_FORMAT ") ended during a %.1f s hang "
                      "of its main loop; its stacks are kept in %s under \"previous_run\"",
                      process ? json_object_get_int_member_with_default (process, "pid", 0) : 0,
                      json_object_get_int_member_with_default (e, "duration_ns", 0) / 1e9,
                      c->report_path);
      return;
    }
}

/* The next tick: TICK_MS from now, or sooner when a live snapshot is due.
 * Someone watches: a snapshot every JS_LIVE_PERIOD_MS on time, not at the
 * first tick after it is due (up to TICK_MS late: the window's refreshes
 * would be 0.5 or 0.75 s apart, at random). */
static gint64
next_tick_us (void)
{
  gint64 now_us = g_get_monotonic_time ();
  gint64 tick_us = now_us + TICK_MS * G_TIME_SPAN_MILLISECOND;
  gint64 published_ns = js_live_last_publish_ns ();

  if (published_ns > 0 && js_live_wanted (js_now_ns ()))
    tick_us = MIN (tick_us, published_ns / 1000 + JS_LIVE_PERIOD_MS * G_TIME_SPAN_MILLISECOND);
  return tick_us;
}

static gpointer
collector_thread (gpointer data)
{
  JsCollector *c = data;

  /* The first sample of CPU, load and memory, for events right at start. */
  js_context_tick (&c->context, js_now_ns (), TRUE);
  for (;;)
    {
      gboolean quit;
      gint64 now;

      g_mutex_lock (&c->lock);
      if (!c->quit)
        g_cond_wait_until (&c->cond, &c->lock, next_tick_us ());
      quit = c->quit;

      if (!c->previous_checked)
        check_previous_run (c);
      {
        struct timespec ts;

        if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
          c->cpu_ns = ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
      }
      drain (c);
      now = js_now_ns ();
      take_stalls (c, now);
      /* The live viewer's hang progress: the stall under way, symbolized. */
      if (c->have_stalls)
        js_live_hang_update (&c->stalls, c->config, now);
      js_event_store_tick (&c->store, now, js_mainloop_busy_since (), quit);
      js_event_store_tick (&c->frames.frame_store, now, js_mainloop_busy_since (), quit);
      js_context_tick (&c->context, now, quit);
      js_context_annotate (&c->context, &c->store);
      js_context_annotate (&c->context, &c->frames.frame_store);
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
      maybe_publish_live (c, now);
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
