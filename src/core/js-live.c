/* js-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-live.h"
#include "js-clock.h"

static GMutex lock; /* guards `latest` only: held for a pointer swap */
static GBytes *latest;
static guint64 generation;
static gint64 wanted_at_ns;     /* atomic */
static gint64 published_ns;     /* collector only */
static void (*wake) (gpointer); /* set before any reader can ask */
static gpointer wake_data;

static void
want (void)
{
  gint64 now = js_now_ns ();
  gint64 before = __atomic_exchange_n (&wanted_at_ns, now, __ATOMIC_RELAXED);

  /* A reader that starts asking: the collector may be parked (an idle app),
   * wake it for the first snapshot; after that it keeps the period itself. */
  if ((before == 0 || now - before >= JS_LIVE_LINGER_MS * JS_NS_PER_MS) && wake != NULL)
    wake (wake_data);
}

void
js_live_set_wake (void (*func) (gpointer), gpointer data)
{
  wake_data = data;
  wake = func;
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

gint64
js_live_due_in_ns (gint64 now_ns)
{
  if (!js_live_wanted (now_ns))
    return -1;
  if (published_ns == 0)
    return 0;
  return MAX (published_ns + JS_LIVE_PERIOD_MS * JS_NS_PER_MS - now_ns, 0);
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
