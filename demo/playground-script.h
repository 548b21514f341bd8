/* playground-script.h: runs the playground's actions from the command line (--script)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "playground-window.h"

G_BEGIN_DECLS

#define PLAYGROUND_SCRIPT_DEFAULT_GAP_MS 700
#define PLAYGROUND_SCRIPT_MAX_MS 600000

typedef struct _PlaygroundScript PlaygroundScript;

PlaygroundScript *playground_script_new (const char *list, guint gap_ms, GError **error);
void playground_script_free (PlaygroundScript *self);
void playground_script_start (PlaygroundScript *self, PlaygroundWindow *window);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PlaygroundScript, playground_script_free)

G_END_DECLS
