/* js-part-detector.h: dispatch and iteration records -> the loop's
 * statistics (js-loop-stats.h) and slow parts for the event store. Frame
 * records are js-frame-metrics.h's.
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-config.h"
#include "js-event-store.h"
#include "js-record.h"
#include "js-loop-stats.h"
#include "js-post-sites.h"

G_BEGIN_DECLS

#define JS_PART_DETECTOR_MAX_PENDING 64
#define JS_PART_DETECTOR_MAX_CONTRIBUTORS 16

typedef struct
{
  const JsConfig *config;
  JsLoopStats *stats;
  JsEventStore *store;
  /* Slow dispatch parts since the last iteration record: their time is
   * already explained, the iteration must not count it again. */
  JsPart pending[JS_PART_DETECTOR_MAX_PENDING];
  guint n_pending;
  /* Own time per source since the last iteration record, to name the main
   * contributor of a slow iteration. */
  struct
  {
    guint32 name_id;
    const void *code;
    gint64 own_ns;
  } contributors[JS_PART_DETECTOR_MAX_CONTRIBUTORS];
  guint n_contributors;
  JsPostSites *posts; /* where slow dispatches were posted from, or NULL */
  /* The last name looked up with js_names_is_own, and the answer (which
   * never changes for a name: js-names.h). */
  guint32 own_checked_id; /* G_MAXUINT32: none yet */
  gboolean own_checked;
} JsPartDetector;

void js_part_detector_init (JsPartDetector *d, const JsConfig *config, JsLoopStats *stats,
                            JsEventStore *store);

/* Records must come in the order the main thread pushed them. */
void js_part_detector_feed (JsPartDetector *d, const JsRecord *r);
/* The same for a record known to be a dispatch, or an iteration. */
void js_part_detector_feed_dispatch (JsPartDetector *d, const JsRecord *r);
void js_part_detector_feed_iteration (JsPartDetector *d, const JsRecord *r);

G_END_DECLS
