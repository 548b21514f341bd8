/* preload-api.c: the annotation API's table, as the app finds it under LD_PRELOAD.
 *
 * An annotated app looks the table up once per translation unit, with
 * dlsym (RTLD_DEFAULT, "jankscope_api_v1"), and keeps the answer
 * (include/jankscope.h). The core starts only at the first main-loop use
 * after main (), but an app may annotate before its first loop use (a scene
 * pushed at the top of main): the table must be there from the start, so
 * the preload defines it. Until the core runs, its functions are stubs that
 * start the core (on the main thread, after main (), as any main-loop entry
 * point does: the app's own call to jankscope) and then call what the table
 * holds; the core stores its own functions into the table when it starts
 * (js-scenes.c), so from then on a call costs what it did before.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <jankscope.h>

JS_EXPORT JankscopeApiV1 jankscope_api_v1;

static void stub_scene_push (const char *label);
static void stub_scene_pop (void);
static void stub_mark_begin (const char *name);
static void stub_mark_end (void);
static int stub_is_active (void);

JankscopeApiV1 jankscope_api_v1 = {
  .size = sizeof (JankscopeApiV1),
  .version = JANKSCOPE_API_VERSION,
  .scene_push = stub_scene_push,
  .scene_pop = stub_scene_pop,
  .mark_begin = stub_mark_begin,
  .mark_end = stub_mark_end,
  .is_active = stub_is_active,
};

/* Each stub starts the core if it can, then calls the table's function
 * unless that is still the stub itself (not started: the call is a no-op,
 * as without jankscope). */
#define JS_CURRENT(member) __atomic_load_n (&jankscope_api_v1.member, __ATOMIC_ACQUIRE)

static void
stub_scene_push (const char *label)
{
  void (*fn) (const char *);

  js_preload_first_use ();
  if ((fn = JS_CURRENT (scene_push)) != stub_scene_push)
    fn (label);
}

static void
stub_scene_pop (void)
{
  void (*fn) (void);

  js_preload_first_use ();
  if ((fn = JS_CURRENT (scene_pop)) != stub_scene_pop)
    fn ();
}

static void
stub_mark_begin (const char *name)
{
  void (*fn) (const char *);

  js_preload_first_use ();
  if ((fn = JS_CURRENT (mark_begin)) != stub_mark_begin)
    fn (name);
}

static void
stub_mark_end (void)
{
  void (*fn) (void);

  js_preload_first_use ();
  if ((fn = JS_CURRENT (mark_end)) != stub_mark_end)
    fn ();
}

static int
stub_is_active (void)
{
  int (*fn) (void);

  js_preload_first_use ();
  if ((fn = JS_CURRENT (is_active)) != stub_is_active)
    return fn ();
  return 0;
}

void *
js_preload_api_table (void)
{
  return &jankscope_api_v1;
}
