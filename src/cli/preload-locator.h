/* preload-locator.h: finds libjankscope-preload.so for "jankscope run"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CLI_PRELOAD_NAME "libjankscope-preload.so"

char *cli_preload_find (GError **error);

G_END_DECLS
