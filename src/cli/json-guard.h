/* json-guard.h: checks on raw JSON text that json-glib 1.6 does not make
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cli_json_guard_check (const char *data,
                               gsize       length,
                               guint       max_depth,
                               GError    **error);

G_END_DECLS
