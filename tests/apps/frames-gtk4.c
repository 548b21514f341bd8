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
 *
 * Prints key=value facts on stdout; times are g_get_monotonic_time() x 1000
 * (ns on CLOCK_MONOTONIC, the report's clock):
 *   mapped=1, gtk_version=, glib_version=
 *   requested=NS                 paint-stall, layout-stall: when the redraw or
 *                                resize with the stall was queued
 *   stall=START,END              each busy-wait
 *   frames_drawn=N               snapshots while animating (animation,
 *                                second-window: of the second window)
 *   opened=NS, closed=NS         second-window
 *   frames_seen=N                ::after-paint emissions the app saw, all windows
 *   window_frames=N              the same, per window (one line each)
 *   slow_frames_seen=N           frames whose own time (::before-paint to
 *                                ::after-paint, as the app sees it) exceeded 25 ms
 *   slow_frame=START,END,LATE    each of those, LATE: at most how late the
 *                                frame clock's dispatch was (::before-paint
 *                                minus the ready time of its source; 0 for
 *                                an idle source)
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STALL_MS 150
#define ANIMATION_S 5

static GtkApplication *app;
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

/* --- The drawing widget: snapshot in the paint phase, size_allocate in the
 *     layout phase ----------------------------------------------------------- */

#define FRAMES_TYPE_AREA (frames_area_get_type ())
G_DECLARE_FINAL_TYPE (FramesArea, frames_area, FRAMES, AREA, GtkWidget)

struct _FramesArea
{
  GtkWidget parent_instance;
  double phase;
  gboolean count_draws;
};

G_DEFINE_TYPE (FramesArea, frames_area, GTK_TYPE_WIDGET)

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
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
quit_after (guint ms)
{
  g_source_set_name_by_id (g_timeout_add (ms, quit_cb, NULL), "frames-quit");
}

static void
frames_area_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                     int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = *natural = 200;
}

static void
frames_area_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  if (layout_stall_pending)
    {
      layout_stall_pending = FALSE;
      busy_wait_ms (STALL_MS);
      quit_after (1000);
    }
}

static void
frames_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FramesArea *self = FRAMES_AREA (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA background = { 0.9, 0.9, 0.9, 1.0 };
  GdkRGBA box = { 0.2, 0.4, 0.8, 1.0 };
  double t = self->phase - (gint64) self->phase;  /* a triangle wave, 1 Hz */
  float x = (float) ((width - 40) * (t < 0.5 ? 2 * t : 2 - 2 * t));

  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &box, &GRAPHENE_RECT_INIT (x, height / 2.f - 20, 40, 40));
  if (self->count_draws && animating)
    frames_drawn++;
  if (paint_stall_pending)
    {
      paint_stall_pending = FALSE;
      busy_wait_ms (STALL_MS);
      quit_after (1000);
    }
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

/* --- Scenarios ------------------------------------------------------------ */

static GtkWidget *main_window;
static GtkWidget *main_area;
static GtkWidget *second_window;
static gint64 animation_start_us;

static gboolean
animate_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  FramesArea *area = FRAMES_AREA (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);

  if (animation_start_us == 0)
    animation_start_us = now;
  area->phase = (now - animation_start_us) / 1e6;
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
      g_application_quit (G_APPLICATION (app));
    }
  return G_SOURCE_REMOVE;
}

static GtkWidget *
new_window (const char *title, WindowFrames *frames, GtkWidget **area_out)
{
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *area = g_object_new (FRAMES_TYPE_AREA, NULL);

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 240);
  gtk_window_set_child (GTK_WINDOW (window), area);
  g_signal_connect (window, "realize", G_CALLBACK (window_realize_cb), frames);
  g_signal_connect (window, "unrealize", G_CALLBACK (window_unrealize_cb), frames);
  *area_out = area;
  return window;
}

static gboolean
close_second_cb (gpointer data)
{
  animating = FALSE;
  printf ("frames_drawn=%d\n", frames_drawn);
  gtk_window_destroy (GTK_WINDOW (second_window));
  second_window = NULL;
  printf ("closed=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  quit_after (1000);
  return G_SOURCE_REMOVE;
}

static gboolean
open_second_cb (gpointer data)
{
  GtkWidget *area;

  second_window = new_window ("jankscope frames-gtk4 (second)", &window_frames[1], &area);
  FRAMES_AREA (area)->count_draws = TRUE;
  animating = TRUE;
  gtk_widget_add_tick_callback (area, animate_tick_cb, NULL, NULL);
  gtk_window_present (GTK_WINDOW (second_window));
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
      FRAMES_AREA (main_area)->count_draws = TRUE;
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

static void
activate_cb (GApplication *application, gpointer data)
{
  main_window = new_window ("jankscope frames-gtk4", &window_frames[0], &main_area);
  g_signal_connect (main_window, "map", G_CALLBACK (window_mapped_cb), NULL);
  gtk_window_present (GTK_WINDOW (main_window));
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: frames-gtk4 %s did not end within 30 s\n", scenario);
  _exit (99);
  return NULL;
}

int
main (int argc, char **argv)
{
  static const char *const scenarios[] = {
    "paint-stall", "layout-stall", "animation", "second-window", "static",
  };
  int status;
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
  app = gtk_application_new ("org.jankscope.tests.FramesGtk4", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  /* The scenario is ours, not GApplication's (it would take it for a file). */
  status = g_application_run (G_APPLICATION (app), 1, argv);
  print_window_frames (&window_frames[0]);
  if (window_frames[1].frames > 0)
    print_window_frames (&window_frames[1]);
  printf ("frames_seen=%d\n", frames_seen);
  printf ("slow_frames_seen=%d\n", slow_frames_seen);
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  printf ("glib_version=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
  g_object_unref (app);
  return status;
}
