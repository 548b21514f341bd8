/* jsui-colors.h: the tier colours of the custom-drawn widgets, from the
 * named colours of data/gtk4-ui/jankscope-ui.css (@jankscope_tier_*).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-format.h"

G_BEGIN_DECLS

/* A tier's colour; JS_N_EVENT_TIERS: a frame on time's (JSUI_ON_TIME). */
void jsui_tier_color (GtkWidget *widget, JsTier tier, GdkRGBA *color);

/* The widget's foreground colour. */
void jsui_fg_color (GtkWidget *widget, GdkRGBA *color);

G_END_DECLS
