/* view-gtk3: a GTK3 program (gtk_main) driven from its stdin, for the
 * viewer's check under Xvfb (tests/view/check_view.py viewer-gtk3).
 *
 * A window with a spinning GtkSpinner (frames all the time). Commands:
 *   stall MS   a timeout named "view-gtk3 stall" computes MS ms in
 *              view_gtk3_stall ()
 *   hang MS    the same in view_gtk3_hang ()
 *   quit
 * Prints "mapped=1" when the window is mapped, "done=CMD" after each stall.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <string.h>

static volatile guint64 sink;

void view_gtk3_stall (guint ms);
void view_gtk3_hang (guint ms);

/* In each function itself (no shared helper), with different constants so
 * that the compiler does not fold the two into one: each is its own culprit. */
#define SPIN(ms, k)                                                                                \
  G_STMT_START                                                                                     \
  {                                                                                                \
    gint64 end = g_get_monotonic_time () + (ms) *G_GINT64_CONSTANT (1000);                         \
    while (g_get_monotonic_time () < end)                                                          \
      for (guint i = 0; i < 1000; i++)                                                             \
        sink = sink * (k) + i;                                                                     \
  }                                                                                                \
  G_STMT_END

void
view_gtk3_stall (guint ms)
{
  SPIN (ms, 6364136223846793005ULL);
}

void
view_gtk3_hang (guint ms)
{
  SPIN (ms, 2862933555777941757ULL);
}

static gboolean
stall_cb (gpointer data)
{
  view_gtk3_stall (GPOINTER_TO_UINT (data));
  printf ("done=stall\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static gboolean
hang_cb (gpointer data)
{
  view_gtk3_hang (GPOINTER_TO_UINT (data));
  printf ("done=hang\n");
  fflush (stdout);
  return G_SOURCE_REMOVE;
}

static gboolean
stdin_cb (GIOChannel *channel, GIOCondition condition, gpointer data)
{
  g_autofree char *line = NULL;
  guint ms = 0;

  if (g_io_channel_read_line (channel, &line, NULL, NULL, NULL) != G_IO_STATUS_NORMAL)
    {
      gtk_main_quit ();
      return G_SOURCE_REMOVE;
    }
  g_strstrip (line);
  if (sscanf (line, "stall %u", &ms) == 1)
    g_source_set_name_by_id (g_timeout_add (10, stall_cb, GUINT_TO_POINTER (ms)),
                             "view-gtk3 stall");
  else if (sscanf (line, "hang %u", &ms) == 1)
    g_source_set_name_by_id (g_timeout_add (10, hang_cb, GUINT_TO_POINTER (ms)), "view-gtk3 hang");
  else if (strcmp (line, "quit") == 0)
    gtk_main_quit ();
  return G_SOURCE_CONTINUE;
}

static void
mapped_cb (GtkWidget *window, gpointer data)
{
  printf ("mapped=1\n");
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  GtkWidget *window, *box, *spinner;
  GIOChannel *in;

  gtk_init (&argc, &argv);
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title (GTK_WINDOW (window), "view-gtk3");
  gtk_window_set_default_size (GTK_WINDOW (window), 300, 200);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  spinner = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_box_pack_start (GTK_BOX (box), gtk_label_new ("A GTK3 app under jankscope"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), spinner, TRUE, TRUE, 0);
  gtk_container_add (GTK_CONTAINER (window), box);
  g_signal_connect (window, "map", G_CALLBACK (mapped_cb), NULL);
  g_signal_connect (window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  in = g_io_channel_unix_new (0);
  g_io_add_watch (in, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_cb, NULL);
  gtk_widget_show_all (window);
  gtk_main ();
  g_io_channel_unref (in);
  return 0;
}
