/* jsr-profile.h: an event's calling-context profile (docs/report-format.md, "Profiles")
 *
 * Every sample of an event that has a stack, at function level: a tree of
 * nodes, each a function (an entry of `frames`) called from its parent,
 * with the samples and the time whose innermost frame it is (self). What
 * every reader of a report shows of "where the time went" (jankscope report,
 * every export, the window's flame graph) comes from it, so that their
 * totals are the same number.
 *
 * A report of jankscope before profiles has none: jsr_profile_from_stacks
 * makes one from the event's listed stacks (their counts and times), with
 * the time the event attributes to stacks it left out in an `[other]` node,
 * so that readers have one model for both.
 *
 * The file is untrusted (docs/report-format.md, "Profiles"; the reader's
 * rules are in jsr-profile.c): a parent always comes before its child, so
 * there is no cycle and one pass from the end adds up inclusive times.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-doc.h"
#include "jsr-json-read.h"
#include "jsr-report.h"

G_BEGIN_DECLS

/* What the reader loads at most (past them it fails with
 * JSR_REPORT_ERROR_TOO_LARGE rather than truncate): four times the core's
 * own most (`nodes_max`, 2048, and an [other] node per node), and a depth that a stack of
 * JSR_REPORT_FULL_MAX_STACK_FRAMES frames and its [other] node reach. */
#define JSR_PROFILE_MAX_NODES 16384
#define JSR_PROFILE_MAX_FRAMES 16384
#define JSR_PROFILE_MAX_DEPTH (JSR_REPORT_FULL_MAX_STACK_FRAMES + 1)
/* A part's share of the profile: the core writes at most 256 nodes. */
#define JSR_PART_PROFILE_MAX_NODES 4096

/* `frame` of an [other] node: "called from its parent, deeper frames not
 * kept"; of a [truncated] node: the outermost node of stacks deeper than
 * the core samples, whose outer frames are missing; and `node` of what has
 * no node. */
#define JSR_PROFILE_OTHER (-1)
#define JSR_PROFILE_TRUNCATED (-2)
#define JSR_PROFILE_NO_NODE (-1)
/* The names every reader shows for them. */
#define JSR_PROFILE_OTHER_NAME "[other]"
#define JSR_PROFILE_TRUNCATED_NAME "[truncated]"

typedef struct
{
  gint32 parent; /* the caller's node, JSR_PROFILE_NO_NODE for an outermost frame;
                  * always smaller than the node's own index */
  gint32 frame;  /* index in `frames`, JSR_PROFILE_OTHER or JSR_PROFILE_TRUNCATED */
  guint32 depth; /* 0 for an outermost frame */
  gint64 self_samples;
  gint64 self_ns;
  /* The main loop's dispatch (`dispatch_nodes`): the callback it runs is
   * its child. FALSE in older reports. */
  gboolean dispatch;
  /* A frame of one of the event's listed stacks at this node: its file,
   * line and offset (the profile has functions only); NULL without one. */
  const JsrReportFrame *site;
} JsrProfileNode;

struct _JsrProfile
{
  /* The sums of the nodes' self_samples and self_ns (saturated): the
   * reader recomputes them rather than trust the file's `samples` and
   * `time_ns` (which the format says are equal to them). */
  gint64 samples;
  gint64 time_ns;
  GPtrArray *frames;    /* of JsrReportFrame: function and module; offset and build_id of
                         * one without a name (file and line unknown) */
  GArray *nodes;        /* of JsrProfileNode, parents first */
  gboolean from_stacks; /* made by the reader from an older report's stacks */
};

/* profile (an object) of an event; `path` is the profile's. Checks what
 * docs/report-format.md asks and the bounds above. */
JsrProfile *jsr_profile_parse (const JsrJsonNode *object, const JsrJsonPath *path, GError **error);

/* The profile of an older report's event, from its listed stacks: each
 * stack's frames become a path of the tree (a frame is its function and
 * module, as in profiles; lines are the stacks' `site`s), its count and time
 * (`time_ns`, else its share of `watched_ns`, count / samples of the
 * event, rounded on the running sum) the path's leaf's self samples and
 * time. `extra_ns`, the time the event attributes beyond its listed stacks
 * (stacks it left out), is an [other] node of its own at the root. Sets each
 * stack's `node`. NULL without stacks or time. */
JsrProfile *jsr_profile_from_stacks (GPtrArray *stacks, gint64 watched_ns, gint64 samples_total,
                                     gint64 attributed_ns);

void jsr_profile_free (JsrProfile *profile);

/* Each listed stack's frames as the `site`s of its path's nodes, when the
 * stack's `node` leads to a path as long as its frames, or as its physical
 * frames (a stack `jankscope symbolize` named has its inline frames, the
 * profile is at function level: a node's site is then its function's
 * frame, the one with the address). */
void jsr_profile_set_sites (JsrProfile *profile, GPtrArray *stacks);

/* Inclusive samples and time of every node (arrays of nodes->len; either
 * may be NULL): self plus the children's, saturated. */
void jsr_profile_inclusive (const JsrProfile *profile, gint64 *samples, gint64 *time_ns);

/* The frame of `node` (NULL for [other] and [truncated]), and its path,
 * leaf first (the node itself first), into `out` of const JsrProfileNode *. */
const JsrReportFrame *jsr_profile_node_frame (const JsrProfile *profile, guint node);
void jsr_profile_path (const JsrProfile *profile, guint node, GPtrArray *out);

/* The signature (js-signature.h) of the stack that ends at `node`: that of
 * the event's listed stack at that node when the report has one and
 * `max_frames` is the default, else computed from the path's frames. NULL
 * for an [other] node: its stack is not known (deeper frames, or stacks a
 * report left out). `id` as js_signature_compute sets it. */
char *jsr_profile_signature (const JsrProfile *profile, GPtrArray *stacks, guint node,
                             guint max_frames, char id[17]);

G_END_DECLS
