/* jse-common.h: what every format of "jankscope export" shares: the
 * loaded inputs as processes on one time line, frame names, the samples
 * counted once, JSON text and the output file (docs/exports.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jse-scrub.h"
#include "jsr-json-doc.h"
#include "jsr-report.h"
#include "jsr-saturate.h"

G_BEGIN_DECLS

/* Pids at or above this are made up by the export (two inputs had the same
 * pid); Linux pids stay below 2^22 (PID_MAX_LIMIT). */
#define JSE_SYNTHETIC_PID (1 << 23)

typedef enum
{
  JSE_ALIGN_CLOCK, /* the reports' own CLOCK_MONOTONIC: runs on one machine line up */
  JSE_ALIGN_START, /* every process starts at the earliest start of all */
} JseAlign;

/* A process of the export: one per input report, plus one for the hang of a
 * run that was killed during it (the report's previous_run). */
typedef struct
{
  const JsrReport *report;  /* the report it comes from */
  guint input;              /* index of that report in JseContext.inputs */
  gboolean previous_run;    /* the hang of the run before, killed during it */
  gint32 pid;               /* in the export: the real pid unless taken (JSE_SYNTHETIC_PID) */
  gint64 real_pid;          /* JSR_UNKNOWN when unknown */
  const char *name;         /* process name (scrubbed), never NULL */
  const char *label;        /* "name (pid N)", "name (pid N, previous run, killed)" */
  gint64 shift_ns;          /* added to every time of this process (--align) */
  GPtrArray *events;        /* of const JsrReportEvent *, in file order */
} JseProcess;

typedef struct
{
  const JsrReport *report;
  const char *path;         /* as given */
  const char *display_name; /* UTF-8, for messages and labels (scrubbed) */
} JseInput;

typedef struct
{
  GPtrArray *inputs;        /* of JseInput */
  GPtrArray *reports;       /* of JsrReport, owned */
  GPtrArray *processes;     /* of JseProcess */
  GHashTable *pids;         /* the processes' export pids */
  JseScrubber *scrubber;    /* NULL without --scrub */
  JseAlign align;
  gint64 origin_ns;         /* earliest (shifted) time of any process */
  gint64 end_ns;            /* latest (shifted) time of any process */
  GStringChunk *strings;    /* scrubbed and made-up strings */
  char *folded_prefix;      /* --folded-prefix, as given (NULL: none) */
  gint32 synthetic_pids;    /* pids made up so far */
} JseContext;

JseContext *jse_context_new   (gboolean     scrub,
                               JseAlign     align);
/* Loads every file (jsr_report_load_full); on the first bad one returns
 * FALSE with an error that names it. Then builds the processes. */
gboolean    jse_context_load  (JseContext  *ctx,
                               char       **paths,
                               GError     **error);
void        jse_context_free  (JseContext  *ctx);

/* @text scrubbed (when --scrub), owned by @ctx; NULL stays NULL. */
const char *jse_text          (JseContext  *ctx,
                               const char  *text);

/* Time on the export's clock: the process's shift applied (saturated, like
 * every sum of the export: jsr-saturate.h). */
static inline gint64
jse_time (const JseProcess *process,
          gint64            t_ns)
{
  return jsr_sat_add (t_ns, process->shift_ns);
}

/* The end of an event: detail->end_ns, else start + duration. */
gint64      jse_event_end     (const JsrReportEvent *event);

/* A frame's name in every format: its function, else "module+0xOFFSET",
 * else "[unknown]"; owned by @ctx. */
const char *jse_frame_name    (JseContext           *ctx,
                               const JsrReportFrame *frame);
#define JSE_NO_STACK "[no stack]"

/* Every sampled stack once per event, with its count, across processes:
 * what the profile formats (folded, pprof) add up. Frame events see the same
 * stalls as the dispatch/iteration events they overlap, so a sample is
 * counted in a frame event only when no main-loop event of its process has a
 * sample at the same time (docs/exports.md, "Counting samples"). */
typedef struct
{
  const JseProcess *process;
  const JsrReportEvent *event;
  const JsrReportStack *stack; /* NULL: samples without a recorded stack */
  gint64 count;                /* samples */
  gint64 stall_ns;             /* their share of the event's watched time */
} JseStackCount;

GArray     *jse_stack_counts  (JseContext  *ctx); /* of JseStackCount */

/* The samples of one process in time order, each moment once (the same rule
 * as above): what the time-line formats (chrome, sysprof) draw. */
typedef struct
{
  const JsrReportEvent *event;
  const JsrReportSample *sample;
  const JsrReportStack *stack; /* NULL: none recorded */
} JseTimedSample;

GArray     *jse_timeline      (const JseProcess *process); /* of JseTimedSample */

G_END_DECLS
