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
#include "jsr-profile.h"
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

/* What a folded line counts (--folded-weight). */
typedef enum
{
  JSE_FOLDED_TIME,    /* attributed time, in microseconds */
  JSE_FOLDED_SAMPLES, /* samples */
} JseFoldedWeight;

/* A process of the export: one per input report, plus one for the hang of a
 * run that was killed during it (the report's previous_run). */
typedef struct
{
  const JsrReport *report; /* the report it comes from */
  guint input;             /* index of that report in JseContext.inputs */
  gboolean previous_run;   /* the hang of the run before, killed during it */
  gint32 pid;              /* in the export: the real pid unless taken (JSE_SYNTHETIC_PID) */
  gint64 real_pid;         /* JSR_UNKNOWN when unknown */
  const char *name;        /* process name (scrubbed), never NULL */
  const char *label;       /* "name (pid N)", "name (pid N, previous run, killed)" */
  const char *title;       /* for viewers that show the pid beside the name: the label without
                            * the pid when the export's pid is the real one */
  gint64 shift_ns;         /* added to every time of this process (--align) */
  GPtrArray *events;       /* of const JsrReportEvent *, in file order */
} JseProcess;

typedef struct
{
  const JsrReport *report;
  const char *path;         /* as given */
  const char *display_name; /* UTF-8, for messages and labels (scrubbed) */
} JseInput;

typedef struct
{
  GPtrArray *inputs;     /* of JseInput */
  GPtrArray *reports;    /* of JsrReport, owned */
  GPtrArray *processes;  /* of JseProcess */
  GHashTable *pids;      /* the processes' export pids */
  JseScrubber *scrubber; /* NULL without --scrub */
  JseAlign align;
  gint64 origin_ns;              /* earliest (shifted) time of any process */
  gint64 end_ns;                 /* latest (shifted) time of any process */
  GStringChunk *strings;         /* scrubbed and made-up strings */
  char *folded_prefix;           /* --folded-prefix, as given (NULL: none) */
  JseFoldedWeight folded_weight; /* --folded-weight */
  gint32 synthetic_pids;         /* pids made up so far */
} JseContext;

JseContext *jse_context_new (gboolean scrub, JseAlign align);
/* Loads every file (jsr_report_load_full); on the first bad one returns
 * FALSE with an error that names it. Then builds the processes. */
gboolean jse_context_load (JseContext *ctx, char **paths, GError **error);
void jse_context_free (JseContext *ctx);

/* @text scrubbed (when --scrub), owned by @ctx; NULL stays NULL. */
const char *jse_text (JseContext *ctx, const char *text);

/* Time on the export's clock: the process's shift applied (saturated, like
 * every sum of the export: jsr-saturate.h). */
static inline gint64
jse_time (const JseProcess *process, gint64 t_ns)
{
  return jsr_sat_add (t_ns, process->shift_ns);
}

/* The end of an event: detail->end_ns, else start + duration. */
gint64 jse_event_end (const JsrReportEvent *event);

/* A frame's name in every format: its function, else "module+0xOFFSET",
 * else "[unknown]"; owned by @ctx. */
const char *jse_frame_name (JseContext *ctx, const JsrReportFrame *frame);
#define JSE_NO_STACK "[no stack]"

/* Where the time went, as every format shows it: each event's profile
 * (jsr-profile.h; an older report's is made of its stacks), one entry per
 * node with self samples or time, across processes. The profile formats
 * (folded, pprof, sysprof's samples) add these up, so their totals are the
 * attributed time `jankscope report` prints (docs/exports.md, "What every
 * format shares"). Frame events see the same stalls as the dispatch and
 * iteration events they overlap: a frame event counts only where no
 * main-loop event of its process does (whole events for profiles; older
 * reports, sample by sample). */
typedef struct
{
  const JseProcess *process;
  const JsrReportEvent *event;
  const JsrProfile *profile; /* the event's */
  guint node;                /* of the profile */
  gint64 samples;            /* self samples counted */
  gint64 time_ns;            /* their time */
} JseNodeWeight;

GArray *jse_profile_weights (JseContext *ctx); /* of JseNodeWeight */

/* The frames of a node's stack, leaf first (the node's first), into `out`
 * (of const JsrReportFrame *): the frame with its file, line and offset
 * where one of the event's listed stacks went through the node (`site`),
 * else the profile's (function and module); JSE_OTHER_FRAME for an [other]
 * node, JSE_TRUNCATED_FRAME for a [truncated] one. */
void jse_node_frames (const JsrProfile *profile, guint node, GPtrArray *out);
extern const JsrReportFrame jse_other_frame;
extern const JsrReportFrame jse_truncated_frame;
#define JSE_OTHER_FRAME (&jse_other_frame)
#define JSE_TRUNCATED_FRAME (&jse_truncated_frame)

/* The frame shown for a node: its site, else the profile's, else a
 * pseudo-frame. */
const JsrReportFrame *jse_node_frame (const JsrProfile *profile, guint node);

/* The samples of one process in time order, each moment once (the frame
 * events' rule above, sample by sample): what the time-line formats (chrome,
 * sysprof) draw. At most 256 entries per event: merged ones (running >= 0)
 * hold several samples and the stack of the larger share
 * (docs/report-format.md, "Samples over time"). */
typedef struct
{
  const JsrReportEvent *event;
  const JsrReportSample *sample;
  const JsrProfile *profile; /* the event's, NULL without */
  gint32 node;               /* sample->node, -1: no stack */
} JseTimedSample;

GArray *jse_timeline (const JseProcess *process); /* of JseTimedSample */

/* Does a main-loop event of the process overlap [start_ns, end_ns)? */
gboolean jse_main_loop_overlaps (const JseProcess *process, gint64 start_ns, gint64 end_ns);

G_END_DECLS
