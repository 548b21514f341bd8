/* jse-common.c: what every format of "jankscope export" shares
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jse-common.h"
#include "jsr-display.h"
#include "jsr-saturate.h"

JseContext *
jse_context_new (gboolean scrub, JseAlign align)
{
  JseContext *ctx = g_new0 (JseContext, 1);

  ctx->inputs = g_ptr_array_new_with_free_func (g_free);
  ctx->reports = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_report_free);
  ctx->processes = g_ptr_array_new ();
  ctx->pids = g_hash_table_new (g_direct_hash, g_direct_equal);
  ctx->strings = g_string_chunk_new (4096);
  ctx->align = align;
  if (scrub)
    ctx->scrubber = jse_scrubber_new ();

  return ctx;
}

static void
process_free (JseProcess *process)
{
  g_ptr_array_unref (process->events);
  g_free (process);
}

void
jse_context_free (JseContext *ctx)
{
  if (ctx == NULL)
    return;
  for (guint i = 0; i < ctx->processes->len; i++)
    process_free (g_ptr_array_index (ctx->processes, i));
  g_ptr_array_unref (ctx->processes);
  g_hash_table_unref (ctx->pids);
  g_ptr_array_unref (ctx->inputs);
  g_ptr_array_unref (ctx->reports);
  jse_scrubber_free (ctx->scrubber);
  g_string_chunk_free (ctx->strings);
  g_free (ctx->folded_prefix);
  g_free (ctx);
}

const char *
jse_text (JseContext *ctx, const char *text)
{
  g_autofree char *scrubbed = NULL;

  if (text == NULL)
    return NULL;
  if (ctx->scrubber == NULL)
    return g_string_chunk_insert_const (ctx->strings, text);
  scrubbed = jse_scrubber_apply (ctx->scrubber, text);
  return g_string_chunk_insert_const (ctx->strings, scrubbed);
}

gint64
jse_event_end (const JsrReportEvent *event)
{
  gint64 end = jsr_sat_add (event->start_ns, event->duration_ns);

  if (event->detail != NULL && event->detail->end_ns > event->start_ns)
    end = event->detail->end_ns;
  return end;
}

/* --- loading ------------------------------------------------------------ */

static void
learn_frames (JseScrubber *scrubber, GPtrArray *frames)
{
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    {
      const JsrReportFrame *frame = g_ptr_array_index (frames, i);

      jse_scrubber_learn (scrubber, frame->file);
      jse_scrubber_learn (scrubber, frame->module);
    }
}

static void
learn_event (JseScrubber *scrubber, const JsrReportEvent *event)
{
  if (event->culprit != NULL)
    jse_scrubber_learn (scrubber, event->culprit->file);
  learn_frames (scrubber, event->top_stack);
  if (event->detail == NULL)
    return;
  for (guint i = 0; i < event->detail->stacks->len; i++)
    {
      const JsrReportStack *stack = g_ptr_array_index (event->detail->stacks, i);

      learn_frames (scrubber, stack->frames);
    }
}

static void
learn_report (JseScrubber *scrubber, const JsrReport *report, const char *path)
{
  jse_scrubber_learn (scrubber, path);
  for (guint i = 0; i < report->events->len; i++)
    learn_event (scrubber, g_ptr_array_index (report->events, i));
  if (report->previous_run != NULL)
    {
      jse_scrubber_learn (scrubber, report->previous_run->exe);
      if (report->previous_run->hang != NULL)
        learn_event (scrubber, report->previous_run->hang);
    }
}

static gboolean
pid_taken (JseContext *ctx, gint64 pid)
{
  return g_hash_table_contains (ctx->pids, GINT_TO_POINTER ((gint32) pid));
}

static JseProcess *
add_process (JseContext *ctx, guint input, const JsrReport *report, gint64 real_pid,
             const char *name, gboolean previous_run)
{
  JseProcess *process = g_new0 (JseProcess, 1);

  process->report = report;
  process->input = input;
  process->previous_run = previous_run;
  process->real_pid = real_pid > 0 ? real_pid : JSR_UNKNOWN;
  if (real_pid > 0 && real_pid < JSE_SYNTHETIC_PID && !pid_taken (ctx, real_pid))
    process->pid = (gint32) real_pid;
  else
    do
      process->pid = JSE_SYNTHETIC_PID + ctx->synthetic_pids++;
    while (pid_taken (ctx, process->pid));
  process->name = jse_text (ctx, name != NULL && name[0] != '\0' ? name : "process");
  {
    g_autofree char *bare
        = previous_run ? g_strdup_printf ("%s (previous run, killed during a hang)", process->name)
                       : g_strdup (process->name);

    process->title = g_string_chunk_insert (ctx->strings, bare);
  }
  if (process->real_pid == JSR_UNKNOWN)
    process->label = process->title;
  else
    {
      g_autofree char *label
          = previous_run ? g_strdup_printf ("%s (pid %lld, previous run, killed during a hang)",
                                            process->name, (long long) real_pid)
                         : g_strdup_printf ("%s (pid %lld)", process->name, (long long) real_pid);

      process->label = g_string_chunk_insert (ctx->strings, label);
      /* A made-up pid: the viewer shows that one, so the title keeps the real one. */
      if (process->pid != real_pid)
        process->title = process->label;
    }
  process->events = g_ptr_array_new ();
  g_ptr_array_add (ctx->processes, process);
  g_hash_table_add (ctx->pids, GINT_TO_POINTER (process->pid));

  return process;
}

static char *
hang_key (gint64 pid, gint64 start_ns)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT "@%" G_GINT64_FORMAT, pid, start_ns);
}

/* The hang of a killed run is on disk twice when its own report (written
 * during the hang) is exported with the next run's (previous_run), and once
 * per report of every next run that found it: exported once. @hangs holds
 * "pid@start" of the hangs exported so far. */
static gboolean
hang_exported (GHashTable *hangs, const JsrReportPreviousRun *previous)
{
  g_autofree char *key = NULL;

  if (previous->pid == JSR_UNKNOWN)
    return FALSE; /* cannot tell: export it */
  key = hang_key (previous->pid, previous->hang->start_ns);
  if (g_hash_table_contains (hangs, key))
    return TRUE;
  g_hash_table_add (hangs, g_steal_pointer (&key));
  return FALSE;
}

static void
widen (JseContext *ctx, const JseProcess *process, gint64 start_ns, gint64 end_ns)
{
  ctx->origin_ns = MIN (ctx->origin_ns, jse_time (process, start_ns));
  ctx->end_ns = MAX (ctx->end_ns, jse_time (process, end_ns));
}

static void
build_processes (JseContext *ctx)
{
  g_autoptr (GHashTable) hangs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 first_start = G_MAXINT64;

  for (guint i = 0; i < ctx->reports->len; i++)
    {
      const JsrReport *report = g_ptr_array_index (ctx->reports, i);

      first_start = MIN (first_start, report->start_ns);
      for (guint k = 0; report->pid > 0 && k < report->events->len; k++)
        {
          const JsrReportEvent *event = g_ptr_array_index (report->events, k);

          if (event->ongoing)
            g_hash_table_add (hangs, hang_key (report->pid, event->start_ns));
        }
    }

  for (guint i = 0; i < ctx->reports->len; i++)
    {
      const JsrReport *report = g_ptr_array_index (ctx->reports, i);
      gint64 shift
          = ctx->align == JSE_ALIGN_START ? jsr_sat_sub (first_start, report->start_ns) : 0;
      const JsrReportPreviousRun *previous = report->previous_run;
      JseProcess *process = add_process (ctx, i, report, report->pid, report->name, FALSE);

      process->shift_ns = shift;
      for (guint k = 0; k < report->events->len; k++)
        g_ptr_array_add (process->events, g_ptr_array_index (report->events, k));

      if (previous != NULL && previous->hang != NULL && !hang_exported (hangs, previous))
        {
          g_autofree char *name = previous->exe != NULL ? g_path_get_basename (previous->exe)
                                                        : g_strdup (report->name);

          process = add_process (ctx, i, report, previous->pid, name, TRUE);
          process->shift_ns = shift;
          g_ptr_array_add (process->events, previous->hang);
        }
    }

  ctx->origin_ns = G_MAXINT64;
  ctx->end_ns = G_MININT64;
  for (guint i = 0; i < ctx->processes->len; i++)
    {
      const JseProcess *process = g_ptr_array_index (ctx->processes, i);

      if (!process->previous_run)
        widen (ctx, process, process->report->start_ns,
               jsr_sat_add (process->report->start_ns, MAX (process->report->monitored_ns, 0)));
      for (guint k = 0; k < process->events->len; k++)
        {
          const JsrReportEvent *event = g_ptr_array_index (process->events, k);

          widen (ctx, process, event->start_ns, jse_event_end (event));
        }
    }
  if (ctx->origin_ns > ctx->end_ns)
    ctx->origin_ns = ctx->end_ns = 0;
}

gboolean
jse_context_load (JseContext *ctx, char **paths, GError **error)
{
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *display_name = g_filename_display_name (paths[i]);
      g_autoptr (GError) local_error = NULL;
      JsrReport *report = jsr_report_load_full (paths[i], &local_error);
      JseInput *input;

      if (report == NULL)
        {
          g_autofree char *name = jsr_display_filename (paths[i]);

          g_set_error (error, local_error->domain, local_error->code, "%s: %s", name,
                       local_error->message);
          return FALSE;
        }
      g_ptr_array_add (ctx->reports, report);
      input = g_new0 (JseInput, 1);
      input->report = report;
      input->path = g_string_chunk_insert (ctx->strings, paths[i]);
      g_ptr_array_add (ctx->inputs, input);
      if (ctx->scrubber != NULL)
        learn_report (ctx->scrubber, report, display_name);
    }

  /* Names are known only now: scrub after all inputs were learned. */
  for (guint i = 0; i < ctx->inputs->len; i++)
    {
      JseInput *input = g_ptr_array_index (ctx->inputs, i);
      g_autofree char *display_name = g_filename_display_name (input->path);

      input->display_name = jse_text (ctx, display_name);
    }

  build_processes (ctx);
  return TRUE;
}

/* --- frames ------------------------------------------------------------- */

const char *
jse_frame_name (JseContext *ctx, const JsrReportFrame *frame)
{
  g_autofree char *name = NULL;

  if (frame->function != NULL && frame->function[0] != '\0')
    return g_string_chunk_insert_const (ctx->strings, frame->function);
  if (frame->module != NULL && frame->offset != NULL)
    name = g_strdup_printf ("%s+%s", frame->module, frame->offset);
  else if (frame->module != NULL)
    name = g_strdup_printf ("%s+?", frame->module);
  else if (frame->offset != NULL)
    name = g_strdup_printf ("[unknown]+%s", frame->offset);
  else
    return "[unknown]";

  return jse_text (ctx, name);
}

/* --- where the time went: profiles, each moment once ------------------------ */

const JsrReportFrame jse_other_frame
    = { .function = (char *) JSR_PROFILE_OTHER_NAME, .line = JSR_UNKNOWN };
const JsrReportFrame jse_truncated_frame
    = { .function = (char *) JSR_PROFILE_TRUNCATED_NAME, .line = JSR_UNKNOWN };

static const JsrReportFrame *
frame_of (const JsrProfile *profile, const JsrProfileNode *n)
{
  if (n->frame == JSR_PROFILE_TRUNCATED)
    return JSE_TRUNCATED_FRAME;
  if (n->frame < 0)
    return JSE_OTHER_FRAME;
  if (n->site != NULL)
    return n->site;
  return g_ptr_array_index (profile->frames, n->frame);
}

const JsrReportFrame *
jse_node_frame (const JsrProfile *profile, guint node)
{
  return frame_of (profile, &g_array_index (profile->nodes, JsrProfileNode, node));
}

void
jse_node_frames (const JsrProfile *profile, guint node, GPtrArray *out)
{
  g_autoptr (GPtrArray) path = g_ptr_array_new ();

  jsr_profile_path (profile, node, path);
  for (guint i = 0; i < path->len; i++)
    g_ptr_array_add (out, (gpointer) frame_of (profile, g_ptr_array_index (path, i)));
}

static gboolean
is_frame_event (const JsrReportEvent *event)
{
  return g_strcmp0 (event->type, "frame") == 0;
}

static const JsrProfile *
event_profile (const JsrReportEvent *event)
{
  return event->detail != NULL ? event->detail->profile : NULL;
}

gboolean
jse_main_loop_overlaps (const JseProcess *process, gint64 start_ns, gint64 end_ns)
{
  for (guint i = 0; i < process->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (process->events, i);

      if (!is_frame_event (event) && event->start_ns < end_ns && jse_event_end (event) > start_ns)
        return TRUE;
    }
  return FALSE;
}

/* The times of the samples of the process's main-loop events (dispatch,
 * iteration, hang): keys point into the reports' sample arrays. */
static GHashTable *
main_loop_sample_times (const JseProcess *process)
{
  GHashTable *times = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < process->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (process->events, i);

      if (is_frame_event (event) || event->detail == NULL)
        continue;
      for (guint k = 0; k < event->detail->samples->len; k++)
        {
          JsrReportSample *sample = &g_array_index (event->detail->samples, JsrReportSample, k);

          g_hash_table_add (times, &sample->t_ns);
        }
    }

  return times;
}

static void
add_weight (GArray *out, const JseProcess *process, const JsrReportEvent *event, guint node,
            gint64 samples, gint64 time_ns)
{
  JseNodeWeight w = { process, event, event_profile (event), node, samples, time_ns };

  if (samples > 0 || time_ns > 0)
    g_array_append_val (out, w);
}

/* Every node of the event's profile with self samples or time. */
static void
add_profile (GArray *out, const JseProcess *process, const JsrReportEvent *event)
{
  const JsrProfile *profile = event_profile (event);

  for (guint n = 0; profile != NULL && n < profile->nodes->len; n++)
    {
      const JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, n);

      add_weight (out, process, event, n, node->self_samples, node->self_ns);
    }
}

/* An older report's frame event: its samples no other event counted, each
 * at its stack's node, with its share of the event's watched time (rounded
 * on the running sum, so that all of them make watched_ns). */
static void
add_frame_event_samples (GArray *out, const JseProcess *process, const JsrReportEvent *event,
                         GHashTable *seen)
{
  const JsrProfile *profile = event_profile (event);
  GArray *samples = event->detail->samples;
  g_autofree gint64 *counts = NULL;
  gint64 total = 0, sum = 0, given = 0;
  gint64 watched = MAX (event->watched_ns, 0);

  if (profile == NULL)
    return;
  counts = g_new0 (gint64, profile->nodes->len);
  for (guint k = 0; k < samples->len; k++)
    {
      JsrReportSample *sample = &g_array_index (samples, JsrReportSample, k);

      total = jsr_sat_add (total, MAX (sample->count, 0));
      if (g_hash_table_contains (seen, &sample->t_ns))
        continue;
      g_hash_table_add (seen, &sample->t_ns);
      if (sample->node >= 0 && (guint) sample->node < profile->nodes->len)
        counts[sample->node] = jsr_sat_add (counts[sample->node], MAX (sample->count, 0));
    }
  total = MAX (total, event->samples_total);
  for (guint n = 0; n < profile->nodes->len; n++)
    {
      gint64 share;

      if (counts[n] == 0)
        continue;
      sum = jsr_sat_add (sum, counts[n]);
      share = total > 0 ? (gint64) ((__int128) watched * MIN (sum, total) / total) : 0;
      add_weight (out, process, event, n, counts[n], share - given);
      given = share;
    }
}

GArray *
jse_profile_weights (JseContext *ctx)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (JseNodeWeight));

  for (guint p = 0; p < ctx->processes->len; p++)
    {
      const JseProcess *process = g_ptr_array_index (ctx->processes, p);
      g_autoptr (GHashTable) seen = main_loop_sample_times (process);

      for (guint i = 0; i < process->events->len; i++)
        {
          const JsrReportEvent *event = g_ptr_array_index (process->events, i);
          const JsrProfile *profile = event_profile (event);

          if (profile == NULL)
            continue;
          if (!is_frame_event (event))
            add_profile (out, process, event);
          else if (profile->from_stacks)
            add_frame_event_samples (out, process, event, seen);
          else if (!jse_main_loop_overlaps (process, event->start_ns, jse_event_end (event)))
            add_profile (out, process, event);
        }
    }

  return out;
}

static gint
by_time (gconstpointer a, gconstpointer b)
{
  const JseTimedSample *x = a, *y = b;

  return (x->sample->t_ns > y->sample->t_ns) - (x->sample->t_ns < y->sample->t_ns);
}

GArray *
jse_timeline (const JseProcess *process)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (JseTimedSample));
  g_autoptr (GHashTable) seen = main_loop_sample_times (process);

  for (guint i = 0; i < process->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (process->events, i);
      gboolean frame = is_frame_event (event);

      if (event->detail == NULL)
        continue;
      for (guint k = 0; k < event->detail->samples->len; k++)
        {
          JsrReportSample *sample = &g_array_index (event->detail->samples, JsrReportSample, k);
          const JsrProfile *profile = event_profile (event);
          JseTimedSample timed = { event, sample, profile, -1 };

          if (profile != NULL && sample->node >= 0 && (guint) sample->node < profile->nodes->len)
            timed.node = sample->node;
          if (frame)
            {
              if (g_hash_table_contains (seen, &sample->t_ns))
                continue;
              g_hash_table_add (seen, &sample->t_ns);
            }
          g_array_append_val (out, timed);
        }
    }
  g_array_sort (out, by_time);

  return out;
}
