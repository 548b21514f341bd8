/* js-report-posting.h: a part's `posted_from` and the summary's `posting`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "js-json-writer.h"
#include "js-post-sites.h"
#include "js-stall-store.h"

G_BEGIN_DECLS

/* `posted_from`: the site `post` of `sites` (null when unknown). */
void js_report_add_posted_from (JsJsonWriter *b, JsPostSites *sites, JsStallStore *stalls,
                                guint32 post);

/* The site id (in `sites`) of the dispatch the stall `s` is stuck in, 0
 * when unknown; resolved once per posting site the watchdog saw. */
guint32 js_report_hang_post_site (JsPostSites *sites, JsStall *s);

/* The summary's `posting`: attaches seen, full stacks and their ceiling. */
void js_report_add_posting_summary (JsJsonWriter *b, JsPostSites *sites);

G_END_DECLS
