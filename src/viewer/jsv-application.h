/* jsv-application.h: `jankscope-viewer [PID]`, the GtkApplication of
 * `jankscope view` (not unique: one viewer per call).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define JSV_TYPE_APPLICATION (jsv_application_get_type ())
G_DECLARE_FINAL_TYPE (JsvApplication, jsv_application, JSV, APPLICATION, GtkApplication)

JsvApplication *jsv_application_new (void);

G_END_DECLS
