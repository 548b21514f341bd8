/* jse-sysprof.c: "jankscope export --format=sysprof", a Sysprof capture
 * written with libsysprof-capture's SysprofCaptureWriter
 *
 * Every process of the export is a process of the capture (its name as the
 * command line), with marks for its jank events, slow dispatches and
 * iterations, slow frames and their phases, and its samples with their
 * stacks. The report has no addresses of the monitored process (only module
 * + offset, already symbolized), so stack frames are JIT-map entries: each
 * distinct frame name gets a made-up address that the capture's JITMAP
 * frames name, which Sysprof resolves without looking for the binaries.
 *
 * Sysprof's callgraph counts samples, and the report's samples are not
 * time (the sampling interval grows during a long stall) nor all listed (at
 * most 256 timeline entries per event): the capture's samples are the
 * events' profiles (jse_profile_weights) at one sample per millisecond of
 * attributed time (per longer period past MAX_SAMPLES), so the callgraph
 * splits time as the profile does and its total is the attributed time
 * `jankscope report` prints. Each stack's
 * samples are laid over the timeline entries that have its node (by their
 * counts), and over the event's span when none has (a stack the timeline's
 * merging hid). See docs/exports.md.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sysprof-capture.h>

#include "jse-formats.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define MAX_MESSAGE 1024 /* bytes of a mark's message: a frame holds at most 64 KiB */
/* One sample of the capture per millisecond of attributed time, or per
 * longer period when the inputs hold more than MAX_SAMPLES ms of it (18
 * minutes of stalls; a hostile time, up to 2^63 ns, would write for ever):
 * the capture stays below 20 MB, its proportions as they were. */
#define MIN_SAMPLE_NS NS_PER_MS
#define MAX_SAMPLES (G_GINT64_CONSTANT (1) << 16)

static const char *const phase_names[6] = {
  "flush-events", "before-paint", "update", "layout", "paint", "after-paint",
};

typedef struct
{
  JseContext *ctx;
  SysprofCaptureWriter *writer;
  GHashTable *addresses; /* frame name -> SysprofCaptureAddress */
  gboolean failed;       /* a write failed (errno) */
  int saved_errno;
  gint64 sample_ns; /* attributed time per sample */
} Sysprof;

static void
check (Sysprof *s, bool ok)
{
  if (!ok && !s->failed)
    {
      s->failed = TRUE;
      s->saved_errno = errno;
    }
}

static void
mark (Sysprof *s, const JseProcess *process, gint64 start_ns, gint64 end_ns, const char *group,
      const char *name, GString *message)
{
  if (message->len > MAX_MESSAGE)
    {
      const char *end = message->str + MAX_MESSAGE;

      /* Never cut a UTF-8 sequence. */
      while (end > message->str && (*end & 0xc0) == 0x80)
        end--;
      g_string_truncate (message, end - message->str);
    }
  check (s,
         sysprof_capture_writer_add_mark (s->writer, jse_time (process, start_ns), -1, process->pid,
                                          jsr_span (start_ns, end_ns), group, name, message->str));
}

static void
append_ms (GString *out, const char *label, gint64 ns)
{
  if (ns == JSR_UNKNOWN)
    return;
  g_string_append_printf (out, "%s%s %" G_GINT64_FORMAT ".%03" G_GINT64_FORMAT " ms",
                          out->len > 0 ? ", " : "", label, ns / NS_PER_MS, (ns % NS_PER_MS) / 1000);
}

static void
append_text (GString *out, const char *label, const char *text)
{
  if (text != NULL)
    g_string_append_printf (out, "%s%s %s", out->len > 0 ? ", " : "", label, text);
}

/* "culprit sleepy_cb → g_usleep (confidence 80%)" */
static void
append_culprit (GString *message, const JsrReportCulprit *culprit)
{
  g_autofree char *callback = jsr_culprit_callback_name (culprit);

  if (culprit == NULL)
    return;
  g_string_append_printf (message, "%sculprit ", message->len > 0 ? ", " : "");
  if (callback != NULL)
    g_string_append_printf (message, "%s → ", callback);
  g_string_append (message, culprit->function != NULL ? culprit->function : "?");
  if (culprit->confidence >= 0)
    g_string_append_printf (message, " (confidence %d%%)", (int) (culprit->confidence * 100 + 0.5));
}

static void
event_mark (Sysprof *s, const JseProcess *process, const JsrReportEvent *e)
{
  g_autoptr (GString) message = g_string_new (NULL);
  g_autofree char *name = NULL;

  if (e->ongoing)
    name = g_strdup ("hang (ongoing)");
  else
    name = g_strdup_printf ("%s %s", js_tier_name (e->tier), e->type);
  g_string_append_printf (message, "event %" G_GINT64_FORMAT, e->id);
  append_text (message, "source", e->source);
  append_text (message, "callback", e->callback);
  append_ms (message, "blocked", e->duration_ns);
  append_text (message, "class", e->klass);
  append_text (message, "wait", e->wait);
  append_culprit (message, e->culprit);
  if (e->detail != NULL)
    append_ms (message, "attributed", e->detail->attributed_ns);
  append_ms (message, "on-CPU", e->cpu_ns);
  append_ms (message, "off-CPU", e->off_cpu_ns);
  if (process->previous_run)
    g_string_append (message, ", in the previous run, killed during this hang");
  mark (s, process, e->start_ns, jse_event_end (e), "jank", name, message);
}

static void
frame_marks (Sysprof *s, const JseProcess *process, const JsrReportEvent *e, const JsrReportPart *p)
{
  g_autoptr (GString) message = g_string_new (NULL);
  gint64 start = jsr_sat_sub (p->end_ns, MAX (p->duration_ns, 0));
  gint64 phases_ns = 0;
  gint64 at;

  if (p->window != JSR_UNKNOWN)
    g_string_append_printf (message, "window %" G_GINT64_FORMAT, p->window);
  append_text (message, "tier", p->tier);
  append_ms (message, "budget", p->budget_ns);
  append_ms (message, "work", p->work_ns);
  g_string_append_printf (message, ", event %" G_GINT64_FORMAT, e->id);
  mark (s, process, start, p->end_ns, "frames", "slow frame", message);

  /* Phases in their order, ending at the frame's end: the report has their
   * times, not their starts. */
  for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
    phases_ns = jsr_sat_add (phases_ns, MAX (p->phases[i], 0));
  at = MAX (jsr_sat_sub (p->end_ns, MAX (p->work_ns, phases_ns)), start);
  for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      gint64 end;

      if (p->phases[i] < 0)
        continue;
      append_ms (text, phase_names[i], p->phases[i]);
      end = MIN (jsr_sat_add (at, p->phases[i]), p->end_ns);
      mark (s, process, at, end, "frame phases", phase_names[i], text);
      at = end;
    }
}

static void
part_mark (Sysprof *s, const JseProcess *process, const JsrReportEvent *e, const JsrReportPart *p)
{
  g_autoptr (GString) message = g_string_new (NULL);

  append_text (message, "source", p->source);
  append_text (message, "callback", p->callback);
  append_ms (message, "own", p->duration_ns);
  append_text (message, "tier", p->tier);
  g_string_append_printf (message, ", event %" G_GINT64_FORMAT, e->id);
  /* The part's own cause (reports with causes per part). */
  append_text (message, "class", p->klass);
  append_text (message, "wait", p->wait);
  append_culprit (message, p->culprit);
  append_ms (message, "attributed", p->attributed_ns);
  mark (s, process, p->start_ns, p->end_ns, "main loop", p->type, message);
}

static SysprofCaptureAddress
address (Sysprof *s, const char *name)
{
  gpointer value;
  SysprofCaptureAddress address;

  if (g_hash_table_lookup_extended (s->addresses, name, NULL, &value))
    return *(SysprofCaptureAddress *) value;

  address = sysprof_capture_writer_add_jitmap (s->writer, name);
  check (s, address != 0);
  value = g_memdup2 (&address, sizeof address);
  g_hash_table_insert (s->addresses, g_strdup (name), value);
  return address;
}

/* A sample of the capture: when, and the node of which event. */
typedef struct
{
  gint64 t_ns;
  const JseNodeWeight *weight;
} Placed;

static gint
placed_order (gconstpointer a, gconstpointer b)
{
  const Placed *x = a, *y = b;

  return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

/* Where the j-th of k samples of a node goes: the point (j + ½)/k of the
 * event's timeline entries at that node, by their counts (within an entry,
 * along its span from t_ns to last_ns), else of the event's span. The point
 * is total × (2j + 1) / 2k, exact in 128 bits; where in an entry, a double
 * (at most a span's 2^-52 off), clamped to the span. */
static gint64
place_sample (const JseNodeWeight *w, gint64 total, gint64 j, gint64 k)
{
  const JsrReportEvent *event = w->event;
  GArray *entries = event->detail->samples;
  __int128 point = (__int128) total * (2 * j + 1);
  __int128 scale = (__int128) 2 * k;
  __int128 seen = 0;

  if (total == 0)
    {
      gint64 span = jsr_span (event->start_ns, jse_event_end (event));

      return jsr_sat_add (event->start_ns, (gint64) ((__int128) span * (2 * j + 1) / scale));
    }
  for (guint i = 0; i < entries->len; i++)
    {
      const JsrReportSample *e = &g_array_index (entries, JsrReportSample, i);
      gint64 count;

      if (e->node != (gint32) w->node)
        continue;
      count = MAX (e->count, 1);
      if (point < (seen + count) * scale)
        {
          gint64 span = jsr_span (e->t_ns, e->last_ns);
          double share = (double) (point - seen * scale) / ((double) count * (double) scale);

          return jsr_sat_add (
              e->t_ns, (gint64) MIN (jsr_double_to_uint64 (share * (double) span), (guint64) span));
        }
      seen += count;
    }
  return event->start_ns;
}

/* The samples of the event's timeline entries at the weight's node. */
static gint64
node_entries (const JseNodeWeight *w)
{
  GArray *entries = w->event->detail->samples;
  gint64 total = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      const JsrReportSample *e = &g_array_index (entries, JsrReportSample, i);

      if (e->node == (gint32) w->node)
        total = jsr_sat_add (total, MAX (e->count, 1));
    }
  return total;
}

static void
write_samples (Sysprof *s, const JseProcess *process, GArray *weights)
{
  g_autoptr (GArray) placed = g_array_new (FALSE, FALSE, sizeof (Placed));
  g_autoptr (GArray) addresses = g_array_new (FALSE, FALSE, sizeof (SysprofCaptureAddress));
  g_autoptr (GPtrArray) frames = g_ptr_array_new ();
  const JseNodeWeight *last = NULL;
  gint64 time = 0, given = 0;

  for (guint i = 0; i < weights->len; i++)
    {
      const JseNodeWeight *w = &g_array_index (weights, JseNodeWeight, i);
      gint64 k, total;

      if (w->process != process)
        continue;
      /* Rounded on the process's running sum of time: its samples are its
       * attributed time in sample periods. */
      time = jsr_sat_add (time, w->time_ns);
      k = time / s->sample_ns - given;
      given = time / s->sample_ns;
      total = node_entries (w);
      for (gint64 j = 0; j < k; j++)
        {
          Placed p = { place_sample (w, total, j, k), w };

          g_array_append_val (placed, p);
        }
    }
  g_array_sort (placed, placed_order);

  for (guint i = 0; i < placed->len; i++)
    {
      const Placed *p = &g_array_index (placed, Placed, i);

      /* Leaf first, as the report and Sysprof both list them. */
      if (p->weight != last)
        {
          g_array_set_size (addresses, 0);
          g_ptr_array_set_size (frames, 0);
          jse_node_frames (p->weight->profile, p->weight->node, frames);
          for (guint k = 0; k < frames->len; k++)
            {
              SysprofCaptureAddress a
                  = address (s, jse_frame_name (s->ctx, g_ptr_array_index (frames, k)));

              g_array_append_val (addresses, a);
            }
          last = p->weight;
        }
      check (s, sysprof_capture_writer_add_sample (
                    s->writer, jse_time (process, p->t_ns), -1, process->pid, process->pid,
                    (const SysprofCaptureAddress *) addresses->data, addresses->len));
    }
}

static void
write_process (Sysprof *s, const JseProcess *process, GArray *weights)
{
  const JsrReport *report = process->report;
  gint64 first = G_MAXINT64;

  for (guint i = 0; i < process->events->len; i++)
    first = MIN (first, ((JsrReportEvent *) g_ptr_array_index (process->events, i))->start_ns);
  if (!process->previous_run)
    first = MIN (first, report->start_ns);
  if (first == G_MAXINT64)
    first = report->start_ns;
  check (s, sysprof_capture_writer_add_process (s->writer, jse_time (process, first), -1,
                                                process->pid, process->label));

  if (!process->previous_run)
    {
      g_autoptr (GString) message = g_string_new (NULL);
      const JseInput *input = g_ptr_array_index (s->ctx->inputs, process->input);

      append_text (message, "report", input->display_name);
      append_text (message, "toolkit", report->toolkit);
      if (report->events_total != JSR_UNKNOWN)
        g_string_append_printf (message, ", %" G_GINT64_FORMAT " jank events",
                                report->events_total);
      append_ms (message, "samples: one per", s->sample_ns);
      g_string_append (message, " of attributed time");
      mark (s, process, report->start_ns,
            jsr_sat_add (report->start_ns, MAX (report->monitored_ns, 0)), "jankscope", "monitored",
            message);
    }

  for (guint i = 0; i < process->events->len; i++)
    {
      const JsrReportEvent *e = g_ptr_array_index (process->events, i);

      event_mark (s, process, e);
      if (e->detail == NULL)
        continue;
      for (guint k = 0; k < e->detail->parts->len; k++)
        {
          const JsrReportPart *p = g_ptr_array_index (e->detail->parts, k);

          if (g_strcmp0 (p->type, "frame") == 0)
            frame_marks (s, process, e, p);
          else if (p->type != NULL)
            part_mark (s, process, e, p);
        }
    }

  write_samples (s, process, weights);
}

static GByteArray *
read_all (int fd, GError **error)
{
  g_autoptr (GByteArray) data = g_byte_array_new ();
  guint8 buffer[65536];
  off_t at = 0;

  for (;;)
    {
      ssize_t n = pread (fd, buffer, sizeof buffer, at);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       _ ("cannot read the capture back: %s"), g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (data, buffer, n);
      at += n;
    }

  return g_steal_pointer (&data);
}

/* The capture's times are the reports', but the writer stamps its header
 * (start at creation, end at each flush) and its JITMAP frames with the time
 * it ran: a reader takes the latest frame time as the end, and Sysprof would
 * show an empty stretch up to the export. Both are set to the reports' time
 * range, in the bytes the writer left (native byte order, frames one after
 * the other, each starting with its length). */
static void
set_time_range (GByteArray *capture, gint64 start_ns, gint64 end_ns)
{
  gsize at = sizeof (SysprofCaptureFileHeader);

  if (capture->len < sizeof (SysprofCaptureFileHeader))
    return;
  memcpy (capture->data + offsetof (SysprofCaptureFileHeader, time), &start_ns, sizeof start_ns);
  memcpy (capture->data + offsetof (SysprofCaptureFileHeader, end_time), &end_ns, sizeof end_ns);

  while (at + sizeof (SysprofCaptureFrame) <= capture->len)
    {
      SysprofCaptureFrame frame;

      memcpy (&frame, capture->data + at, sizeof frame);
      if (frame.len < sizeof frame || at + frame.len > capture->len)
        break;
      if (frame.type == SYSPROF_CAPTURE_FRAME_JITMAP)
        memcpy (capture->data + at + offsetof (SysprofCaptureFrame, time), &start_ns,
                sizeof start_ns);
      at += frame.len;
    }
}

GBytes *
jse_format_sysprof (JseContext *ctx, GError **error)
{
  Sysprof s = { 0 };
  g_autoptr (GArray) weights = NULL;
  g_autofree char *path = NULL;
  GBytes *bytes = NULL;
  GByteArray *capture;
  int fd;
  int own_fd;

  /* The writer needs a file; an unlinked one leaves nothing behind. */
  fd = g_file_open_tmp ("jankscope-export-XXXXXX.syscap", &path, error);
  if (fd < 0)
    return NULL;
  g_unlink (path);
  own_fd = dup (fd);
  if (own_fd < 0)
    {
      int saved_errno = errno;

      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s",
                   g_strerror (saved_errno));
      return NULL;
    }

  s.ctx = ctx;
  s.sample_ns = MIN_SAMPLE_NS;
  s.writer = sysprof_capture_writer_new_from_fd (fd, 0); /* owns fd */
  s.addresses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (s.writer == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _ ("cannot start a Sysprof capture"));
      close (own_fd);
      g_hash_table_unref (s.addresses);
      return NULL;
    }

  weights = jse_profile_weights (ctx);
  {
    gint64 total = 0;

    for (guint i = 0; i < weights->len; i++)
      total = jsr_sat_add (total, g_array_index (weights, JseNodeWeight, i).time_ns);
    /* Each process's samples are at most its time / sample_ns: in all at
     * most MAX_SAMPLES (rounding down per process). */
    if (total / MAX_SAMPLES >= MIN_SAMPLE_NS)
      s.sample_ns = total / MAX_SAMPLES + 1;
  }
  for (guint i = 0; i < ctx->processes->len; i++)
    write_process (&s, g_ptr_array_index (ctx->processes, i), weights);
  check (&s, sysprof_capture_writer_flush (s.writer));
  sysprof_capture_writer_unref (s.writer); /* flushes again, closes fd */
  g_hash_table_unref (s.addresses);

  if (s.failed)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (s.saved_errno),
                 _ ("cannot write the Sysprof capture: %s"), g_strerror (s.saved_errno));
  else if ((capture = read_all (own_fd, error)) != NULL)
    {
      set_time_range (capture, ctx->origin_ns, ctx->end_ns);
      bytes = g_byte_array_free_to_bytes (capture);
    }
  close (own_fd);

  return bytes;
}
