/* jsui-parts-view.h: the parts of one jank event, each with its own cause
 * (docs/report-format.md, "Causes per part"): a GtkColumnView of JsuiPart
 * (part, start, duration, callback, class, culprit, attributed time). An
 * episode can have several causes: a computation in one callback and a
 * sleep in another, half a second apart. Selecting a part asks for its own
 * stacks ("part-selected"); nothing selected: the whole event's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

#define JSUI_TYPE_PARTS_VIEW (jsui_parts_view_get_type ())
G_DECLARE_FINAL_TYPE (JsuiPartsView, jsui_parts_view, JSUI, PARTS_VIEW, GtkWidget)

GtkWidget *jsui_parts_view_new (void);
/* Lists the parts of `event` (of `snapshot`); hidden when it has fewer than
 * two (one part: the event's own cause says it all). The same event again
 * (a refresh) keeps the selected part. */
void jsui_parts_view_set_event (JsuiPartsView *self, JsuiSnapshot *snapshot,
                                const JsrReportEvent *event);
/* Selects part `index` (-1: none), as a click does. */
void jsui_parts_view_select (JsuiPartsView *self, int index);
int jsui_parts_view_get_selected (JsuiPartsView *self);
/* The rows (JsuiPart), never NULL. */
GListModel *jsui_parts_view_get_parts (JsuiPartsView *self);
/* The text of a cell: column 0-6 of row `index`, as it is shown; NULL when
 * out of range (for tests and screen readers). */
char *jsui_parts_view_cell_text (JsuiPartsView *self, guint index, guint column);

G_END_DECLS
