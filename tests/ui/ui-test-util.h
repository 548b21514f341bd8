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

G_BEGIN_DECLS

/* What a widget looks like: drawn by its window's renderer as GTK draws it
 * on screen (the widget mapped), one pixel per unit of its coordinates,
 * then downloaded. The picture covers the widget's bounds (a window's
 * shadow too): its pixel (0, 0) is the widget's point (origin_x, origin_y). */
typedef struct
{
  int width;
  int height;
  int origin_x;
  int origin_y;
  gsize stride;
  guchar *data; /* GDK_MEMORY_DEFAULT: cairo's ARGB32, premultiplied, native-endian */
  GdkTexture *texture;
} UiTestPicture;

UiTestPicture *ui_test_picture_take (GtkWidget *widget);
void ui_test_picture_free (UiTestPicture *picture);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (UiTestPicture, ui_test_picture_free)

/* The pixel at the widget's point (x, y) (clamped into the picture) as
 * 0xAARRGGBB. */
guint32 ui_test_picture_pixel (const UiTestPicture *picture, int x, int y);
/* An opaque colour as 0xAARRGGBB. */
guint32 ui_test_rgba_pixel (const GdkRGBA *color);
/* TRUE when a and b differ by at most `tolerance` in each channel. */
gboolean ui_test_pixel_near (guint32 a, guint32 b, guint tolerance);
/* The most frequent pixel of the rectangle [x0, x1) × [y0, y1) (the
 * widget's coordinates), clamped into the picture; 0 if it is empty. */
guint32 ui_test_picture_mode (const UiTestPicture *picture, int x0, int y0, int x1, int y1);

G_END_DECLS
