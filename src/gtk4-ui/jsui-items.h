/* jsui-items.h: the list items of the window's models.
 *
 * JsuiEvent: one jank event of a snapshot (the jank list);
 * JsuiPart: one part of a jank event, with its own cause (the parts list);
 * JsuiStackItem: one node of an aggregated stack tree (the stacks tree);
 * JsuiSource: one entry of summary.sources (the sources page), with
 * properties for the column view's sorters;
 * JsuiTimeRow: a named time (a phase, a dispatch) of the frame details.
 * They keep what they point into alive by reference.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "jsui-snapshot.h"
#include "jsui-stack-tree.h"

G_BEGIN_DECLS

#define JSUI_TYPE_EVENT (jsui_event_get_type ())
G_DECLARE_FINAL_TYPE (JsuiEvent, jsui_event, JSUI, EVENT, GObject)

JsuiEvent *jsui_event_new (JsuiSnapshot *snapshot, const JsrReportEvent *event);
/* Points the item at the same event in a newer snapshot (what its row shows
 * is unchanged: no notification), so that it keeps no older one alive. */
void jsui_event_rebase (JsuiEvent *self, JsuiSnapshot *snapshot, const JsrReportEvent *event);
/* The same, for an event that changed (an ongoing one grew): notifies
 * "event" (a pointer to the JsrReportEvent), which the jank list's cells
 * follow: the row is updated in place, not rebuilt. */
void jsui_event_update (JsuiEvent *self, JsuiSnapshot *snapshot, const JsrReportEvent *event);
const JsrReportEvent *jsui_event_get_event (JsuiEvent *self);
JsuiSnapshot *jsui_event_get_snapshot (JsuiEvent *self);
gint64 jsui_event_get_id (JsuiEvent *self);

#define JSUI_TYPE_PART (jsui_part_get_type ())
G_DECLARE_FINAL_TYPE (JsuiPart, jsui_part, JSUI, PART, GObject)

/* Part `index` of the event's parts (docs/report-format.md, "Causes per part"). */
JsuiPart *jsui_part_new (JsuiSnapshot *snapshot, const JsrReportEvent *event, guint index);
const JsrReportEvent *jsui_part_get_event (JsuiPart *self);
const JsrReportPart *jsui_part_get_part (JsuiPart *self);
guint jsui_part_get_index (JsuiPart *self);

#define JSUI_TYPE_STACK_ITEM (jsui_stack_item_get_type ())
G_DECLARE_FINAL_TYPE (JsuiStackItem, jsui_stack_item, JSUI, STACK_ITEM, GObject)

JsuiStackItem *jsui_stack_item_new (JsuiStackTree *tree, const JsuiStackNode *node);
const JsuiStackNode *jsui_stack_item_get_node (JsuiStackItem *self);
/* The share of the tree's samples through this node, 0..1. */
double jsui_stack_item_get_fraction (JsuiStackItem *self);
/* A GListModel of the node's children (NULL for a leaf): for
 * GtkTreeListModel's create function. */
GListModel *jsui_stack_item_children (JsuiStackItem *self);

#define JSUI_TYPE_SOURCE (jsui_source_get_type ())
G_DECLARE_FINAL_TYPE (JsuiSource, jsui_source, JSUI, SOURCE, GObject)

/* Properties (read-only): "name" (the source name, or "(unnamed)"),
 * "callback", "label" (name and callback, what the list shows and sorts
 * by), "count", "total-ns", "mean-ns", "p95-ns", "max-ns" (gint64). */
JsuiSource *jsui_source_new (const JsrReportSource *source);
/* Takes the numbers of `source` (the same source and callback, a newer
 * snapshot), notifying the properties that changed; FALSE if none did. */
gboolean jsui_source_update (JsuiSource *self, const JsrReportSource *source);
const JsrReportSource *jsui_source_get_source (JsuiSource *self);
const char *jsui_source_get_label (JsuiSource *self);
gint64 jsui_source_get_mean_ns (JsuiSource *self);

#define JSUI_TYPE_TIME_ROW (jsui_time_row_get_type ())
G_DECLARE_FINAL_TYPE (JsuiTimeRow, jsui_time_row, JSUI, TIME_ROW, GObject)

/* A row of the frame details: a name, a detail (may be NULL), how many
 * times, total and longest time, and where it starts (< 0: unknown). */
JsuiTimeRow *jsui_time_row_new (const char *name, const char *detail, guint count, gint64 total_ns,
                                gint64 max_ns, gint64 offset_ns);
const char *jsui_time_row_get_name (JsuiTimeRow *self);
const char *jsui_time_row_get_detail (JsuiTimeRow *self);
guint jsui_time_row_get_count (JsuiTimeRow *self);
gint64 jsui_time_row_get_total_ns (JsuiTimeRow *self);
gint64 jsui_time_row_get_max_ns (JsuiTimeRow *self);
gint64 jsui_time_row_get_offset_ns (JsuiTimeRow *self);

G_END_DECLS
