/* js-part-detector.c
 *
 * A dispatch is slow when its own time (wall minus the nested loops it ran)
 * reaches the threshold. An iteration is slow when its busy time, less what
 * its slow dispatches already explain, reaches the threshold: many short
 * dispatches that add up (a "partially blocking" stall), or time spent
 * outside any dispatch (prepare/check of a slow source, GLib's own work).
 *
 * The main thread pushes a dispatch's record when it ends and an iteration's
 * record when the next poll starts, so the slow dispatches of an iteration
 * always arrive before the iteration itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-part-detector.h"
#include "js-names.h"

#include <string.h>

void
js_part_detector_init (JsPartDetector *d, const JsConfig *config, JsLoopStats *stats,
                       JsEventStore *store)
{
  memset (d, 0, sizeof *d);
  d->config = config;
  d->stats = stats;
  d->store = store;
  d->own_checked_id = G_MAXUINT32;
}

static gint64
overlap (gint64 a0, gint64 a1, gint64 b0, gint64 b1)
{
  return MAX (0, MIN (a1, b1) - MAX (a0, b0));
}

static void
add_contribution (JsPartDetector *d, const JsRecord *r, gint64 own)
{
  guint i;

  for (i = 0; i < d->n_contributors; i++)
    if (d->contributors[i].name_id == r->name_id && d->contributors[i].code == r->code)
      break;
  if (i == d->n_contributors)
    {
      if (i == JS_PART_DETECTOR_MAX_CONTRIBUTORS)
        return; /* more distinct sources than that in one iteration: rare */
      d->n_contributors++;
      d->contributors[i].name_id = r->name_id;
      d->contributors[i].code = r->code;
      d->contributors[i].own_ns = 0;
    }
  d->contributors[i].own_ns += own;
}

/* The slow dispatch as a part (out of line: the common, fast dispatch
 * saves no registers for it). */
static G_GNUC_NO_INLINE void
add_slow_dispatch (JsPartDetector *d, const JsRecord *r, gint64 own)
{
  JsPart part = {
    .type = JS_RECORD_DISPATCH,
    .start_ns = r->start_ns,
    .end_ns = r->end_ns,
    .duration_ns = own,
    .nested_ns = r->inner_ns,
    .tier = js_config_tier (d->config, own),
    .name_id = r->name_id,
    .code = r->code,
    .code_is_dispatch = (r->flags & JS_RECORD_CODE_IS_DISPATCH) != 0,
    .priority = r->priority,
    .depth = r->depth,
  };

  if (d->posts != NULL)
    part.post = js_post_sites_resolve (d->posts, r->post, r->user_data);
  /* Its next attaches get full stacks (js-posting.h). */
  js_posting_mark_slow (r->code);
  js_event_store_add_part (d->store, &part);
  if (d->n_pending < JS_PART_DETECTOR_MAX_PENDING)
    d->pending[d->n_pending++] = part;
}

void
js_part_detector_feed_dispatch (JsPartDetector *d, const JsRecord *r)
{
  gint64 own;

  /* Runs of dispatches share a name: it is looked up once a run. */
  if (G_UNLIKELY (r->name_id != d->own_checked_id))
    {
      d->own_checked = js_names_is_own (r->name_id);
      d->own_checked_id = r->name_id;
    }
  if (d->own_checked)
    return;
  own = MAX (0, r->end_ns - r->start_ns - r->inner_ns);
  js_loop_stats_add_dispatch (d->stats, r, own);
  add_contribution (d, r, own);
  if (G_UNLIKELY (own >= d->config->threshold_ns))
    add_slow_dispatch (d, r, own);
}

/* The slow iteration as a part (out of line, as add_slow_dispatch). */
static G_GNUC_NO_INLINE void
add_slow_iteration (JsPartDetector *d, const JsRecord *r, gint64 unexplained, guint top,
                    guint n_contributors)
{
  JsPart part = {
    .type = JS_RECORD_ITERATION,
    .start_ns = r->start_ns,
    .end_ns = r->end_ns,
    .duration_ns = unexplained,
    .tier = js_config_tier (d->config, unexplained),
    .depth = r->depth,
    .dispatches = r->count,
  };

  if (n_contributors > 0)
    {
      /* Named after the source that took most of its time. */
      part.name_id = d->contributors[top].name_id;
      part.code = d->contributors[top].code;
      part.top_ns = d->contributors[top].own_ns;
    }
  js_event_store_add_part (d->store, &part);
}

void
js_part_detector_feed_iteration (JsPartDetector *d, const JsRecord *r)
{
  gint64 busy = r->end_ns - r->start_ns;
  gint64 explained = r->inner_ns;
  guint top, n_contributors;

  js_loop_stats_add_iteration (d->stats, r);
  for (guint i = 0; i < d->n_pending; i++)
    {
      const JsPart *p = &d->pending[i];

      explained += MIN (p->duration_ns, overlap (p->start_ns, p->end_ns, r->start_ns, r->end_ns));
    }
  d->n_pending = 0;
  top = 0;
  for (guint i = 1; i < d->n_contributors; i++)
    if (d->contributors[i].own_ns > d->contributors[top].own_ns)
      top = i;
  n_contributors = d->n_contributors;
  d->n_contributors = 0;
  if (G_UNLIKELY (busy - explained >= d->config->threshold_ns))
    add_slow_iteration (d, r, busy - explained, top, n_contributors);
}

void
js_part_detector_feed (JsPartDetector *d, const JsRecord *r)
{
  if (r->kind == JS_RECORD_DISPATCH)
    js_part_detector_feed_dispatch (d, r);
  else if (r->kind == JS_RECORD_ITERATION)
    js_part_detector_feed_iteration (d, r);
}
