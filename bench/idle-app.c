/* idle-app.c: an app that does nothing for a while, to count wake-ups.
 *
 *   idle-app glib|gtk4 SECONDS [TICK_MS]
 *
 * glib: a plain GMainLoop; gtk4: a GTK 4 window with a label, presented and
 * left alone. Either quits after SECONDS. TICK_MS (default 0: none) adds a
 * timeout that does nothing that often: an "idle" desktop app that still
 * wakes a few times a second (a clock, a cursor).
 *
 * It prints "ready" once its loop runs (for gtk4: once the window is
 * mapped), then, at the end, "RESULT" with its own main thread's voluntary
 * context switches; the driver (run-wakeups.py) reads every thread's from
 * /proc meanwhile.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GMainLoop *loop;
static gboolean done;

static gboolean
quit_cb (gpointer data)
{
  done = TRUE;
  if (loop != NULL)
    g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
ready_cb (gpointer data)
{
  printf ("ready\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static void
on_map (GtkWidget *widget, gpointer data)
{
  /* Once the first frames are out. */
  g_timeout_add (200, ready_cb, NULL);
}

int
main (int argc, char **argv)
{
  guint seconds, tick_ms;

  if (argc < 3 || (strcmp (argv[1], "glib") != 0 && strcmp (argv[1], "gtk4") != 0))
    {
      fprintf (stderr, "usage: idle-app glib|gtk4 SECONDS [TICK_MS]\n");
      return 2;
    }
  seconds = (guint) atoi (argv[2]);
  tick_ms = argc > 3 ? (guint) atoi (argv[3]) : 0;
  if (tick_ms > 0)
    g_timeout_add (tick_ms, tick_cb, NULL);
  g_timeout_add_seconds (seconds, quit_cb, NULL);
  if (strcmp (argv[1], "gtk4") == 0)
    {
      GtkWidget *window;

      gtk_init ();
      window = gtk_window_new ();
      gtk_window_set_title (GTK_WINDOW (window), "idle-app");
      gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("idle"));
      g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
      gtk_window_present (GTK_WINDOW (window));
      while (!done)
        g_main_context_iteration (NULL, TRUE);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  else
    {
      loop = g_main_loop_new (NULL, FALSE);
      g_idle_add (ready_cb, NULL);
      g_main_loop_run (loop);
      g_main_loop_unref (loop);
    }
  printf ("RESULT done=1\n");
  return 0;
}
