/* ui-test-util.h: what the window's test programs (test-inspector.c,
 * test-views.c) share: the synthetic snapshot (JSUI_TEST_SNAPSHOT), list
 * rows, and letting the main loop run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

/* The snapshot file's text (NUL-terminated); fails the test if unreadable. */
char *ui_test_snapshot_text (gsize *length);
GBytes *ui_test_snapshot_bytes (void);

/* Parses a snapshot; fails the test on an error. */
JsuiSnapshot *ui_test_parse (const char *data, gsize length);
JsuiSnapshot *ui_test_load_snapshot (void);

/* The item behind row i of a GtkTreeListModel (a new reference, as
 * gtk_tree_list_row_get_item () gives it). */
gpointer ui_test_row_item (GListModel *rows, guint i);

/* Runs the default main context for `ms` milliseconds. */
void ui_test_wait_ms (guint ms);

G_END_DECLS
