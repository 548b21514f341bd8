/* preload-unloads.c: counts dlclose calls, for the core (JsBridge.unloads).
 *
 * A library's string literals stay where they are until it is unloaded, so
 * the core may know a source's name by its address alone while nothing has
 * been unloaded since it looked (js-names.c). The count moves before the
 * real dlclose runs: memory an unloaded object leaves behind can be reused
 * only after the count has moved. glibc's own internal unloads (NSS and
 * iconv modules) do not go through this name; none of those names a GSource.
 *
 * Plain libc: this runs in every process the preload is inherited by.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"
#include "preload-libc.h"

unsigned js_preload_unloads;
static void *real_dlclose;

JS_EXPORT int dlclose (void *handle);

int
dlclose (void *handle)
{
  int (*real) (void *) = (int (*) (void *)) js_preload_libc_symbol (&real_dlclose, "dlclose");

  if (real == NULL)
    return -1;
  __atomic_add_fetch (&js_preload_unloads, 1, __ATOMIC_SEQ_CST);
  return real (handle);
}
