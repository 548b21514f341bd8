/* js-log.h: jankscope's own messages.
 *
 * Plain stderr lines prefixed "jankscope: ". Never g_warning (): under
 * G_DEBUG=fatal-warnings that would abort the host, and a guest never hurts
 * its host.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void js_log_set_debug (gboolean debug);
gboolean js_log_debug_enabled (void);

/* Always printed. */
void js_log_warning (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* Printed only with JANKSCOPE_DEBUG=1. */
void js_log_debug (const char *format, ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
