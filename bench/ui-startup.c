/* ui-startup.c: a minimal GTK 4 app for run-ui-cost.py: one window; when
 * it is mapped and has drawn two frames, prints
 *   RESULT startup_us=N rss_kb=N hwm_kb=N
 * (startup: from BENCH_T0_NS, the driver's CLOCK_MONOTONIC just before
 * spawning it, to the second frame; rss/hwm: VmRSS, VmHWM then) and quits.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GtkApplication *app;
static gint64 t0_ns;

static long
status_kb (const char *key)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL)
      || (line = strstr (text, key)) == NULL)
    return -1;
  return strtol (line + strlen (key), NULL, 10);
}

static gboolean
tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  int *frames = data;

  if (++*frames < 2)
    return G_SOURCE_CONTINUE;
  printf ("RESULT startup_us=%" G_GINT64_FORMAT " rss_kb=%ld hwm_kb=%ld\n",
          (g_get_monotonic_time () * 1000 - t0_ns) / 1000, status_kb ("VmRSS:"),
          status_kb ("VmHWM:"));
  fflush (stdout);
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
activate_cb (GtkApplication *application, gpointer data)
{
  static int frames;
  GtkWidget *window = gtk_application_window_new (application);

  gtk_window_set_title (GTK_WINDOW (window), "ui-startup");
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("ui-startup"));
  gtk_widget_add_tick_callback (window, tick_cb, &frames, NULL);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  const char *t0 = g_getenv ("BENCH_T0_NS");
  int status;

  t0_ns = t0 != NULL ? g_ascii_strtoll (t0, NULL, 10) : g_get_monotonic_time () * 1000;
  app = gtk_application_new (NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  status = g_application_run (G_APPLICATION (app), argc, argv);
  g_object_unref (app);
  return status;
}
