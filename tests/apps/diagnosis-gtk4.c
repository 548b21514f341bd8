/* diagnosis-gtk4.c - a GTK 4 program that builds a large UI from a
 * GtkBuilder description on its main thread, for tests/check_diagnosis.py
 * ("builder")
 *
 *   diagnosis-gtk4
 *
 * Shows a window; 1 s into the loop (after the start-up's own jank, another episode) a timeout
 * callback (js_test_build_ui) builds a description of 400 rows (a box with a label, an entry, a
 * check button and a button each) with gtk_builder_add_from_string, again and again for about 300
 * ms, prints "stall=START_NS,END_NS", quits the loop 200 ms later and exits 0. The description is
 * made before the loop: its time is no part of any event. Run under Xvfb with GSK_RENDERER=cairo.
 */
#include <gtk/gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define WORK_MS 300
#define START_MS 1000
#define QUIT_AFTER_MS 200
#define ROWS 400

#define JS_TEST_FUNC __attribute__ ((noinline, noclone))

static GMainLoop *loop;
static char *description;
/* Every UI built, kept until the loop has quit: destroying 2000 widgets is
 * work of its own, which is not building them. */
static GPtrArray *built;
volatile guint js_test_sink;

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static char *
make_description (void)
{
  GString *ui = g_string_new ("<interface><object class=\"GtkBox\" id=\"page\">"
                              "<property name=\"orientation\">vertical</property>");

  for (guint i = 0; i < ROWS; i++)
    g_string_append_printf (
        ui,
        "<child><object class=\"GtkBox\"><property name=\"spacing\">6</property>"
        "<child><object class=\"GtkLabel\"><property name=\"label\">Setting %u</property>"
        "<property name=\"xalign\">0</property></object></child>"
        "<child><object class=\"GtkEntry\"><property name=\"text\">value %u</property>"
        "<property name=\"hexpand\">1</property></object></child>"
        "<child><object class=\"GtkCheckButton\"><property name=\"label\">On</property>"
        "</object></child>"
        "<child><object class=\"GtkButton\"><property name=\"label\">Reset</property>"
        "</object></child></object></child>",
        i, i);
  g_string_append (ui, "</object></interface>");
  return g_string_free (ui, FALSE);
}

JS_TEST_FUNC void js_test_build_ui (gint64 until);
void
js_test_build_ui (gint64 until)
{
  while (mono_ns () < until)
    {
      GtkBuilder *builder = gtk_builder_new ();
      GError *error = NULL;

      if (!gtk_builder_add_from_string (builder, description, -1, &error))
        {
          fprintf (stderr, "FAIL gtk_builder_add_from_string: %s\n", error->message);
          exit (1);
        }
      js_test_sink += gtk_builder_get_object (builder, "page") != NULL;
      g_ptr_array_add (built, builder);
    }
}

static gboolean
quit (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
work (gpointer data)
{
  gint64 start = mono_ns ();

  js_test_build_ui (start + WORK_MS * NS_PER_MS);
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start, mono_ns ());
  fflush (stdout);
  g_timeout_add (QUIT_AFTER_MS, quit, NULL);
  return G_SOURCE_REMOVE;
}

int
main (void)
{
  GtkWidget *window;

  gtk_init ();
  description = make_description ();
  built = g_ptr_array_new_with_free_func (g_object_unref);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 200, 100);
  gtk_window_present (GTK_WINDOW (window));
  loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (START_MS, work, NULL);
  g_main_loop_run (loop);
  g_main_loop_unref (loop);
  g_ptr_array_unref (built);
  gtk_window_destroy (GTK_WINDOW (window));
  g_free (description);
  return 0;
}
