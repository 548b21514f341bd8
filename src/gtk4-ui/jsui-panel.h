/* jsui-panel.h: everything the jankscope window shows, as one widget: the
 * status and action bar, the metrics header, the frame timeline and the
 * pages (a GtkStack: "jank" = the jank list and the stacks of the selected
 * event; more pages are added in data/gtk4-ui/jsui-panel.ui).
 *
 * Embedded by JsuiWindow (the in-process window), the GTK Inspector page
 * and the out-of-process viewer. It owns no window, timer or thread: a
 * JsuiRefresher (or the host) hands it parsed snapshots.
 *
 * A host may put a widget on top (jsui_panel_set_banner), e.g. the viewer's
 * "main thread stuck for 3.2 s in …" banner.
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"
#include "jsui-stacks-view.h"
#include "jsui-timeline.h"

G_BEGIN_DECLS

#define JSUI_TYPE_PANEL (jsui_panel_get_type ())
G_DECLARE_FINAL_TYPE (JsuiPanel, jsui_panel, JSUI, PANEL, GtkWidget)

JsuiPanel *jsui_panel_new (void);

/* Shows a snapshot (a reference is kept); NULL: "waiting for data". The
 * selected event stays selected while it is in the snapshots. */
void jsui_panel_set_snapshot (JsuiPanel *self, JsuiSnapshot *snapshot);
/* The snapshot shown (borrowed), NULL: none. */
JsuiSnapshot *jsui_panel_get_snapshot (JsuiPanel *self);
/* "snapshot-time" (read-only, gint64): the shown snapshot's live.now_ns
 * (CLOCK_MONOTONIC ns), 0: none or unknown. Notified at every
 * jsui_panel_set_snapshot (), even when it did not change: hosts and tests
 * see each refresh (tests/ui/ui-start-shim.c times them). */

/* Selects the event with this id (0: none) in the jank list and scrolls
 * the list to it; FALSE (nothing selected) when it is not listed. */
gboolean jsui_panel_select_event (JsuiPanel *self, gint64 id);
/* A stall under way measured by someone else (the viewer's hang banner):
 * the status says this number instead of the snapshot's, so both agree; -1
 * for none. */
void jsui_panel_set_live_stall (JsuiPanel *self, gint64 stall_ns);
gint64 jsui_panel_get_selected_event (JsuiPanel *self);

/* "title" (read-only): "jankscope — APP (pid N)", from the snapshot once
 * there is one; the window shows it in its title bar. */
const char *jsui_panel_get_title (JsuiPanel *self);

/* A widget above everything else (NULL: none, the slot is hidden). The
 * panel holds it until replaced. */
void jsui_panel_set_banner (JsuiPanel *self, GtkWidget *banner);
GtkWidget *jsui_panel_get_banner (JsuiPanel *self);

/* "paused" (read-write; action "panel.pause"): a JsuiRefresher applies no
 * new snapshot meanwhile; the status says "Paused". */
void jsui_panel_set_paused (JsuiPanel *self, gboolean paused);
gboolean jsui_panel_get_paused (JsuiPanel *self);

/* "baseline" (read-write; actions "panel.clear", "panel.show-all"): events
 * that ended before it are left out and the header is computed from the
 * live frames after it; a JsuiRefresher also drops the frames before it.
 * On the snapshots' clock (CLOCK_MONOTONIC ns); 0: everything. */
void jsui_panel_set_baseline (JsuiPanel *self, gint64 baseline_ns);
gint64 jsui_panel_get_baseline (JsuiPanel *self);

/* The document (the JSON bytes) the shown snapshot was parsed from: what
 * Save and Export write (jsui-panel-actions.h). The refresher sets it. */
void jsui_panel_set_document (JsuiPanel *self, GBytes *document);
GBytes *jsui_panel_get_document (JsuiPanel *self);

/* A line in the action bar ("Saved …"); NULL hides it. */
void jsui_panel_show_message (JsuiPanel *self, const char *message);
const char *jsui_panel_get_message (JsuiPanel *self);

/* The pages (page names: "jank", and those added to jsui-panel.ui). */
GtkStack *jsui_panel_get_pages (JsuiPanel *self);
/* The bar of status and action buttons: a horizontal GtkBox, the status
 * label first (hexpand). */
GtkWidget *jsui_panel_get_action_bar (JsuiPanel *self);

/* The parts, for tests and hosts. */
GListModel *jsui_panel_get_events (JsuiPanel *self);
JsuiTimeline *jsui_panel_get_timeline (JsuiPanel *self);
JsuiStacksView *jsui_panel_get_stacks_view (JsuiPanel *self);
/* The Jank page's split between the list and the stacks: the list's share
 * of the height until the user moves the handle (jsui-pane-ratio.h). */
#define JSUI_PANEL_LIST_SHARE 0.36
GtkPaned *jsui_panel_get_jank_paned (JsuiPanel *self);
/* The text of a header metric: "p50", "p95", "p99", "slow", "frozen",
 * "hangs", "overhead" (the core's CPU share), "ui" (the UI's own main-thread
 * time, jsui-ui-cost.h) or "status". */
const char *jsui_panel_get_metric (JsuiPanel *self, const char *name);

/* Adds the panel's style sheet to a display, once. */
void jsui_install_css (GdkDisplay *display);

G_END_DECLS
