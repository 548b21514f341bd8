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

/* The core in @subdir of the directory of the object that holds @anchor ("" for that directory
 * itself). Found through the object's own path (dladdr), never through the install prefix: an
 * install moved elsewhere, unpacked into a DESTDIR or a package's staging folder, and a build
 * tree all work as they are. */
static int
core_path_near (const void *anchor, const char *subdir, char *buf, size_t size)
{
  Dl_info info;
  const char *slash;
  int n;

  if (dladdr (anchor, &info) == 0 || info.dli_fname == NULL)
    return 0;
  slash = strrchr (info.dli_fname, '/');
  if (slash == NULL)
    return 0;
  n = snprintf (buf, size, "%.*s/%s%s%s", (int) (slash - info.dli_fname), info.dli_fname, subdir,
                subdir[0] != '\0' ? "/" : "", JS_CORE_LIBRARY);
  if (n < 0 || (size_t) n >= size)
    return 0;
  return access (buf, R_OK) == 0;
}

int
js_loader_start_core (const void *anchor, JsBridge *bridge)
{
  char path[4096];
  void *core;
  JsCoreStartFunc start;

  /* Beside the loader (the preload, and any loader in a build tree); then, for the GTK 3 module
   * in LIBDIR/gtk-3.0/modules, where the core is from there (JS_CORE_RELATIVE_DIR); then the
   * configured folder. */
  if (!core_path_near (anchor, "", path, sizeof path)
#ifdef JS_CORE_RELATIVE_DIR
      && !core_path_near (anchor, JS_CORE_RELATIVE_DIR, path, sizeof path)
#endif
  )
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
