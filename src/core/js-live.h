/* js-live.h: live snapshots for the inspector window and the live viewer.
 *
 * A snapshot is the report document (docs/report-format.md) plus a `live`
 * member: every recent frame (for the frame timeline), the stall under way
 * and jankscope's own cost. The collector builds one at most every
 * JS_LIVE_PERIOD_MS, and only while a reader asked for one in the last
 * JS_LIVE_LINGER_MS: nobody watching, nothing built.
 *
 * Readers (the GTK4 UI module in this process, the live server thread) call
 * the exported `jankscope_live_api_v1` table: they get the newest snapshot
 * as a GBytes (a reference; never waiting for the collector, whose lock is
 * not taken) and parse it off their main thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_LIVE_PERIOD_MS 500
#define JS_LIVE_LINGER_MS 5000

typedef struct
{
  guint32 version; /* 1 */
  guint32 size;    /* sizeof this struct */
  /* Any thread: the newest snapshot (a new reference, NULL if none yet) and
   * its generation (bumped per snapshot). Also asks for the next ones. */
  GBytes *(*get_snapshot) (guint64 *generation);
  /* Any thread: keep snapshots coming without taking one. */
  void (*want) (void);
} JankscopeLiveApiV1;

/* Collector: does anyone want a snapshot now? */
/* At start-up: called (from the reader's thread) when a reader starts asking
 * for snapshots after none did for a while. */
void js_live_set_wake (void (*func) (gpointer), gpointer data);

gboolean js_live_wanted (gint64 now_ns);

/* Collector: publishes a snapshot (takes the reference). */
void js_live_publish (GBytes *snapshot, gint64 now_ns);

/* Collector: when the last one was published (0: never). */
gint64 js_live_last_publish_ns (void);

G_END_DECLS
