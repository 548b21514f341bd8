/* live-app: reads jankscope's live snapshots from inside the monitored
 * process, as the inspector window does (src/core/js-live.h).
 *
 *   live-app OUT.json
 *
 * Stalls 120 ms every 300 ms for 2.7 s while asking for snapshots, then
 * writes the newest snapshot to OUT.json and prints how many generations it
 * saw ("generations=N") and whether the table was found ("api=0|1"). It
 * looks the table up from its loop's first dispatch: jankscope starts at the
 * first main-loop use after main (), as the inspector window, which the core
 * loads, never sees it otherwise.
 */
#include <dlfcn.h>
#include <glib.h>
#include <stdio.h>

typedef struct
{
  guint32 version;
  guint32 size;
  GBytes *(*get_snapshot) (guint64 *generation);
  void (*want) (void);
} LiveApi;

static const LiveApi *api;
static GMainLoop *loop;
static guint64 last_generation;
static guint generations;

static gboolean
stall (gpointer data)
{
  g_usleep (120000);
  return G_SOURCE_CONTINUE;
}

static gboolean
poll_snapshot (gpointer data)
{
  guint64 generation = 0;
  GBytes *b = api->get_snapshot (&generation);

  if (b != NULL && generation != last_generation)
    {
      last_generation = generation;
      generations++;
    }
  if (b != NULL)
    g_bytes_unref (b);
  return G_SOURCE_CONTINUE;
}

static gboolean
quit (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
start (gpointer data)
{
  const char *core = g_getenv ("JANKSCOPE_TEST_CORE");
  void *handle = core ? dlopen (core, RTLD_NOLOAD | RTLD_LAZY) : NULL;

  api = handle ? dlsym (handle, "jankscope_live_api_v1") : NULL;
  printf ("api=%d\n", api != NULL && api->version == 1);
  if (api == NULL)
    {
      g_main_loop_quit (loop);
      return G_SOURCE_REMOVE;
    }
  api->want ();
  g_timeout_add (300, stall, NULL);
  g_timeout_add (100, poll_snapshot, NULL);
  g_timeout_add (2700, quit, NULL);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  GBytes *b;

  if (argc < 2)
    return 2;
  loop = g_main_loop_new (NULL, FALSE);
  g_idle_add (start, NULL);
  g_main_loop_run (loop);
  if (api == NULL)
    return 0;
  b = api->get_snapshot (NULL);
  if (b != NULL)
    {
      gsize n;
      const char *data = g_bytes_get_data (b, &n);

      g_file_set_contents (argv[1], data, (gssize) n, NULL);
      g_bytes_unref (b);
    }
  printf ("generations=%u\n", generations);
  return 0;
}
