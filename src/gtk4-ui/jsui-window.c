/* jsui-window.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsui-window.h"

#include "jsui-shortcuts.h"

struct _JsuiWindow
{
  GtkWindow parent_instance;

  /* template children */
  GtkLabel *title_label;
  GtkLabel *hang_note;
  JsuiPanel *panel;
};

G_DEFINE_FINAL_TYPE (JsuiWindow, jsui_window, GTK_TYPE_WINDOW)

static void
panel_title_cb (JsuiPanel *panel, GParamSpec *pspec, JsuiWindow *self)
{
  const char *title = jsui_panel_get_title (panel);

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->title_label, title);
}

void
jsui_mark_excluded (GtkNative *native)
{
  GdkSurface *surface = gtk_native_get_surface (native);

  /* Before the first frame: the core looks at a clock when it first sees it. */
  if (surface == NULL)
    return;
  g_object_set_data (G_OBJECT (surface), JSUI_EXCLUDE_KEY, GINT_TO_POINTER (1));
  if (gdk_surface_get_frame_clock (surface) != NULL)
    g_object_set_data (G_OBJECT (gdk_surface_get_frame_clock (surface)), JSUI_EXCLUDE_KEY,
                       GINT_TO_POINTER (1));
}

static void
jsui_window_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (jsui_window_parent_class)->realize (widget);
  jsui_mark_excluded (GTK_NATIVE (widget));
}

static void
jsui_window_dispose (GObject *object)
{
  /* GtkWindow keeps pointers to its child and title bar: let go of them
   * here, not behind its back in gtk_widget_dispose_template (). */
  gtk_window_set_child (GTK_WINDOW (object), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (object), JSUI_TYPE_WINDOW);
  G_OBJECT_CLASS (jsui_window_parent_class)->dispose (object);
}

static void
jsui_window_class_init (JsuiWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_window_dispose;
  widget_class->realize = jsui_window_realize;

  g_type_ensure (JSUI_TYPE_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/jankscope/ui/jsui-window.ui");
  gtk_widget_class_bind_template_child (widget_class, JsuiWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, JsuiWindow, hang_note);
  gtk_widget_class_bind_template_child (widget_class, JsuiWindow, panel);
  gtk_widget_class_bind_template_callback (widget_class, panel_title_cb);
  jsui_shortcuts_install (widget_class);
}

static void
jsui_window_init (JsuiWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (gtk_window_get_titlebar (GTK_WINDOW (self))),
                           jsui_primary_menu_button_new ());
  gtk_widget_set_name (GTK_WIDGET (self), JSUI_WINDOW_NAME);
  g_object_set_data (G_OBJECT (self), JSUI_EXCLUDE_KEY, GINT_TO_POINTER (1));
  panel_title_cb (self->panel, NULL, self);
}

JsuiWindow *
jsui_window_new (void)
{
  return g_object_new (JSUI_TYPE_WINDOW, NULL);
}

JsuiPanel *
jsui_window_get_panel (JsuiWindow *self)
{
  g_return_val_if_fail (JSUI_IS_WINDOW (self), NULL);
  return self->panel;
}

void
jsui_window_set_snapshot (JsuiWindow *self, JsuiSnapshot *snapshot)
{
  jsui_panel_set_snapshot (jsui_window_get_panel (self), snapshot);
}

gboolean
jsui_window_select_event (JsuiWindow *self, gint64 id)
{
  return jsui_panel_select_event (jsui_window_get_panel (self), id);
}

gint64
jsui_window_get_selected_event (JsuiWindow *self)
{
  return jsui_panel_get_selected_event (jsui_window_get_panel (self));
}

GListModel *
jsui_window_get_events (JsuiWindow *self)
{
  return jsui_panel_get_events (jsui_window_get_panel (self));
}

JsuiTimeline *
jsui_window_get_timeline (JsuiWindow *self)
{
  return jsui_panel_get_timeline (jsui_window_get_panel (self));
}

JsuiStacksView *
jsui_window_get_stacks_view (JsuiWindow *self)
{
  return jsui_panel_get_stacks_view (jsui_window_get_panel (self));
}

const char *
jsui_window_get_hang_note (JsuiWindow *self)
{
  g_return_val_if_fail (JSUI_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->hang_note);
}

const char *
jsui_window_get_metric (JsuiWindow *self, const char *name)
{
  return jsui_panel_get_metric (jsui_window_get_panel (self), name);
}
