/* jsr-aggregate.h: jank of many events, runs and machines, by stack signature
 *
 * An aggregate folds in reports (cli_aggregate_add_report) and other
 * aggregates (cli_aggregate_add_aggregate); it is what `jankscope merge`
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
 * signatures or stall time, so that no stall is counted twice.
 *
 * A run is one process (install id, pid, start); a run already folded in is
 * refused (CLI_AGGREGATE_ERROR_DUPLICATE): runs are disjoint across inputs,
 * which makes "runs affected" a sum.
 *
 * Bounds: signatures beyond max_signatures × 4 in memory, groups beyond
 * CLI_AGGREGATE_MAX_GROUPS and cells beyond CLI_AGGREGATE_MAX_CELLS per
 * signature go, exactly counted, to "other" buckets, and `overflowed` says
 * so (associativity holds only without overflow).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-histogram.h"
#include "jsr-report.h"

G_BEGIN_DECLS

#define CLI_AGGREGATE_FORMAT "jankscope-aggregate"
#define CLI_AGGREGATE_VERSION 1
#define CLI_AGGREGATE_WORST_EVENTS 20
#define CLI_AGGREGATE_DEFAULT_MAX_SIGNATURES 10000
#define CLI_AGGREGATE_MAX_GROUPS 100000
#define CLI_AGGREGATE_MAX_CELLS 256   /* per signature */
#define CLI_AGGREGATE_MAX_APPS 256

#define CLI_AGGREGATE_ERROR (cli_aggregate_error_quark ())

typedef enum
{
  CLI_AGGREGATE_ERROR_DUPLICATE,  /* a run that is already in */
  CLI_AGGREGATE_ERROR_MISMATCH,   /* signatures of another depth */
} CliAggregateError;

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
} CliAggStats;

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
  char *scene;    /* the app's scene label (include/jankscope.h), NULL: none */
} CliAggKey;

typedef struct
{
  CliAggKey key;
  CliAggStats stats;
} CliAggGroup;

typedef struct
{
  char *text;     /* "" when every frame was main loop or system */
  char id[17];
  CliAggStats stats;
  GHashTable *cells; /* CliAggKey* -> CliAggGroup* (stats of this signature's events of that key) */
  CliAggGroup *cells_other; /* cells beyond CLI_AGGREGATE_MAX_CELLS, NULL: none */
} CliAggSignature;

typedef struct
{
  guint64 run;         /* run id */
  char *app;
  gint64 pid;
  gint64 event_id;
  gint64 start_ns;
  guint64 duration_ns;
  guint64 attributed_ns;
  guint64 unattributed_ns;
  CliAggKey key;
  char *culprit;       /* function, else module!?, NULL: none */
  char *signature;     /* of the stack with most time, NULL: none */
} CliAggEvent;

typedef struct
{
  char **tiers;    /* tier names; NULL: any */
  char **classes;  /* compute, wait, mixed, unknown, or a wait kind (lock, io, ...); NULL: any */
  char **sources;  /* glob patterns on the source or the callback; NULL: any */
  char **scenes;   /* glob patterns on the scene; NULL: any */
} CliAggFilter;

typedef struct
{
  guint signature_frames;
  guint max_signatures;
  CliAggFilter *filter;  /* NULL: none */

  /* inputs */
  guint64 reports;       /* report files folded in (through aggregates too) */
  GHashTable *runs;      /* run ids: guint64* -> NULL */
  GHashTable *installs;  /* install ids (strings) */
  GHashTable *apps;      /* app name -> guint64* runs */
  guint64 apps_other;    /* runs of apps beyond CLI_AGGREGATE_MAX_APPS */

  /* the reports' summaries */
  guint64 monitored_ns;
  guint64 busy_ns;
  guint64 iterations;
  guint64 dispatches;
  guint64 events_total;
  guint64 events_dropped;
  guint64 records_dropped;
  guint64 events_by_tier[CLI_N_TIERS];
  guint64 frames;
  guint64 frames_slow;
  guint64 frames_frozen;
  CliHistogram iteration_busy;
  CliHistogram frame_time;

  /* stall events (dispatch, iteration, hang) that passed the filter */
  CliAggStats stalls;    /* events, samples, total_ns = blocked, attributed, unattributed */
  guint64 events_filtered_out;
  /* frame events: counted apart */
  guint64 frame_events_by_tier[CLI_N_EVENT_TIERS];
  guint64 frame_events_ns;

  GHashTable *groups;    /* CliAggKey* -> CliAggGroup* */
  CliAggStats groups_other;
  GHashTable *signatures; /* text -> CliAggSignature* */
  CliAggStats signatures_other; /* total_ns includes stacks left out of reports */
  guint64 signatures_other_count; /* signatures in the inputs' "other" (a sum over them) */
  GHashTable *signatures_overflowed; /* ids of signatures this aggregate put in "other" */
  GPtrArray *worst;      /* of CliAggEvent, longest first, at most CLI_AGGREGATE_WORST_EVENTS */

  gboolean overflowed;   /* a bound was hit: exact, but no longer associative */
  gboolean saturated;    /* a sum reached G_MAXINT64 */
  gboolean runs_upper_bound; /* filtered aggregate input: signature runs are sums of cells */

  guint64 run_serial;    /* internal */
} CliAggregate;

GQuark        cli_aggregate_error_quark (void);

CliAggregate *cli_aggregate_new          (guint               signature_frames,
                                          guint               max_signatures);
void          cli_aggregate_free         (CliAggregate       *aggregate);
/* Events that do not match are left out (counted in events_filtered_out);
 * the summaries (histograms, monitored time) are not filtered. */
void          cli_aggregate_set_filter   (CliAggregate       *aggregate,
                                          const CliAggFilter *filter);
gboolean      cli_aggregate_filter_matches (const CliAggFilter *filter,
                                            const CliAggKey    *key);

/* The report must come from cli_report_load_full (). */
gboolean      cli_aggregate_add_report   (CliAggregate       *aggregate,
                                          const CliReport    *report,
                                          GError            **error);
gboolean      cli_aggregate_add_aggregate (CliAggregate      *aggregate,
                                           const CliAggregate *other,
                                           GError           **error);

/* Sorted views (the arrays hold borrowed pointers). */
typedef enum
{
  CLI_AGG_SORT_TIME,
  CLI_AGG_SORT_EVENTS,
  CLI_AGG_SORT_RUNS,
  CLI_AGG_SORT_SAMPLES,
} CliAggSort;

GPtrArray    *cli_aggregate_sorted_signatures (const CliAggregate *aggregate,
                                               CliAggSort          sort);
GPtrArray    *cli_aggregate_sorted_groups     (const CliAggregate *aggregate);
int           cli_agg_key_compare             (const CliAggKey    *a,
                                               const CliAggKey    *b);
const char   *cli_agg_class_label             (const CliAggKey    *key);

/* A table of CliAggGroup keyed by their own key (for readers). */
GHashTable   *cli_aggregate_new_group_table   (void);

/* The 64-bit FNV-1a of a signature's text, as js-signature.c computes it. */
void          cli_agg_signature_id            (const char         *text,
                                               char                id[17]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliAggregate, cli_aggregate_free)

G_END_DECLS
