/* scenario.h - shared helpers of the GLib test scenarios
 *
 * Every scenario runs on the main thread with the default GMainContext, ends
 * by itself and prints one "key=value" line per fact the test driver checks
 * (tests/check_*.py). A scenario that finds its own invariants broken prints
 * "FAIL: ..." on stderr and returns a non-zero exit code.
 *
 * The callbacks are exported (the executable is linked with -rdynamic) so
 * that jankscope can name them: the driver asserts on those names.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Spin (never sleep) for @ms milliseconds of g_get_monotonic_time (), then
 * print "stall=START_NS,END_NS" (CLOCK_MONOTONIC, as in the report). */
void busy_wait_ms (guint ms);

/* Quit @loop after @ms milliseconds (a timeout named "scenario-quit"). */
void quit_loop_after (GMainLoop *loop, guint ms);

/* Add a timeout named @name calling @func with @data after @ms. */
guint add_named_timeout (const char *name, guint ms, GSourceFunc func, gpointer data);

/* Exit the process with code 99 after 30 s, so that no scenario can hang. */
void start_watchdog (void);

/* Run the default context until g_main_loop_quit (@loop), under the
 * watchdog. */
void run_loop (GMainLoop *loop);

/* Print facts every scenario shares ("glib_version=2.74.6"). */
void print_common_facts (void);

/* Fail the scenario: message on stderr, exit code 2. */
G_GNUC_NORETURN G_GNUC_PRINTF (1, 2) void scenario_fail (const char *format, ...);

#define scenario_check(expr)                                                                       \
  G_STMT_START                                                                                     \
  {                                                                                                \
    if (!(expr))                                                                                   \
      scenario_fail ("%s:%d: check failed: %s", __FILE__, __LINE__, #expr);                        \
  }                                                                                                \
  G_STMT_END

typedef int (*ScenarioFunc) (void);

/* scenarios-basic.c */
int scenario_single_200ms (void);
int scenario_fast_1000 (void);
int scenario_idle_150 (void);
int scenario_idle_wait (void);
int scenario_active_wait (void);
int scenario_active_events (void);
int scenario_seeded_random (void);
int scenario_iteration_loop (void);
int scenario_custom_source (void);
int scenario_many_small (void);
int scenario_stall_then_quit (void);
int scenario_exit_in_dispatch (void);
int scenario_iteration_gap (void);
int scenario_first_iteration_gap (void);
int scenario_many_sources (void);
int scenario_no_loop (void);

/* scenarios-timeline.c: several stalls spread over time */
int scenario_merge (void);
int scenario_merge_apart (void);
int scenario_threshold_mix (void);
int scenario_sigterm (void);
int scenario_json_stream (void);
int scenario_boundary (void);
int scenario_many_parts (void);
int scenario_quit_on_stdin (void);
int scenario_event_stream (void);

/* scenarios-nested.c */
int scenario_nested (void);
int scenario_nested_slow (void);
int scenario_nested_iteration (void);

/* scenarios-pollfunc.c */
int scenario_pollfunc_after (void);
int scenario_pollfunc_replaced_internally (void);

/* scenarios-sources.c */
int scenario_idle_remove (void);
int scenario_worker_thread (void);
int scenario_spawn_child (void);
int scenario_fork_child (void);

/* scenarios-funcs.c */
int scenario_source_churn (void);
int scenario_dynamic_funcs (void);

G_END_DECLS
