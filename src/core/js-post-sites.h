/* js-post-sites.h: the posting sites of slow dispatches, on the collector.
 *
 * A slow dispatch's posting site (js-posting.h) is read as its record is
 * drained, its stacks interned in the stall store's stack table (symbolized
 * once, off the main thread), and the site itself interned here: parts keep
 * its id. Bounded (JS_POST_SITES_MAX distinct sites; past that a part's
 * site is unknown, counted).
 *
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-posting.h"
#include "js-stack-table.h"
#include "js-modules.h"

G_BEGIN_DECLS

#define JS_POST_SITES_MAX 1024

typedef struct
{
  guint8 kind; /* JsPostKind */
  gboolean main_thread;
  guint caller;                  /* JsStackTable id of the caller's one frame */
  guint chain[JS_POSTING_CHAIN]; /* the same, for each link of the chain */
  guint n_chain;
  guint stack;              /* JsStackTable id of the full stack, 0: none */
  gboolean stack_inherited; /* that stack is an earlier attach's (JsPostSite) */
} JsPostSiteInfo;

typedef struct _JsPostSites JsPostSites;

JsPostSites *js_post_sites_new (JsStackTable *stacks, JsModules *modules);
void js_post_sites_free (JsPostSites *sites);

/* The id of the site of a dispatch record's `post` / `user_data`, 0 when
 * unknown. */
guint32 js_post_sites_resolve (JsPostSites *sites, guint32 post, const void *user_data);

/* The id of the site `post` of the dispatch a hang is stuck in (its record
 * is not there yet; for a GTask's completion the watchdog gives the task's
 * site: js_posting_task_post), 0 when unknown; not counted in
 * the stats (the dispatch is, once it ends). The site is kept as read now
 * (the last 8): js_post_sites_resolve of that dispatch's record gives it,
 * with its full stack even if the ring's copy is gone by then. */
guint32 js_post_sites_resolve_hang (JsPostSites *sites, guint32 post);

/* NULL for 0 or an unknown id. */

const JsPostSiteInfo *js_post_sites_get (JsPostSites *sites, guint32 id);

typedef struct
{
  guint64 resolved; /* slow dispatches whose site was found */
  guint64 unknown;  /* ... not found */
  guint64 dropped;  /* found, but the table was full */
  guint distinct;
} JsPostSitesStats;

void js_post_sites_get_stats (JsPostSites *sites, JsPostSitesStats *stats);

G_END_DECLS
