/* js-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-live.h"
#include "js-clock.h"

static GMutex lock; /* guards `latest` only: held for a pointer swap */
static GBytes *latest;
static guint64 generation;
static gint64 wanted_at_ns; /* atomic */
static gint64 published_ns; /* collector only */

static void
want (void)
{
  __atomic_store_n (&wanted_at_ns, js_now_ns (), __ATOMIC_RELAXED);
}

static GBytes *
get_snapshot (guint64 *gen)
{
  GBytes *b;

  want ();
  g_mutex_lock (&lock);
  b = latest != NULL ? g_bytes_ref (latest) : NULL;
  if (gen != NULL)
    *gen = generation;
  g_mutex_unlock (&lock);
  return b;
}

__attribute__ ((visibility ("default"))) const JankscopeLiveApiV1 jankscope_live_api_v1 = {
  .version = 1,
  .size = sizeof (JankscopeLiveApiV1),
  .get_snapshot = get_snapshot,
  .want = want,
};

gboolean
js_live_wanted (gint64 now_ns)
{
  gint64 at = __atomic_load_n (&wanted_at_ns, __ATOMIC_RELAXED);

  return at != 0 && now_ns - at < JS_LIVE_LINGER_MS * JS_NS_PER_MS;
}

void
js_live_publish (GBytes *snapshot, gint64 now_ns)
{
  GBytes *old;

  g_mutex_lock (&lock);
  old = latest;
  latest = snapshot;
  generation++;
  g_mutex_unlock (&lock);
  published_ns = now_ns;
  if (old != NULL)
    g_bytes_unref (old); /* outside the lock: it may be the last reference */
}

gint64
js_live_last_publish_ns (void)
{
  return published_ns;
}
