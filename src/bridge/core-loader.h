/* core-loader.h: find and start libjankscope-core.so (plain C, no GLib).
 * Shared by the preload and the GTK3 module.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jankscope-bridge.h"

/* Nonzero when JANKSCOPE asks to disable monitoring ("0", "false", "no", "off").
 * Any other value than those and "1", "true", "yes", "on" gets one warning. */
int js_loader_disabled_by_env (void);

/* Loads the core from the directory of the object containing `anchor`
 * (build tree, or $libdir/jankscope), else from JS_CORE_RELATIVE_DIR
 * relative to it when defined (the GTK 3 module), else from
 * JANKSCOPE_PKGLIBDIR, and calls its start function. Returns 0 when the
 * core runs. */
int js_loader_start_core (const void *anchor, JsBridge *bridge);
