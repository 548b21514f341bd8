/* jsr-report.h: loads and validates a jankscope report (docs/report-format.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-diagnosis.h"
#include "jsr-posting.h"
#include "js-tiers.h" /* src/common: the tiers (JsTier), their names and bounds */
#include "jsr-json-doc.h"
#include "jsr-json-read.h" /* JSR_UNKNOWN, JSR_JSON_MAX_STRING */

G_BEGIN_DECLS

/* The loaders fail with a JSR_REPORT_ERROR (the file, or what the document
 * means), or with the JSON layer's JSR_JSON_ERROR (not JSON, too large to
 * parse, a member missing or of the wrong type or value), or with a
 * G_FILE_ERROR. */
#define JSR_REPORT_ERROR (jsr_report_error_quark ())

typedef enum
{
  JSR_REPORT_ERROR_NOT_REGULAR, /* a directory, a device, ... */
  JSR_REPORT_ERROR_EMPTY,       /* zero bytes: nothing was written yet */
  JSR_REPORT_ERROR_TOO_LARGE,   /* the file, or more of a member than the loader keeps */
  JSR_REPORT_ERROR_FORMAT,      /* JSON, but not a jankscope report */
  JSR_REPORT_ERROR_VERSION,     /* a jankscope report of a version this CLI cannot read */
  JSR_REPORT_ERROR_INVALID,     /* a member is missing, has the wrong type or value */
} JsrReportError;

/* Strings are as in the file (valid UTF-8, possibly with control characters:
 * sanitize before printing). Integers are checked to be >= 0. */
typedef struct
{
  char *source;   /* NULL: unnamed source */
  char *callback; /* may be NULL */
  gint64 count;
  gint64 total_ns;
  gint64 max_ns;
  gint64 p95_ns;
} JsrReportSource;

/* Bounds of what the reader keeps of the sampler's members (the file may
 * hold more: the rest is skipped, not validated). */
#define JSR_REPORT_MAX_FRAMES 8                   /* frames of an event's top stack */
#define JSR_REPORT_MAX_STRING JSR_JSON_MAX_STRING /* bytes of a string from the new members */
#define JSR_REPORT_MAX_JSON_DEPTH 64              /* the format nests 7 levels */
#define JSR_REPORT_MAX_BYTES (256 * 1024 * 1024)  /* a report is a few MB at most */

/* "Unknown" for the nullable numbers of the stacks and classification:
 * JSR_UNKNOWN (jsr-json-read.h). */

/* One frame of a sampled stack. */
typedef struct
{
  char *function; /* NULL: no symbol */
  char *symbol;   /* the raw (mangled) name where `function` is demangled; NULL in older
                   * reports and where they are the same */
  char *module;   /* may be NULL */
  char *file;     /* may be NULL */
  gint64 line;    /* JSR_UNKNOWN when null */
  char *offset;   /* "0x1234", may be NULL */
  gboolean inlined;
  char *build_id; /* may be NULL (filled by jsr_report_load_full only) */
  /* Named by `jankscope symbolize` ("symbolized": true): signatures take
   * it for the unnamed frame it was (docs/report-format.md, "Signatures"). */
  gboolean symbolized;
} JsrReportFrame;

/* An entry of the report's module table (`modules`, absent in older
 * reports): a module its frames and callbacks name. */
typedef struct
{
  char *name;     /* file name, as frames' `module` */
  char *path;     /* the path it was loaded from (absolute, or "~/…" scrubbed); NULL: unknown */
  char *build_id; /* hex (jsr_is_build_id); NULL: none */
  /* Its code: the executable segment's p_vaddr and p_offset; JSR_UNKNOWN
   * (both) when absent. */
  gint64 text_vaddr, text_offset;
} JsrReportModule;

#define JSR_REPORT_MAX_MODULES 4096 /* the core's registry holds at most as many */

typedef struct _JsrReportEventDetail JsrReportEventDetail;
typedef struct _JsrProfile JsrProfile; /* jsr-profile.h */

/* culprit.callback: the dispatched function on the culprit's path. */
typedef struct
{
  char *function; /* may be NULL */
  char *module;   /* may be NULL */
  char *offset;   /* may be NULL */
  /* Not in the report: the name of the source it was dispatched for, when
   * that is certain (the part's, or the event's when all its parts have
   * it) and says more than GLib's type names ("GIdleSource"); else NULL. */
  char *source;
} JsrReportCallback;

typedef struct
{
  char *function;    /* may be NULL */
  char *module;      /* may be NULL */
  char *file;        /* may be NULL */
  gint64 line;       /* JSR_UNKNOWN when null */
  double confidence; /* 0..1; < 0 when unknown */
  gint64 samples;    /* JSR_UNKNOWN when absent */
  gint64 of_samples; /* JSR_UNKNOWN when absent */
  char *reason;      /* "app-code", "library", "leaf" or another; may be NULL */
  /* Reports with profiles (JSR_UNKNOWN / NULL in older ones): */
  char *offset;                /* may be NULL */
  gint64 node;                 /* its node in the event's profile; JSR_UNKNOWN when absent */
  gint64 time_ns;              /* time of the samples through it inside the dispatch */
  gint64 app_code_ns;          /* time of the samples with the app's own code inside the dispatch */
  JsrReportCallback *callback; /* NULL: none (or an older report) */
} JsrReportCulprit;

/* ---- Full loading (analysis and exports: jankscope report, export,
 * merge, diff). Everything a report holds about an event, bounded
 * (JSR_REPORT_FULL_MAX_* below; past them the loader fails with
 * JSR_REPORT_ERROR_TOO_LARGE rather than truncate silently). */

#define JSR_REPORT_FULL_MAX_STACK_FRAMES 256
#define JSR_REPORT_FULL_MAX_STACKS 64    /* per event */
#define JSR_REPORT_FULL_MAX_SAMPLES 4096 /* per event */
#define JSR_REPORT_FULL_MAX_PARTS 1024   /* per event */

typedef struct
{
  gint64 count;
  char *signature;    /* as in the file; NULL in old reports (recompute with js-signature) */
  char *signature_id; /* may be NULL */
  gboolean truncated;
  GPtrArray *frames;  /* of JsrReportFrame, leaf first (all of them, bounded) */
  gint64 time_ns;     /* attributed time ("time_ns"), JSR_UNKNOWN when absent */
  guint frames_total; /* frames in the file (more than `frames` holds only with
                       * JSR_REPORT_LOAD_AGGREGATE) */
  gint32 node;        /* its leaf in the event's profile (the file's, or the one the
                       * reader made of an older report's stacks); -1 none */
} JsrReportStack;

/* A part's stack (parts[].stacks): its frames are the path from `node` to
 * the root in the event's profile. */
typedef struct
{
  gint32 node; /* in the event's profile, always valid */
  gint64 count;
  gint64 time_ns;     /* JSR_UNKNOWN when absent */
  char *signature;    /* may be NULL */
  char *signature_id; /* may be NULL */
} JsrReportPartStack;

/* A part's share of the event's profile, at one node. */
typedef struct
{
  gint32 node; /* in the event's profile, always valid */
  gint64 self_samples;
  gint64 self_ns;
} JsrReportPartNode;

typedef struct
{
  gint64 t_ns;
  gint64 last_ns; /* == t_ns unless folded */
  gint64 count;
  char *state;    /* "running", "waiting", ... */
  char *wait;     /* may be NULL */
  gint stack;     /* index into the event's stacks, -1 none */
  gint32 node;    /* the profile node of its innermost frame, -1 none (older reports:
                   * its stack's) */
  gint32 part;    /* index into the event's parts, -1 unknown or not listed */
  gint64 running; /* merged entries: samples that found the thread running;
                   * JSR_UNKNOWN on an entry that was not merged */
} JsrReportSample;

typedef struct
{
  char *type; /* "dispatch", "iteration", "frame" */
  gint64 start_ns, end_ns, duration_ns;
  char *tier;
  char *source, *callback; /* may be NULL */
  gint64 window;           /* frame parts; JSR_UNKNOWN otherwise */
  gint64 budget_ns;        /* frame parts; JSR_UNKNOWN otherwise */
  gint64 work_ns;          /* frame parts; JSR_UNKNOWN otherwise */
  /* frame parts: ns per phase, JSR_UNKNOWN for phases that did not run,
   * in the order flush-events, before-paint, update, layout, paint, after-paint */
  gint64 phases[6];

  /* The part's own cause (docs/report-format.md, "Causes per part"):
   * JSR_UNKNOWN / NULL / empty in reports without them. */
  gint64 stalls;
  gint64 watched_ns;
  gint64 cpu_ns;
  gint64 off_cpu_ns;
  gint64 runnable_ns;
  char *klass;
  char *wait;
  JsrReportCulprit *culprit;
  JsrReportDiagnosis *diagnosis; /* NULL: none (or an older report) */
  JsrPosting *posted_from;       /* NULL: unknown (or an older report) */
  /* Its profile's time (the nodes' and other_ns summed), never more than the
   * part's duration; else the file's attributed_ns; JSR_UNKNOWN without. */
  gint64 attributed_ns;
  gint64 samples_total;
  gint64 samples_with_stack;
  GArray *profile;        /* of JsrReportPartNode; NULL without a profile */
  gint64 profile_samples; /* the sums, other_* included (saturated) */
  gint64 profile_time_ns;
  gint64 other_samples; /* samples at nodes the part's profile does not list */
  gint64 other_ns;
  GPtrArray *stacks; /* of JsrReportPartStack; NULL without */
} JsrReportPart;

struct _JsrReportEventDetail
{
  GPtrArray *stacks;  /* of JsrReportStack, in the file's order */
  GArray *samples;    /* of JsrReportSample */
  GPtrArray *parts;   /* of JsrReportPart: the event's `parts` */
  gint64 runnable_ns; /* JSR_UNKNOWN when null/absent */
  gint64 end_ns;
  /* Context (for report, merge and diff; JSR_UNKNOWN / NULL when absent). */
  char *scene;                 /* innermost app scene label */
  gint64 process_cpu_pct_x100; /* process CPU % * 100 over the event */
  gint64 load_avg_x100;        /* system 1-min load * 100 */
  gint64 mem_available_kb;
  gboolean startup;
  /* The event's blocked time spoken for by samples with a stack, and the
   * rest (they add up to duration_ns); JSR_UNKNOWN when absent. With a
   * profile in the file, attributed_ns is the profile's time (never more
   * than duration_ns) whatever the file's member says. */
  gint64 attributed_ns;
  gint64 unattributed_ns;
  /* Of attributed_ns, the time of parts left out of `parts`; JSR_UNKNOWN
   * when absent. */
  gint64 attributed_unlisted_ns;
  gint64 stalls;             /* JSR_UNKNOWN when absent */
  gint64 samples_with_stack; /* JSR_UNKNOWN when absent */
  gint64 stacks_omitted;     /* JSR_UNKNOWN when absent */
  /* Every sample with a stack (jsr-profile.h): the file's, or, for an older
   * report, the one the reader made of its stacks (`from_stacks`); NULL
   * when the event has neither. */
  JsrProfile *profile;
};

typedef struct
{
  gint64 id;
  char *type;
  JsTier tier;
  gint64 start_ns;
  gint64 duration_ns;
  gint64 blocked_ns; /* the time its parts kept the user waiting (the tier's
                      * measure, js_tier_of_episode); JSR_UNKNOWN in older reports */
  gint64 parts_count;
  char *source;   /* may be NULL */
  char *callback; /* may be NULL */

  /* Stacks and classification: absent in reports written before the
   * sampler (all unknown then). */
  gboolean ongoing;              /* the stall under way (id 0, type "hang") */
  gint64 watched_ns;             /* JSR_UNKNOWN when absent */
  gint64 cpu_ns;                 /* JSR_UNKNOWN when null */
  gint64 off_cpu_ns;             /* JSR_UNKNOWN when null */
  char *klass;                   /* "compute", "wait", "mixed" or another; may be NULL */
  char *wait;                    /* "lock", "sleep", ... or another; may be NULL */
  JsrReportCulprit *culprit;     /* NULL: none */
  JsrReportDiagnosis *diagnosis; /* NULL: none (or an older report) */
  JsrPosting *posted_from;       /* NULL: unknown (or an older report) */
  gint64 samples_total;          /* JSR_UNKNOWN when absent */
  guint n_stacks;                /* entries of "stacks" */
  gint64 top_stack_count;        /* samples of the top stack; JSR_UNKNOWN without one */
  gboolean top_stack_truncated;  /* the sampler cut the stack itself */
  guint top_stack_frames_total;  /* frames of the top stack in the file */
  GPtrArray *top_stack;          /* of JsrReportFrame, leaf first, at most
                                  * JSR_REPORT_MAX_FRAMES; empty without stacks */

  /* Filled only by jsr_report_load_full () (NULL otherwise). */
  JsrReportEventDetail *detail;

  /* The parts (of JsrReportPart), with their causes, read by every loader
   * (detail->parts is the same array); a part's profile and stacks only
   * with the detail. Empty when the report lists none. */
  GPtrArray *parts;
} JsrReportEvent;

/* A log-linear histogram of the report (summary.iteration_busy.histogram,
 * summary.frames.histogram; docs/report-format.md, "Histograms"): its
 * non-empty buckets, increasing index. The layout is jsr-histogram.h's (16
 * sub-buckets per power of two from 64 ns); one of another layout is not
 * loaded (NULL). */
typedef struct
{
  guint32 index;
  guint64 count;
} JsrReportBucket;

typedef struct
{
  guint64 count; /* the sum of the buckets' counts */
  gint64 min_ns;
  gint64 max_ns;
  GArray *buckets; /* of JsrReportBucket */
} JsrReportHistogram;

/* summary.sampler: counters are JSR_UNKNOWN when absent. */
typedef struct
{
  gboolean sampling_off; /* "signal": null */
  gboolean signal_lost;
  gint64 stalls;
  gint64 samples;
  gint64 signals_sent;
  gint64 signal_timeouts;
  gint64 syscalls_interrupted; /* reports of jankscope before the blocking-call guard only */
  /* "cpu-timer", "watchdog" or "off", and why not the timer; NULL when
   * absent (reports before it) or null. */
  char *sampling_path;
  char *sampling_path_reason;
} JsrReportSampler;

/* previous_run: a run killed during a hang, found in the report path. */
typedef struct
{
  gint64 pid; /* JSR_UNKNOWN when absent */
  char *exe;  /* may be NULL */
  JsrReportEvent *hang;
} JsrReportPreviousRun;

typedef struct
{
  char *generator;
  gboolean final;

  /* process: the strings may be NULL (unknown) */
  char *name;
  gint64 pid;
  char *toolkit;
  char *gtk_version;
  char *mode;
  gint64 start_ns;

  /* config: the thresholds the app judged with. A report without tiers_ns
   * or slow_frame_pct (older ones) reads as the defaults (js-tiers.h,
   * js-slow-frame.h), with threshold_ns as the noticeable bound. */
  gint64 threshold_ns;
  gint64 tier_ns[JS_N_TIERS]; /* the tiers' lower bounds */
  guint slow_frame_pct;       /* a frame is slow over this % of its budget */

  /* summary */
  gint64 iterations;
  gint64 dispatches;
  gint64 busy_ns;
  gint64 monitored_ns;
  gint64 events_by_tier[JS_N_TIERS]; /* stall events (dispatches, iterations) */
  gint64 events_total;
  gint64 events_dropped;
  /* Frame events (episodes of slow frames), light first; JSR_UNKNOWN in
   * reports older than these counts: jsr_report_frame_events () counts the
   * listed ones then. */
  gint64 frame_events_by_tier[JS_N_EVENT_TIERS];
  gint64 frame_events_total;
  gint64 frame_events_dropped;
  gint64 records_dropped;
  gint64 sources_truncated;
  GPtrArray *sources; /* of JsrReportSource, in file order */

  /* summary.frames (absent in reports of plain GLib programs: frames == 0) */
  gint64 frames;
  gint64 frames_slow;
  gint64 frames_frozen;
  gint64 frame_p50_ns;
  gint64 frame_p95_ns;
  gint64 frame_p99_ns;
  double frames_fps; /* while animating; < 0 when unknown */

  JsrReportSampler *sampler; /* NULL: null or absent */

  GPtrArray *events; /* of JsrReportEvent, in file order, ongoing ones included */

  JsrReportPreviousRun *previous_run; /* NULL: none */

  /* Filled by jsr_report_load_full () when present (for report, merge, diff). */
  char *install_id; /* stable anonymous id of the installation, may be NULL */
  char *path;       /* the file it was loaded from (for messages), may be NULL */

  /* Read by both loaders (for report, merge, diff); JSR_UNKNOWN / NULL when absent. */
  char *exe;               /* process.exe */
  gint64 report_ns;        /* process.report_ns */
  gint64 iteration_p50_ns; /* summary.iteration_busy */
  gint64 iteration_p95_ns;
  gint64 iteration_p99_ns;
  gint64 iteration_max_ns;
  gint64 frame_p90_ns; /* summary.frames (0 without frames, like the others) */
  gint64 frame_max_ns;
  JsrReportHistogram *iteration_histogram; /* NULL: absent (older reports) */
  JsrReportHistogram *frame_histogram;     /* NULL: absent, or no frames */
  GPtrArray *modules; /* of JsrReportModule, in file order; empty when absent (older reports) */
} JsrReport;

GQuark jsr_report_error_quark (void);

JsrReport *jsr_report_load (const char *path, GError **error);
JsrReport *jsr_report_load_from_data (const char *data, gsize length, GError **error);
void jsr_report_free (JsrReport *report);

/* Like jsr_report_load, plus every event's JsrReportEventDetail, and the
 * report-level members the analysis needs (install_id, ...). Same checks,
 * same untrusted-input rules. */
JsrReport *jsr_report_load_full (const char *path, GError **error);
JsrReport *jsr_report_load_full_from_data (const char *data, gsize length, GError **error);

typedef enum
{
  JSR_REPORT_LOAD_SUMMARY = 0,   /* what jsr_report_load reads */
  JSR_REPORT_LOAD_FULL = 1 << 0, /* and every event's detail (jsr_report_load_full) */
  /* With FULL: only what aggregating by the reports' own signatures needs
   * (jsr-aggregate.c), at a fraction of the cost: the frames of stacks that carry
   * a signature (their `frames` is empty, `frames_total` counts them) and of
   * the events' top_stack are left out, and so are summary.sources and the
   * events' samples (read only when samples_total is absent). What is left
   * out is not checked as a report (it is still checked as JSON). */
  JSR_REPORT_LOAD_AGGREGATE = 1 << 1,
} JsrReportLoadFlags;

/* For readers of several kinds of documents (jankscope report, merge, diff):
 * a report from a parsed document, the same checks (root is the document's
 * root; the caller keeps the document alive during the call only). */
JsrReport *jsr_report_load_from_json (const JsrJsonNode *root, JsrReportLoadFlags flags,
                                      GError **error);
/* Members a document parsed for these flags may leave lazy
 * (jsr_json_doc_parse_lazy): those the reader does not read. */
const char *const *jsr_report_lazy_members (JsrReportLoadFlags flags);

/* The file's bytes with the loaders' checks (regular file, size limit). */
gboolean jsr_report_read_file (const char *path, char **data, gsize *length, GError **error);

const JsrReportEvent *jsr_report_get_ongoing_hang (const JsrReport *report);

/* Jank events come in two kinds, counted apart everywhere (summary,
 * report, window, viewer) because they see the same stutter from two sides:
 * stall events (the main loop blocked: events_total) and frame events (slow
 * frames, which a stall event often explains). */
/* The frame events, per tier (indexed by JsTier, light included) when
 * by_tier is not NULL: the summary's counts, dropped ones included, or in an
 * older report the listed frame events. */
gint64 jsr_report_frame_events (const JsrReport *report, gint64 by_tier[JS_N_EVENT_TIERS]);

/* The build-id of a nameless callback's module ("libfoo.so+0x1234",
 * jsr_dispatch_label ()), from the module table: NULL when the callback has
 * a name, or the table has no single entry of that module with one. */
const char *jsr_report_callback_build_id (const JsrReport *report, const char *callback);

/* A build-id as reports write it: 2 to 128 hex digits, an even number. */
gboolean jsr_is_build_id (const char *text);

/* The module table's entry for module `name` with `build_id`; with a NULL
 * `build_id`, the only entry of that name. NULL: none (or several). */
const JsrReportModule *jsr_report_find_module (const JsrReport *report, const char *name,
                                               const char *build_id);

/* The name of the dispatched callback to show next to a culprit (“callback
 * → function”): when the culprit is not the app's own code (its reason is
 * not app-code) and the report has the callback: its function; else (a
 * static function of a stripped library) the name of the source it was
 * dispatched for when the reader knows it (GTK names its sources after their
 * callbacks: “[gtk] gdk_frame_clock_paint_idle”), else “module+offset”;
 * else NULL. */
char *jsr_culprit_callback_name (const JsrReportCulprit *culprit);

/* What to call a dispatch (a part, a source's row): its callback's name; a
 * nameless callback ("module+0x…", a stripped library's static function)
 * gives way to its source's name when that names a callback (GTK's
 * "[gtk] gdk_frame_clock_paint_idle", not GLib's "GIdleSource"); else the
 * callback, else the source; NULL when neither is known. */
const char *jsr_dispatch_label (const char *callback, const char *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrReport, jsr_report_free)

G_END_DECLS
