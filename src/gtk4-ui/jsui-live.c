/* jsui-live.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "jankscope-config.h"

#include <dlfcn.h>

#include "js-live.h"
#include "jsui-live.h"

#define CORE_LIBRARY "libjankscope-core.so"

static const JankscopeLiveApiV1 *live_api;
static gboolean looked_up;

static const JankscopeLiveApiV1 *
find_live_api (void)
{
  const JankscopeLiveApiV1 *api = dlsym (RTLD_DEFAULT, "jankscope_live_api_v1");
  Dl_info info;

  if (api == NULL && dladdr ((void *) find_live_api, &info) != 0 && info.dli_fname != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (info.dli_fname);
      g_autofree char *path = g_build_filename (dir, CORE_LIBRARY, NULL);
      void *core = dlopen (path, RTLD_LAZY | RTLD_NOLOAD);

      if (core != NULL)
        api = dlsym (core, "jankscope_live_api_v1");
      /* The handle is not closed: the core is never unloaded anyway. */
    }
  if (api != NULL && (api->version < 1 || api->size < sizeof (JankscopeLiveApiV1)))
    api = NULL;
  return api;
}

gboolean
jsui_live_init (void)
{
  if (!looked_up)
    {
      live_api = find_live_api ();
      looked_up = TRUE;
    }
  return live_api != NULL;
}

GBytes *
jsui_live_source (guint64 *generation, gpointer user_data)
{
  return live_api != NULL ? live_api->get_snapshot (generation) : NULL;
}
