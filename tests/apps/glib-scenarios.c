/* glib-scenarios.c - plain GLib programs for the jankscope tests
 *
 *   glib-scenarios SCENARIO [--exit-code=N]
 *
 * Runs one scenario (see scenario.h) on the default main context, prints
 * the facts the test driver checks as "key=value" lines, then exits with N
 * (default 0) so that the tests can check that the exit code is unchanged.
 */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
  const char *name;
  ScenarioFunc func;
} scenarios[] = {
  { "single-200ms", scenario_single_200ms },
  { "fast-1000", scenario_fast_1000 },
  { "idle-150", scenario_idle_150 },
  { "idle-wait", scenario_idle_wait },
  { "active-wait", scenario_active_wait },
  { "active-events", scenario_active_events },
  { "seeded-random", scenario_seeded_random },
  { "iteration-loop", scenario_iteration_loop },
  { "custom-source", scenario_custom_source },
  { "many-small", scenario_many_small },
  { "stall-then-quit", scenario_stall_then_quit },
  { "exit-in-dispatch", scenario_exit_in_dispatch },
  { "iteration-gap", scenario_iteration_gap },
  { "first-iteration-gap", scenario_first_iteration_gap },
  { "many-sources", scenario_many_sources },
  { "no-loop", scenario_no_loop },
  { "merge", scenario_merge },
  { "merge-apart", scenario_merge_apart },
  { "threshold-mix", scenario_threshold_mix },
  { "sigterm", scenario_sigterm },
  { "json-stream", scenario_json_stream },
  { "quit-on-stdin", scenario_quit_on_stdin },
  { "event-stream", scenario_event_stream },
  { "boundary", scenario_boundary },
  { "many-parts", scenario_many_parts },
  { "nested", scenario_nested },
  { "nested-slow", scenario_nested_slow },
  { "nested-iteration", scenario_nested_iteration },
  { "pollfunc-after", scenario_pollfunc_after },
  { "pollfunc-replaced-internally", scenario_pollfunc_replaced_internally },
  { "idle-remove", scenario_idle_remove },
  { "worker-thread", scenario_worker_thread },
  { "spawn-child", scenario_spawn_child },
  { "fork-child", scenario_fork_child },
  { "source-churn", scenario_source_churn },
  { "dynamic-funcs", scenario_dynamic_funcs },
};

static int
usage (void)
{
  fprintf (stderr, "usage: glib-scenarios SCENARIO [--exit-code=N]\nscenarios:");
  for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
    fprintf (stderr, " %s", scenarios[i].name);
  fputc ('\n', stderr);
  return 64;
}

int
main (int argc, char **argv)
{
  int exit_code = 0;
  int status;

  if (argc < 2 || argc > 3)
    return usage ();
  if (argc == 3)
    {
      if (!g_str_has_prefix (argv[2], "--exit-code="))
        return usage ();
      exit_code = atoi (argv[2] + strlen ("--exit-code="));
    }

  for (gsize i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (strcmp (argv[1], scenarios[i].name) == 0)
      {
        print_common_facts ();
        status = scenarios[i].func ();
        printf ("scenario=%s done\n", scenarios[i].name);
        return status != 0 ? status : exit_code;
      }
  return usage ();
}
