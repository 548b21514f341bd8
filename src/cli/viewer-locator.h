/* viewer-locator.h: finds jankscope-viewer (src/viewer/) for "jankscope
 * view" and "jankscope run --view"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* $JANKSCOPE_VIEWER (it must exist), next to the CLI in a build tree
 * (build/src/cli/jankscope -> build/src/viewer/jankscope-viewer), then the
 * installed one ($libexecdir/jankscope/). NULL with an error when none. */
char *cli_viewer_find (GError **error);

G_END_DECLS
