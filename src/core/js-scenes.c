/* js-scenes.c: jankscope_scene_push () & co., on the app's main thread.
 *
 * Per call: a thread check (pthread_self is a register read), the label's id
 * (a pointer compare and a short string compare once it is interned), one
 * clock read and one ring record. That is all the main thread pays.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-scenes.h"
#include "js-clock.h"
#include "js-log.h"
#include "jankscope-config.h"

#include <jankscope.h>

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define API_LIBRARY "libjankscope-api.so"

typedef struct
{
  gint64 start_ns;
  guint32 id;
  guint32 seq;
} OpenMark;

/* Read-only after start. */
static JsRing *ring;
static pthread_t main_thread;
static gboolean active;
static gboolean published;

/* Main thread only (the labels: interned there, read anywhere). */
static JsLabels scene_labels;
static JsLabels mark_labels;
static guint32 scenes[JS_SCENES_MAX_DEPTH];
static guint scene_depth;
static guint scene_ignored; /* pushes past the maximum depth, still open */
static OpenMark marks[JS_SCENES_MAX_DEPTH];
static guint mark_depth;
static guint mark_ignored;
static guint32 mark_seq;

/* Written by the main thread (relaxed), read by the collector; other_thread
 * by any thread (atomic add). */
static JsScenesCounters counters;

static inline void
bump (guint64 *counter)
{
  __atomic_store_n (counter, *counter + 1, __ATOMIC_RELAXED);
}

static inline gboolean
on_main_thread (void)
{
  if (G_UNLIKELY (!__atomic_load_n (&active, __ATOMIC_RELAXED)))
    return FALSE;
  if (G_LIKELY (pthread_equal (pthread_self (), main_thread)))
    return TRUE;
  __atomic_fetch_add (&counters.other_thread, 1, __ATOMIC_RELAXED);
  return FALSE;
}

static void
record_scene (void)
{
  JsRecord r = {
    .kind = JS_RECORD_SCENE,
    .start_ns = js_now_ns (),
    .name_id = scene_depth > 0 ? scenes[scene_depth - 1] : 0,
    .depth = (guint8) scene_depth,
  };

  js_ring_push (ring, &r);
}

static void
api_scene_push (const char *label)
{
  if (!on_main_thread ())
    return;
  if (G_UNLIKELY (scene_depth >= JS_SCENES_MAX_DEPTH))
    {
      scene_ignored++;
      bump (&counters.too_deep);
      return;
    }
  scenes[scene_depth++] = js_labels_intern (&scene_labels, label);
  bump (&counters.scenes_pushed);
  record_scene ();
}

static void
api_scene_pop (void)
{
  if (!on_main_thread ())
    return;
  if (G_UNLIKELY (scene_ignored > 0))
    {
      scene_ignored--; /* the pop of a push that was too deep */
      return;
    }
  if (G_UNLIKELY (scene_depth == 0))
    {
      bump (&counters.unbalanced);
      return;
    }
  scene_depth--;
  record_scene ();
}

static void
api_mark_begin (const char *name)
{
  OpenMark *m;
  JsRecord r = { .kind = JS_RECORD_MARK_BEGIN };

  if (!on_main_thread ())
    return;
  if (G_UNLIKELY (mark_depth >= JS_SCENES_MAX_DEPTH))
    {
      mark_ignored++;
      bump (&counters.too_deep);
      return;
    }
  m = &marks[mark_depth++];
  m->id = js_labels_intern (&mark_labels, name);
  m->seq = ++mark_seq;
  m->start_ns = js_now_ns ();
  bump (&counters.marks_begun);
  r.start_ns = m->start_ns;
  r.name_id = m->id;
  r.count = m->seq;
  r.depth = (guint8) mark_depth;
  js_ring_push (ring, &r);
}

static void
api_mark_end (void)
{
  OpenMark *m;
  JsRecord r = { .kind = JS_RECORD_MARK_END };

  if (!on_main_thread ())
    return;
  if (G_UNLIKELY (mark_ignored > 0))
    {
      mark_ignored--;
      return;
    }
  if (G_UNLIKELY (mark_depth == 0))
    {
      bump (&counters.unbalanced);
      return;
    }
  m = &marks[--mark_depth];
  r.start_ns = m->start_ns;
  r.end_ns = js_now_ns ();
  r.name_id = m->id;
  r.count = m->seq;
  r.depth = (guint8) (mark_depth + 1);
  js_ring_push (ring, &r);
}

static int
api_is_active (void)
{
  return __atomic_load_n (&active, __ATOMIC_RELAXED);
}

void
js_scenes_start (JsRing *the_ring)
{
  ring = the_ring;
  main_thread = pthread_self ();
  js_labels_init (&scene_labels, JS_SCENES_LABELS, JS_SCENES_LABEL_BYTES);
  js_labels_init (&mark_labels, JS_SCENES_LABELS, JS_SCENES_LABEL_BYTES);
  __atomic_store_n (&active, TRUE, __ATOMIC_RELEASE);
}

void
js_scenes_disable (void)
{
  __atomic_store_n (&active, FALSE, __ATOMIC_RELEASE);
}

/* libjankscope-api.so next to the core (a build tree, or the installed
 * folder), else in the installed folder. */
static char *
api_library_path (void)
{
  Dl_info info;

  if (dladdr ((const void *) js_scenes_start, &info) != 0 && info.dli_fname != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (info.dli_fname);
      char *path = g_build_filename (dir, API_LIBRARY, NULL);

      if (access (path, R_OK) == 0)
        return path;
      g_free (path);
    }
  return g_build_filename (JANKSCOPE_PKGLIBDIR, API_LIBRARY, NULL);
}

/* The core's functions into the table the app calls. Single pointer-sized
 * stores: a concurrent caller of the preload's table runs either the stub
 * (which then calls through the table) or our function, both correct. */
static void
fill_table (JankscopeApiV1 *table)
{
  table->version = JANKSCOPE_API_VERSION;
  __atomic_store_n (&table->scene_push, api_scene_push, __ATOMIC_RELEASE);
  __atomic_store_n (&table->scene_pop, api_scene_pop, __ATOMIC_RELEASE);
  __atomic_store_n (&table->mark_begin, api_mark_begin, __ATOMIC_RELEASE);
  __atomic_store_n (&table->mark_end, api_mark_end, __ATOMIC_RELEASE);
  __atomic_store_n (&table->is_active, api_is_active, __ATOMIC_RELEASE);
  __atomic_store_n (&table->size, (guint32) sizeof *table, __ATOMIC_RELEASE);
}

gboolean
js_scenes_publish_api (void *loader_table)
{
  g_autofree char *path = NULL;
  JankscopeApiV1 *table;
  void *handle;

  if (loader_table != NULL)
    {
      fill_table (loader_table);
      __atomic_store_n (&published, TRUE, __ATOMIC_RELEASE);
      js_log_debug ("annotation API published (the preload's table)");
      return TRUE;
    }
  path = api_library_path ();
  /* Loaded local first: nobody can find the table before it is complete. */
  handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    {
      js_log_debug ("the annotation API is not available (%s)", dlerror ());
      return FALSE;
    }
  table = dlsym (handle, JANKSCOPE_API_SYMBOL);
  if (table == NULL)
    {
      js_log_debug ("%s has no %s; the annotation API is not available", path,
                    JANKSCOPE_API_SYMBOL);
      return FALSE;
    }
  fill_table (table);
  /* Now global: dlsym (RTLD_DEFAULT, "jankscope_api_v1") finds it. The
   * loader's lock orders the stores above before any such lookup. Only this
   * libc-only object becomes global, not the core or what it links. */
  if (dlopen (path, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL) == NULL)
    {
      js_log_debug ("cannot make %s global (%s); the annotation API is not available", path,
                    dlerror ());
      return FALSE;
    }
  __atomic_store_n (&published, TRUE, __ATOMIC_RELEASE);
  js_log_debug ("annotation API published (%s)", path);
  return TRUE;
}

gboolean
js_scenes_api_published (void)
{
  return __atomic_load_n (&published, __ATOMIC_ACQUIRE);
}

const JsLabels *
js_scenes_labels (void)
{
  return &scene_labels;
}

const JsLabels *
js_marks_labels (void)
{
  return &mark_labels;
}

void
js_scenes_counters (JsScenesCounters *out)
{
  out->scenes_pushed = __atomic_load_n (&counters.scenes_pushed, __ATOMIC_RELAXED);
  out->marks_begun = __atomic_load_n (&counters.marks_begun, __ATOMIC_RELAXED);
  out->other_thread = __atomic_load_n (&counters.other_thread, __ATOMIC_RELAXED);
  out->unbalanced = __atomic_load_n (&counters.unbalanced, __ATOMIC_RELAXED);
  out->too_deep = __atomic_load_n (&counters.too_deep, __ATOMIC_RELAXED);
  out->labels_overflow = js_labels_overflows (&scene_labels) + js_labels_overflows (&mark_labels);
}
