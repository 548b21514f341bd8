/* playground-paint-area.h: a widget whose next paint can be made slow
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PLAYGROUND_TYPE_PAINT_AREA (playground_paint_area_get_type ())
G_DECLARE_FINAL_TYPE (PlaygroundPaintArea, playground_paint_area, PLAYGROUND, PAINT_AREA, GtkWidget)

void playground_paint_area_arm (PlaygroundPaintArea *self, guint stall_ms);

G_END_DECLS
