/* frames-gtk3.c - GTK3 frame scenarios for the frames checks (check_frames.py)
 *
 * Usage: frames-gtk3 SCENARIO
 *
 *   paint-stall    a window with a GtkDrawingArea; 1 s after map one redraw
 *                  whose "draw" handler busy-waits 150 ms; quits 1 s later
 *   layout-stall   the same, but the 150 ms busy-wait is in a "size-allocate"
 *                  handler (layout phase) after gtk_widget_queue_resize
 *   animation      a tick callback redraws an animation every frame for 5 s
 *   second-window  1 s after map a second, animated window opens; it is
 *                  destroyed 1 s later; quits 1 s after that
 *   static         maps a window and does nothing for 5 s
 *   busy           every frame does 30-100 ms of work in a tick callback
 *                  (the loop is never idle) for 8 s; 1 s in, a second window,
 *                  as busy, opens and then the main one is hidden
 *
 * The scenarios and the key=value facts printed on stdout are those of
 * frames-common.c (see frames-common.h), shared with frames-gtk4.c; times
 * are g_get_monotonic_time() x 1000 (ns on CLOCK_MONOTONIC).
 */
#include "frames-common.h"

const char *const frames_program = "frames-gtk3";

void
frames_quit (void)
{
  gtk_main_quit ();
}

/* --- Drawing ("draw": paint phase) and allocation ("size-allocate": layout
 *     phase) ---------------------------------------------------------------- */

static gboolean
area_draw_cb (GtkWidget *widget, cairo_t *cr, gpointer data)
{
  AreaState *state = data;
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);
  double t = state->phase - (gint64) state->phase; /* a triangle wave, 1 Hz */
  double x = (width - 40) * (t < 0.5 ? 2 * t : 2 - 2 * t);

  cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.8);
  cairo_rectangle (cr, x, height / 2.0 - 20, 40, 40);
  cairo_fill (cr);
  frames_area_drawn (state);
  return FALSE;
}

static void
area_size_allocate_cb (GtkWidget *widget, GdkRectangle *allocation, gpointer data)
{
  frames_area_allocated ();
}

/* --- Windows -------------------------------------------------------------- */

AreaState *
frames_area_state (GtkWidget *area)
{
  return g_object_get_data (G_OBJECT (area), "frames-state");
}

GtkWidget *
frames_new_window (const char *title, int index, GtkWidget **area_out)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 240);
  gtk_widget_set_size_request (area, 200, 200);
  gtk_container_add (GTK_CONTAINER (window), area);
  g_object_set_data (G_OBJECT (area), "frames-state", &area_states[index]);
  g_signal_connect (area, "draw", G_CALLBACK (area_draw_cb), &area_states[index]);
  g_signal_connect (area, "size-allocate", G_CALLBACK (area_size_allocate_cb), NULL);
  frames_watch_window (window, index);
  *area_out = area;
  return window;
}

void
frames_show_window (GtkWidget *window)
{
  gtk_widget_show_all (window);
}

void
frames_destroy_window (GtkWidget *window)
{
  gtk_widget_destroy (window);
}

int
main (int argc, char **argv)
{
  if (!frames_start (argc, argv))
    return 2;

  gtk_init (&argc, &argv);
  main_window = frames_new_window ("jankscope frames-gtk3", 0, &main_area);
  g_signal_connect (main_window, "map", G_CALLBACK (window_mapped_cb), NULL);
  g_signal_connect (main_window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  frames_show_window (main_window);
  gtk_main ();
  frames_print_end_facts ();
  return 0;
}
