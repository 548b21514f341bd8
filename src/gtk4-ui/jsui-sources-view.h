/* jsui-sources-view.h: the sources page: per GSource (name and callback)
 * its dispatches, total, mean, 95th percentile and longest own time, from
 * the report's summary.sources, in a sortable GtkColumnView (click a
 * column's header; the longest total first to begin with).
 *
 * Main thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_SOURCES_VIEW (jsui_sources_view_get_type ())
G_DECLARE_FINAL_TYPE (JsuiSourcesView, jsui_sources_view, JSUI, SOURCES_VIEW, GtkWidget)

GtkWidget *jsui_sources_view_new (void);
/* The sources of a snapshot; NULL: none. The sort order stays. While the
 * page is not mapped, only the newest snapshot is kept (shown on map); the
 * rows shown are updated in place (re-sorted at most every 2 s when only
 * their numbers changed), an unchanged snapshot changes nothing. */
void jsui_sources_view_set_snapshot (JsuiSourcesView *self, JsuiSnapshot *snapshot);
/* How many JsuiSource rows were created so far (the tests' cost counter). */
guint jsui_sources_view_get_n_created (JsuiSourcesView *self);
/* The rows as shown (sorted), of JsuiSource. */
GListModel *jsui_sources_view_get_rows (JsuiSourcesView *self);
/* Sorts by a column: "name", "count", "total", "mean", "p95" or "max";
 * FALSE for another name. */
gboolean jsui_sources_view_sort_by (JsuiSourcesView *self, const char *column, GtkSortType order);

G_END_DECLS
