/* js-resources.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-resources.h"
#include "js-small-file.h"

#include <string.h>
#include <time.h>

void
js_resources_init (JsResources *r)
{
  memset (r, 0, sizeof *r);
}

static const JsResourceSample *
nth (const JsResources *r, guint i)
{
  return &r->samples[(r->first + i) % JS_RESOURCE_SAMPLES];
}

void
js_resources_add (JsResources *r, const JsResourceSample *s)
{
  if (r->len == JS_RESOURCE_SAMPLES)
    {
      r->first = (r->first + 1) % JS_RESOURCE_SAMPLES;
      r->len--;
    }
  r->samples[(r->first + r->len) % JS_RESOURCE_SAMPLES] = *s;
  r->len++;
}

double
js_resources_parse_loadavg (const char *text)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  return end != text && v >= 0 ? v : -1;
}

gint64
js_resources_parse_meminfo (const char *text)
{
  const char *line = strstr (text, "MemAvailable:");
  char *end = NULL;
  gint64 kb;

  if (line == NULL)
    return -1;
  line += strlen ("MemAvailable:");
  kb = g_ascii_strtoll (line, &end, 10);
  return end != line && kb >= 0 ? kb : -1;
}

void
js_resources_sample (JsResources *r, gint64 now_ns, gboolean force)
{
  JsResourceSample s = { .t_ns = now_ns, .cpu_ns = -1, .mem_kb = -1, .load1 = -1 };
  struct timespec ts;
  /* /proc/meminfo is about 1.5 KiB; MemAvailable is its third line. */
  char buf[4096];

  if (r->len > 0
      && (now_ns <= nth (r, r->len - 1)->t_ns
          || (!force && now_ns - nth (r, r->len - 1)->t_ns < JS_RESOURCE_MIN_PERIOD_NS)))
    return;
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
    s.cpu_ns = (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
  if (force || r->files_ns == 0 || now_ns - r->files_ns >= JS_RESOURCE_FILE_PERIOD_NS)
    {
      r->load1 = -1;
      r->mem_kb = -1;
      if (js_small_file_read (r->loadavg_path ? r->loadavg_path : "/proc/loadavg", buf, sizeof buf))
        r->load1 = js_resources_parse_loadavg (buf);
      if (js_small_file_read (r->meminfo_path ? r->meminfo_path : "/proc/meminfo", buf, sizeof buf))
        r->mem_kb = js_resources_parse_meminfo (buf);
      r->files_ns = now_ns;
    }
  s.load1 = r->load1;
  s.mem_kb = r->mem_kb;
  js_resources_add (r, &s);
}

gboolean
js_resources_window (const JsResources *r, gint64 start_ns, gint64 end_ns, JsResourceWindow *out)
{
  guint from = 0, to;
  double load_sum = 0;
  guint load_n = 0;
  const JsResourceSample *a, *b;

  out->cpu_pct = out->load1 = -1;
  out->mem_kb = -1;
  if (r->len == 0)
    return FALSE;
  for (guint i = 0; i < r->len && nth (r, i)->t_ns <= start_ns; i++)
    from = i;
  to = r->len - 1;
  for (guint i = from; i < r->len; i++)
    if (nth (r, i)->t_ns >= end_ns)
      {
        to = i;
        break;
      }
  /* The collector samples only while it is awake, and it parks while the
   * app is quiet: the last sample before a start may then be seconds old,
   * and a window from it would dilute the event's CPU in that quiet time.
   * The first sample after the start (a stall wakes the collector within the
   * pre-trigger) describes the event better, if another follows it. */
  if (start_ns - nth (r, from)->t_ns > JS_RESOURCE_STALE_NS && from + 1 < to)
    from++;
  a = nth (r, from);
  b = nth (r, to);
  out->from_ns = a->t_ns;
  out->to_ns = b->t_ns;
  if (b->t_ns > a->t_ns && a->cpu_ns >= 0 && b->cpu_ns >= a->cpu_ns)
    out->cpu_pct = 100.0 * (double) (b->cpu_ns - a->cpu_ns) / (double) (b->t_ns - a->t_ns);
  for (guint i = from; i <= to; i++)
    {
      const JsResourceSample *s = nth (r, i);

      if (s->load1 >= 0)
        {
          load_sum += s->load1;
          load_n++;
        }
      if (s->mem_kb >= 0 && (out->mem_kb < 0 || s->mem_kb < out->mem_kb))
        out->mem_kb = s->mem_kb;
    }
  if (load_n > 0)
    out->load1 = load_sum / load_n;
  return TRUE;
}
