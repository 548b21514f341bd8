/* playground-application.h: the jank playground application
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PLAYGROUND_TYPE_APPLICATION (playground_application_get_type ())
G_DECLARE_FINAL_TYPE (PlaygroundApplication, playground_application, PLAYGROUND, APPLICATION,
                      GtkApplication)

PlaygroundApplication *playground_application_new (void);

G_END_DECLS
