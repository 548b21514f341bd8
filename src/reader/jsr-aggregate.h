/* jsr-aggregate.h: jank of many events, runs and machines, by stack signature
 *
 * An aggregate folds in reports (jsr_aggregate_add_report) and other
 * aggregates (jsr_aggregate_add_aggregate); it is what `jankscope merge`
 * writes (docs/aggregate-format.md) and what `jankscope report` and `diff`
 * read. Every count and sum is exact: the aggregate of many inputs is the
 * sum of theirs, whatever the grouping (merge (merge (a, b), c) equals
 * merge (a, b, c)), as long as no table overflowed (below).
 *
 * Time of an event (its blocked time, duration_ns) is split into
 *  - attributed time: spoken for by samples with a stack. Each listed stack
 *    gets its `time_ns` when the report has it, else the share of the
 *    event's watched time (watched_ns, at most duration_ns) that its samples
 *    are of the event's samples (count / samples_total). The event's
 *    attributed time is its `attributed_ns` when the report has it (which
 *    may include stacks the report left out), else the sum over its stacks;
 *  - unattributed time: the rest (duration_ns − attributed), time before
 *    sampling started, samples without a stack.
 * A signature's time is the sum of its stacks' attributed time; time of
 * stacks left out of a report goes to the "other" signature bucket. So for
 * all stall events: sum over signatures + other + unattributed = blocked.
 *
 * Frame events describe the same time as dispatch and iteration events, from
 * the frame clock's side: they are counted apart (frame_events) and never in
 * stall time, so that no stall is counted twice. A frame event that no stall
 * event of its report overlaps is the only record of its stalls: its
 * profile goes into the signatures (frame_uncovered), as every export counts
 * it.
 *
 * A run is one process (install id, pid, start); a run already folded in is
 * refused (JSR_AGGREGATE_ERROR_DUPLICATE): runs are disjoint across inputs,
 * which makes "runs affected" a sum.
 *
 * Bounds: signatures beyond max_signatures × 4 in memory, groups beyond
 * JSR_AGGREGATE_MAX_GROUPS and cells beyond JSR_AGGREGATE_MAX_CELLS per
 * signature go, exactly counted, to "other" buckets, and `overflowed` says
 * so (associativity holds only without overflow).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-agg-names.h"
#include "jsr-aggregate-diagnoses.h"
#include "jsr-aggregate-postings.h"
#include "jsr-histogram.h"
#include "jsr-report.h"

G_BEGIN_DECLS

#define JSR_AGGREGATE_FORMAT "jankscope-aggregate"
#define JSR_AGGREGATE_VERSION 1
#define JSR_AGGREGATE_WORST_EVENTS 20
#define JSR_AGGREGATE_WORST_PARTS 8 /* parts kept of a worst event */
#define JSR_AGGREGATE_DEFAULT_MAX_SIGNATURES 10000
#define JSR_AGGREGATE_MAX_GROUPS 100000
#define JSR_AGGREGATE_MAX_CELLS 256 /* per signature */
#define JSR_AGGREGATE_MAX_APPS 256

#define JSR_AGGREGATE_ERROR (jsr_aggregate_error_quark ())

typedef enum
{
  JSR_AGGREGATE_ERROR_DUPLICATE, /* a run that is already in */
  JSR_AGGREGATE_ERROR_MISMATCH,  /* signatures of another depth */
} JsrAggregateError;

/* Sums; saturate at G_MAXINT64 (a hostile input cannot wrap them around). */
typedef struct
{
  guint64 events;
  guint64 samples;
  guint64 runs;            /* runs with at least one of these events */
  guint64 total_ns;        /* groups: blocked time; signatures: attributed time */
  guint64 max_ns;          /* the largest of one event */
  guint64 attributed_ns;   /* groups only */
  guint64 unattributed_ns; /* groups only */
  guint64 last_run;        /* internal: serial of the last run counted */
} JsrAggStats;

/* What an event is, for grouping and filters. Strings are owned by the
 * entry that holds the key; NULL source: unnamed; NULL class: unknown;
 * NULL scene: none. */
typedef struct
{
  char *tier;
  char *klass;
  char *wait;
  char *source;
  char *callback;
  /* A nameless callback's ("libfoo.so+0x1234") module's build-id, from
   * its report's module table, so that `jankscope symbolize` can name it
   * afterwards; NULL for a named callback or when unknown. */
  char *callback_build_id;
  char *scene; /* the app's scene label (include/jankscope.h), NULL: none */
} JsrAggKey;

typedef struct
{
  JsrAggKey key;
  JsrAggStats stats;
} JsrAggGroup;

typedef struct
{
  char *text; /* "" when every frame was main loop or system */
  char id[17];
  JsrAggStats stats;
  GHashTable *cells; /* JsrAggKey* -> JsrAggGroup* (stats of this signature's events of that key) */
  JsrAggGroup *cells_other; /* cells beyond JSR_AGGREGATE_MAX_CELLS, NULL: none */
} JsrAggSignature;

/* A part of a worst event: what `jankscope report` shows of it
 * (docs/report-format.md, "Causes per part"). Strings may be NULL. */
typedef struct
{
  char *type;
  char *source;
  char *callback;
  char *tier;
  char *klass;
  char *wait;
  char *culprit;          /* function, else module+0x… (with a build-id), else module!? */
  char *culprit_callback; /* the dispatched callback shown next to a library's culprit */
  char *posted_from;      /* where its source was posted from (jsr_posting_name), NULL: unknown */
  gboolean posted_from_inherited; /* ... named by an earlier attach's stack */
  /* The build-ids of the nameless ("module+0x…") callback, culprit and
   * culprit_callback's modules (jsr-agg-names.h); NULL: named, or unknown. */
  char *callback_build_id;
  char *culprit_build_id;
  char *culprit_callback_build_id;
  gint64 start_ns;
  guint64 duration_ns;
  gint64 attributed_ns; /* JSR_UNKNOWN: unknown */
} JsrAggPart;

typedef struct
{
  guint64 run; /* run id */
  char *app;
  gint64 pid;
  gint64 event_id;
  gint64 start_ns;
  guint64 duration_ns;
  guint64 attributed_ns;
  guint64 unattributed_ns;
  JsrAggKey key;
  char *culprit; /* function, else module+0x… (with a build-id), else module!?, NULL: none */
  char *culprit_callback; /* the dispatched callback, when the culprit is not the app's code */
  char *culprit_build_id; /* of a nameless culprit's module (jsr-agg-names.h), else NULL */
  char *culprit_callback_build_id; /* of a nameless culprit_callback's module, else NULL */
  char *posted_from; /* where its source was posted from (jsr_posting_name), NULL: unknown */
  gboolean posted_from_inherited; /* ... named by an earlier attach's stack */
  char *signature;                /* of the stack with most time, NULL: none */
  guint64 parts_count;            /* the event's parts_count */
  GPtrArray *parts;               /* of JsrAggPart: the longest JSR_AGGREGATE_WORST_PARTS parts
                                   * with their causes, in time order; NULL: none known */
} JsrAggEvent;

typedef struct
{
  char **tiers;   /* tier names; NULL: any */
  char **classes; /* compute, wait, mixed, unknown, or a wait kind (lock, io, ...); NULL: any */
  char **sources; /* glob patterns on the source or the callback; NULL: any */
  char **scenes;  /* glob patterns on the scene; NULL: any */
} JsrAggFilter;

typedef struct
{
  guint signature_frames;
  guint max_signatures;
  JsrAggFilter *filter; /* NULL: none */

  /* inputs */
  guint64 reports;      /* report files folded in (through aggregates too) */
  GHashTable *runs;     /* run ids: guint64* -> NULL */
  GHashTable *installs; /* install ids (strings) */
  GHashTable *apps;     /* app name -> guint64* runs */
  guint64 apps_other;   /* runs of apps beyond JSR_AGGREGATE_MAX_APPS */

  /* the reports' summaries */
  guint64 monitored_ns;
  guint64 busy_ns;
  guint64 iterations;
  guint64 dispatches;
  guint64 events_total;
  guint64 events_dropped;
  guint64 records_dropped;
  guint64 events_by_tier[JS_N_TIERS];
  guint64 frames;
  guint64 frames_slow;
  guint64 frames_frozen;
  JsrHistogram iteration_busy;
  JsrHistogram frame_time;

  /* stall events (dispatch, iteration, hang) that passed the filter */
  JsrAggStats stalls; /* events, samples, total_ns = blocked, attributed, unattributed */
  guint64 events_filtered_out;
  /* frame events: counted apart */
  guint64 frame_events_by_tier[JS_N_EVENT_TIERS];
  guint64 frame_events_ns;
  /* Of them, those no stall event of their report covers (reports with
   * profiles): the only record of their stalls, whose profiles are in the
   * signatures as every export counts them. total_ns: their frame time. */
  JsrAggStats frame_uncovered;

  GHashTable *groups; /* JsrAggKey* -> JsrAggGroup* */
  JsrAggStats groups_other;
  GHashTable *signatures;            /* text -> JsrAggSignature* */
  JsrAggStats signatures_other;      /* total_ns includes stacks left out of reports */
  guint64 signatures_other_count;    /* signatures in the inputs' "other" (a sum over them) */
  GHashTable *signatures_overflowed; /* ids of signatures this aggregate put in "other" */
  GPtrArray *worst;          /* of JsrAggEvent, longest first, at most JSR_AGGREGATE_WORST_EVENTS */
  JsrAggDiagnoses diagnoses; /* stall events that passed the filter, by diagnosis id */
  JsrAggPostings postings;   /* their slow dispatches, by posting signature */

  gboolean overflowed;       /* a bound was hit: exact, but no longer associative */
  gboolean saturated;        /* a sum reached G_MAXINT64 */
  gboolean runs_upper_bound; /* filtered aggregate input: signature runs are sums of cells */

  guint64 run_serial; /* internal */
} JsrAggregate;

GQuark jsr_aggregate_error_quark (void);

JsrAggregate *jsr_aggregate_new (guint signature_frames, guint max_signatures);
void jsr_aggregate_free (JsrAggregate *aggregate);
/* Events that do not match are left out (counted in events_filtered_out);
 * the summaries (histograms, monitored time) are not filtered. */
void jsr_aggregate_set_filter (JsrAggregate *aggregate, const JsrAggFilter *filter);
gboolean jsr_aggregate_filter_matches (const JsrAggFilter *filter, const JsrAggKey *key);

/* The report must come from jsr_report_load_full (). */
gboolean jsr_aggregate_add_report (JsrAggregate *aggregate, const JsrReport *report,
                                   GError **error);
gboolean jsr_aggregate_add_aggregate (JsrAggregate *aggregate, const JsrAggregate *other,
                                      GError **error);

/* Sorted views (the arrays hold borrowed pointers). */
typedef enum
{
  JSR_AGG_SORT_TIME,
  JSR_AGG_SORT_EVENTS,
  JSR_AGG_SORT_RUNS,
  JSR_AGG_SORT_SAMPLES,
} JsrAggSort;

GPtrArray *jsr_aggregate_sorted_signatures (const JsrAggregate *aggregate, JsrAggSort sort);
GPtrArray *jsr_aggregate_sorted_groups (const JsrAggregate *aggregate);
int jsr_agg_key_compare (const JsrAggKey *a, const JsrAggKey *b);
const char *jsr_agg_class_label (const JsrAggKey *key);

/* Names the nameless callbacks and culprits that carry a build-id: `name`
 * gives the function's name (g_malloc ()ed) or NULL to leave it as it is
 * (jsr-agg-names.h). Groups and
 * a signature's cells whose keys become one are one, their stats summed
 * (runs too: a run loads one build of a module, and a callback's address
 * has one name in it, so the runs of two cells that become one are
 * distinct but for two static functions of one name in one module); the
 * worst events' kinds, culprits, culprit callbacks and parts are renamed,
 * and so are the diagnoses' places (places that become one summed).
 * Returns how many names were named. */
guint jsr_aggregate_name_callbacks (JsrAggregate *aggregate, JsrAggNameFunc name, gpointer data);

/* A table of JsrAggGroup keyed by their own key (for readers). */
GHashTable *jsr_aggregate_new_group_table (void);

/* Parts of worst events (jsr-aggregate-io.c reads them). */
void jsr_agg_part_free (JsrAggPart *part);

/* The 64-bit FNV-1a of a signature's text, as js-signature.c computes it. */
void jsr_agg_signature_id (const char *text, char id[17]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsrAggregate, jsr_aggregate_free)

G_END_DECLS
