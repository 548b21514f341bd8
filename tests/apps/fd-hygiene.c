/* fd-hygiene.c - an app that closes every inherited fd at the top of main
 *
 *   fd-hygiene DATA_FILE
 *
 * What a daemon does first thing: close fds 3..1023. It then opens its own
 * data file (fd 3 again) and a pipe, writes known bytes to both, and runs a
 * main loop for about 300 ms: timeouts, idles added from a worker thread and
 * explicit wake-ups, so GLib writes to and reads from its wake-up fd many
 * times. Had anything created GLib's default context before main, its
 * wake-up eventfd would have been fd 3: GLib would write its 8-byte counters
 * into the data file, and read the app's pipe.
 *
 * It prints, as seen at the top of main:
 *   fds_at_main=0,1,2        the open fds (the directory's own left out)
 *   threads_at_main=1        the entries of /proc/self/task
 *   core_mapped_at_main=0|1  whether libjankscope-core.so was mapped
 * and at the end:
 *   data_fd=3
 *   data=OK | data=<hex of what the file holds>
 *   pipe=OK | pipe=<what happened>
 */
#include <glib.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char data_bytes[] = "jankscope fd-hygiene data 0123456789";
static const char pipe_byte = 'p';

static GMainLoop *loop;
static guint ticks;

static gint
compare_ints (gconstpointer a, gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

static void
print_fds (void)
{
  DIR *dir = opendir ("/proc/self/fd");
  GArray *fds = g_array_new (FALSE, FALSE, sizeof (int));
  GString *line = g_string_new ("fds_at_main=");
  struct dirent *e;

  if (dir == NULL)
    {
      fprintf (stderr, "FAIL: /proc/self/fd: %s\n", g_strerror (errno));
      exit (2);
    }
  while ((e = readdir (dir)) != NULL)
    if (e->d_name[0] != '.' && atoi (e->d_name) != dirfd (dir))
      {
        int fd = atoi (e->d_name);

        g_array_append_val (fds, fd);
      }
  closedir (dir);
  g_array_sort (fds, compare_ints);
  for (guint i = 0; i < fds->len; i++)
    g_string_append_printf (line, "%s%d", i ? "," : "", g_array_index (fds, int, i));
  printf ("%s\n", line->str);
  g_string_free (line, TRUE);
  g_array_free (fds, TRUE);
}

static void
print_threads (void)
{
  DIR *dir = opendir ("/proc/self/task");
  struct dirent *e;
  int n = 0;

  if (dir == NULL)
    {
      fprintf (stderr, "FAIL: /proc/self/task: %s\n", g_strerror (errno));
      exit (2);
    }
  while ((e = readdir (dir)) != NULL)
    if (e->d_name[0] != '.')
      n++;
  closedir (dir);
  printf ("threads_at_main=%d\n", n);
}

static void
print_core_mapped (void)
{
  char *maps = NULL;

  if (!g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    {
      fprintf (stderr, "FAIL: cannot read /proc/self/maps\n");
      exit (2);
    }
  printf ("core_mapped_at_main=%d\n", strstr (maps, "libjankscope-core") != NULL);
  g_free (maps);
}

static gboolean
tick_cb (gpointer data)
{
  ticks++;
  g_main_context_wakeup (NULL);
  return G_SOURCE_CONTINUE;
}

static gboolean
idle_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

static gpointer
worker (gpointer data)
{
  /* Sources attached from another thread wake the loop up. */
  for (int i = 0; i < 50; i++)
    {
      g_idle_add (idle_cb, NULL);
      g_usleep (4000);
    }
  return NULL;
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
check_data (int fd, const char *path)
{
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    printf ("data=unreadable\n");
  else if (length == sizeof data_bytes && memcmp (contents, data_bytes, length) == 0)
    printf ("data=OK\n");
  else
    {
      GString *hex = g_string_new (NULL);

      for (gsize i = 0; i < length && i < 128; i++)
        g_string_append_printf (hex, "%02x", (unsigned char) contents[i]);
      printf ("data=%zu bytes: %s\n", (size_t) length, hex->str);
      g_string_free (hex, TRUE);
    }
  g_free (contents);
  close (fd);
}

static void
check_pipe (int fd)
{
  struct pollfd pfd = { .fd = fd, .events = POLLIN };
  char c = 0;

  /* Never block: if someone else read the byte, say so. */
  if (poll (&pfd, 1, 0) != 1)
    printf ("pipe=empty (its byte was read by someone else)\n");
  else if (read (fd, &c, 1) != 1 || c != pipe_byte)
    printf ("pipe=wrong byte %d\n", c);
  else
    printf ("pipe=OK\n");
}

static void
full_write (int fd, const void *buf, size_t len)
{
  if (write (fd, buf, len) != (ssize_t) len)
    {
      fprintf (stderr, "FAIL: write: %s\n", g_strerror (errno));
      exit (2);
    }
}

int
main (int argc, char **argv)
{
  int data_fd, pipe_fds[2];
  GThread *thread;

  /* Before anything else, as seen by the app's first line. */
  print_fds ();
  print_threads ();
  print_core_mapped ();
  if (argc != 2)
    {
      fprintf (stderr, "usage: fd-hygiene DATA_FILE\n");
      return 2;
    }
  for (int fd = 3; fd < 1024; fd++)
    close (fd);
  /* GLib reading a pipe that is not its own may block forever: end then. */
  alarm (20);

  data_fd = open (argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (data_fd < 0 || pipe (pipe_fds) != 0)
    {
      fprintf (stderr, "FAIL: open/pipe: %s\n", g_strerror (errno));
      return 2;
    }
  printf ("data_fd=%d\n", data_fd);
  full_write (data_fd, data_bytes, sizeof data_bytes);
  full_write (pipe_fds[1], &pipe_byte, 1);

  loop = g_main_loop_new (NULL, FALSE);
  g_timeout_add (5, tick_cb, NULL);
  g_timeout_add (300, quit_cb, NULL);
  thread = g_thread_new ("worker", worker, NULL);
  g_main_loop_run (loop);
  g_thread_join (thread);
  printf ("ticks_ok=%d\n", ticks >= 5);

  check_data (data_fd, argv[1]);
  check_pipe (pipe_fds[0]);
  g_main_loop_unref (loop);
  return 0;
}
