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

/* The table the readers find by name (dlsym) in the core. */
extern const JankscopeLiveApiV1 jankscope_live_api_v1;

/* At start-up: called (from the reader's thread) when a reader starts asking
 * for snapshots after none did for a while. */
void js_live_set_wake (void (*func) (gpointer), gpointer data);

/* Collector: does anyone want a snapshot now? */
gboolean js_live_wanted (gint64 now_ns);

/* Collector: how long until the next snapshot is due, in ns: -1 when nobody
 * wants one, 0 when it is due or overdue (a snapshot late because the
 * collector was busy is built at once, never waited for), else the rest of
 * JS_LIVE_PERIOD_MS since the last one. */
gint64 js_live_due_in_ns (gint64 now_ns);

/* Collector: publishes a snapshot (takes the reference). */
void js_live_publish (GBytes *snapshot, gint64 now_ns);

G_END_DECLS
