/* js-resources.h: what the process and the machine were doing, over time.
 *
 * The collector samples, at most every 200 ms (its tick is 250 ms, and it
 * keeps ticking while the main thread is stuck): the process's CPU time
 * (CLOCK_PROCESS_CPUTIME_ID: every thread, in ns, where /proc/self/stat's
 * utime+stime only count 10 ms ticks), the 1-minute load average
 * (/proc/loadavg) and MemAvailable (/proc/meminfo). The two files are read
 * at most every JS_RESOURCE_FILE_PERIOD_NS (and on every forced sample):
 * opening, generating and closing them was a third of the collector's CPU
 * in an animating app, which ticks 4 times a second; the kernel recomputes
 * the load average only every 5 s, and a sample in between carries the last
 * values read. The last 256 samples (about a minute) are kept, and an event's context is read from
 * the samples around it (js_resources_window). Never on the main thread.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_RESOURCE_SAMPLES 256
#define JS_RESOURCE_MIN_PERIOD_NS (200 * G_GINT64_CONSTANT (1000000))
#define JS_RESOURCE_FILE_PERIOD_NS (1000 * G_GINT64_CONSTANT (1000000))
/* A sample this much older than an event's start is from before the
 * collector parked (it samples only while awake, every 250 ms while there
 * is work: js-collector.c). */
#define JS_RESOURCE_STALE_NS (300 * G_GINT64_CONSTANT (1000000))

typedef struct
{
  gint64 t_ns;
  gint64 cpu_ns; /* process CPU time, -1 unknown */
  gint64 mem_kb; /* MemAvailable, -1 unknown */
  double load1;  /* 1-minute load average, -1 unknown */
} JsResourceSample;

typedef struct
{
  JsResourceSample samples[JS_RESOURCE_SAMPLES]; /* circular */
  guint first;
  guint len;
  gint64 files_ns; /* when the two files were last read, 0 never */
  gint64 mem_kb;   /* what they said then */
  double load1;
  /* NULL: /proc/loadavg and /proc/meminfo (tests point them elsewhere) */
  const char *loadavg_path, *meminfo_path;
} JsResources;

/* What the samples around a span say; a member is -1 when unknown. */
typedef struct
{
  double cpu_pct;        /* process CPU time / wall time, in % of one CPU */
  double load1;          /* mean of the samples */
  gint64 mem_kb;         /* lowest of the samples */
  gint64 from_ns, to_ns; /* the samples used */
} JsResourceWindow;

void js_resources_init (JsResources *r);

/* Reads the process and the machine now and appends a sample, unless the
 * last one is younger than JS_RESOURCE_MIN_PERIOD_NS and not `force`; the
 * load and memory files only when `force` or JS_RESOURCE_FILE_PERIOD_NS
 * after they were last read (else the sample carries those values). */
void js_resources_sample (JsResources *r, gint64 now_ns, gboolean force);

/* Appends a sample (tests). */
void js_resources_add (JsResources *r, const JsResourceSample *s);

/* From the last sample at or before `start_ns` (else the first one) to the
 * first at or after `end_ns` (else the last one). FALSE without samples. */
gboolean js_resources_window (const JsResources *r, gint64 start_ns, gint64 end_ns,
                              JsResourceWindow *out);

/* Parsers, exposed for tests: -1 when the text has no value. */
double js_resources_parse_loadavg (const char *text);
gint64 js_resources_parse_meminfo (const char *text);

G_END_DECLS
