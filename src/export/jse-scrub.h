/* jse-scrub.h: "jankscope export --scrub": home folders and user names out
 * of paths (privacy: docs/background.md, "What a report holds")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JSE_SCRUB_HOME "~"
#define JSE_SCRUB_USER "<user>"

typedef struct _JseScrubber JseScrubber;

/* Knows the current user's name and home folder from the start. */
JseScrubber *jse_scrubber_new (void);
void jse_scrubber_free (JseScrubber *scrubber);

/* Learns the user names of the home folders in @text (/home/NAME,
 * /var/home/NAME), so that NAME is scrubbed everywhere else too: learn from
 * every string first, then scrub. */
void jse_scrubber_learn (JseScrubber *scrubber, const char *text);

/* A new string: in a text with a '/' (a path), home folders become "~" and
 * user names (whole words) "<user>"; other text is returned as is. */
char *jse_scrubber_apply (const JseScrubber *scrubber, const char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JseScrubber, jse_scrubber_free)

G_END_DECLS
