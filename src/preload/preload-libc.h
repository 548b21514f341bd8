/* preload-libc.h: the libc function a wrapper of the preload stands in front
 * of, found below the preload (dlsym (RTLD_NEXT)) once and kept.
 *
 * Plain libc, for the wrappers of libc's own names (preload-blocking.c,
 * preload-unloads.c); GLib's stand-ins use js_preload_real_symbol, which
 * also looks in a GLib loaded RTLD_LOCAL. The includer defines _GNU_SOURCE.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <dlfcn.h>
#include <stddef.h>

/* `name` below the preload, looked up once into `*slot`; NULL if this libc
 * lacks it. Any thread. */
static inline void *
js_preload_libc_symbol (void **slot, const char *name)
{
  void *fn = __atomic_load_n (slot, __ATOMIC_ACQUIRE);

  if (fn == NULL)
    {
      fn = dlsym (RTLD_NEXT, name);
      __atomic_store_n (slot, fn, __ATOMIC_RELEASE);
    }
  return fn;
}
