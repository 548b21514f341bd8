/* ui-start-shim.c: a TEST shim, never installed. With
 * JANKSCOPE_TEST_UI_START=observe it only reports what it sees: the window
 * the core opened (JANKSCOPE_INSPECTOR=1), GTK's Inspector and jankscope's
 * page in it (which it then shows), whether the UI module is loaded. With
 * JANKSCOPE_TEST_UI_START=1 it also opens the jankscope window itself in the
 * GTK4 app it is preloaded into (dlopen the module, call
 * jankscope_gtk4_ui_start () on the main thread once GTK is initialised).
 * It prints key=value lines for check_inspector.py.
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

/* The first widget under `widget` (itself included) of this type name. */
static GtkWidget *
find_type (GtkWidget *widget, const char *type_name)
{
  if (g_strcmp0 (G_OBJECT_TYPE_NAME (widget), type_name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* jankscope's page in GTK's Inspector (GTK_DEBUG=interactive), if any. */
static GtkWidget *
find_inspector_page (gboolean *inspector)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  *inspector = FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (G_OBJECT_TYPE_NAME (w), "GtkInspectorWindow") == 0)
        {
          *inspector = TRUE;
          return find_type (w, "JsuiInspectorPage");
        }
    }
  return NULL;
}

/* The text of the first label under `widget` ending with `suffix`. */
static const char *
find_suffix (GtkWidget *widget, const char *suffix)
{
  if (GTK_IS_LABEL (widget) && g_str_has_suffix (gtk_label_get_text (GTK_LABEL (widget)), suffix))
    return gtk_label_get_text (GTK_LABEL (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      const char *found = find_suffix (c, suffix);

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

/* A PNG of a mapped toplevel, as it is drawn now. */
static gboolean
save_png (GtkWidget *w, const char *png)
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
  return texture != NULL && gdk_texture_save_to_png (texture, png);
}

/* At the app's end: what the window shows then. */
static void
shutdown_cb (GApplication *app, gpointer data)
{
  GtkWidget *w = find_window ();
  const char *status = w != NULL ? find_status (w) : NULL;
  const char *png = g_getenv ("JANKSCOPE_TEST_UI_SCREENSHOT");

  printf ("inspector_status_at_end=%s\n", status != NULL ? status : "(none)");
  if (w != NULL && find_suffix (w, " ms/s") != NULL)
    printf ("inspector_ui_cost_at_end=%s\n", find_suffix (w, " ms/s"));
  {
    gboolean inspector;
    GtkWidget *page = find_inspector_page (&inspector);
    const char *page_status = page != NULL ? find_status (page) : NULL;

    const char *page_png = g_getenv ("JANKSCOPE_TEST_UI_PAGE_SCREENSHOT");

    if (page != NULL)
      printf ("inspector_page_mapped_at_end=%d\ninspector_page_status_at_end=%s\n",
              gtk_widget_get_mapped (page), page_status != NULL ? page_status : "(none)");
    if (page != NULL && page_png != NULL && gtk_widget_get_mapped (page))
      printf ("inspector_page_screenshot=%d\n",
              save_png (GTK_WIDGET (gtk_widget_get_root (page)), page_png));
  }
  if (w != NULL && png != NULL && gtk_widget_get_mapped (w))
    printf ("inspector_screenshot=%d\n", save_png (w, png));
  fflush (stdout);
}

/* GTK's Inspector: our page is there; show it (the page refreshes only
 * while mapped). */
static void
report_inspector (void)
{
  gboolean inspector;
  GtkWidget *page = find_inspector_page (&inspector);
  GtkWidget *parent = page != NULL ? gtk_widget_get_parent (page) : NULL;
  g_autofree char *title = NULL;

  if (!inspector)
    return;
  printf ("gtk_inspector=1\ninspector_page=%d\n", page != NULL);
  if (page == NULL)
    return;
  g_object_get (page, "title", &title, NULL);
  printf ("inspector_page_title=%s\ninspector_page_mapped=%d\n", title,
          gtk_widget_get_mapped (page));
  if (GTK_IS_STACK (parent))
    gtk_stack_set_visible_child (GTK_STACK (parent), page);
}

/* Is the UI module in the process? */
static void
report_module (void)
{
  g_autofree char *maps = NULL;

  if (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    printf ("ui_module_loaded=%d\n", strstr (maps, "/libjankscope-gtk4.so") != NULL);
}

static gboolean
report_cb (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  report_module ();
  report_inspector ();

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
