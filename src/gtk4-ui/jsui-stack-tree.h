/* jsui-stack-tree.h: the aggregated top-down tree of an event's stacks
 * (plain data, no GTK: built and tested without a display).
 *
 * A node's weight (`total`, `self`) is what the views lay out and rank by:
 * for the trees of events, the attributed time in nanoseconds (the event's
 * profile, src/reader/jsr-profile.h: the flame graph's root is the time
 * `jankscope report` and every export show); the samples are counted
 * alongside.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-report.h"

G_BEGIN_DECLS

typedef struct _JsuiStackNode JsuiStackNode;

struct _JsuiStackNode
{
  char *name;           /* function, or module+offset, or "??" */
  char *module;         /* may be NULL */
  gint64 total;         /* weight through this frame (events: attributed ns) */
  gint64 self;          /* weight that ended here */
  gint64 total_samples; /* samples through this frame */
  gint64 self_samples;  /* samples that ended here */
  guint depth;          /* 0: the root */
  JsuiStackNode *parent;
  GPtrArray *children; /* of JsuiStackNode, most samples first after _sort () */
  GHashTable *index;   /* set of children by (name, module), built once there are many */
};

/* A tree and its owner: shared by reference with the list items. */
typedef struct
{
  JsuiStackNode *root;
} JsuiStackTree;

JsuiStackTree *jsui_stack_tree_new (const char *root_label);
JsuiStackTree *jsui_stack_tree_ref (JsuiStackTree *tree);
/* NULL: nothing (so that it frees arrays holding NULL for "no tree"). */
void jsui_stack_tree_unref (JsuiStackTree *tree);

/* Adds one stack, frames root first (the caller's frame first), with a
 * weight that is also its samples (a count). */
void jsui_stack_tree_add (JsuiStackTree *tree, const char *const *names, const char *const *modules,
                          guint n_frames, gint64 count);
/* The same with a weight (a time) and samples of their own. */
void jsui_stack_tree_add_weighted (JsuiStackTree *tree, const char *const *names,
                                   const char *const *modules, guint n_frames, gint64 weight,
                                   gint64 samples);
/* Orders every node's children, most samples first (then by name). */
void jsui_stack_tree_sort (JsuiStackTree *tree);

/* The bottom-up (callers) tree of a top-down tree: its first level holds
 * the frames samples ended in (counts: their self samples), each node's
 * children its callers; `total` is the samples through that call path,
 * read from the leaf. Pure: built in the snapshot's worker thread. */
JsuiStackTree *jsui_stack_tree_bottom_up (const JsuiStackTree *top_down);

/* Adds every sample of `src` into `dst` (trees of one direction); sort
 * `dst` afterwards. */
void jsui_stack_tree_merge (JsuiStackTree *dst, const JsuiStackTree *src);

/* The tree of an event's profile (detail->profile: every sample with a
 * stack; an older report's is made of its stacks), weighted by attributed
 * time, with its samples; jankscope's own frames of older reports left
 * out; the root is "all samples". Unless @whole, each stack starts at the
 * callback the main loop dispatched (below its innermost dispatch node:
 * `dispatch_nodes`, else g_main_dispatch or g_main_context_dispatch by
 * name): the ten rows from _start to the dispatch say nothing of an event.
 * NULL without a profile. */
JsuiStackTree *jsui_stack_tree_from_event (const JsrReportEvent *event, gboolean whole);
/* The same for one part of the event (its share of the profile,
 * docs/report-format.md "Causes per part"; what the part's profile does not
 * list is an [other] node). NULL when the part has no profile. */
JsuiStackTree *jsui_stack_tree_from_part (const JsrReportEvent *event, guint part, gboolean whole);

/* A frame of jankscope's own libraries (its dispatch wrapper). */
gboolean jsui_frame_is_own (const JsrReportFrame *frame);
/* GLib's dispatch by name (reports without `dispatch_nodes`). */
gboolean jsui_frame_is_dispatch (const JsrReportFrame *frame);

/* The name shown for a frame of a report. */
char *jsui_frame_name (const JsrReportFrame *frame);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsuiStackTree, jsui_stack_tree_unref)

G_END_DECLS
