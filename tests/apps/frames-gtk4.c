/* frames-gtk4.c - GTK4 frame scenarios for the frames checks (check_frames.py)
 *
 * Usage: frames-gtk4 SCENARIO
 *
 *   paint-stall    a window with a drawing widget; 1 s after map one redraw
 *                  whose snapshot busy-waits 150 ms; quits 1 s later
 *   layout-stall   the same, but the 150 ms busy-wait is in the widget's
 *                  size_allocate (layout phase) after gtk_widget_queue_resize
 *   animation      a tick callback redraws an animation every frame for 5 s
 *   second-window  1 s after map a second, animated window opens; it is
 *                  destroyed 1 s later; quits 1 s after that
 *   static         maps a window and does nothing for 5 s
 *   busy           every frame does 30-100 ms of work in a tick callback
 *                  (the loop is never idle) for 8 s; 1 s in, a second window,
 *                  as busy, opens and then the main one is hidden
 *
 * The scenarios and the key=value facts printed on stdout are those of
 * frames-common.c (see frames-common.h), shared with frames-gtk3.c.
 */
#include "frames-common.h"

static GtkApplication *app;

const char *const frames_program = "frames-gtk4";

void
frames_quit (void)
{
  g_application_quit (G_APPLICATION (app));
}

/* --- The drawing widget: snapshot in the paint phase, size_allocate in the
 *     layout phase ----------------------------------------------------------- */

#define FRAMES_TYPE_AREA (frames_area_get_type ())
G_DECLARE_FINAL_TYPE (FramesArea, frames_area, FRAMES, AREA, GtkWidget)

struct _FramesArea
{
  GtkWidget parent_instance;
  AreaState *state;
};

G_DEFINE_TYPE (FramesArea, frames_area, GTK_TYPE_WIDGET)

static void
frames_area_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                     int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = *natural = 200;
}

static void
frames_area_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  frames_area_allocated ();
}

static void
frames_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  AreaState *state = FRAMES_AREA (widget)->state;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA background = { 0.9, 0.9, 0.9, 1.0 };
  GdkRGBA box = { 0.2, 0.4, 0.8, 1.0 };
  double t = state->phase - (gint64) state->phase; /* a triangle wave, 1 Hz */
  float x = (float) ((width - 40) * (t < 0.5 ? 2 * t : 2 - 2 * t));

  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &box, &GRAPHENE_RECT_INIT (x, height / 2.f - 20, 40, 40));
  frames_area_drawn (state);
}

static void
frames_area_class_init (FramesAreaClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = frames_area_measure;
  widget_class->size_allocate = frames_area_size_allocate;
  widget_class->snapshot = frames_area_snapshot;
}

static void
frames_area_init (FramesArea *self)
{
}

/* --- Windows -------------------------------------------------------------- */

AreaState *
frames_area_state (GtkWidget *area)
{
  return FRAMES_AREA (area)->state;
}

GtkWidget *
frames_new_window (const char *title, int index, GtkWidget **area_out)
{
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *area = g_object_new (FRAMES_TYPE_AREA, NULL);

  FRAMES_AREA (area)->state = &area_states[index];
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 240);
  gtk_window_set_child (GTK_WINDOW (window), area);
  frames_watch_window (window, index);
  *area_out = area;
  return window;
}

void
frames_show_window (GtkWidget *window)
{
  gtk_window_present (GTK_WINDOW (window));
}

void
frames_destroy_window (GtkWidget *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
activate_cb (GApplication *application, gpointer data)
{
  main_window = frames_new_window ("jankscope frames-gtk4", 0, &main_area);
  g_signal_connect (main_window, "map", G_CALLBACK (window_mapped_cb), NULL);
  frames_show_window (main_window);
}

int
main (int argc, char **argv)
{
  int status;

  if (!frames_start (argc, argv))
    return 2;

  app = gtk_application_new ("org.jankscope.tests.FramesGtk4", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  /* The scenario is ours, not GApplication's (it would take it for a file). */
  status = g_application_run (G_APPLICATION (app), 1, argv);
  frames_print_end_facts ();
  g_object_unref (app);
  return status;
}
