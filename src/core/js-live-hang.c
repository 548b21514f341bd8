/* js-live-hang.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-live-hang.h"
#include "js-live.h"
#include "js-report-posting.h"
#include "js-report-stacks.h"
#include "js-stack-path.h"
#include "js-stall-analysis.h"
#include "js-json-writer.h"

static GMutex lock; /* guards `latest` and `latest_start_ns`: a pointer swap */
static GBytes *latest;
static gint64 latest_start_ns;
static guint64 built_generation; /* collector only */
static guint32 built_stall;      /* collector only */

/* A frame, compact: {function, module, file?, line?}. */
static void
add_frame (JsJsonWriter *b, JsStallStore *store, const JsFrame *f)
{
  const JsModule *m = js_modules_get (store->modules, f->module);

  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "function", f->function);
  js_json_writer_member_string (b, "module", m != NULL ? m->name : NULL);
  if (f->file != NULL)
    js_json_writer_member_string (b, "file", f->file);
  if (f->line > 0)
    js_json_writer_member_int (b, "line", f->line);
  js_json_writer_end_object (b);
}

static void
add_newest_stack (JsJsonWriter *b, JsStallStore *store, const JsStall *s)
{
  const JsStallSampleInfo *newest = NULL;
  const JsStack *stack;
  const JsPathFrame *path;
  guint n;

  for (guint i = s->samples->len; i-- > 0 && newest == NULL;)
    if (g_array_index (s->samples, JsStallSampleInfo, i).stack != 0)
      newest = &g_array_index (s->samples, JsStallSampleInfo, i);
  stack = newest != NULL ? js_stack_table_get (store->stacks, newest->stack) : NULL;
  js_json_writer_member (b, "stack");
  if (stack == NULL)
    {
      js_json_writer_null (b);
      return;
    }
  /* Its frames without jankscope's own (js-stack-path.h), leaf first. */
  path = js_stack_path_get (store->modules, stack, &n);
  if (n > 0 && path[0].frame == NULL)
    {
      path++;
      n--;
    }
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "sampled_ns", MAX (newest->time_ns, newest->last_ns));
  js_json_writer_member (b, "frames");
  js_json_writer_begin_array (b);
  for (guint i = 0; i < n && i < JS_LIVE_HANG_MAX_FRAMES; i++)
    add_frame (b, store, path[n - 1 - i].frame);
  js_json_writer_end_array (b);
  js_json_writer_member_int (b, "frames_omitted",
                             n > JS_LIVE_HANG_MAX_FRAMES ? n - JS_LIVE_HANG_MAX_FRAMES : 0);
  js_json_writer_end_object (b);
}

static GBytes *
build (JsStallStore *store, JsPostSites *posts, JsStall *s, gint64 now_ns)
{
  GString *out = g_string_sized_new (2048);
  JsJsonWriter w, *b = &w;
  gint64 end = MAX (s->h.last_seen_ns, s->h.start_ns);
  JsAttribution *attribution = js_report_stall_attribution (store, s);
  JsCause a;

  js_stall_analysis_cause (attribution->profile, NULL, NULL, &attribution->stats,
                           end - s->h.start_ns, &a);
  js_json_writer_init (b, out, JS_JSON_WRITER_COMPACT);

  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "stall_id", s->h.id);
  js_json_writer_member_int (b, "start_ns", s->h.start_ns);
  js_json_writer_member_int (b, "seen_ns", end);
  js_json_writer_member_int (b, "built_ns", now_ns);
  js_json_writer_member_int (b, "samples", (gint64) attribution->stats.samples);
  js_json_writer_member_string (b, "class", a.klass);
  js_json_writer_member_string (b, "wait",
                                a.klass != NULL && g_strcmp0 (a.klass, "compute") != 0
                                        && a.wait != JS_WAIT_NONE
                                    ? js_wait_kind_name (a.wait)
                                    : NULL);
  js_json_writer_member (b, "culprit");
  if (a.culprit != JS_PROFILE_NONE)
    {
      const JsFrame *f = &js_profile_node (attribution->profile, a.culprit)->frame;
      const JsModule *m = js_modules_get (store->modules, f->module);

      js_json_writer_begin_object (b);
      js_json_writer_member_string (b, "function", f->function);
      js_json_writer_member_string (b, "module", m != NULL ? m->name : NULL);
      js_json_writer_member_string (b, "file", f->file);
      if (f->line > 0)
        js_json_writer_member_int (b, "line", f->line);
      js_json_writer_member (b, "confidence");
      js_json_writer_double (b, ((gint64) (a.confidence * 1000 + 0.5)) / 1000.0);
      js_json_writer_member_string (b, "reason", a.culprit_reason);
      js_json_writer_end_object (b);
    }
  else
    js_json_writer_null (b);
  add_newest_stack (b, store, s);
  /* Where the dispatch it is stuck in was posted from (report-format.md's
   * posted_from), or null. */
  js_report_add_posted_from (b, posts, store, js_report_hang_post_site (posts, s));
  js_json_writer_end_object (b);
  js_attribution_free (attribution);
  return g_string_free_to_bytes (out);
}

void
js_live_hang_update (JsStallStore *stalls, JsPostSites *posts, const JsConfig *config,
                     gint64 now_ns)
{
  JsStall *s = stalls != NULL ? stalls->ongoing : NULL;
  GBytes *digest, *old;

  /* Only stalls that reached the first watchdog tier (hang start, 250 ms):
   * the live server sends hang messages from there on. */
  if (s == NULL || !js_live_wanted (now_ns)
      || now_ns - s->h.start_ns < config->watchdog_tier_ns[0] - 100 * G_GINT64_CONSTANT (1000000))
    return;
  if (s->h.id == built_stall && stalls->generation == built_generation)
    return;
  built_stall = s->h.id;
  built_generation = stalls->generation;
  digest = build (stalls, posts, s, now_ns);

  g_mutex_lock (&lock);
  old = latest;
  latest = digest;
  latest_start_ns = s->h.start_ns;
  g_mutex_unlock (&lock);
  if (old != NULL)
    g_bytes_unref (old);
}

GBytes *
js_live_hang_get (gint64 *start_ns)
{
  GBytes *b;

  g_mutex_lock (&lock);
  b = latest != NULL ? g_bytes_ref (latest) : NULL;
  if (start_ns != NULL)
    *start_ns = latest_start_ns;
  g_mutex_unlock (&lock);
  return b;
}

void
js_live_hang_clear (void)
{
  GBytes *old;

  g_mutex_lock (&lock);
  old = latest;
  latest = NULL;
  latest_start_ns = 0;
  g_mutex_unlock (&lock);
  if (old != NULL)
    g_bytes_unref (old);
}
