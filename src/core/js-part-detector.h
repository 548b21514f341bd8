/* js-part-detector.h: turns hook records into statistics and slow parts.
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

G_BEGIN_DECLS

#define JS_DETECTOR_MAX_PENDING 64
#define JS_DETECTOR_MAX_CONTRIBUTORS 16

typedef struct
{
  const JsConfig *config;
  JsStats *stats;
  JsEventStore *store;
  /* Slow dispatch parts since the last iteration record: their time is
   * already explained, the iteration must not count it again. */
  JsPart pending[JS_DETECTOR_MAX_PENDING];
  guint n_pending;
  /* Own time per source since the last iteration record, to name the main
   * contributor of a slow iteration. */
  struct
  {
    guint32 name_id;
    const void *code;
    gint64 own_ns;
  } contributors[JS_DETECTOR_MAX_CONTRIBUTORS];
  guint n_contributors;
} JsDetector;

void js_detector_init (JsDetector *d, const JsConfig *config, JsStats *stats,
                       JsEventStore *store);

/* Records must come in the order the main thread pushed them. */
void js_detector_feed (JsDetector *d, const JsRecord *r);

G_END_DECLS
