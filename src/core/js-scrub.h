/* js-scrub.h: JANKSCOPE_SCRUB=1, reports without the user's identity.
 *
 * Every string of the report passes through js_scrub_string (): the home
 * directory ($HOME, and the one in the password database when it differs)
 * becomes "~" and the user name, where it is a whole path component, becomes
 * "<user>" ("/srv/alice/x" -> "/srv/<user>/x"; "libalice.so" stays). Window
 * titles are not even read (js-focus.c), and `window_title` members are
 * null. This covers the executable's path, source names, stack frames'
 * modules and source files, labels, and a previous run's hang.
 *
 * Applied as the report is written: the writer's filter
 * (js_json_writer_set_filter) scrubs each string value on its way out.
 *
 * Only GLib and common/: the CLI can use it as it is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-json-writer.h"

G_BEGIN_DECLS

typedef struct _JsScrub JsScrub;

/* `homes` and `users`: NULL-terminated; empty strings and "/" are skipped. */
JsScrub *js_scrub_new (const char *const *homes, const char *const *users);

/* For this process: g_get_home_dir (), the password database's home, and
 * g_get_user_name (). */
JsScrub *js_scrub_new_for_user (void);

void js_scrub_free (JsScrub *scrub);

/* A newly allocated scrubbed copy of `text`. */
char *js_scrub_string (const JsScrub *scrub, const char *text);

/* What `writer` writes from now on is scrubbed: every string value, and
 * every `window_title` member null. `scrub` must outlive the writing. */
void js_scrub_writer (const JsScrub *scrub, JsJsonWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsScrub, js_scrub_free)

G_END_DECLS
