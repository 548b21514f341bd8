/* jsui-refresher.h: brings snapshots to a panel, at most every
 * JSUI_REFRESH_MS: takes the newest one from a source (the core's live API,
 * or a test's), parses it in a GTask worker thread, and hands it to the
 * panel on the main thread. Nothing is parsed when nothing changed, and
 * never two at once.
 *
 * It follows its panel: nothing is asked for while the panel is paused;
 * with a baseline (Clear) the frames before it are dropped in the worker,
 * and a new baseline re-parses the last document at once. The panel also
 * gets the document itself (jsui_panel_set_document: Save, Export). The
 * main-thread time of ticks and of applying snapshots is counted in
 * jsui-ui-cost.h.
 *
 * Its source and the parse's completion run at G_PRIORITY_DEFAULT, bounded
 * by time (jsui-refresher.c schedule ()): at a lower priority they would
 * never run in an app that always has a frame to draw.
 *
 * Main thread only (the source is called there; it must not block).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jsui-panel.h"

G_BEGIN_DECLS

#define JSUI_REFRESH_MS 500
/* While waiting for a snapshot newer than the last one: the source is
 * looked at this often (a mutex and a reference each time). */
#define JSUI_REFRESH_RETRY_MS 50
/* The name of the refresh timer source: jankscope's own, to leave out. */
#define JSUI_REFRESH_SOURCE_NAME "[jankscope-ui] refresh"

/* The newest snapshot (a new reference, NULL: none yet) and its generation. */
typedef GBytes *(*JsuiSnapshotSource) (guint64 *generation, gpointer user_data);

typedef struct _JsuiRefresher JsuiRefresher;

/* Starts refreshing `panel` (a weak reference: it stops when the panel
 * goes). interval_ms: JSUI_REFRESH_MS, smaller in tests. */
JsuiRefresher *jsui_refresher_new (JsuiPanel *panel, JsuiSnapshotSource source, gpointer user_data,
                                   guint interval_ms);
void jsui_refresher_free (JsuiRefresher *self);
/* Snapshots parsed and shown so far; parse failures. */
guint jsui_refresher_get_n_shown (JsuiRefresher *self);
guint jsui_refresher_get_n_failed (JsuiRefresher *self);

G_END_DECLS
