/* preload-post.c: where work posted to the main loop came from.
 *
 * A slow callback is often GTK's or GIO's own (a text view's validation
 * idle, a GTask completion), and what its developer needs is the code that
 * caused it: where the idle, timeout or task was added. GLib's functions
 * that add one are exported, so calls from outside libglib (the app, GTK,
 * GIO, GDK) reach the stand-ins below; GLib's calls among its own functions
 * do not (libglib is linked -Bsymbolic-functions), nor do GIO's calls of
 * g_task_new inside libgio. Each stand-in forwards to GLib's function and
 * then tells the core, through JsBridge.posted, the return address into its
 * caller and the new source's id (the GTask, for g_task_new): the core keeps
 * them keyed by that id (js-posting.c).
 *
 * A stand-in reached from another stand-in (gdk_threads_add_idle calls
 * g_idle_add_full from libgdk) leaves the report to the outermost one, whose
 * caller is the app: a per-thread depth (initial-exec TLS: the preload is
 * loaded at start-up, so its TLS is static).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <stddef.h>
#include <string.h>

static __thread int post_depth __attribute__ ((tls_model ("initial-exec")));

/* Below the preload, else in the library a module loaded RTLD_LOCAL
 * (js_preload_real_symbol); which library is worked out only the first time. */
static JS_HOT void *
real_symbol (void **slot, const char *name)
{
  void *fn = __atomic_load_n (slot, __ATOMIC_ACQUIRE);

  if (fn != NULL)
    return fn;
  return js_preload_real_symbol (slot, name,
                                 strncmp (name, "gdk_", 4) == 0     ? "libgdk-3.so.0"
                                 : strcmp (name, "g_task_new") == 0 ? "libgio-2.0.so.0"
                                                                    : "libglib-2.0.so.0");
}

/* Adding a source is a main-loop use (preload.c): the core starts there
 * (on the main thread, after main), so that the site is noted. */
static inline int
post_enter (void)
{
  if (post_depth++ != 0)
    return 0;
  js_preload_first_use ();
  return 1;
}

static inline void
post_leave (int outer, int kind, const void *caller, const void *func, unsigned id, void *task)
{
  void (*hook) (int, const void *, const void *, unsigned, void *, void *);

  post_depth--;
  if (!outer || (id == 0 && task == NULL))
    return;
  hook = js_load_hook ((void **) &js_preload_bridge.posted);
  if (hook != NULL)
    hook (kind, caller, func, id, NULL, task);
}

/* Which stand-ins share the page of the main thread's hot code (js-hot.h):
 * idles and timeouts, added all the time (GTK's own, every frame); not the
 * watches or GDK 3's wrappers, added now and then. */
#define STANDIN_ATTR_JS_POST_IDLE JS_HOT
#define STANDIN_ATTR_JS_POST_TIMEOUT JS_HOT
#define STANDIN_ATTR_JS_POST_WATCH
#define STANDIN_ATTR_JS_POST_GDK

/* One stand-in: `ret` GLib's return type, `params` and `args` its
 * parameters and their names, `func` the callback among them. */
#define JS_POST_STANDIN(kind, name, params, args, func)                                            \
  static void *real_##name JS_HOT_DATA;                                                            \
  JS_EXPORT unsigned name params;                                                                  \
  STANDIN_ATTR_##kind unsigned name params                                                         \
  {                                                                                                \
    int outer = post_enter ();                                                                     \
    unsigned id = ((unsigned (*) params) real_symbol (&real_##name, #name)) args;                  \
                                                                                                   \
    post_leave (outer, kind, __builtin_return_address (0), (const void *) (func), id, NULL);       \
    return id;                                                                                     \
  }

typedef void *Fn;

JS_POST_STANDIN (JS_POST_IDLE, g_idle_add, (Fn f, void *d), (f, d), f)
JS_POST_STANDIN (JS_POST_IDLE, g_idle_add_full, (int p, Fn f, void *d, Fn n), (p, f, d, n), f)
JS_POST_STANDIN (JS_POST_IDLE, g_idle_add_once, (Fn f, void *d), (f, d), f)
JS_POST_STANDIN (JS_POST_TIMEOUT, g_timeout_add, (unsigned i, Fn f, void *d), (i, f, d), f)
JS_POST_STANDIN (JS_POST_TIMEOUT, g_timeout_add_full, (int p, unsigned i, Fn f, void *d, Fn n),
                 (p, i, f, d, n), f)
JS_POST_STANDIN (JS_POST_TIMEOUT, g_timeout_add_once, (unsigned i, Fn f, void *d), (i, f, d), f)
JS_POST_STANDIN (JS_POST_TIMEOUT, g_timeout_add_seconds, (unsigned i, Fn f, void *d), (i, f, d), f)
JS_POST_STANDIN (JS_POST_TIMEOUT, g_timeout_add_seconds_full,
                 (int p, unsigned i, Fn f, void *d, Fn n), (p, i, f, d, n), f)
JS_POST_STANDIN (JS_POST_WATCH, g_child_watch_add, (int pid, Fn f, void *d), (pid, f, d), f)
JS_POST_STANDIN (JS_POST_WATCH, g_child_watch_add_full, (int p, int pid, Fn f, void *d, Fn n),
                 (p, pid, f, d, n), f)
JS_POST_STANDIN (JS_POST_WATCH, g_io_add_watch, (void *ch, int c, Fn f, void *d), (ch, c, f, d), f)
JS_POST_STANDIN (JS_POST_WATCH, g_io_add_watch_full, (void *ch, int p, int c, Fn f, void *d, Fn n),
                 (ch, p, c, f, d, n), f)
JS_POST_STANDIN (JS_POST_WATCH, g_unix_fd_add, (int fd, int c, Fn f, void *d), (fd, c, f, d), f)
JS_POST_STANDIN (JS_POST_WATCH, g_unix_fd_add_full, (int p, int fd, int c, Fn f, void *d, Fn n),
                 (p, fd, c, f, d, n), f)
JS_POST_STANDIN (JS_POST_WATCH, g_unix_signal_add, (int s, Fn f, void *d), (s, f, d), f)
JS_POST_STANDIN (JS_POST_WATCH, g_unix_signal_add_full, (int p, int s, Fn f, void *d, Fn n),
                 (p, s, f, d, n), f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_idle, (Fn f, void *d), (f, d), f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_idle_full, (int p, Fn f, void *d, Fn n), (p, f, d, n),
                 f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_timeout, (unsigned i, Fn f, void *d), (i, f, d), f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_timeout_full,
                 (int p, unsigned i, Fn f, void *d, Fn n), (p, i, f, d, n), f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_timeout_seconds, (unsigned i, Fn f, void *d),
                 (i, f, d), f)
JS_POST_STANDIN (JS_POST_GDK, gdk_threads_add_timeout_seconds_full,
                 (int p, unsigned i, Fn f, void *d, Fn n), (p, i, f, d, n), f)

/* The GTask: its completion is posted by GIO later (from a worker thread for
 * g_task_run_in_thread), with the task as its data; where the app created it
 * is its posting site. */
static void *real_g_task_new;
JS_EXPORT void *g_task_new (void *source_object, void *cancellable, Fn callback, void *data);

void *
g_task_new (void *source_object, void *cancellable, Fn callback, void *data)
{
  int outer = post_enter ();
  void *task = ((void *(*) (void *, void *, Fn, void *) ) real_symbol (
      &real_g_task_new, "g_task_new")) (source_object, cancellable, callback, data);

  post_leave (outer, JS_POST_TASK, __builtin_return_address (0), callback, 0, task);
  return task;
}

/* g_source_attach's stand-in (preload-interpose.c) reports here once
 * GLib has given the source its id. */
JS_HOT void
js_preload_post_attach (const void *caller, void *context, unsigned id)
{
  void (*hook) (int, const void *, const void *, unsigned, void *, void *);

  if (post_depth != 0 || id == 0)
    return;
  hook = js_load_hook ((void **) &js_preload_bridge.posted);
  if (hook != NULL)
    hook (JS_POST_ATTACH, caller, NULL, id, context, NULL);
}
