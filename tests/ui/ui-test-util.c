/* ui-test-util.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ui-test-util.h"

#include <string.h>

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

/* GtkWidgetPaintable draws the widget's bounds (for a window with
 * client-side decorations, its shadow too) scaled to the size asked for:
 * asked for its intrinsic size, one pixel is one unit of the widget's
 * coordinates, offset by the bounds' origin. */
UiTestPicture *
ui_test_picture_take (GtkWidget *widget)
{
  UiTestPicture *picture = g_new0 (UiTestPicture, 1);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, widget, &bounds));
  picture->width = gdk_paintable_get_intrinsic_width (paintable);
  picture->height = gdk_paintable_get_intrinsic_height (paintable);
  g_assert_cmpint (picture->width, >, 0);
  g_assert_cmpint (picture->height, >, 0);
  g_assert_cmpfloat_with_epsilon (bounds.size.width, picture->width, 1.0);
  g_assert_cmpfloat_with_epsilon (bounds.size.height, picture->height, 1.0);
  picture->origin_x = (int) floorf (bounds.origin.x);
  picture->origin_y = (int) floorf (bounds.origin.y);
  g_assert_nonnull (renderer);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), picture->width, picture->height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  picture->texture = gsk_renderer_render_texture (
      renderer, node, &GRAPHENE_RECT_INIT (0, 0, picture->width, picture->height));
  g_assert_cmpint (gdk_texture_get_width (picture->texture), ==, picture->width);
  g_assert_cmpint (gdk_texture_get_height (picture->texture), ==, picture->height);
  picture->stride = (gsize) picture->width * 4;
  picture->data = g_malloc ((gsize) picture->height * picture->stride);
  gdk_texture_download (picture->texture, picture->data, picture->stride);
  return picture;
}

void
ui_test_picture_free (UiTestPicture *picture)
{
  if (picture == NULL)
    return;
  g_clear_object (&picture->texture);
  g_free (picture->data);
  g_free (picture);
}

guint32
ui_test_picture_pixel (const UiTestPicture *picture, int x, int y)
{
  guint32 value;

  x = CLAMP (x - picture->origin_x, 0, picture->width - 1);
  y = CLAMP (y - picture->origin_y, 0, picture->height - 1);
  memcpy (&value, picture->data + (gsize) y * picture->stride + (gsize) x * 4, 4);
  return value; /* native-endian ARGB32 read as one word: 0xAARRGGBB */
}

guint32
ui_test_rgba_pixel (const GdkRGBA *color)
{
  guint r = (guint) (CLAMP (color->red, 0.0f, 1.0f) * 255.0f + 0.5f);
  guint g = (guint) (CLAMP (color->green, 0.0f, 1.0f) * 255.0f + 0.5f);
  guint b = (guint) (CLAMP (color->blue, 0.0f, 1.0f) * 255.0f + 0.5f);

  return 0xff000000u | (r << 16) | (g << 8) | b;
}

gboolean
ui_test_pixel_near (guint32 a, guint32 b, guint tolerance)
{
  for (guint shift = 0; shift < 32; shift += 8)
    {
      int ca = (int) ((a >> shift) & 0xff);
      int cb = (int) ((b >> shift) & 0xff);

      if ((guint) ABS (ca - cb) > tolerance)
        return FALSE;
    }
  return TRUE;
}

guint32
ui_test_picture_mode (const UiTestPicture *picture, int x0, int y0, int x1, int y1)
{
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint32 best = 0;
  guint best_count = 0;

  x0 = MAX (x0, picture->origin_x), y0 = MAX (y0, picture->origin_y);
  x1 = MIN (x1, picture->origin_x + picture->width);
  y1 = MIN (y1, picture->origin_y + picture->height);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        guint32 p = ui_test_picture_pixel (picture, x, y);
        guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (p))) + 1;

        g_hash_table_insert (counts, GUINT_TO_POINTER (p), GUINT_TO_POINTER (n));
        if (n > best_count)
          best = p, best_count = n;
      }
  return best;
}
