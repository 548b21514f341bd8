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

static const char *const fallback[JSUI_N_TIERS] = {
  "#3584e4", "#f6d32d", "#ff7800", "#e01b24", "#9141ac", "#63452c",
};

void
jsui_tier_color (GtkWidget *widget, JsuiTier tier, GdkRGBA *color)
{
  g_autofree char *name = g_strdup_printf ("jankscope_tier_%s", jsui_tier_css_name (tier));

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color))
    return;
  G_GNUC_END_IGNORE_DEPRECATIONS
  gdk_rgba_parse (color, fallback[tier]);
}

void
jsui_fg_color (GtkWidget *widget, GdkRGBA *color)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}
