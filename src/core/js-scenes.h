/* js-scenes.h: the app's annotations (include/jankscope.h): scenes and marks.
 *
 * The app calls jankscope_scene_push () & co. through the table
 * `jankscope_api_v1`. The core is loaded RTLD_LOCAL (its symbols must never
 * interpose on the app's), so dlsym (RTLD_DEFAULT) cannot see into it: the
 * table lives in libjankscope-api.so (js-api-export.c, libc only, nothing
 * else in it), which js_scenes_publish_api () loads, fills, and only then
 * makes global. Under LD_PRELOAD the preload defines the table itself (the
 * app may look it up before the core starts, src/preload/preload-api.c):
 * the core stores its functions there instead.
 *
 * Scenes and marks are per main thread (the watched one): there each call
 * interns its label (js-labels.h) and writes one ring record; the collector
 * rebuilds the timeline (js-context.c). Calls from other threads are ignored
 * and counted. No lock, no allocation after a label is interned.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-labels.h"
#include "js-ring.h"

G_BEGIN_DECLS

#define JS_SCENES_MAX_DEPTH 32
#define JS_SCENES_LABELS 256     /* distinct scene labels, and mark names */
#define JS_SCENES_LABEL_BYTES 64 /* 63 bytes kept */

typedef struct
{
  guint64 scenes_pushed;
  guint64 marks_begun;
  guint64 other_thread;    /* calls ignored: not on the main thread */
  guint64 unbalanced;      /* pops and ends with nothing open */
  guint64 too_deep;        /* pushes and begins past JS_SCENES_MAX_DEPTH */
  guint64 labels_overflow; /* labels reported as "(other)" */
} JsScenesCounters;

/* Start-up, on the main thread: calls on this thread are recorded. */
void js_scenes_start (JsRing *ring);

/* Makes the API table findable by the app (dlsym (RTLD_DEFAULT)): fills
 * `loader_table` (the preload's JankscopeApiV1) when not NULL, else
 * libjankscope-api.so's. FALSE, after a debug line, when libjankscope-api.so
 * cannot be loaded. */
gboolean js_scenes_publish_api (void *loader_table);

/* Any thread: whether js_scenes_publish_api () succeeded. */
gboolean js_scenes_api_published (void);

/* Exit, fork child: calls become no-ops (not counted). */
void js_scenes_disable (void);

/* Any thread. */
const JsLabels *js_scenes_labels (void);
const JsLabels *js_marks_labels (void);
void js_scenes_counters (JsScenesCounters *out);

G_END_DECLS
