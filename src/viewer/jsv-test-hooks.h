/* jsv-test-hooks.h: what the viewer's tests (tests/view/check_view.py) see
 * of it, from environment variables, never set otherwise:
 *
 *   JANKSCOPE_VIEWER_TEST=1      lines on stdout: "viewer-pid=N" at start,
 *                                "state=S pid=N" when the
 *                                connection changes, "banner=T_US HUNG TEXT"
 *                                at each new banner text, "events=N NAMES"
 *                                when the panel's jank list changes
 *   JANKSCOPE_VIEWER_TEST_SCREENSHOT=FILE
 *                                a PNG of the window, once, while a hang has
 *                                lasted 2.5 s and the jank list holds at
 *                                least JANKSCOPE_VIEWER_TEST_MIN_EVENTS (1)
 *                                events (the newest dispatch event
 *                                selected); then "screenshot=FILE"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "jsv-window.h"

G_BEGIN_DECLS

void jsv_test_hooks_attach (JsvWindow *window);

G_END_DECLS
