/* ui-start-shim.c: a TEST shim, never installed: with
 * JANKSCOPE_TEST_UI_START=observe it only reports on the window the core
 * opened (JANKSCOPE_INSPECTOR=1). With JANKSCOPE_TEST_UI_START=1 it opens the jankscope window in the GTK4 app it
 * is preloaded into, the way the core will (dlopen the module, call
 * jankscope_gtk4_ui_start () on the main thread once GTK is initialised),
 * then prints what it sees as key=value lines for check_inspector.py.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <gtk/gtk.h>

/* The text of the first label under `widget` that starts with one of the
 * window's status texts. */
static const char *
find_status (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (g_str_has_prefix (text, "Waiting for data") || strstr (text, "jank event") != NULL
          || g_str_has_prefix (text, "Stalled for"))
        return text;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      const char *found = find_status (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (w), "jankscope-inspector") == 0)
        return w;
    }
  return NULL;
}

/* At the app's end: what the window shows then. */
static void
shutdown_cb (GApplication *app, gpointer data)
{
  GtkWidget *w = find_window ();
  GtkWidget *titlebar = w != NULL ? gtk_window_get_titlebar (GTK_WINDOW (w)) : NULL;

  const char *png = g_getenv ("JANKSCOPE_TEST_UI_SCREENSHOT");

  printf ("inspector_status_at_end=%s\n", titlebar != NULL ? find_status (titlebar) : "(none)");
  if (w != NULL && png != NULL && gtk_widget_get_mapped (w))
    {
      int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);
      g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr (GskRenderNode) node = NULL;
      g_autoptr (GdkTexture) texture = NULL;

      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL)
        texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (w)), node,
                                               &GRAPHENE_RECT_INIT (0, 0, width, height));
      printf ("inspector_screenshot=%d\n",
              texture != NULL && gdk_texture_save_to_png (texture, png));
    }
  fflush (stdout);
}

static gboolean
report_cb (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (w), "jankscope-inspector") != 0)
        continue;
      printf ("inspector_window=1\ninspector_mapped=%d\ninspector_title=%s\n",
              gtk_widget_get_mapped (w), gtk_window_get_title (GTK_WINDOW (w)));
      printf ("inspector_clock_marked=%d\n",
              gtk_native_get_surface (GTK_NATIVE (w)) != NULL
                  && g_object_get_data (G_OBJECT (gdk_surface_get_frame_clock (
                                            gtk_native_get_surface (GTK_NATIVE (w)))),
                                        "jankscope-exclude")
                         != NULL);
    }
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static gboolean
start_cb (gpointer data)
{
  const char *path = g_getenv ("JANKSCOPE_TEST_UI_MODULE");
  void *module;
  void (*start) (void);

  if (!gtk_is_initialized ())
    return G_SOURCE_CONTINUE;
  if (g_strcmp0 (g_getenv ("JANKSCOPE_TEST_UI_START"), "observe") == 0)
    {
      /* The core opens the window (JANKSCOPE_INSPECTOR=1): only look. */
      if (g_application_get_default () != NULL)
        g_signal_connect (g_application_get_default (), "shutdown", G_CALLBACK (shutdown_cb), NULL);
      g_timeout_add (400, report_cb, NULL);
      return G_SOURCE_REMOVE;
    }
  module = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  start = module != NULL ? (void (*) (void))dlsym (module, "jankscope_gtk4_ui_start") : NULL;
  if (start == NULL)
    {
      fprintf (stderr, "FAIL: %s: %s\n", path, dlerror ());
      return G_SOURCE_REMOVE;
    }
  start ();
  if (g_application_get_default () != NULL)
    g_signal_connect (g_application_get_default (), "shutdown", G_CALLBACK (shutdown_cb), NULL);
  g_timeout_add (400, report_cb, NULL);
  return G_SOURCE_REMOVE;
}

__attribute__ ((constructor)) static void
shim_init (void)
{
  if (g_strcmp0 (g_getenv ("JANKSCOPE_TEST_UI_START"), "1") == 0
      || g_strcmp0 (g_getenv ("JANKSCOPE_TEST_UI_START"), "observe") == 0)
    g_timeout_add (20, start_cb, NULL);
}
