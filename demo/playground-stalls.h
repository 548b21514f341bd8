/* playground-stalls.h: ways to block the calling thread, for the jank playground
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each function blocks the calling thread for about @ms milliseconds, in its own way. */
typedef void (*PlaygroundStallFunc) (guint ms);

void playground_stall_cpu (guint ms);
void playground_stall_sleep (guint ms);
void playground_stall_io (guint ms);
void playground_stall_lock (guint ms);

G_END_DECLS
