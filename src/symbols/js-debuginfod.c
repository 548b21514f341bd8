/* js-debuginfod.c
 *
 * The state lives in a reference-counted block shared with the thread: the
 * symbolizer may be freed while a download is under way, and the app's
 * exit never waits for one.
 *
 * libdebuginfod is not linked (it brings libcurl and a TLS library into the
 * app): it is dlopen ()ed on the fetch thread, like libdw does for its own
 * debuginfod support. Its client calls the progress function once per turn
 * of its transfer loop, which waits at most a second for network activity:
 * that is how often a give-up is noticed. A download given up is left to
 * the client to clean up (it then remembers the build-id as a miss for its
 * cache_miss_s, 10 minutes by default).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-debuginfod.h"
#include "js-clock.h"
#include "js-log.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<elfutils/debuginfod.h>)
#include <elfutils/debuginfod.h>
#define HAVE_DEBUGINFOD_H 1
#endif
#endif

#ifndef HAVE_DEBUGINFOD_H
/* The client's API (elfutils' debuginfod.h, stable since 0.178). */
typedef struct debuginfod_client debuginfod_client;
typedef int (*debuginfod_progressfn_t) (debuginfod_client *c, long a, long b);
#endif

#define LIBDEBUGINFOD "libdebuginfod.so.1"

typedef struct
{
  JsDebuginfodState state;
  char *path;
} Entry;

typedef struct
{
  debuginfod_client *(*begin) (void);
  void (*end) (debuginfod_client *);
  int (*find_debuginfo) (debuginfod_client *, const unsigned char *, int, char **);
  void (*set_progressfn) (debuginfod_client *, debuginfod_progressfn_t);
  void (*set_verbose_fd) (debuginfod_client *, int);
  const char *(*get_url) (debuginfod_client *);
} Client;

struct _JsDebuginfod
{
  gint ref; /* the owner's and the thread's */
  GMutex lock;
  GCond wake;
  GHashTable *entries; /* hex build-id -> Entry */
  GQueue queue;        /* hex build-ids, owned by `entries` */
  gboolean thread_started;
  gboolean unavailable; /* no thread, no libdebuginfod or no servers: all missing */
  guint give_ups_in_a_row;
  JsDebuginfodStats stats;
  int stop;        /* atomic */
  guint completed; /* atomic */
};

/* One download, for the progress function. */
typedef struct
{
  JsDebuginfod *d;
  const Client *client;
  gint64 start_ns;
  gboolean given_up;
} Fetch;

static void
entry_free (gpointer p)
{
  Entry *e = p;

  g_free (e->path);
  g_free (e);
}

JsDebuginfod *
js_debuginfod_new (void)
{
  JsDebuginfod *d = g_new0 (JsDebuginfod, 1);

  d->ref = 1;
  g_mutex_init (&d->lock);
  g_cond_init (&d->wake);
  d->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  g_queue_init (&d->queue);
  return d;
}

static void
unref (JsDebuginfod *d)
{
  if (!g_atomic_int_dec_and_test (&d->ref))
    return;
  g_queue_clear (&d->queue);
  g_hash_table_unref (d->entries);
  g_cond_clear (&d->wake);
  g_mutex_clear (&d->lock);
  g_free (d);
}

void
js_debuginfod_stop (JsDebuginfod *d)
{
  if (d == NULL)
    return;
  __atomic_store_n (&d->stop, 1, __ATOMIC_RELEASE);
}

void
js_debuginfod_free (JsDebuginfod *d)
{
  if (d == NULL)
    return;
  js_debuginfod_stop (d);
  g_mutex_lock (&d->lock);
  g_cond_signal (&d->wake);
  g_mutex_unlock (&d->lock);
  unref (d);
}

static gboolean
stopping (JsDebuginfod *d)
{
  return __atomic_load_n (&d->stop, __ATOMIC_ACQUIRE) != 0;
}

/* The download under way on this fetch thread (the progress function has
 * no argument of ours). */
static __thread Fetch *current_fetch;

static int
progress_fn (debuginfod_client *c, long a, long b)
{
  Fetch *f = current_fetch;
  gint64 elapsed;
  gboolean answered;

  if (f == NULL)
    return 0;
  if (stopping (f->d))
    return 1;
  elapsed = js_now_ns () - f->start_ns;
  /* The client knows a URL once a server has started sending the file. */
  answered = f->client->get_url != NULL && f->client->get_url (c) != NULL;
  if (elapsed > (gint64) JS_DEBUGINFOD_MAX_S * 1000 * JS_NS_PER_MS
      || (!answered && elapsed > (gint64) JS_DEBUGINFOD_ANSWER_S * 1000 * JS_NS_PER_MS))
    {
      f->given_up = TRUE;
      return 1;
    }
  return 0;
}

static gboolean
load_client (Client *client)
{
  void *lib = dlopen (LIBDEBUGINFOD, RTLD_NOW | RTLD_LOCAL);

  if (lib == NULL)
    return FALSE;
  client->begin = (debuginfod_client * (*) (void) ) dlsym (lib, "debuginfod_begin");
  client->end = (void (*) (debuginfod_client *)) dlsym (lib, "debuginfod_end");
  client->find_debuginfo = (int (*) (debuginfod_client *, const unsigned char *, int,
                                     char **)) dlsym (lib, "debuginfod_find_debuginfo");
  client->set_progressfn = (void (*) (debuginfod_client *, debuginfod_progressfn_t)) dlsym (
      lib, "debuginfod_set_progressfn");
  client->set_verbose_fd
      = (void (*) (debuginfod_client *, int)) dlsym (lib, "debuginfod_set_verbose_fd");
  client->get_url = (const char *(*) (debuginfod_client *) ) dlsym (lib, "debuginfod_get_url");
  /* Never dlclose ()d: the client may keep state (curl) for the process. */
  return client->begin != NULL && client->end != NULL && client->find_debuginfo != NULL
         && client->set_progressfn != NULL;
}

static gboolean
hex_to_bytes (const char *hex, guint8 *bytes, int *len)
{
  gsize n = strlen (hex);

  for (gsize i = 0; i + 1 < n; i += 2)
    bytes[i / 2]
        = (guint8) (g_ascii_xdigit_value (hex[i]) << 4 | g_ascii_xdigit_value (hex[i + 1]));
  *len = (int) (n / 2);
  return n > 0 && n % 2 == 0;
}

/* Gives every queued request `state` (under the lock). */
static void
fail_queue (JsDebuginfod *d)
{
  char *hex;

  while ((hex = g_queue_pop_head (&d->queue)) != NULL)
    {
      Entry *e = g_hash_table_lookup (d->entries, hex);

      e->state = JS_DEBUGINFOD_MISSING;
      d->stats.pending--;
      d->stats.given_up++;
      __atomic_add_fetch (&d->completed, 1, __ATOMIC_RELEASE);
    }
}

static gpointer
fetch_thread (gpointer data)
{
  JsDebuginfod *d = data;
  Client client = { 0 };
  debuginfod_client *c = NULL;
  gboolean loaded = load_client (&client);

  if (!loaded)
    js_log_warning ("JANKSCOPE_DEBUGINFOD=1 but %s could not be loaded: no debug information "
                    "from debuginfod servers",
                    LIBDEBUGINFOD);
  else if ((c = client.begin ()) != NULL)
    {
      /* Quiet in the app's stderr (DEBUGINFOD_VERBOSE, DEBUGINFOD_PROGRESS). */
      if (client.set_verbose_fd != NULL)
        client.set_verbose_fd (c, -1);
      client.set_progressfn (c, progress_fn);
    }

  g_mutex_lock (&d->lock);
  for (;;)
    {
      char *hex;
      Entry *e;
      Fetch fetch = { d, &client, 0, FALSE };
      guint8 bits[64];
      int len = 0, fd;
      char *path = NULL;

      while (g_queue_is_empty (&d->queue) && !stopping (d))
        g_cond_wait (&d->wake, &d->lock);
      if (stopping (d) || c == NULL)
        {
          d->unavailable = TRUE;
          fail_queue (d);
          break;
        }
      hex = g_queue_pop_head (&d->queue);
      g_mutex_unlock (&d->lock);

      fd = -1;
      if (hex_to_bytes (hex, bits, &len) && len <= (int) sizeof bits)
        {
          fetch.start_ns = js_now_ns ();
          current_fetch = &fetch;
          fd = client.find_debuginfo (c, bits, len, &path);
          current_fetch = NULL;
        }
      if (fd >= 0)
        close (fd);

      g_mutex_lock (&d->lock);
      e = g_hash_table_lookup (d->entries, hex);
      d->stats.pending--;
      if (fd >= 0 && path != NULL)
        {
          e->state = JS_DEBUGINFOD_FOUND;
          e->path = g_strdup (path);
          d->stats.found++;
          d->give_ups_in_a_row = 0;
        }
      else if (fetch.given_up || stopping (d))
        {
          e->state = JS_DEBUGINFOD_MISSING;
          d->stats.given_up++;
          if (fetch.given_up && ++d->give_ups_in_a_row >= JS_DEBUGINFOD_MAX_GIVE_UPS)
            {
              js_log_warning ("the debuginfod servers (DEBUGINFOD_URLS) did not answer within "
                              "%d s %d times in a row: not asked again",
                              JS_DEBUGINFOD_ANSWER_S, JS_DEBUGINFOD_MAX_GIVE_UPS);
              d->unavailable = TRUE;
              fail_queue (d);
            }
        }
      else
        {
          e->state = JS_DEBUGINFOD_MISSING;
          d->stats.missing++;
          d->give_ups_in_a_row = 0;
        }
      free (path);
      __atomic_add_fetch (&d->completed, 1, __ATOMIC_RELEASE);
      if (d->unavailable)
        break;
    }
  g_mutex_unlock (&d->lock);
  /* The client is ended only here, never while the app exits under it. */
  if (c != NULL)
    client.end (c);
  unref (d);
  return NULL;
}

/* Under the lock: the thread, once. FALSE if it can't be had. */
static gboolean
ensure_thread (JsDebuginfod *d)
{
  GThread *thread;

  if (d->thread_started)
    return !d->unavailable;
  d->thread_started = TRUE;
  g_atomic_int_inc (&d->ref);
  thread = g_thread_try_new ("jankscope-fetch", fetch_thread, d, NULL);
  if (thread == NULL)
    {
      g_atomic_int_add (&d->ref, -1);
      d->unavailable = TRUE;
      return FALSE;
    }
  g_thread_unref (thread);
  return TRUE;
}

JsDebuginfodState
js_debuginfod_lookup (JsDebuginfod *d, const guint8 *build_id, gsize build_id_len, gboolean queue,
                      char **path)
{
  g_autofree char *hex = NULL;
  Entry *e;
  JsDebuginfodState state;

  if (d == NULL || build_id == NULL || build_id_len == 0 || build_id_len > 64)
    return JS_DEBUGINFOD_MISSING;
  hex = g_malloc (build_id_len * 2 + 1);
  for (gsize i = 0; i < build_id_len; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", build_id[i]);

  g_mutex_lock (&d->lock);
  e = g_hash_table_lookup (d->entries, hex);
  if (e == NULL && queue)
    {
      if (stopping (d) || g_hash_table_size (d->entries) >= JS_DEBUGINFOD_MAX_FILES
          || !ensure_thread (d))
        {
          g_mutex_unlock (&d->lock);
          return JS_DEBUGINFOD_MISSING;
        }
      e = g_new0 (Entry, 1);
      e->state = JS_DEBUGINFOD_PENDING;
      g_queue_push_tail (&d->queue, hex);
      g_hash_table_insert (d->entries, g_steal_pointer (&hex), e);
      d->stats.requested++;
      d->stats.pending++;
      g_cond_signal (&d->wake);
    }
  state = e != NULL ? e->state : JS_DEBUGINFOD_MISSING;
  if (state == JS_DEBUGINFOD_FOUND && path != NULL)
    *path = g_strdup (e->path);
  g_mutex_unlock (&d->lock);
  return state;
}

guint
js_debuginfod_completed (JsDebuginfod *d)
{
  return d == NULL ? 0 : __atomic_load_n (&d->completed, __ATOMIC_ACQUIRE);
}

void
js_debuginfod_get_stats (JsDebuginfod *d, JsDebuginfodStats *stats)
{
  if (d == NULL)
    {
      memset (stats, 0, sizeof *stats);
      return;
    }
  g_mutex_lock (&d->lock);
  *stats = d->stats;
  g_mutex_unlock (&d->lock);
}
