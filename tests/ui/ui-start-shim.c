/* ui-start-shim.c: a TEST shim, never installed. With
 * JANKSCOPE_TEST_UI_START=observe it only reports what it sees: the window
 * the core opened (JANKSCOPE_INSPECTOR=1), GTK's Inspector and jankscope's
 * page in it (which it then shows), whether the UI module is loaded. With
 * JANKSCOPE_TEST_UI_START=1 it also opens the jankscope window itself in the
 * GTK4 app it is preloaded into (dlopen the module, call
 * jankscope_gtk4_ui_start () on the main thread once GTK is initialised).
 * It prints key=value lines for check_inspector.py.
 *
 * Both modes also time the jankscope window on the app's own clock
 * (g_get_monotonic_time () x 1000, ns on CLOCK_MONOTONIC, like the app's
 * and the report's times), printed as they happen:
 *   app_key=NS,WAIT,TITLE     a key press reached this app window (capture
 *                             phase: before any handler of the app's or ours)
 *   inspector_painted=NS,WAIT the jankscope window's first frame (on screen)
 *   inspector_refresh=NS,DATA,SNAP,WAIT
 *                             the first frame of the window after the panel
 *                             got a snapshot ("snapshot-time" notified): a
 *                             refresh the user sees; DATA 1: the status is
 *                             not "Waiting for data…"; SNAP: the shown
 *                             snapshot's time (live.now_ns)
 *   WAIT: how long the main thread has waited, so far, to get a CPU while
 *   it was ready to run (/proc/thread-self/schedstat): on a loaded machine,
 *   time that other processes took from it
 *   inspector_hooked_late=1   the window had painted before the shim saw it
 *   live_available=GEN,NS,SNAP
 *                             while the window is open, a thread of the
 *                             shim's polls the core's live API (every 5 ms):
 *                             when each snapshot became available, and its
 *                             time; what the core took is told apart from
 *                             what the window took
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

      if (g_str_has_prefix (text, "Waiting for data") || strstr (text, " stall event") != NULL
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

/* --- Timing: the window's opening and refreshes, on the app's clock ------- */

static gboolean refresh_pending;
static GObject *timed_panel;
static gint live_watching; /* atomic: the live thread runs while set */

/* The core's live API (src/core/js-live.h, version 1), as it is exported. */
typedef struct
{
  guint32 version;
  guint32 size;
  GBytes *(*get_snapshot) (guint64 *generation);
  void (*want) (void);
} LiveApi;

static gint64
snapshot_time (GBytes *bytes)
{
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  const char *key = g_strstr_len (data, length, "\"now_ns\"");

  if (key == NULL)
    return 0;
  key += strlen ("\"now_ns\"");
  while (*key == ' ' || *key == ':')
    key++;
  return g_ascii_strtoll (key, NULL, 10);
}

static gpointer
live_thread (gpointer data)
{
  const LiveApi *api = data;
  guint64 seen = 0;

  while (g_atomic_int_get (&live_watching))
    {
      guint64 generation = 0;
      GBytes *bytes = api->get_snapshot (&generation);

      if (bytes != NULL && generation != seen)
        {
          seen = generation;
          printf ("live_available=%" G_GUINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                  "\n",
                  generation, g_get_monotonic_time () * 1000, snapshot_time (bytes));
          fflush (stdout);
        }
      if (bytes != NULL)
        g_bytes_unref (bytes);
      g_usleep (5000);
    }
  return NULL;
}

static void
start_live_thread (void)
{
  const LiveApi *api = dlsym (RTLD_DEFAULT, "jankscope_live_api_v1");
  void *core;

  if (api == NULL && (core = dlopen ("libjankscope-core.so", RTLD_LAZY | RTLD_NOLOAD)) != NULL)
    api = dlsym (core, "jankscope_live_api_v1");
  if (api == NULL || g_atomic_int_get (&live_watching))
    return;
  g_atomic_int_set (&live_watching, 1);
  g_thread_unref (g_thread_new ("shim-live", live_thread, (gpointer) api));
}

static void
inspector_unrealized_cb (GtkWidget *window, gpointer data)
{
  g_atomic_int_set (&live_watching, 0);
}

static void
print_time (const char *key)
{
  printf ("%s=%" G_GINT64_FORMAT "\n", key, g_get_monotonic_time () * 1000);
  fflush (stdout);
}

/* The calling thread's time on a run queue so far (ns), 0: unknown. */
static gint64
run_queue_wait_ns (void)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/thread-self/schedstat", &text, NULL, NULL))
    return 0;
  fields = g_strsplit (text, " ", 3);
  return g_strv_length (fields) >= 2 ? g_ascii_strtoll (fields[1], NULL, 10) : 0;
}

static void
snapshot_time_cb (GObject *panel, GParamSpec *pspec, gpointer data)
{
  refresh_pending = TRUE;
}

static void
inspector_after_paint_cb (GdkFrameClock *clock, GtkWidget *window)
{
  static gboolean painted;
  const char *status;
  gint64 shown = 0;

  if (!painted)
    {
      painted = TRUE;
      printf ("inspector_painted=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
              g_get_monotonic_time () * 1000, run_queue_wait_ns ());
      fflush (stdout);
    }
  if (!refresh_pending)
    return;
  refresh_pending = FALSE;
  status = find_status (window);
  if (timed_panel != NULL)
    g_object_get (timed_panel, "snapshot-time", &shown, NULL);
  printf ("inspector_refresh=%" G_GINT64_FORMAT ",%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
          g_get_monotonic_time () * 1000,
          status != NULL && !g_str_has_prefix (status, "Waiting for data"), shown,
          run_queue_wait_ns ());
  fflush (stdout);
}

static gboolean
app_key_cb (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
            gpointer data)
{
  GtkWidget *window = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  printf ("app_key=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%s\n", g_get_monotonic_time () * 1000,
          run_queue_wait_ns (), gtk_window_get_title (GTK_WINDOW (window)));
  fflush (stdout);
  return FALSE; /* only looking */
}

static void
toplevel_realized_cb (GtkWidget *w, gpointer data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (w);
  GtkWidget *panel;

  if (g_object_get_data (G_OBJECT (w), "shim-timed") != NULL)
    return;
  g_object_set_data (G_OBJECT (w), "shim-timed", GINT_TO_POINTER (1));
  if (g_strcmp0 (gtk_widget_get_name (w), "jankscope-inspector") != 0)
    {
      GtkEventController *keys = gtk_event_controller_key_new ();

      gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
      g_signal_connect (keys, "key-pressed", G_CALLBACK (app_key_cb), NULL);
      gtk_widget_add_controller (w, keys);
      return;
    }
  panel = find_type (w, "JsuiPanel");
  if (panel != NULL
      && g_object_class_find_property (G_OBJECT_GET_CLASS (panel), "snapshot-time") != NULL)
    {
      timed_panel = G_OBJECT (panel);
      g_object_add_weak_pointer (timed_panel, (gpointer *) &timed_panel);
      g_signal_connect (panel, "notify::snapshot-time", G_CALLBACK (snapshot_time_cb), NULL);
    }
  g_signal_connect (w, "unrealize", G_CALLBACK (inspector_unrealized_cb), NULL);
  start_live_thread ();
  if (clock != NULL && gdk_frame_clock_get_frame_counter (clock) > 0)
    print_time ("inspector_hooked_late");
  if (clock != NULL)
    g_signal_connect_after (clock, "after-paint", G_CALLBACK (inspector_after_paint_cb), w);
}

/* Every toplevel, now and later, once realized (the jankscope window's name
 * and panel are set in its init, after GtkWindow's: not yet when it joins
 * the list). */
static void
watch_toplevel (GtkWidget *w)
{
  if (gtk_widget_get_realized (w))
    toplevel_realized_cb (w, NULL);
  else
    g_signal_connect (w, "realize", G_CALLBACK (toplevel_realized_cb), NULL);
}

static void
toplevels_changed_cb (GListModel *toplevels, guint position, guint removed, guint added,
                      gpointer data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      watch_toplevel (w);
    }
}

static void
start_timing (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  g_signal_connect (toplevels, "items-changed", G_CALLBACK (toplevels_changed_cb), NULL);
  toplevels_changed_cb (toplevels, 0, 0, g_list_model_get_n_items (toplevels), NULL);
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
  start_timing ();
  if (g_strcmp0 (g_getenv ("JANKSCOPE_TEST_UI_START"), "observe") == 0)
    {
      /* The core opens the window (JANKSCOPE_INSPECTOR=1): only look. */
      if (g_application_get_default () != NULL)
        g_signal_connect (g_application_get_default (), "shutdown", G_CALLBACK (shutdown_cb), NULL);
      g_timeout_add (400, report_cb, NULL);
      return G_SOURCE_REMOVE;
    }
  module = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  start = module != NULL ? (void (*) (void)) dlsym (module, "jankscope_gtk4_ui_start") : NULL;
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
