/* js-report-stacks.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-report-stacks.h"
#include "js-sampler.h"
#include "js-stall-analysis.h"
#include "js-signature.h"
#include "js-json.h"

void
js_report_add_frame (JsonBuilder *b, const JsFrame *f, const JsModule *m)
{
  g_autofree char *offset = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", f->offset);

  json_builder_begin_object (b);
  js_json_member_string (b, "function", f->function);
  js_json_member_string (b, "module", m ? m->name : NULL);
  js_json_member_string (b, "file", f->file);
  if (f->line > 0)
    js_json_member_int (b, "line", f->line);
  else
    js_json_member_string (b, "line", NULL);
  js_json_member_string (b, "offset", offset);
  js_json_member_string (b, "build_id", m ? m->build_id : NULL);
  if (f->inlined)
    {
      json_builder_set_member_name (b, "inlined");
      json_builder_add_boolean_value (b, TRUE);
    }
  json_builder_end_object (b);
}

static void
add_frame (JsonBuilder *b, JsStallStore *store, const JsFrame *f)
{
  js_report_add_frame (b, f, js_modules_get (store->modules, f->module));
}

/* The stack's signature (js-signature.h), with the default depth. */
static void
add_signature (JsonBuilder *b, JsStallStore *store, const JsStack *stack)
{
  g_autofree JsSignatureFrame *frames = NULL;
  g_autofree char *text = NULL;
  char id[17];
  guint n = stack != NULL ? stack->frames->len : 0;

  frames = g_new0 (JsSignatureFrame, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const JsFrame *f = &g_array_index (stack->frames, JsFrame, i);
      const JsModule *m = js_modules_get (store->modules, f->module);

      frames[i].function = f->function;
      frames[i].module = m ? m->name : NULL;
    }
  text = js_signature_compute (frames, n, JS_SIGNATURE_DEFAULT_FRAMES, id);
  json_builder_set_member_name (b, "signature");
  json_builder_add_string_value (b, text);
  json_builder_set_member_name (b, "signature_id");
  json_builder_add_string_value (b, id);
}

static void
add_stack_frames (JsonBuilder *b, JsStallStore *store, const JsStack *stack)
{
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint i = 0; stack != NULL && i < stack->frames->len; i++)
    add_frame (b, store, &g_array_index (stack->frames, JsFrame, i));
  json_builder_end_array (b);
}

static const char *
state_name (guint8 state)
{
  return state == JS_THREAD_RUNNING ? "running" : state == JS_THREAD_WAITING ? "waiting" : "unknown";
}

static void
add_watchdog (JsonBuilder *b, const JsConfig *config, const JsStallAnalysis *a)
{
  json_builder_set_member_name (b, "watchdog");
  if (a->n_stalls == 0)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  js_json_member_int (b, "detected_ns", a->detected_ns);
  json_builder_set_member_name (b, "tiers_crossed");
  json_builder_begin_array (b);
  for (guint i = 0; i < config->n_watchdog_tiers; i++)
    if (a->tier_at_ns[i] != 0)
      {
        json_builder_begin_object (b);
        js_json_member_int (b, "tier_ms", config->watchdog_tier_ns[i] / 1000000);
        js_json_member_int (b, "at_ns", a->tier_at_ns[i]);
        json_builder_end_object (b);
      }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "ping_latency_ns");
  if (a->ping_latency_ns >= 0)
    json_builder_add_int_value (b, a->ping_latency_ns);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "ping_caught");
  json_builder_add_boolean_value (b, a->ping_caught);
  json_builder_end_object (b);
}

static void
add_analysis (JsonBuilder *b, const JsConfig *config, JsStallStore *store, const JsStallAnalysis *a,
              gint64 duration_ns)
{
  guint n_stacks = MIN (a->stacks->len, JS_REPORT_MAX_STACKS);

  json_builder_set_member_name (b, "cpu_ns");
  if (a->cpu_ns >= 0)
    json_builder_add_int_value (b, a->cpu_ns);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "off_cpu_ns");
  if (a->cpu_ns >= 0)
    json_builder_add_int_value (b, MAX (0, a->watched_ns - a->cpu_ns));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "runnable_ns");
  if (a->runnable_ns >= 0)
    json_builder_add_int_value (b, a->runnable_ns);
  else
    json_builder_add_null_value (b);
  js_json_member_int (b, "watched_ns", a->watched_ns);
  js_json_member_string (b, "class", a->klass);
  js_json_member_string (b, "wait",
                         a->klass != NULL && a->wait != JS_WAIT_NONE
                                 && g_strcmp0 (a->klass, "compute") != 0
                             ? js_wait_kind_name (a->wait)
                             : NULL);

  json_builder_set_member_name (b, "culprit");
  if (a->culprit != NULL)
    {
      const JsModule *m = js_modules_get (store->modules, a->culprit->module);

      json_builder_begin_object (b);
      js_json_member_string (b, "function", a->culprit->function);
      js_json_member_string (b, "module", m ? m->name : NULL);
      js_json_member_string (b, "file", a->culprit->file);
      if (a->culprit->line > 0)
        js_json_member_int (b, "line", a->culprit->line);
      else
        js_json_member_string (b, "line", NULL);
      json_builder_set_member_name (b, "confidence");
      json_builder_add_double_value (b, ((gint64) (a->confidence * 1000 + 0.5)) / 1000.0);
      js_json_member_int (b, "time_ns", a->culprit_ns);
      js_json_member_int (b, "samples", (gint64) a->culprit_samples);
      js_json_member_int (b, "of_samples", (gint64) a->samples_with_stack);
      js_json_member_string (b, "reason", a->culprit_reason);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  js_json_member_int (b, "attributed_ns", a->attributed_ns);
  js_json_member_int (b, "unattributed_ns", MAX (0, duration_ns - a->attributed_ns));
  js_json_member_int (b, "samples_total", (gint64) a->samples);
  js_json_member_int (b, "samples_running", (gint64) a->samples_running);
  js_json_member_int (b, "samples_waiting", (gint64) a->samples_waiting);

  json_builder_set_member_name (b, "stacks");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_stacks; i++)
    {
      const JsStackCount *sc = &g_array_index (a->stacks, JsStackCount, i);
      const JsStack *stack = js_stack_table_get (store->stacks, sc->stack);

      json_builder_begin_object (b);
      js_json_member_int (b, "count", (gint64) sc->count);
      js_json_member_int (b, "time_ns", sc->time_ns);
      if (stack != NULL && stack->truncated)
        {
          json_builder_set_member_name (b, "truncated");
          json_builder_add_boolean_value (b, TRUE);
        }
      add_signature (b, store, stack);
      add_stack_frames (b, store, stack);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  js_json_member_int (b, "stacks_omitted", a->stacks->len - n_stacks);

  /* Samples over time; `stack` indexes `stacks` (-1: none or omitted). */
  json_builder_set_member_name (b, "samples");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->timeline->len && i < JS_REPORT_MAX_TIMELINE; i++)
    {
      const JsStallSampleInfo *s = &g_array_index (a->timeline, JsStallSampleInfo, i);
      gint64 index = -1;

      for (guint k = 0; k < n_stacks && s->stack != 0; k++)
        if (g_array_index (a->stacks, JsStackCount, k).stack == s->stack)
          index = k;
      json_builder_begin_object (b);
      js_json_member_int (b, "t_ns", s->time_ns);
      if (s->count > 1)
        js_json_member_int (b, "last_ns", s->last_ns);
      js_json_member_int (b, "count", s->count);
      js_json_member_string (b, "state", state_name (s->state));
      if (s->state == JS_THREAD_WAITING)
        {
          js_json_member_string (b, "wait", js_wait_kind_name (s->wait));
          js_json_member_int (b, "syscall", s->syscall);
        }
      js_json_member_int (b, "stack", index);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_watchdog (b, config, a);
}

void
js_report_add_event_stacks (JsonBuilder *b, const JsConfig *config, JsStallStore *store,
                            GPtrArray *stalls, gint64 start_ns, gint64 end_ns, gint64 duration_ns)
{
  JsStallAnalysis a;

  if (store == NULL)
    stalls = NULL;
  js_stall_analysis_compute (store, stalls, start_ns, end_ns, duration_ns, &a);
  add_analysis (b, config, store, &a, duration_ns);
  js_stall_analysis_clear (&a);
}

void
js_report_add_ongoing_hang (JsonBuilder *b, const JsConfig *config, JsStallStore *store,
                            gint64 now_ns)
{
  JsStall *s = store->ongoing;
  g_autoptr (GPtrArray) stalls = g_ptr_array_new ();
  gint64 end = MAX (s->h.last_seen_ns, s->h.start_ns);
  gint64 duration = end - s->h.start_ns;
  JsTier tier = js_config_tier (config, duration);

  g_ptr_array_add (stalls, s);
  json_builder_begin_object (b);
  js_json_member_int (b, "id", 0);
  js_json_member_string (b, "type", "hang");
  json_builder_set_member_name (b, "ongoing");
  json_builder_add_boolean_value (b, TRUE);
  js_json_member_int (b, "start_ns", s->h.start_ns);
  js_json_member_int (b, "end_ns", end);
  js_json_member_int (b, "duration_ns", duration);
  js_json_member_int (b, "max_part_ns", duration);
  js_json_member_string (b, "tier", (gint)tier >= 0 ? js_tier_name (tier) : NULL);
  js_json_member_string (b, "source", NULL);
  js_json_member_string (b, "callback", NULL);
  js_json_member_int (b, "parts_count", 0);
  js_report_add_event_stacks (b, config, store, stalls, s->h.start_ns, end, duration);
  json_builder_set_member_name (b, "parts");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

void
js_report_add_sampler_summary (JsonBuilder *b, JsStallStore *store, JsWatchdog *watchdog)
{
  JsWatchdogStats ws;
  JsSamplerCounters sc;
  JsSymbolizerStats ss = { 0 };

  json_builder_set_member_name (b, "sampler");
  if (watchdog == NULL || store == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  js_watchdog_get_stats (watchdog, &ws);
  js_sampler_get_counters (&sc);
  js_symbolizer_get_stats (store->symbolizer, &ss);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "signal");
  if (sc.signal != 0)
    json_builder_add_int_value (b, sc.signal);
  else
    json_builder_add_null_value (b);
  js_json_member_string (b, "unwinder", sc.unwinder);
  json_builder_set_member_name (b, "signal_lost");
  json_builder_add_boolean_value (b, sc.lost);
  js_json_member_int (b, "stalls", (gint64) ws.stalls);
  js_json_member_int (b, "stalls_without_event", (gint64) store->unattached);
  js_json_member_int (b, "samples", (gint64) ws.samples);
  js_json_member_int (b, "samples_running", (gint64) ws.samples_running);
  js_json_member_int (b, "samples_waiting", (gint64) ws.samples_waiting);
  js_json_member_int (b, "samples_folded", (gint64) ws.samples_folded);
  js_json_member_int (b, "samples_failed", (gint64) ws.samples_failed);
  js_json_member_int (b, "samples_dropped", (gint64) ws.samples_dropped);
  js_json_member_int (b, "signals_sent", (gint64) sc.requested);
  js_json_member_int (b, "signal_timeouts", (gint64) sc.timeouts);
  js_json_member_int (b, "signal_late", (gint64) sc.late);
  js_json_member_int (b, "signal_blocked", (gint64) ws.signal_blocked);
  js_json_member_int (b, "signals_withheld", (gint64) sc.withheld);
  js_json_member_int (b, "signals_deferred", (gint64) sc.deferred);
  js_json_member_int (b, "blocking_calls_eintr", (gint64) sc.blocking_eintr);
  js_json_member_int (b, "stack_copies_inconsistent", (gint64) ws.copies_inconsistent);
  js_json_member_int (b, "handler_ns_total", ws.handler_ns_total);
  js_json_member_int (b, "handler_ns_max", ws.handler_ns_max);
  js_json_member_int (b, "watchdog_wakeups", (gint64) ws.wakeups);
  js_json_member_int (b, "watchdog_parks", (gint64) ws.parks);
  js_json_member_int (b, "watchdog_cpu_ns", ws.thread_cpu_ns);
  js_json_member_int (b, "pings_sent", (gint64) ws.pings_sent);
  js_json_member_int (b, "pings_caught", (gint64) ws.pings_caught);
  js_json_member_int (b, "stacks_distinct", (gint64) js_stack_table_interned (store->stacks));
  js_json_member_int (b, "stacks_in_memory", js_stack_table_size (store->stacks));
  js_json_member_int (b, "stacks_dropped", (gint64) js_stack_table_dropped (store->stacks));
  js_json_member_int (b, "symbol_lookups", (gint64) ss.lookups);
  js_json_member_int (b, "symbol_cache_hits", (gint64) ss.cache_hits);
  json_builder_set_member_name (b, "debuginfod");
  if (ss.debuginfod_on)
    {
      json_builder_begin_object (b);
      js_json_member_int (b, "requested", ss.debuginfod.requested);
      js_json_member_int (b, "found", ss.debuginfod.found);
      js_json_member_int (b, "missing", ss.debuginfod.missing);
      js_json_member_int (b, "given_up", ss.debuginfod.given_up);
      js_json_member_int (b, "pending", ss.debuginfod.pending);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}
