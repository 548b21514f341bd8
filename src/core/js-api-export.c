/* js-api-export.c: libjankscope-api.so, the table behind include/jankscope.h.
 *
 * The app finds the annotation API with dlsym (RTLD_DEFAULT,
 * "jankscope_api_v1"), which searches only objects in the global scope. The
 * core is loaded RTLD_LOCAL on purpose (neither it nor libdw, json-glib & co.
 * may ever interpose on the app's symbols), so the table cannot live there.
 * This object holds nothing else and links only libc: the core loads it,
 * fills the table (js-scenes.c), and then promotes it to the global scope.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <jankscope.h>

__attribute__ ((visibility ("default"))) JankscopeApiV1 jankscope_api_v1;
