/* frames-common.c - the toolkit-independent part of frames-gtk4.c and
 * frames-gtk3.c (see frames-common.h) */
#include "frames-common.h"

#include "scenario.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *scenario;

static gboolean paint_stall_pending;
static gboolean layout_stall_pending;
static gboolean animating;
static int frames_drawn;

AreaState area_states[2];

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

void
frames_watch_window (GtkWidget *window, int index)
{
  g_signal_connect (window, "realize", G_CALLBACK (window_realize_cb), &window_frames[index]);
  g_signal_connect (window, "unrealize", G_CALLBACK (window_unrealize_cb), &window_frames[index]);
}

/* --- Stalls in the paint and layout phases -------------------------------- */

static gboolean
quit_cb (gpointer data)
{
  frames_quit ();
  return G_SOURCE_REMOVE;
}

static void
quit_after (guint ms)
{
  add_named_timeout ("frames-quit", ms, quit_cb, NULL);
}

static void
stall_if_pending (gboolean *pending)
{
  if (*pending)
    {
      *pending = FALSE;
      busy_wait_ms (STALL_MS);
      quit_after (1000);
    }
}

void
frames_area_drawn (AreaState *state)
{
  if (state->count_draws && animating)
    frames_drawn++;
  stall_if_pending (&paint_stall_pending);
}

void
frames_area_allocated (void)
{
  stall_if_pending (&layout_stall_pending);
}

/* --- Scenarios ------------------------------------------------------------ */

GtkWidget *main_window;
GtkWidget *main_area;
static GtkWidget *second_window;
static gint64 animation_start_us;

static gboolean
animate_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  AreaState *state = frames_area_state (widget);
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

/* busy: every frame does 30-100 ms of work in a tick callback (a fixed
 * sequence, wall-clock spins), so a frame clock's paint source
 * (GDK_PRIORITY_REDRAW) is always ready and the loop is never idle, for
 * BUSY_S seconds from the first frame. 1 s in, a second window opens, busy
 * the same way; once it has drawn a frame, the main window is hidden (the
 * second is then the only one, with the keyboard focus): there is no idle
 * moment in between. */
static gint64 busy_start_us;
static gint64 busy_spent_us;                        /* in the spins */
static gint64 busy_start_cpu_ns, busy_spent_cpu_ns; /* the main thread's CPU time */
static guint busy_frames;
static gboolean busy_over;

static gboolean busy_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data);

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gboolean
busy_second_cb (gpointer data)
{
  GtkWidget *area;
  char *title = g_strdup_printf ("jankscope %s (second)", frames_program);

  second_window = frames_new_window (title, 1, &area);
  g_free (title);
  gtk_widget_add_tick_callback (area, busy_tick_cb, GINT_TO_POINTER (1), NULL);
  frames_show_window (second_window);
  printf ("opened=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  return G_SOURCE_REMOVE;
}

static gboolean
busy_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  static gboolean main_hidden;
  gint64 now = g_get_monotonic_time ();
  gint64 until = now + (30 + (busy_frames++ * 37) % 71) * 1000;
  gint64 cpu = thread_cpu_ns ();

  if (busy_over)
    return G_SOURCE_REMOVE;
  if (busy_start_us == 0)
    {
      busy_start_us = now;
      busy_start_cpu_ns = cpu;
      printf ("busy_start=%" G_GINT64_FORMAT "\n", now * 1000);
      add_named_timeout ("frames-open", 1000, busy_second_cb, NULL);
    }
  if (data != NULL && !main_hidden)
    {
      main_hidden = TRUE;
      gtk_widget_set_visible (main_window, FALSE);
    }
  if (now - busy_start_us >= BUSY_S * G_USEC_PER_SEC)
    {
      busy_over = TRUE;
      printf ("busy_end=%" G_GINT64_FORMAT "\nbusy_frames=%u\nbusy_spent=%" G_GINT64_FORMAT
              "\nbusy_cpu=%" G_GINT64_FORMAT "\nbusy_spent_cpu=%" G_GINT64_FORMAT "\n",
              now * 1000, busy_frames, busy_spent_us * 1000, cpu - busy_start_cpu_ns,
              busy_spent_cpu_ns);
      quit_after (300);
      return G_SOURCE_REMOVE;
    }
  while (g_get_monotonic_time () < until)
    ;
  busy_spent_us += g_get_monotonic_time () - now;
  busy_spent_cpu_ns += thread_cpu_ns () - cpu;
  frames_area_state (widget)->phase = (now - busy_start_us) / 1e6;
  gtk_widget_queue_draw (widget);
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
      frames_quit ();
    }
  return G_SOURCE_REMOVE;
}

static gboolean
close_second_cb (gpointer data)
{
  animating = FALSE;
  printf ("frames_drawn=%d\n", frames_drawn);
  frames_destroy_window (second_window);
  second_window = NULL;
  printf ("closed=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  quit_after (1000);
  return G_SOURCE_REMOVE;
}

static gboolean
open_second_cb (gpointer data)
{
  GtkWidget *area;
  char *title = g_strdup_printf ("jankscope %s (second)", frames_program);

  second_window = frames_new_window (title, 1, &area);
  g_free (title);
  area_states[1].count_draws = TRUE;
  animating = TRUE;
  gtk_widget_add_tick_callback (area, animate_tick_cb, NULL, NULL);
  frames_show_window (second_window);
  printf ("opened=%" G_GINT64_FORMAT "\n", g_get_monotonic_time () * 1000);
  add_named_timeout ("frames-close", 1000, close_second_cb, NULL);
  return G_SOURCE_REMOVE;
}

void
window_mapped_cb (GtkWidget *window, gpointer data)
{
  static gboolean started;

  if (started)
    return;
  started = TRUE;
  printf ("mapped=1\n");

  if (strcmp (scenario, "paint-stall") == 0 || strcmp (scenario, "layout-stall") == 0)
    {
      add_named_timeout ("frames-stall", 1000, stall_timeout_cb, NULL);
      add_named_timeout ("frames-missing", 6000, stall_missing_cb, NULL);
    }
  else if (strcmp (scenario, "animation") == 0)
    {
      area_states[0].count_draws = TRUE;
      animating = TRUE;
      gtk_widget_add_tick_callback (main_area, animate_tick_cb, GINT_TO_POINTER (1), NULL);
    }
  else if (strcmp (scenario, "second-window") == 0)
    {
      add_named_timeout ("frames-open", 1000, open_second_cb, NULL);
    }
  else if (strcmp (scenario, "busy") == 0)
    {
      gtk_widget_add_tick_callback (main_area, busy_tick_cb, NULL, NULL);
    }
  else /* static */
    {
      quit_after (5000);
    }
}

/* --- Start and end -------------------------------------------------------- */

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: %s %s did not end within 30 s\n", frames_program, scenario);
  _exit (99);
  return NULL;
}

gboolean
frames_start (int argc, char **argv)
{
  static const char *const scenarios[] = {
    "paint-stall", "layout-stall", "animation", "second-window", "static", "busy",
  };
  gboolean known = FALSE;

  if (argc == 2)
    for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
      known |= strcmp (argv[1], scenarios[i]) == 0;
  if (!known)
    {
      fprintf (stderr, "usage: %s paint-stall|layout-stall|animation|second-window|static|busy\n",
               argv[0]);
      return FALSE;
    }
  scenario = argv[1];

  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  return TRUE;
}

void
frames_print_end_facts (void)
{
  print_window_frames (&window_frames[0]);
  if (window_frames[1].frames > 0)
    print_window_frames (&window_frames[1]);
  printf ("frames_seen=%d\n", frames_seen);
  printf ("slow_frames_seen=%d\n", slow_frames_seen);
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  printf ("glib_version=%u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
}
