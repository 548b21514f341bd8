/* core-loader.c: find and start libjankscope-core.so.
 *
 * Runs inside every process that inherits LD_PRELOAD, often from an ELF
 * constructor: plain libc only, no allocation that could outlive us, every
 * failure is a message on stderr and a disabled monitor, never a crash.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "core-loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <unistd.h>

int
js_loader_disabled_by_env (void)
{
  const char *v = getenv ("JANKSCOPE");
  static const char *const off[] = { "0", "false", "no", "off" };
  static const char *const on[] = { "", "1", "true", "yes", "on" };

  if (v == NULL)
    return 0;
  for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
    if (strcasecmp (v, off[i]) == 0)
      return 1;
  for (size_t i = 0; i < sizeof on / sizeof on[0]; i++)
    if (strcasecmp (v, on[i]) == 0)
      return 0;
  fprintf (stderr,
           "jankscope: JANKSCOPE='%s' is not one of 0/1/true/false/yes/no/on/off; "
           "using the default (1, enabled)\n",
           v);
  return 0;
}

static int
core_path_next_to (const void *anchor, char *buf, size_t size)
{
  Dl_info info;
  const char *slash;
  size_t dirlen;

  if (dladdr (anchor, &info) == 0 || info.dli_fname == NULL)
    return 0;
  slash = strrchr (info.dli_fname, '/');
  if (slash == NULL)
    return 0;
  dirlen = (size_t) (slash - info.dli_fname);
  if (dirlen + 1 + sizeof JS_CORE_LIBRARY > size)
    return 0;
  memcpy (buf, info.dli_fname, dirlen);
  buf[dirlen] = '/';
  memcpy (buf + dirlen + 1, JS_CORE_LIBRARY, sizeof JS_CORE_LIBRARY);
  return access (buf, R_OK) == 0;
}

int
js_loader_start_core (const void *anchor, JsBridge *bridge)
{
  char path[4096];
  void *core;
  JsCoreStartFunc start;

  if (!core_path_next_to (anchor, path, sizeof path))
    snprintf (path, sizeof path, "%s/%s", JANKSCOPE_PKGLIBDIR, JS_CORE_LIBRARY);

  /* RTLD_LOCAL: the core's symbols (and those of what it links) must never
   * interpose on the app's. */
  core = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (core == NULL)
    {
      fprintf (stderr, "jankscope: cannot load the core (%s); monitoring disabled\n", dlerror ());
      return -1;
    }
  start = (JsCoreStartFunc) dlsym (core, JS_CORE_START_SYMBOL);
  if (start == NULL)
    {
      fprintf (stderr, "jankscope: %s has no %s; monitoring disabled\n", path,
               JS_CORE_START_SYMBOL);
      return -1;
    }
  bridge->abi = JS_BRIDGE_ABI;
  return start (bridge);
}
