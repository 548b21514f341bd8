/* attribution-gtk4.c - GTK 4 programs whose jank the stack sampler must
 * explain in full (tests/check_attribution.py)
 *
 *   attribution-gtk4 sustained [SECONDS]
 *       every frame does 30 to 60 ms of work in a tick callback
 *       (js_test_frame_work) for SECONDS (20): sustained jank, every frame
 *       slow; prints work=START_NS,END_NS per frame, then quits
 *   attribution-gtk4 library-only [KIB] [MS]
 *       a text view holding one line of KIB KiB (400), shown for MS ms
 *       (6000): all the jank is GTK's and Pango's. Of the program's own
 *       code only main is ever on the stack: it runs the loop itself, and
 *       the window is closed by a timeout whose callback is GTK's own
 *       gtk_window_destroy
 *
 * Facts on stdout: work=... (sustained), start_ns= and done=1. Run under
 * Xvfb with GSK_RENDERER=cairo.
 */
#include <gtk/gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

volatile guint64 js_test_sink;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* --- sustained ------------------------------------------------------------ */

static gint64 sustained_end_ns;
static guint frames;
static GtkWidget *window;

JS_TEST_FUNC void
js_test_frame_work (gint64 ms)
{
  gint64 start = mono_ns ();
  guint64 acc = js_test_sink;

  while (mono_ns () < start + ms * NS_PER_MS)
    {
      for (int i = 0; i < 2000; i++)
        acc = acc * G_GUINT64_CONSTANT (2862933555777941757) + G_GUINT64_CONSTANT (3037000493)
              + (guint64) i;
      js_test_sink = acc;
    }
  printf ("work=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, mono_ns ());
}

static gboolean
tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  if (sustained_end_ns == 0)
    sustained_end_ns = mono_ns () + GPOINTER_TO_INT (data) * G_GINT64_CONSTANT (1000000000);
  if (mono_ns () >= sustained_end_ns)
    {
      gtk_window_destroy (GTK_WINDOW (window));
      return G_SOURCE_REMOVE;
    }
  /* 30 to 60 ms, mixed. */
  js_test_frame_work (30 + (frames++ * 13) % 31);
  gtk_widget_queue_draw (widget);
  return G_SOURCE_CONTINUE;
}

static void
sustained (int seconds)
{
  GtkWidget *area = gtk_drawing_area_new ();

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 200);
  gtk_window_set_child (GTK_WINDOW (window), area);
  gtk_widget_add_tick_callback (area, tick_cb, GINT_TO_POINTER (seconds), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

/* --- library-only --------------------------------------------------------- */

static void
library_only (int kib, int ms)
{
  GString *text = g_string_new (NULL);
  GtkWidget *scroller, *view;

  while (text->len < (gsize) kib * 1024)
    g_string_append (text, "lorem ipsum dolor sit amet, consectetur adipiscing elit ");
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  scroller = gtk_scrolled_window_new ();
  view = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text->str, -1);
  g_string_free (text, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  /* GTK's own function as the callback: no code of this program runs in
   * any dispatch. */
  g_timeout_add_once (ms, (GSourceOnceFunc) gtk_window_destroy, window);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  const char *scenario = argc > 1 ? argv[1] : "";

  setvbuf (stdout, NULL, _IOLBF, 0);
  gtk_init ();
  printf ("start_ns=%" G_GINT64_FORMAT "\n", mono_ns ());
  if (strcmp (scenario, "sustained") == 0)
    sustained (argc > 2 ? atoi (argv[2]) : 20);
  else if (strcmp (scenario, "library-only") == 0)
    library_only (argc > 2 ? atoi (argv[2]) : 400, argc > 3 ? atoi (argv[3]) : 6000);
  else
    {
      fprintf (stderr, "usage: attribution-gtk4 sustained [SECONDS] | library-only [KIB] [MS]\n");
      return 2;
    }
  /* The loop, run here: main is below every dispatch. */
  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);
  printf ("done=1\n");
  return 0;
}
