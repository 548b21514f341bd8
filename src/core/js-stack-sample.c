/* js-stack-sample.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stack-sample.h"

const char *
js_wait_kind_name (JsWaitKind kind)
{
  static const char *const names[JS_N_WAITS] = {
    [JS_WAIT_NONE] = "none",   [JS_WAIT_LOCK] = "lock",   [JS_WAIT_SLEEP] = "sleep",
    [JS_WAIT_IO] = "io",       [JS_WAIT_POLL] = "poll",   [JS_WAIT_IPC] = "ipc",
    [JS_WAIT_CHILD] = "child", [JS_WAIT_OTHER] = "other",
  };

  return (guint) kind < JS_N_WAITS ? names[kind] : "other";
}
