/* jsui-colors.c
 *
 * GTK 4.8 has no public way for a widget to read a custom CSS property: the
 * colours are named colours of our style sheet, looked up through the
 * style context (deprecated in 4.10, where the replacement is not there
 * yet in 4.8). A theme may override them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsui-colors.h"

/* By tier; the last one for frames on time. */
static const char *const fallback[JS_N_EVENT_TIERS + 1] = {
  [JS_TIER_LIGHT] = "#f6d32d",  [JS_TIER_NOTICEABLE] = "#ff7800", [JS_TIER_SEVERE] = "#e01b24",
  [JS_TIER_FROZEN] = "#9141ac", [JS_TIER_HANG] = "#63452c",       [JS_N_EVENT_TIERS] = "#3584e4",
};

void
jsui_tier_color (GtkWidget *widget, JsTier tier, GdkRGBA *color)
{
  g_autofree char *name = g_strdup_printf ("jankscope_tier_%s", jsui_tier_css_name (tier));

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color))
    return;
  G_GNUC_END_IGNORE_DEPRECATIONS
  gdk_rgba_parse (color, fallback[MIN ((guint) tier, JS_N_EVENT_TIERS)]);
}

void
jsui_fg_color (GtkWidget *widget, GdkRGBA *color)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}
