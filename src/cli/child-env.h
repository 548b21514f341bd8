/* child-env.h: the environment of the app started by "jankscope run"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *cli_ld_preload_append (const char *existing, const char *preload);
char **cli_child_env_new (const char *preload, const char *report_path, const char *threshold_ms);

G_END_DECLS
