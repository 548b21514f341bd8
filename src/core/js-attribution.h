/* js-attribution.h: everything the stalls say about one event, aggregated,
 * built as its stalls settle.
 *
 * An event keeps no stall once it has been folded in: every sample of every
 * stall adds to the event's profile (js-profile.h), its counts and times,
 * its timeline (bounded, merged two by two as it grows) and the share of the
 * part that holds it; the stall can then be let go. So an episode of
 * minutes keeps all of its samples' worth at a bounded cost.
 *
 * Which part a sample counts for: the event's parts are cut into *regions*
 * (js_attribution_regions): at each instant, the innermost part that holds
 * it (the smallest window: a nested dispatch in its dispatch in its
 * iteration), or no part (between parts, below the jank threshold). A
 * sample counts for the region where it was taken; the time it speaks for
 * (halfway to its neighbours in its stall, the first back to the stall's
 * start, the last up to its end) is cut at the regions' edges, and each
 * piece goes to its region's part. On-CPU time comes from the main
 * thread's CPU clock read with each sample (js_attribution_fold_stall).
 *
 * A long stall's older samples are kept aggregated (JsStallChunk, made by
 * js_attribution_compact): one per stretch of the stall between known
 * parts' edges, folded into an event as a whole.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-modules.h"
#include "js-profile.h"
#include "js-sample-detail.h"
#include "js-stack-table.h"
#include "js-watchdog.h"

G_BEGIN_DECLS

/* The most function nodes of an event's (or a chunk's) profile. */
#define JS_ATTRIBUTION_MAX_NODES 2048
/* The most nodes a part's share of the profile lists (the rest: "other"). */
#define JS_ATTRIBUTION_MAX_PART_NODES 256
/* The most timeline entries kept (merged two by two past it). */
#define JS_ATTRIBUTION_MAX_TIMELINE 256

/* Region part indices besides a listed part's index. */
#define JS_PART_UNLISTED (-1) /* a part left out of `parts` */
#define JS_PART_NONE (-2)     /* no part: not the event's */

typedef struct
{
  gint64 start_ns, end_ns;
  gint32 part; /* index in the event's parts, or JS_PART_UNLISTED */
} JsPartWindow;

typedef struct
{
  gint64 from_ns, to_ns;
  gint32 part; /* a part index, JS_PART_UNLISTED or JS_PART_NONE */
} JsRegion;

typedef struct
{
  guint stalls;
  gint64 watched_ns;
  gint64 sampled_ns;
  double cpu_ns, runnable_ns;
  gboolean cpu_known, runnable_known;
  guint64 samples, samples_with_stack, samples_running, samples_waiting;
  guint64 wait_counts[JS_N_WAITS];
  gint64 wait_ns[JS_N_WAITS]; /* the time of blocked samples with a stack, per wait kind */
  JsSampleDetails details;    /* the time of samples with a stack, per detail */
} JsSampleStats;

typedef struct
{
  gint64 t_ns, last_ns;
  guint32 count;
  guint32 running; /* of count, samples that found the thread running */
  guint32 node;    /* in the owner's profile; JS_PROFILE_NONE: no stack */
  gint32 part;     /* a part index or JS_PART_UNLISTED */
  gint16 syscall;
  guint8 state, wait;
  guint8 merged;
} JsSampleEntry;

typedef struct
{
  guint32 node;
  guint64 samples;
  gint64 ns;
} JsNodeWeight;

typedef struct
{
  JsSampleStats stats;
  GArray *weights;   /* JsNodeWeight, at most JS_ATTRIBUTION_MAX_PART_NODES */
  GHashTable *index; /* node -> index in weights + 1 */
  guint64 samples;   /* in the profile: Σ weights + other */
  gint64 time_ns;
  guint64 other_samples;
  gint64 other_ns;
} JsPartAttribution;

/* The watchdog's members of a stall. */
typedef struct
{
  gint64 length_ns; /* -1: none yet */
  gint64 detected_ns;
  gint64 tier_at_ns[JS_MAX_WATCHDOG_TIERS];
  gint64 ping_latency_ns;
  gboolean ping_caught;
} JsWatchdogMembers;

typedef struct
{
  JsProfile *profile;
  JsSampleStats stats;
  GArray *timeline;       /* JsSampleEntry */
  GArray *parts;          /* JsPartAttribution, by part index (grown as needed) */
  JsSampleStats unlisted; /* of parts left out of `parts` */
  gint64 unlisted_ns;
  JsWatchdogMembers longest; /* of the longest stall */
} JsAttribution;

/* A stretch of a long stall, its samples aggregated. */
typedef struct
{
  gint64 from_ns, to_ns; /* the time its samples speak for (no part's edge known when
                            it was made lies inside) */
  gboolean cpu_known;
  gint64 cpu_from_ns, cpu_to_ns; /* the main thread's CPU clock at from and to */
  JsProfile *profile;
  JsSampleStats stats; /* counts only (the stall's times are the stall's) */
  GArray *timeline;    /* JsSampleEntry; part unset */
} JsStallChunk;

JsAttribution *js_attribution_new (void);
void js_attribution_free (JsAttribution *a);
JsAttribution *js_attribution_copy (const JsAttribution *a);

/* The part's share (grows the array): never NULL for index >= 0. */
JsPartAttribution *js_attribution_part (JsAttribution *a, guint index);

/* [from_ns, to_ns] cut by `windows` (JsPartWindow) into regions, in order. */
void js_attribution_regions (const GArray *windows, gint64 from_ns, gint64 to_ns, GArray *out);

/* The stall's samples that the regions give to parts, into `a`. */
typedef struct _JsStall JsStall;
void js_attribution_fold_stall (JsAttribution *a, JsModules *modules, JsStackTable *stacks,
                                const JsStall *stall, const GArray *regions);

/* Aggregates the stall's samples taken before `before_ns` (the last one
 * stays) into chunks, cut at `edges` (sorted times); their stacks are let
 * go. */
void js_attribution_compact (JsStall *stall, JsModules *modules, JsStackTable *stacks,
                             const GArray *edges, gint64 before_ns);

void js_stall_chunk_free (gpointer chunk);

/* Merges timeline entries two by two until at most `max` are left. */
void js_timeline_shrink (GArray *timeline, guint max);

G_END_DECLS
