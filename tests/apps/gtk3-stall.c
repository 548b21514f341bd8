/* gtk3-stall.c - a GTK3 program (gtk_main) with one 200 ms stall
 *
 *   gtk3-stall [gdk-threads]
 *
 * Opens a window; 500 ms after the window is mapped a timeout named
 * "gtk3-stall" spins for 200 ms; the program quits 1 s later. Prints the
 * GTK version it runs with.
 *
 * gdk-threads: the stalls come from GDK's gdk_threads_add_* sources, whose
 * callback GLib sees is GDK's own wrapper: 500 ms after the window is
 * mapped, a gdk_threads_add_timeout () callback (gtk3_threads_timeout_cb)
 * spins for 200 ms and adds a gdk_threads_add_idle () callback
 * (gtk3_threads_idle_cb) that spins for 200 ms 600 ms later; the program
 * quits 1 s after that. One stall= line each.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static gboolean
quit_cb (gpointer data)
{
  gtk_main_quit ();
  return G_SOURCE_REMOVE;
}

/* Not static: jankscope names it, the test checks the name. */
gboolean gtk3_stall_cb (gpointer data);

gboolean
gtk3_stall_cb (gpointer data)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 200 * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
  g_source_set_name_by_id (g_timeout_add (1000, quit_cb, NULL), "gtk3-quit");
  return G_SOURCE_REMOVE;
}

static gboolean gdk_threads_mode;

static void
spin_200ms (void)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 200 * 1000;
  gint64 now;

  while ((now = g_get_monotonic_time ()) < end)
    ;
  printf ("stall=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", start * 1000, now * 1000);
}

/* Not static: jankscope names them from the dynamic symbol table, and the
 * test checks the names. */
gboolean gtk3_threads_idle_cb (gpointer data);
gboolean gtk3_threads_timeout_cb (gpointer data);

gboolean
gtk3_threads_idle_cb (gpointer data)
{
  spin_200ms ();
  g_source_set_name_by_id (g_timeout_add (1000, quit_cb, NULL), "gtk3-quit");
  return G_SOURCE_REMOVE;
}

static gboolean
add_threads_idle (gpointer data)
{
  g_source_set_name_by_id (gdk_threads_add_idle (gtk3_threads_idle_cb, NULL), "gtk3-threads-idle");
  return G_SOURCE_REMOVE;
}

gboolean
gtk3_threads_timeout_cb (gpointer data)
{
  spin_200ms ();
  g_timeout_add (600, add_threads_idle, NULL);
  return G_SOURCE_REMOVE;
}

static void
window_mapped_cb (GtkWidget *window, gpointer data)
{
  printf ("mapped=1\n");
  if (gdk_threads_mode)
    g_source_set_name_by_id (gdk_threads_add_timeout (500, gtk3_threads_timeout_cb, NULL),
                             "gtk3-threads-timeout");
  else
    g_source_set_name_by_id (g_timeout_add (500, gtk3_stall_cb, NULL), "gtk3-stall");
}

static gpointer
watchdog_thread (gpointer data)
{
  g_usleep (30 * G_USEC_PER_SEC);
  fprintf (stderr, "FAIL: gtk3-stall did not end within 30 s\n");
  _exit (99);
  return NULL;
}

int
main (int argc, char **argv)
{
  GtkWidget *window;

  g_thread_unref (g_thread_new ("watchdog", watchdog_thread, NULL));
  gtk_init (&argc, &argv);
  gdk_threads_mode = argc > 1 && strcmp (argv[1], "gdk-threads") == 0;
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title (GTK_WINDOW (window), "jankscope gtk3-stall");
  gtk_container_add (GTK_CONTAINER (window), gtk_label_new ("jankscope test"));
  g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), NULL);
  g_signal_connect (window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  gtk_widget_show_all (window);
  gtk_main ();
  printf ("gtk_version=%u.%u.%u\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version ());
  return 0;
}
