/* posting-gtk4.c - a GTK 4 app whose text view gets a large buffer from the
 * app's js_test_load_big_text (tests/check_posting.py)
 *
 *   posting-gtk4 [KIB] [LOADS]
 *
 * A window with a wrapping text view is shown; 500 ms later a timeout calls
 * js_test_load_big_text, which puts one line of KIB KiB (300) into the
 * buffer; GTK validates it in its own idle callbacks (first_validate_callback
 * and incremental validation), the slow parts. The load is repeated LOADS
 * times (2), 1.5 s apart; then the window is closed. Prints load=START_NS
 * for each load and done=1. Run under Xvfb with GSK_RENDERER=cairo.
 */
#include <gtk/gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

volatile guint64 js_test_sink;

static GtkWidget *window, *view;
static int kib = 300, loads = 2, loaded;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

JS_TEST_FUNC void
js_test_load_big_text (void)
{
  GString *text = g_string_new (NULL);

  while (text->len < (gsize) kib * 1024)
    g_string_append_printf (text, "lorem ipsum dolor sit amet %u, consectetur adipiscing elit ",
                            loaded + (guint) text->len);
  printf ("load=%" G_GINT64_FORMAT "\n", mono_ns ());
  fflush (stdout);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text->str, -1);
  g_string_free (text, TRUE);
  js_test_sink++;
}

static gboolean
load_timer (gpointer data)
{
  js_test_load_big_text ();
  if (++loaded < loads)
    return G_SOURCE_CONTINUE;
  g_timeout_add_once (1500, (GSourceOnceFunc) gtk_window_destroy, window);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  GtkWidget *scroller;

  if (argc > 1)
    kib = atoi (argv[1]);
  if (argc > 2)
    loads = atoi (argv[2]);
  gtk_init ();
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  scroller = gtk_scrolled_window_new ();
  view = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_present (GTK_WINDOW (window));
  g_timeout_add (1500, load_timer, NULL);
  while (g_list_model_get_n_items (gtk_window_get_toplevels ()) > 0)
    g_main_context_iteration (NULL, TRUE);
  printf ("done=1\n");
  return 0;
}
