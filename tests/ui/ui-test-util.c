/* ui-test-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ui-test-util.h"

char *
ui_test_snapshot_text (gsize *length)
{
  const char *path = g_getenv ("JSUI_TEST_SNAPSHOT");
  g_autoptr (GError) error = NULL;
  char *data = NULL;

  g_assert_nonnull (path);
  g_file_get_contents (path, &data, length, &error);
  g_assert_no_error (error);
  return data;
}

GBytes *
ui_test_snapshot_bytes (void)
{
  gsize length;
  char *data = ui_test_snapshot_text (&length);

  return g_bytes_new_take (data, length);
}

JsuiSnapshot *
ui_test_parse (const char *data, gsize length)
{
  g_autoptr (GError) error = NULL;
  JsuiSnapshot *snap = jsui_snapshot_parse (data, length, &error);

  g_assert_no_error (error);
  g_assert_nonnull (snap);
  return snap;
}

JsuiSnapshot *
ui_test_load_snapshot (void)
{
  gsize length;
  g_autofree char *data = ui_test_snapshot_text (&length);

  return ui_test_parse (data, length);
}

gpointer
ui_test_row_item (GListModel *rows, guint i)
{
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);

  g_assert_nonnull (row);
  return gtk_tree_list_row_get_item (row);
}

void
ui_test_wait_ms (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
}
