/* jsui-live.h: the core's live snapshots (src/core/js-live.h) as a
 * JsuiSnapshotSource, for the window and the Inspector page.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Looks the core's live API up (once; main thread): global when the core
 * was loaded RTLD_GLOBAL, else in libjankscope-core.so next to this module
 * (already loaded: RTLD_NOLOAD). FALSE when there is none (a test, or a
 * core of another version). */
gboolean jsui_live_init (void);

/* A JsuiSnapshotSource (jsui-refresher.h): the newest snapshot, NULL when
 * none yet or without the core. Never blocks. */
GBytes *jsui_live_source (guint64 *generation, gpointer user_data);

G_END_DECLS
