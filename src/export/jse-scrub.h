/* jse-scrub.h: "jankscope export --scrub": home folders and user names out
 * of paths (issue 5, privacy; seed 003 §5.5)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EXPORT_SCRUB_HOME "~"
#define EXPORT_SCRUB_USER "<user>"

typedef struct _ExportScrubber ExportScrubber;

/* Knows the current user's name and home folder from the start. */
ExportScrubber *export_scrubber_new   (void);
void            export_scrubber_free  (ExportScrubber       *scrubber);

/* Learns the user names of the home folders in @text (/home/NAME,
 * /var/home/NAME), so that NAME is scrubbed everywhere else too: learn from
 * every string first, then scrub. */
void            export_scrubber_learn (ExportScrubber       *scrubber,
                                       const char           *text);

/* A new string: in a text with a '/' (a path), home folders become "~" and
 * user names (whole words) "<user>"; other text is returned as is. */
char           *export_scrubber_apply (const ExportScrubber *scrubber,
                                       const char           *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportScrubber, export_scrubber_free)

G_END_DECLS
