/* gtk4-stall.c - a GTK4 application with one 200 ms stall
 *
 * Opens a window; 500 ms after the window is mapped a timeout named
 * "gtk4-stall" spins for 200 ms; the application quits 1 s later. Prints
 * the GTK version it runs with.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <unistd.h>

static GtkApplication *app;

static gboolean
quit_cb (gpointer data)
{
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

/* Not static: jankscope names it, the test checks the name. */
gboolean gtk4_stall_cb (gpointer data);

gboolean
gtk4_stall_cb (gpointer data)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 200 * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
  g_source_set_name_by_id (g_timeout_add (1000, quit_cb, NULL), "gtk4-quit");
  return G_SOURCE_REMOVE;
}

static void
window_mapped_cb (GtkWidget *window, gpointer data)
{
  printf ("mapped=1\n");
  g_source_set_name_by_id (g_timeout_add (500, gtk4_stall_cb, NULL), "gtk4-stall");
}

static void
activate_cb (GApplication *application, gpointer data)
{
  GtkWidget *window = gtk_application_window_new (GTK_APPLICATION (application));

  gtk_window_set_title (GTK_WINDOW (window), "jankscope gtk4-stall");
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("jankscope test"));
  g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: gtk4-stall did not end within 30 s\n");
  _exit (99);
  return NULL;
}

int
main (int argc, char **argv)
{
  int status;

  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  app = gtk_application_new ("org.jankscope.tests.Gtk4Stall", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), argc, argv);
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  g_object_unref (app);
  return status;
}
