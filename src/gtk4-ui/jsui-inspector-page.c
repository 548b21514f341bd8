/* jsui-inspector-page.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsui-inspector-page.h"
#include "jsui-window.h"

#define EXTENSION_POINT "gtk-inspector-page"

struct _JsuiInspectorPage
{
  GtkWidget parent_instance;

  JsuiPanel *panel;
  JsuiRefresher *refresher; /* while mapped */
};

enum
{
  PROP_0,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static JsuiSnapshotSource page_source;
static gpointer page_source_data;

G_DEFINE_FINAL_TYPE (JsuiInspectorPage, jsui_inspector_page, GTK_TYPE_WIDGET)

static void
jsui_inspector_page_map (GtkWidget *widget)
{
  JsuiInspectorPage *self = JSUI_INSPECTOR_PAGE (widget);

  GTK_WIDGET_CLASS (jsui_inspector_page_parent_class)->map (widget);
  if (self->refresher == NULL && page_source != NULL)
    self->refresher
        = jsui_refresher_new (self->panel, page_source, page_source_data, JSUI_REFRESH_MS);
}

static void
jsui_inspector_page_unmap (GtkWidget *widget)
{
  JsuiInspectorPage *self = JSUI_INSPECTOR_PAGE (widget);

  g_clear_pointer (&self->refresher, jsui_refresher_free);
  GTK_WIDGET_CLASS (jsui_inspector_page_parent_class)->unmap (widget);
}

static void
jsui_inspector_page_dispose (GObject *object)
{
  JsuiInspectorPage *self = JSUI_INSPECTOR_PAGE (object);

  g_clear_pointer (&self->refresher, jsui_refresher_free);
  if (self->panel != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->panel));
      self->panel = NULL;
    }
  G_OBJECT_CLASS (jsui_inspector_page_parent_class)->dispose (object);
}

static void
jsui_inspector_page_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, "jankscope"); /* a name: not translated */
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jsui_inspector_page_class_init (JsuiInspectorPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_inspector_page_dispose;
  object_class->get_property = jsui_inspector_page_get_property;
  widget_class->map = jsui_inspector_page_map;
  widget_class->unmap = jsui_inspector_page_unmap;

  /* Read by the Inspector for the page's tab. */
  properties[PROP_TITLE]
      = g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-inspector-page");
  g_type_ensure (JSUI_TYPE_PANEL);
}

static void
jsui_inspector_page_init (JsuiInspectorPage *self)
{
  self->panel = jsui_panel_new ();
  gtk_widget_set_parent (GTK_WIDGET (self->panel), GTK_WIDGET (self));
}

void
jsui_inspector_page_register (JsuiSnapshotSource source, gpointer user_data)
{
  static gboolean registered;
  GIOExtensionPoint *point;

  page_source = source;
  page_source_data = user_data;
  if (registered)
    return;
  registered = TRUE;
  /* GTK registers the point when its Inspector first opens (it gets the
   * one registered here then), with this required type. */
  point = g_io_extension_point_lookup (EXTENSION_POINT);
  if (point == NULL)
    {
      point = g_io_extension_point_register (EXTENSION_POINT);
      g_io_extension_point_set_required_type (point, GTK_TYPE_WIDGET);
    }
  g_io_extension_point_implement (EXTENSION_POINT, JSUI_TYPE_INSPECTOR_PAGE,
                                  JSUI_INSPECTOR_PAGE_NAME, 10);
}

JsuiPanel *
jsui_inspector_page_get_panel (JsuiInspectorPage *self)
{
  g_return_val_if_fail (JSUI_IS_INSPECTOR_PAGE (self), NULL);
  return self->panel;
}

gboolean
jsui_inspector_page_is_refreshing (JsuiInspectorPage *self)
{
  g_return_val_if_fail (JSUI_IS_INSPECTOR_PAGE (self), FALSE);
  return self->refresher != NULL;
}
