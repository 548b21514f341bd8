/* js-core.c: the core's entry point, called by the preload or the GTK3 module.
 *
 * Start-up runs on the thread to watch (the main thread), after main () has
 * started: at the first main-loop use (preload) or inside gtk_init () (GTK3
 * module). It reads the configuration, installs the main-loop hooks, and
 * starts the collector and watchdog threads. Nothing here may fail loudly: a
 * problem disables monitoring, with one line on stderr.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "jankscope-bridge.h"
#include "js-clock.h"
#include "js-collector.h"
#include "js-config.h"
#include "js-dbus-calls.h"
#include "js-focus.h"
#include "js-frame-hooks.h"
#include "js-gdk-threads.h"
#include "js-install-id.h"
#include "js-live-server.h"
#include "js-log.h"
#include "js-report-path.h"
#include "js-mainloop.h"
#include "js-names.h"
#include "js-posting.h"
#include "js-sampler.h"
#include "js-report-writer.h"
#include "js-ring.h"
#include "js-scenes.h"
#include "js-tsc-clock.h"
#include "js-ui-loader.h"
#include "js-watchdog.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* 16384 records of 80 bytes (1.3 MiB): 16 ms of a loop doing a million
 * dispatches a second, and the main thread wakes the collector at half. */
#define RING_CAPACITY 16384

static JsConfig config;
static JsRing *ring;
static JsCollector *collector;
static JsWatchdog *watchdog;
static JsModules *modules;
static JsLiveServer *live_server; /* JANKSCOPE_LIVE=1 */
static gboolean started;
static gboolean excluded; /* outside JANKSCOPE_INSTALL_SHARE */
static gboolean forked_child;

static void
at_fork_child (void)
{
  /* The child has none of our threads; it keeps running (or execs) with the
   * hooks forwarding only. Its exit must not wait for a collector that is
   * not there. */
  forked_child = TRUE;
  js_mainloop_disable ();
  /* No collector to re-anchor it: the kernel's clock. */
  js_tsc_clock_fork_child ();
  js_frame_hooks_disable ();
  js_scenes_disable ();
  js_focus_disable ();
  /* No watchdog thread here: the sampling signal goes back to its default. */
  js_watchdog_fork_child ();
}

static void
at_exit (void)
{
  gint64 deadline, left;

  if (forked_child || collector == NULL)
    return;
  /* The app's exit waits for jankscope until this deadline at most
   * (JANKSCOPE_EXIT_MS): the watchdog's last stall, the final report, a last
   * word to viewers. Past it jankscope gives up (the journal on disk holds
   * what it had written) and says so. */
  deadline = js_now_ns () + config.exit_wait_ns;
  js_mainloop_close_open_dispatches ();
  js_mainloop_disable ();
  js_frame_hooks_disable ();
  js_scenes_disable ();
  js_focus_disable ();
  /* The watchdog first: its last stall reaches the final report. */
  js_watchdog_stop (watchdog, deadline);
  if (!js_collector_finish (collector, deadline) && js_collector_report_path (collector) != NULL)
    {
      const char *path = js_collector_report_path (collector);
      g_autofree char *journal = g_strconcat (path, JS_JOURNAL_SUFFIX, NULL);

      /* A short-lived process on a loaded machine may not have written at
       * all yet: say so rather than point at files that are not there. */
      if (access (path, F_OK) == 0 || access (journal, F_OK) == 0)
        js_log_warning ("the final report was not finished within %d ms of the app's exit "
                        "(JANKSCOPE_EXIT_MS); %s and %s hold what was written until then "
                        "(jankscope reads both)",
                        (int) (config.exit_wait_ns / JS_NS_PER_MS), path, journal);
      else
        js_log_warning ("no report was written within %d ms of the app's exit "
                        "(JANKSCOPE_EXIT_MS): %s is missing",
                        (int) (config.exit_wait_ns / JS_NS_PER_MS), path);
    }
  /* Viewers get a last word with what is left; the socket is removed. */
  left = deadline - js_now_ns ();
  js_live_server_stop (live_server, (guint) MAX (left / JS_NS_PER_MS, 0));
}

static gboolean
resolve_poll_funcs (void (**set) (GMainContext *, GPollFunc), GPollFunc (**get) (GMainContext *))
{
  /* GLib's own functions, not the preload's stand-ins: dlsym on GLib's handle
   * looks in GLib first. */
  void *glib = dlopen ("libglib-2.0.so.0", RTLD_NOLOAD | RTLD_LAZY);

  if (glib == NULL)
    return FALSE;
  *set = (void (*) (GMainContext *, GPollFunc)) dlsym (glib, "g_main_context_set_poll_func");
  *get = (GPollFunc (*) (GMainContext *)) dlsym (glib, "g_main_context_get_poll_func");
  dlclose (glib);
  return *set != NULL && *get != NULL;
}

__attribute__ ((visibility ("default"))) int jankscope_core_start (JsBridge *bridge);

int
jankscope_core_start (JsBridge *bridge)
{
  void (*set_poll) (GMainContext *, GPollFunc);
  GPollFunc (*get_poll) (GMainContext *);
  const char *mode;
  gint64 start_ns = js_now_ns ();

  if (bridge == NULL || bridge->abi != JS_BRIDGE_ABI)
    {
      js_log_warning ("the preload and the core are from different builds; monitoring disabled");
      return -1;
    }
  if (started)
    return 0;
  if (excluded)
    return -1;
  if (!resolve_poll_funcs (&set_poll, &get_poll))
    {
      js_log_warning ("GLib's main-loop functions not found; monitoring disabled");
      return -1;
    }

  js_config_load (&config, g_getenv);
  js_log_set_debug (config.debug);
  /* Per-install buckets (docs/background.md): this install is in or out for good. */
  if (config.install_share < 1.0
      && !js_install_id_in_share (js_install_id (), config.install_share))
    {
      js_log_debug ("install %s is outside JANKSCOPE_INSTALL_SHARE=%g: not monitoring",
                    js_install_id () ? js_install_id () : "(no machine id)", config.install_share);
      excluded = TRUE;
      return -1;
    }
  /* JANKSCOPE_CHILDREN=0: only the run's first monitored process. A child
   * with a GLib program of ours above it (js-report-path.c's own rule for
   * who owns the report's plain path) stays out: one look at its parent
   * chain in /proc, once, in a child only. */
  if (!config.children && js_report_path_is_child (g_getenv (JS_REPORT_OWNER_VAR)))
    {
      js_log_debug ("a child of a monitored process: not monitoring (JANKSCOPE_CHILDREN=0)");
      excluded = TRUE;
      return -1;
    }
  mode = bridge->mode == JS_MODE_GTK_MODULE ? "gtk-module" : "preload";

  ring = js_ring_new (RING_CAPACITY);
  /* The path itself is resolved on the collector thread (js-report-path.c). */
  collector = js_collector_new (&config, ring, config.report_path, g_getenv (JS_REPORT_OWNER_VAR),
                                mode, start_ns);
  js_ring_set_wake (ring, js_collector_wake, collector);
  /* Before the first dispatch names its source. */
  js_names_set_unloads (bridge->unloads);
  js_mainloop_start (ring, bridge, set_poll, get_poll);
  if (bridge->mode == JS_MODE_PRELOAD)
    js_dbus_calls_install (bridge);
  /* Before the first dispatch of a gdk_threads_add_* source is timed. */
  js_gdk_threads_probe ();
  /* What runs from the poll function besides its own work: poll observers,
   * called in the order they are added here. */
  js_frame_hooks_init (ring);
  js_mainloop_add_poll_observer (js_frame_hooks_poll);
  js_scenes_start (ring);
  js_focus_init (ring, !config.scrub);
  js_mainloop_add_poll_observer (js_focus_poll);
  modules = js_modules_new ();
  watchdog = js_watchdog_new (&config, modules, config.sampling);
  if (bridge->mode == JS_MODE_PRELOAD)
    js_watchdog_use_sample_timer (watchdog);
  js_collector_set_watchdog (collector, watchdog, modules);
  /* Posting sites (preload only: the GTK module has no stand-ins). */
  js_posting_init (g_main_context_default (), config.post_stacks);
  js_posting_set_unwinder (js_sampler_backtrace ());
  if (bridge->mode == JS_MODE_PRELOAD)
    __atomic_store_n (&bridge->posted, js_posting_posted, __ATOMIC_RELEASE);
  js_ui_loader_init (config.ui, config.inspector);
  js_mainloop_add_poll_observer (js_ui_loader_poll);
  js_collector_start (collector);
  js_watchdog_start (watchdog);
  if (config.live)
    live_server = js_live_server_start (&config, start_ns);
  js_scenes_publish_api (bridge->api_table);

  pthread_atfork (NULL, NULL, at_fork_child);
  atexit (at_exit);
  started = TRUE;
  js_log_debug ("monitoring pid %d (%s mode), threshold %" G_GINT64_FORMAT " ms, report %s; "
                "start-up took %" G_GINT64_FORMAT " µs on the main thread",
                getpid (), mode, config.threshold_ns / JS_NS_PER_MS,
                config.report_path ? config.report_path : "(none)",
                (js_now_ns () - start_ns) / 1000);
  return 0;
}
