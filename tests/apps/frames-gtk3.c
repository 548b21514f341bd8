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
 *
 * Prints key=value facts on stdout, like frames-gtk4.c (see there); times
 * are g_get_monotonic_time() x 1000 (ns on CLOCK_MONOTONIC).
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STALL_MS 150
#define ANIMATION_S 5

static const char *scenario;

static gboolean paint_stall_pending;
static gboolean layout_stall_pending;
static gboolean animating;
static int frames_drawn;

/* --- What the app sees of its frame clocks --------------------------------- */

typedef struct
{
  int frames;
  gint64 before_paint_us;
  gint64 late_us;
  gboolean printed;
} WindowFrames;

static WindowFrames window_frames[2];
static int frames_seen;
static int slow_frames_seen;

static void
before_paint_cb (GdkFrameClock *clock, gpointer data)
{
  WindowFrames *w = data;
  GSource *source = g_main_current_source ();
  gint64 ready_us = source != NULL ? g_source_get_ready_time (source) : -1;

  w->before_paint_us = g_get_monotonic_time ();
  /* How late the frame clock's dispatch was, at most: its source (a timeout
   * in GTK4) became ready at ready_us, the dispatch started before now. */
  w->late_us = ready_us >= 0 ? MAX (0, w->before_paint_us - ready_us) : 0;
}

static void
after_paint_cb (GdkFrameClock *clock, gpointer data)
{
  WindowFrames *w = data;
  gint64 now = g_get_monotonic_time ();

  w->frames++;
  frames_seen++;
  if (w->before_paint_us != 0 && now - w->before_paint_us > 25 * 1000)
    {
      slow_frames_seen++;
      printf ("slow_frame=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
              w->before_paint_us * 1000, now * 1000, w->late_us * 1000);
    }
  w->before_paint_us = 0;
}

static void
window_realize_cb (GtkWidget *window, gpointer data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  if (clock == NULL)
    {
      fprintf (stderr, "FAIL: no frame clock after realize\n");
      return;
    }
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), data);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), data);
}

static void
print_window_frames (WindowFrames *w)
{
  if (!w->printed)
    {
      printf ("window_frames=%d\n", w->frames);
      w->printed = TRUE;
    }
}

static void
window_unrealize_cb (GtkWidget *window, gpointer data)
{
  print_window_frames (data);
}

/* --- Drawing ("draw": paint phase) and allocation ("size-allocate": layout
 *     phase) ---------------------------------------------------------------- */

static void
busy_wait_ms (int ms)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + (gint64) ms * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
}

static gboolean
quit_cb (gpointer data)
{
  gtk_main_quit ();
  return G_SOURCE_REMOVE;
}

static void
quit_after (guint ms)
{
  g_source_set_name_by_id (g_timeout_add (ms, quit_cb, NULL), "frames-quit");
}

typedef struct
{
  double phase;
  gboolean count_draws;
} AreaState;

static AreaState area_states[2];

static gboolean
area_draw_cb (GtkWidget *widget, cairo_t *cr, gpointer data)
{
  AreaState *state = data;
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);
  double t = state->phase - (gint64) state->phase;  /* a triangle wave, 1 Hz */
  double x = (width - 40) * (t < 0.5 ? 2 * t : 2 - 2 * t);

  cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.8);
  cairo_rectangle (cr, x, height / 2.0 - 20, 40, 40);
  cairo_fill (cr);
  if (state->count_draws && animating)
    frames_drawn++;
  if (paint_stall_pending)
    {
      paint_stall_pending = FALSE;
      busy_wait_ms (STALL_MS);
      quit_after (1000);
    }
  return FALSE;
}

static void
area_size_allocate_cb (GtkWidget *widget, GdkRectangle *allocation, gpointer data)
{
  if (layout_stall_pending)
    {
      layout_stall_pending = FALSE;
      busy_wait_ms (STALL_MS);
      quit_after (1000);
    }
}

/* --- Scenarios ------------------------------------------------------------ */

static GtkWidget *main_window;
static GtkWidget *main_area;
static GtkWidget *second_window;
static gint64 animation_start_us;

static gboolean
animate_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  AreaState *state = g_object_get_data (G_OBJECT (widget), "frames-state");
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (animation_start_us == 0)
    animation_start_us = now;
  state->phase = (now - animation_start_us) / 1e6;
  gtk_widget_queue_draw (widget);
  if (data != NULL && now - animation_start_us >= ANIMATION_S * G_USEC_PER_SEC)
    {
      /* animation: done after 5 s */
      animating = FALSE;
      printf ("frames_drawn=%d\n", frames_drawn);
      quit_after (200);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
stall_timeout_cb (gpointer data)
{
  /* When the frame with the stall was asked for: it cannot start earlier. */
  printf ("requested=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  if (strcmp (scenario, "paint-stall") == 0)
    {
      paint_stall_pending = TRUE;
      gtk_widget_queue_draw (main_area);
    }
  else
    {
      layout_stall_pending = TRUE;
      gtk_widget_queue_resize (main_area);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
stall_missing_cb (gpointer data)
{
  if (paint_stall_pending || layout_stall_pending)
    {
      fprintf (stderr, "FAIL: the %s did not happen within 5 s\n", scenario);
      gtk_main_quit ();
    }
  return G_SOURCE_REMOVE;
}

static GtkWidget *
new_window (const char *title, int index, GtkWidget **area_out)
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
  g_signal_connect (window, "realize", G_CALLBACK (window_realize_cb), &window_frames[index]);
  g_signal_connect (window, "unrealize", G_CALLBACK (window_unrealize_cb),
                    &window_frames[index]);
  *area_out = area;
  return window;
}

static gboolean
close_second_cb (gpointer data)
{
  animating = FALSE;
  printf ("frames_drawn=%d\n", frames_drawn);
  gtk_widget_destroy (second_window);
  second_window = NULL;
  printf ("closed=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  quit_after (1000);
  return G_SOURCE_REMOVE;
}

static gboolean
open_second_cb (gpointer data)
{
  GtkWidget *area;

  second_window = new_window ("jankscope frames-gtk3 (second)", 1, &area);
  area_states[1].count_draws = TRUE;
  animating = TRUE;
  gtk_widget_add_tick_callback (area, animate_tick_cb, NULL, NULL);
  gtk_widget_show_all (second_window);
  printf ("opened=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  g_source_set_name_by_id (g_timeout_add (1000, close_second_cb, NULL), "frames-close");
  return G_SOURCE_REMOVE;
}

static void
window_mapped_cb (GtkWidget *window, gpointer data)
{
  static gboolean started;

  if (started)
    return;
  started = TRUE;
  printf ("mapped=1\n");

  if (strcmp (scenario, "paint-stall") == 0 || strcmp (scenario, "layout-stall") == 0)
    {
      g_source_set_name_by_id (g_timeout_add (1000, stall_timeout_cb, NULL), "frames-stall");
      g_source_set_name_by_id (g_timeout_add (6000, stall_missing_cb, NULL), "frames-missing");
    }
  else if (strcmp (scenario, "animation") == 0)
    {
      area_states[0].count_draws = TRUE;
      animating = TRUE;
      gtk_widget_add_tick_callback (main_area, animate_tick_cb, GINT_TO_POINTER (1), NULL);
    }
  else if (strcmp (scenario, "second-window") == 0)
    {
      g_source_set_name_by_id (g_timeout_add (1000, open_second_cb, NULL), "frames-open");
    }
  else /* static */
    {
      quit_after (5000);
    }
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: frames-gtk3 %s did not end within 30 s\n", scenario);
  _exit (99);
  return NULL;
}

int
main (int argc, char **argv)
{
  static const char *const scenarios[] = {
    "paint-stall", "layout-stall", "animation", "second-window", "static",
  };
  gboolean known = FALSE;

  if (argc == 2)
    for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
      known |= strcmp (argv[1], scenarios[i]) == 0;
  if (!known)
    {
      fprintf (stderr, "usage: %s paint-stall|layout-stall|animation|second-window|static\n",
               argv[0]);
      return 2;
    }
  scenario = argv[1];

  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  gtk_init (&argc, &argv);
  main_window = new_window ("jankscope frames-gtk3", 0, &main_area);
  g_signal_connect (main_window, "map", G_CALLBACK (window_mapped_cb), NULL);
  g_signal_connect (main_window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  gtk_widget_show_all (main_window);
  gtk_main ();
  print_window_frames (&window_frames[0]);
  if (window_frames[1].frames > 0)
    print_window_frames (&window_frames[1]);
  printf ("frames_seen=%d\n", frames_seen);
  printf ("slow_frames_seen=%d\n", slow_frames_seen);
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  printf ("glib_version=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
  return 0;
}
