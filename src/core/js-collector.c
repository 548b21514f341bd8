/* js-collector.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-collector.h"
#include "js-callback-names.h"
#include "js-clock.h"
#include "js-context.h"
#include "js-event-store.h"
#include "js-frame-metrics.h"
#include "js-live.h"
#include "js-live-hang.h"
#include "js-log.h"
#include "js-loop-stats.h"
#include "js-mainloop.h"
#include "js-part-detector.h"
#include "js-process-info.h"
#include "js-futex.h"
#include "js-report.h"
#include "js-report-path.h"
#include "js-report-posting.h"
#include "js-report-writer.h"
#include "js-scrub.h"
#include "js-source-swap.h"
#include "js-stall-store.h"
#include "js-tsc-clock.h"
#include "js-wake-timer.h"
#include "js-watchdog.h"

#include <json-glib/json-glib.h>
#include <unistd.h>

#define BATCH 1024
/* While there is work under way (events open or not yet frozen, stalls not
 * settled, a reader) the thread wakes 4 times a second, and early when the
 * main thread finds the ring half full: a bursty app is drained at once. An
 * app that only records steadily (more than ACTIVE_RECORDS_PER_S: an
 * animation) is drained once a second (STREAM_TICK_MS) while no event is
 * open nor a stall under way (its closed events and ended stalls wait at
 * that pace), ticks at TICK_MS again as soon as a stall is under way, and
 * while only an episode is open wakes when it may close (the merge gap after
 * its end) or its changes are due in the journal (JOURNAL_PERIOD_NS),
 * whichever comes first: an app that janks all the time (every second a
 * slow frame: an episode open most of the time) woke 3.5 times a second for
 * it, and each wake-up costs ~85 µs of the thread's CPU on a VM whatever it
 * drains, ~200 µs with the report's per-wake work (gtk4-widget-factory:
 * 8.0 ms of CPU per 15 s at 4 a second, 4.2 ms at 1), while the ring holds
 * seconds of such an app's records. With none, it parks
 * on its wake timer (js-wake-timer.h) until the main thread's next activity,
 * which arms the timer for BATCH_NS later: a quiet app's records are
 * drained, and the summary journaled, once per batch; an idle app never
 * wakes it. A stall (the watchdog), a reader (js-live.c) or the ring wake
 * it at once. */
#define TICK_MS 250
#define STREAM_TICK_MS 1000
/* The main thread's TSC line outlives the slowest tick (js-tsc-clock.h). */
G_STATIC_ASSERT (STREAM_TICK_MS *JS_NS_PER_MS < JS_TSC_MAX_AGE_NS);
#define BATCH_NS (10000 * JS_NS_PER_MS)
#define ACTIVE_RECORDS_PER_S 40
/* What changed reaches the journal within a tick, but the same event or the
 * hang under way is written again at most this often: on disk, the
 * evidence is never older than this plus a tick (750 ms), or twice this for
 * the open episode of an app that records steadily (1 s). */
#define JOURNAL_PERIOD_NS (500 * JS_NS_PER_MS)
/* The hang under way is written whole (its samples, stacks and profile:
 * 15-50 KB of JSON, most of the collector's CPU during a long stall when it
 * was written every JOURNAL_PERIOD_NS) at most this often; in between, a
 * `hang_progress` line of a hundred bytes keeps its duration and tier on
 * disk as fresh as the rest. */
#define HANG_WHOLE_PERIOD_NS (2000 * JS_NS_PER_MS)
/* A large event still growing (a long episode: its parts, their profiles)
 * is written again at most once per JOURNAL_PERIOD_NS per this many bytes
 * of it, and at least every JOURNAL_MAX_PERIOD_NS: rewriting 200 KiB twice
 * a second for a minute-long episode would cost the collector more than
 * everything else together (json-glib building it). */
#define JOURNAL_CHUNK_BYTES (32 * 1024)
#define JOURNAL_MAX_PERIOD_NS (5000 * JS_NS_PER_MS)
/* The summary (counts, histograms, sources) is journaled this often when it
 * changed; every second while events change, so that its event counts keep
 * up with the events on disk. */
#define MEMBERS_PERIOD_NS (10000 * JS_NS_PER_MS)
#define MEMBERS_EVENTS_PERIOD_NS (1000 * JS_NS_PER_MS)
#define POLL_CHECK_PERIOD_NS (1000 * JS_NS_PER_MS)
/* A closed event is serialized for good this long after it closed: by then
 * its stalls have been attached (they wait 1.5 s for their event) and its
 * frames have been seen. */
#define FREEZE_AFTER_NS (3000 * JS_NS_PER_MS)

struct _JsCollector
{
  const JsConfig *config;
  JsRing *ring;
  char *report_template;  /* JANKSCOPE_REPORT, or NULL: no report */
  char *report_owner;     /* JANKSCOPE_REPORT_OWNER at start-up, or NULL */
  char *report_path;      /* resolved by the thread before its first write; its own */
  JsReportWriter *writer; /* made on the thread; NULL: no report */
  JsReportWriterStats writer_stats;
  char run_id[48];
  const char *mode;
  gint64 start_ns;

  GThread *thread;
  int wake_word;     /* futex: bumped to wake the thread */
  JsWakeTimer timer; /* fds -1: no parking, a tick every TICK_MS */
  gboolean can_park;
  int park; /* non-zero while parked (js_mainloop_add_sleeper) */
  int parks;
  gint64 woke_ns;       /* when it last woke */
  guint64 records_woke; /* records_seen then */
  gboolean active;      /* it saw more than ACTIVE_RECORDS_PER_S since */
  int quit;
  int done; /* futex: set once the final report is written */

  JsLoopStats loop_stats;
  JsEventStore store;
  JsPartDetector part_detector;
  JsPostSites *posts; /* NULL without a watchdog */
  JsFrameMetrics frames;
  JsCallbackNames *callback_names;
  JsProcessInfo process;
  JsContext context; /* scenes, marks, focused window, CPU/load/memory */
  JsScrub *scrub;    /* JANKSCOPE_SCRUB: made on this thread (it reads passwd) */

  JsWatchdog *watchdog; /* NULL: no watchdog */
  JsStallStore stalls;
  gboolean have_stalls;
  GArray *stall_headers; /* scratch for js_watchdog_take */
  GPtrArray *stall_samples;
  JsonNode *previous_run; /* a previous run's unfinished hang, or NULL */

  guint64 records_seen;
  gboolean snapshot_written; /* the first whole report is on disk */
  guint64 members_records;   /* records_seen when the summary was last journaled */
  gint64 members_ns;
  gboolean members_events_pending; /* events were journaled since the summary was */
  guint64 hang_generation;         /* stalls.generation when the hang was last journaled */
  gint64 hang_ns;                  /* when it was last journaled, whole or its progress */
  gint64 hang_whole_ns;            /* when it was last journaled whole */
  gboolean hang_journaled;         /* the journal's last hang line is a hang, not its end */
  gint64 last_poll_check_ns;
  gint64 cpu_ns; /* the collector thread's own CPU time, at the last tick */
};

JsCollector *
js_collector_new (const JsConfig *config, JsRing *ring, const char *report_template,
                  const char *report_owner, const char *mode, gint64 start_ns)
{
  JsCollector *c = g_new0 (JsCollector, 1);

  c->config = config;
  c->ring = ring;
  c->report_template = g_strdup (report_template);
  c->report_owner = g_strdup (report_owner);
  c->mode = mode;
  c->start_ns = start_ns;
  g_snprintf (c->run_id, sizeof c->run_id, "%d-%" G_GINT64_FORMAT, (int) getpid (), start_ns);
  js_loop_stats_init (&c->loop_stats);
  js_event_store_init (&c->store, config);
  js_part_detector_init (&c->part_detector, config, &c->loop_stats, &c->store);
  js_frame_metrics_init (&c->frames, config, &c->store);
  c->callback_names = js_callback_names_new ();
  js_context_init (&c->context, config, start_ns);
  return c;
}

void
js_collector_set_watchdog (JsCollector *c, JsWatchdog *watchdog, JsModules *modules)
{
  c->watchdog = watchdog;
  if (watchdog != NULL)
    js_watchdog_set_on_stall (watchdog, js_collector_wake, c);
  js_stall_store_init (&c->stalls, modules, c->config->debuginfod);
  js_symbolizer_set_debug_dirs (c->stalls.symbolizer, (const char *const *) c->config->debug_dirs);
  /* Callbacks are named by the same symbolizer as stack frames. */
  js_callback_names_set_symbolizer (c->callback_names, c->stalls.symbolizer, modules);
  /* Posting sites' stacks go to the same table as the samples'. */
  c->posts = js_post_sites_new (c->stalls.stacks, modules);
  c->part_detector.posts = c->posts;
  c->have_stalls = TRUE;
  c->stall_headers = g_array_new (FALSE, FALSE, sizeof (JsStallHeader));
  c->stall_samples = g_ptr_array_new ();
}

void
js_collector_wake (gpointer collector)
{
  JsCollector *c = collector;

  /* Lock-free and never lost: the thread waits on this word's value, or
   * polls the eventfd. */
  __atomic_add_fetch (&c->wake_word, 1, __ATOMIC_SEQ_CST);
  if (c->can_park)
    js_wake_timer_wake_now (&c->timer);
  else
    js_futex_wake (&c->wake_word);
}

/* One record, to the parts that use it. Nearly all are dispatches and
 * iterations: they go straight to the two functions that take them (one
 * test of the kind here instead of one in every part; js_context_feed takes
 * neither). A dispatch that carries the iteration it ended is fed as both,
 * as if they had come one after the other. Returns how many records it
 * stood for. */
static inline guint
feed (JsCollector *c, const JsRecord *r)
{
  JsRecord iteration;

  if (r->kind == JS_RECORD_DISPATCH)
    {
      js_part_detector_feed_dispatch (&c->part_detector, r);
      js_frame_metrics_add_dispatch (&c->frames, r);
      if (js_record_iteration_of (r, &iteration))
        {
          js_part_detector_feed_iteration (&c->part_detector, &iteration);
          return 2;
        }
    }
  else if (r->kind == JS_RECORD_ITERATION)
    js_part_detector_feed_iteration (&c->part_detector, r);
  else
    {
      js_part_detector_feed (&c->part_detector, r);
      js_frame_metrics_feed (&c->frames, r);
      js_context_feed (&c->context, r);
    }
  return 1;
}

/* Returns how many records it consumed, a dispatch that carries its
 * iteration counted as two. They are read in the ring, not copied out, and
 * handed back a batch at a time. */
static guint
drain (JsCollector *c)
{
  const JsRecord *records;
  guint n, total = 0;

  while ((n = js_ring_peek (c->ring, &records, BATCH)) > 0)
    {
      for (guint i = 0; i < n; i++)
        total += feed (c, &records[i]);
      js_ring_release (c->ring, n);
    }
  c->records_seen += total;
  return total;
}

/* What the report is made of, as of `now`. */
static void
report_input (JsCollector *c, gint64 now, gboolean final, gboolean live, JsReportInput *out)
{
  JsReportInput in = {
    .config = c->config,
    .process = &c->process,
    .mode = c->mode,
    .start_ns = c->start_ns,
    .now_ns = now,
    .final = final,
    .loop_stats = &c->loop_stats,
    .store = &c->store,
    .frames = &c->frames,
    .callback_names = c->callback_names,
    .posts = c->posts,
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
  if (c->writer != NULL)
    {
      js_report_writer_get_stats (c->writer, &c->writer_stats);
      in.writer_stats = &c->writer_stats;
      if (!live)
        {
          in.journal_run = c->run_id;
          in.journal_seq = js_report_writer_seq (c->writer);
        }
    }
  *out = in;
}

/* The report document as of `now`: what the file gets, and (`live`) what
 * the live views get, with the recent frames. */
static char *
build_document (JsCollector *c, gint64 now, gboolean final, gboolean live, gsize *length)
{
  JsReportInput in;

  report_input (c, now, final, live, &in);
  return js_report_build (&in, length);
}

static void
mark_store_journaled (JsEventStore *store, gint64 now)
{
  for (guint i = 0; i <= store->events->len; i++)
    {
      JsEvent *e = i < store->events->len ? g_ptr_array_index (store->events, i) : store->open;

      /* Written in the snapshot, built afresh: the text journaled before
       * is no longer what it would give. */
      if (e != NULL)
        js_event_note_journaled (e, NULL, now);
    }
}

static void
journal_hang (JsCollector *c, const JsReportInput *in, gint64 now)
{
  gsize length;
  g_autofree char *json = js_report_ongoing_hang_json (in, TRUE, &length);

  js_report_writer_add_hang (c->writer, json, length);
  c->hang_generation = c->stalls.generation;
  c->hang_ns = now;
  c->hang_whole_ns = now;
  c->hang_journaled = TRUE;
}

static void
journal_hang_progress (JsCollector *c, const JsReportInput *in, gint64 now)
{
  gsize length;
  g_autofree char *json = js_report_hang_progress_json (in, &length);

  js_report_writer_add_hang_progress (c->writer, json, length);
  c->hang_generation = c->stalls.generation;
  c->hang_ns = now;
}

/* The whole report, and a new journal. */
static void
write_snapshot (JsCollector *c, gint64 now, gboolean final)
{
  g_autofree char *json = NULL;
  JsReportInput in;
  gsize length = 0;

  json = build_document (c, now, final, FALSE, &length);
  if (!js_report_writer_snapshot (c->writer, json, length, final))
    return;
  c->snapshot_written = TRUE;
  mark_store_journaled (&c->store, now);
  mark_store_journaled (&c->frames.frame_store, now);
  c->members_records = c->records_seen;
  c->members_ns = now;
  c->members_events_pending = FALSE;
  /* The next run on this path looks for a hang in the journal only: a hang
   * under way starts the new journal. */
  report_input (c, now, final, FALSE, &in);
  c->hang_journaled = FALSE;
  if (!final && js_report_has_ongoing_hang (&in))
    {
      journal_hang (c, &in, now);
      js_report_writer_flush (c->writer);
    }
}

static gint64
journal_period (const JsEvent *e)
{
  gint64 chunks = (gint64) (e->journaled_bytes / JOURNAL_CHUNK_BYTES);

  return CLAMP (JOURNAL_PERIOD_NS * MAX (chunks, 1), JOURNAL_PERIOD_NS, JOURNAL_MAX_PERIOD_NS);
}

static void
journal_events (JsCollector *c, const JsReportInput *in, JsEventStore *store, gint64 now,
                gboolean force)
{
  for (guint i = 0; i <= store->events->len; i++)
    {
      JsEvent *e = i < store->events->len ? g_ptr_array_index (store->events, i) : store->open;

      if (e == NULL || js_event_journal_is_current (e))
        continue;
      /* A new episode waits for its close (merge gap, 500 ms by default:
       * it then has its context, and the stall it showed pending folded in
       * later leaves its text as it was) up to JOURNAL_PERIOD_NS after its
       * first part ended: one line where there were two of ~30 KB each, open
       * then closed, in an app that janks once a second. */
      if (e == store->open && e->journaled == 0 && !force && e->parts->len > 0
          && now - g_array_index (e->parts, JsPart, 0).end_ns < JOURNAL_PERIOD_NS)
        continue;
      /* An event that still changes is written again at most every
       * JOURNAL_PERIOD_NS (longer for a large one); its final form (frozen)
       * at once. */
      if (e->frozen == NULL && !force && e->journaled != 0
          && now - e->journaled_ns < journal_period (e))
        continue;
      {
        g_autoptr (GBytes) json
            = e->frozen != NULL ? g_bytes_ref (e->frozen) : js_report_event_json (in, e);

        /* The text of its last line (closing it, or folding in a stall
         * whose samples it showed already, can leave it as it was; frozen,
         * it is mostly its last line, freeze_events): nothing to write. */
        if (e->journaled_json == NULL || !g_bytes_equal (json, e->journaled_json))
          {
            js_report_writer_add_event (c->writer, json);
            e->journaled_bytes = g_bytes_get_size (json);
          }
        js_event_note_journaled (e, json, now);
      }
    }
}

/* Whatever changed since the last tick, as journal lines; the whole report
 * when the journal has grown as large as it. `final`: everything now, and
 * the journal's "final" line (the report follows). */
static void
persist (JsCollector *c, gint64 now, gboolean final)
{
  JsReportInput in;
  guint64 lines_before;
  gboolean events_changed;

  if (c->writer == NULL)
    return;
  if (!c->snapshot_written)
    {
      write_snapshot (c, now, FALSE);
      if (!final)
        return;
    }
  report_input (c, now, FALSE, FALSE, &in);
  lines_before = js_report_writer_seq (c->writer);
  journal_events (c, &in, &c->store, now, final);
  journal_events (c, &in, &c->frames.frame_store, now, final);
  events_changed = js_report_writer_seq (c->writer) != lines_before;
  if (events_changed)
    c->members_events_pending = TRUE;
  if (js_report_has_ongoing_hang (&in))
    {
      if (!c->hang_journaled)
        journal_hang (c, &in, now);
      else if (c->stalls.generation != c->hang_generation && now - c->hang_ns >= JOURNAL_PERIOD_NS)
        {
          if (now - c->hang_whole_ns >= HANG_WHOLE_PERIOD_NS)
            journal_hang (c, &in, now);
          else
            journal_hang_progress (c, &in, now);
        }
    }
  else if (c->hang_journaled)
    {
      js_report_writer_add_hang (c->writer, NULL, 0);
      c->hang_journaled = FALSE;
    }
  if (final || (c->records_seen != c->members_records && now - c->members_ns >= MEMBERS_PERIOD_NS)
      || (c->members_events_pending && now - c->members_ns >= MEMBERS_EVENTS_PERIOD_NS))
    {
      gsize length;
      g_autofree char *json = js_report_members_json (&in, &length);

      js_report_writer_add_members (c->writer, json, length);
      c->members_records = c->records_seen;
      c->members_ns = now;
      c->members_events_pending = FALSE;
    }
  if (final)
    js_report_writer_add_final (c->writer);
  js_report_writer_flush (c->writer);
  if (!final && js_report_writer_wants_snapshot (c->writer))
    write_snapshot (c, now, FALSE);
}

/* Someone watches (the inspector window, the live viewer): a fresh snapshot
 * every JS_LIVE_PERIOD_MS, built here, off the main thread. */
static void
maybe_publish_live (JsCollector *c, gint64 now)
{
  gsize length = 0;
  char *json;

  if (js_live_due_in_ns (now) != 0)
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
  /* The stuck dispatch's posting site, read while its full stack is there
   * (the stall's own attaches take many). */
  if (c->stalls.ongoing != NULL)
    js_report_hang_post_site (c->posts, c->stalls.ongoing);
  g_array_set_size (c->stall_headers, 0);
  /* Debug files fetched since (debuginfod) name the stacks better. */
  js_stack_table_refresh (c->stalls.stacks);
  js_stall_store_attach (&c->stalls, stores, G_N_ELEMENTS (stores), now);
}

static gboolean
stall_may_join (JsStallStore *stalls, const JsEvent *e)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, stalls->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const JsStall *s = value;

      if (s->h.start_ns < e->end_ns && (s->h.end_ns == 0 || s->h.end_ns > e->start_ns))
        return TRUE;
    }
  return FALSE;
}

/* Events that can no longer change are serialized once and let go of their
 * parts and stalls (js-event-store.h): memory and report cost per kept
 * event stay bounded however long the run. */
static void
freeze_events (JsCollector *c, JsEventStore *store, gint64 now)
{
  JsReportInput in;
  gboolean have_input = FALSE;
  GBytes *journaled;

  for (guint i = 0; i < store->events->len; i++)
    {
      JsEvent *e = g_ptr_array_index (store->events, i);

      if (e->frozen != NULL || now - e->closed_ns < FREEZE_AFTER_NS
          || (c->have_stalls && stall_may_join (&c->stalls, e)))
        continue;
      /* Unchanged since the journal wrote it: the same text, not built
       * again. */
      if ((journaled = js_event_journaled_json (e)) != NULL)
        {
          js_event_store_freeze (store, e, g_bytes_ref (journaled));
          continue;
        }
      if (!have_input)
        {
          report_input (c, now, FALSE, FALSE, &in);
          have_input = TRUE;
        }
      js_event_store_freeze (store, e, js_report_event_json (&in, e));
    }
}

/* The report's path is checked and the previous run's hang looked for here,
 * on this thread: both touch files that are not ours. */
static void
open_report (JsCollector *c)
{
  if (c->report_template == NULL)
    return;
  /* Deciding who owns the plain path may read other processes' /proc
   * files, which the main thread must not wait for. */
  c->report_path = js_report_path_resolve (c->report_template, c->report_owner);
  js_log_debug ("pid %d writes its report to %s", getpid (), c->report_path);
  c->writer = js_report_writer_new (c->report_path, c->run_id);
  if (c->writer == NULL)
    return;
  c->previous_run = js_report_writer_find_previous_hang (c->writer);
  if (c->previous_run != NULL)
    {
      JsonObject *o = json_node_get_object (c->previous_run);
      JsonObject *hang = json_object_get_object_member (o, "hang");

      js_log_warning ("the previous run (pid %" G_GINT64_FORMAT ") ended during a %.1f s hang "
                      "of its main loop; its stacks are kept in %s under \"previous_run\"",
                      json_object_get_int_member_with_default (o, "pid", 0),
                      json_object_get_int_member_with_default (hang, "duration_ns", 0) / 1e9,
                      c->report_path);
    }
}

/* An event closed but not frozen yet (FREEZE_AFTER_NS after its close). */
static gboolean
store_unfrozen (const JsEventStore *store)
{
  for (guint i = 0; i < store->events->len; i++)
    if (((JsEvent *) g_ptr_array_index (store->events, i))->frozen == NULL)
      return TRUE;
  return FALSE;
}

/* How long the thread may sleep with no news: TICK_MS while work is under
 * way, STREAM_TICK_MS while the app only records steadily and no event is
 * open nor a stall under way (events that closed and wait to be frozen,
 * stalls that ended and wait to settle, do not bring TICK_MS back then: an
 * app with a slow frame now and then, gtk4-demo's fishbowl, would be at
 * TICK_MS most of the time for no news), between TICK_MS and
 * JOURNAL_PERIOD_NS while such an app has an episode open, sooner when a
 * live snapshot is due (someone watches: a snapshot every
 * JS_LIVE_PERIOD_MS on time, not at the first tick after it is due), until
 * the summary's journal period when only that is left, or -1: nothing to do
 * until the app does something. */
static gint64
next_wait_ns (JsCollector *c)
{
  gint64 now = js_now_ns ();
  gint64 tick = TICK_MS * JS_NS_PER_MS;
  gint64 wait = -1;
  gint64 live_due = js_live_due_in_ns (now);

  /* The later of the open episodes' horizons, 0 when none is open. */
  gint64 horizon
      = MAX (js_event_store_horizon (&c->store), js_event_store_horizon (&c->frames.frame_store));

  if ((horizon != 0 && !c->active) || c->hang_journaled
      || (c->have_stalls && c->stalls.ongoing != NULL)
      || (c->writer != NULL && !c->snapshot_written)
      || (!c->active
          && ((c->have_stalls && g_hash_table_size (c->stalls.live) > 0)
              || store_unfrozen (&c->store) || store_unfrozen (&c->frames.frame_store))))
    wait = tick;
  else
    {
      if (c->writer != NULL && (c->records_seen != c->members_records || c->members_events_pending))
        wait = MAX (tick,
                    c->members_ns
                        + (c->members_events_pending ? MEMBERS_EVENTS_PERIOD_NS : MEMBERS_PERIOD_NS)
                        - now);
      if (c->active)
        wait = wait < 0 ? STREAM_TICK_MS * JS_NS_PER_MS : MIN (wait, STREAM_TICK_MS * JS_NS_PER_MS);
      /* An episode open in an app that records steadily: not before it may
       * close (its parts come with the records), nor after its changes are
       * due in the journal. */
      if (horizon != 0)
        wait = MIN (wait, CLAMP (horizon - now, tick, JOURNAL_PERIOD_NS));
    }
  /* Never negative when someone watches: a snapshot made overdue by this
   * thread's own work (symbolizing a stall's first samples) once made this
   * -1, a park of BATCH_NS, and a reader saw no snapshot for a whole hang. */
  if (live_due >= 0)
    wait = wait < 0 ? live_due : MIN (wait, live_due);
  if (!c->can_park && wait < 0)
    wait = tick;
  return wait < 0 ? -1 : MAX (wait, 1);
}

/* Sleeps until woken or `timeout_ns` (-1: parked until the app's next
 * activity, a stall, a reader or the exit). */
static void
collector_wait (JsCollector *c, int seen, gint64 timeout_ns)
{
  if (!c->can_park)
    {
      js_futex_wait (&c->wake_word, seen, timeout_ns);
      return;
    }
  if (timeout_ns >= 0)
    {
      js_wake_timer_wait (&c->timer, timeout_ns);
      return;
    }
  c->parks = c->parks == G_MAXINT ? 1 : c->parks + 1;
  js_mainloop_park (&c->park, c->parks);
  /* Looked at after raising the flag (sequentially consistent, as the poll
   * function's return and the ring's head): records pushed since the drain,
   * or a main thread still busy, whose next return from poll may be far
   * away, are drained a batch later at the latest. */
  if (js_mainloop_stuck_since () != 0)
    timeout_ns = BATCH_NS;
  else if (!js_ring_is_empty (c->ring))
    timeout_ns = BATCH_NS;
  if (__atomic_load_n (&c->wake_word, __ATOMIC_SEQ_CST) == seen
      && !__atomic_load_n (&c->quit, __ATOMIC_SEQ_CST))
    js_wake_timer_wait (&c->timer, timeout_ns);
  __atomic_store_n (&c->park, 0, __ATOMIC_SEQ_CST);
  /* Woken otherwise than by it: the timer the main thread armed for this
   * park would wake the next one for nothing. */
  js_wake_timer_arm (&c->timer, 0);
}

static gpointer
collector_thread (gpointer data)
{
  JsCollector *c = data;

  /* The main thread's clock (js-tsc-clock.h): calibrated and re-anchored
   * here, off the main thread, whenever this thread wakes. */
  js_tsc_clock_start ();
  open_report (c);
  /* The first sample of CPU, load and memory, for events right at start. */
  js_context_tick (&c->context, js_now_ns (), TRUE);
  for (;;)
    {
      int seen = __atomic_load_n (&c->wake_word, __ATOMIC_ACQUIRE);
      gboolean quit;
      gint64 now;

      if (!__atomic_load_n (&c->quit, __ATOMIC_ACQUIRE))
        collector_wait (c, seen, next_wait_ns (c));
      quit = __atomic_load_n (&c->quit, __ATOMIC_ACQUIRE);
      js_tsc_clock_anchor ();
      {
        struct timespec ts;

        if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
          c->cpu_ns = ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
      }
      drain (c);
      now = js_now_ns ();
      /* A steady stream of records (an animating app): ticks, not parks. */
      c->active = (c->records_seen - c->records_woke) * JS_NS_PER_MS * 1000
                  > (guint64) MAX (now - c->woke_ns, 1) * ACTIVE_RECORDS_PER_S;
      c->woke_ns = now;
      c->records_woke = c->records_seen;
      take_stalls (c, now);

      /* The live viewer's hang progress: the stall under way, symbolized. */
      if (c->have_stalls)
        js_live_hang_update (&c->stalls, c->posts, c->config, now);
      js_event_store_tick (&c->store, now, js_mainloop_busy_since (), quit);
      js_event_store_tick (&c->frames.frame_store, now, js_mainloop_busy_since (), quit);
      /* The sample's time read with its CPU clock, not `now`: the work above
       * (symbolizing a stall) can take tens of ms, and a sample's CPU paired
       * with an older time makes the next window's share too high (over
       * 100 % per CPU). */
      js_context_tick (&c->context, js_now_ns (), quit);
      js_context_annotate (&c->context, &c->store);
      js_context_annotate (&c->context, &c->frames.frame_store);
      freeze_events (c, &c->store, now);
      freeze_events (c, &c->frames.frame_store, now);
      if (now - c->last_poll_check_ns >= POLL_CHECK_PERIOD_NS)
        {
          js_mainloop_ensure_poll_func ();
          c->last_poll_check_ns = now;
        }
      if (quit)
        {
          /* The journal first (small, quick): if the whole report is not
           * done before the app's exit deadline, the journal has it all. */
          if (c->writer != NULL)
            {
              persist (c, now, TRUE);
              write_snapshot (c, now, TRUE);
            }
          __atomic_store_n (&c->done, 1, __ATOMIC_RELEASE);
          js_futex_wake (&c->done);
          return NULL;
        }
      persist (c, now, FALSE);
      maybe_publish_live (c, now);
    }
}

void
js_collector_start (JsCollector *c)
{
  if (js_wake_timer_open (&c->timer))
    c->can_park = js_mainloop_add_sleeper (&c->park, &c->timer, BATCH_NS, FALSE);
  if (!c->can_park)
    js_log_debug ("no timerfd or eventfd: the collector wakes every %d ms", TICK_MS);
  c->woke_ns = js_now_ns ();
  js_live_set_wake (js_collector_wake, c);
  c->thread = g_thread_new ("jankscope", collector_thread, c);
}

gboolean
js_collector_finish (JsCollector *c, gint64 deadline_ns)
{
  /* The app waits for the final report: from now on no module's symbols
   * are loaded (loading libc's compressed debug information alone takes
   * 100 ms): frames of modules not loaded yet keep their module, offset and
   * build id, enough to name them later. Set from here, so a lookup under
   * way on the thread sees it before its next load. */
  if (c->have_stalls)
    js_symbolizer_set_deadline (c->stalls.symbolizer, js_now_ns ());
  __atomic_store_n (&c->quit, 1, __ATOMIC_RELEASE);
  js_collector_wake (c);
  /* Never a lock the thread may hold: the exit of the app waits on one
   * word, and no longer than the deadline. */
  while (!__atomic_load_n (&c->done, __ATOMIC_ACQUIRE))
    {
      gint64 left = deadline_ns - js_now_ns ();

      if (left <= 0)
        return FALSE;
      js_futex_wait (&c->done, 0, left);
    }
  return TRUE;
}

const char *
js_collector_report_path (JsCollector *c)
{
  return c->report_path;
}
