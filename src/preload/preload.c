/* preload.c: the LD_PRELOAD object's entry point.
 *
 * This object is inherited by every child process (shells, Xvfb, xauth ...),
 * so it links neither GLib nor GTK and does nothing in a process that is not
 * a GLib app. Its constructor runs before main () and does only plain libc
 * work that creates no fd, thread or GLib object: the JANKSCOPE=0 check, the
 * run's report owner (below), and what preload-start.c needs to know when
 * main () starts.
 *
 * The core (libjankscope-core.so) starts lazily, on the main thread, at the
 * first main-loop use after main () has started (the entry points are in
 * preload-interpose.c, preload-funcs.c and preload-api.c; src/DESIGN.md,
 * "What starts when", lists them): by then the app's own code has run, and
 * whatever the core creates (GLib's default context and its wake-up fd,
 * jankscope's threads) cannot collide with what the app did at the top of
 * main. The same path catches a program that dlopen()s GLib later (a Python
 * app through gi): GLib's built-in source types resolve to our definitions
 * as soon as GLib is loaded (preload-funcs.c), and their first dispatch on
 * the main thread starts the monitor.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"
#include "core-loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

JsBridge js_preload_bridge JS_HOT_DATA;
int js_preload_state JS_HOT_DATA = JS_STATE_UNDECIDED;

/* Looked up by the GTK3 module: when the preload is loaded, it starts the
 * core (1 once it runs) and the module must not start a second one. */
JS_EXPORT int jankscope_preload_active = 0;

static pthread_mutex_t activate_lock = PTHREAD_MUTEX_INITIALIZER;

static int
glib_is_loaded (void)
{
  void *h = dlopen ("libglib-2.0.so.0", RTLD_NOLOAD | RTLD_LAZY);

  if (h == NULL)
    return 0;
  dlclose (h); /* drops the reference RTLD_NOLOAD took; GLib stays */
  return 1;
}

void *
js_preload_next_symbol (const char *name, const char *library)
{
  void *fn = dlsym (RTLD_NEXT, name);
  void *h;

  if (fn != NULL)
    return fn;
  h = dlopen (library, RTLD_NOLOAD | RTLD_LAZY);
  if (h == NULL)
    return NULL;
  /* The handle's own definition, searched first. */
  fn = dlsym (h, name);
  dlclose (h); /* drops the reference RTLD_NOLOAD took; the library stays */
  return fn;
}

void *
js_preload_real_symbol (void **slot, const char *name, const char *library)
{
  void *fn = __atomic_load_n (slot, __ATOMIC_ACQUIRE);

  if (fn == NULL)
    {
      fn = js_preload_next_symbol (name, library);
      if (fn == NULL)
        {
          fprintf (stderr, "jankscope: %s not found below the preload\n", name);
          abort ();
        }
      __atomic_store_n (slot, fn, __ATOMIC_RELEASE);
    }
  return fn;
}

static void
set_state (JsPreloadState state)
{
  __atomic_store_n (&js_preload_state, state, __ATOMIC_RELEASE);
}

static void
activate (void)
{
  if (!glib_is_loaded ())
    return; /* stays undecided: GLib may be dlopen()ed later */

  js_preload_funcs_bind ();
  js_preload_bridge.mode = JS_MODE_PRELOAD;
  js_preload_bridge.api_table = js_preload_api_table ();
  js_preload_bridge.poll_wrapped = js_preload_poll_wrapped ();
  js_preload_bridge.unloads = &js_preload_unloads;
  if (js_loader_start_core ((const void *) activate, &js_preload_bridge) == 0)
    {
      __atomic_store_n (&jankscope_preload_active, 1, __ATOMIC_RELEASE);
      set_state (JS_STATE_ON);
    }
  else
    set_state (JS_STATE_OFF);
}

void
js_preload_try_activate (void)
{
  /* Only the main thread activates: the core takes the calling thread as the
   * one to watch. Other threads keep forwarding until then, and remember that
   * they are not it, so they ask the kernel once, not at every dispatch.
   * Before main () (another library's constructor using GLib) nothing starts. */
  static __thread int not_main;

  if (not_main || !__atomic_load_n (&js_preload_main_started, __ATOMIC_RELAXED))
    return;
  if (syscall (SYS_gettid) != getpid ())
    {
      not_main = 1;
      return;
    }
  /* A trylock, never a wait: a recursive call made while the core starts
   * (the core calls GLib, GLib calls us) just forwards. */
  if (pthread_mutex_trylock (&activate_lock) != 0)
    return;
  if (js_preload_undecided ())
    activate ();
  pthread_mutex_unlock (&activate_lock);
}

/* The first process of a run (the one LD_PRELOAD was set for) names itself
 * the run's root in JS_REPORT_OWNER_VAR; its children inherit the variable
 * and js-report-path.c decides from it who owns the report's plain path
 * (and, with JANKSCOPE_CHILDREN=0, who is monitored at all).
 * Only here: before main () the process is single-threaded (as far as
 * setenv's callers can know), so no other thread can be reading the
 * environment; after main () setenv is never safe. */
static void
claim_report_owner (void)
{
  const char *report = getenv ("JANKSCOPE_REPORT");
  const char *children = getenv ("JANKSCOPE_CHILDREN");
  char pid[24];

  /* Needed for a report's path, and to tell the run's first monitored
   * process from its children when children are not monitored. */
  if (((report == NULL || *report == '\0') && (children == NULL || *children == '\0'))
      || getenv (JS_REPORT_OWNER_VAR) != NULL)
    return;
  snprintf (pid, sizeof pid, "%ld", (long) getpid ());
  setenv (JS_REPORT_OWNER_VAR, pid, 0);
}

__attribute__ ((constructor)) static void
js_preload_init (void)
{
  /* Plain libc only, no fd: nothing of jankscope or GLib exists before
   * main (). No atfork handler either: a fork child of a monitored process is
   * quieted by the core's own handler, and a process that never loads GLib
   * must not be touched at all. */
  if (js_loader_disabled_by_env ())
    {
      set_state (JS_STATE_OFF);
      return;
    }
  claim_report_owner ();
  js_preload_start_init ();
}

JS_HOT int
js_preload_dispatch (JsDispatchFunc real, void *source, void *callback, void *user_data)
{
  int (*hook) (JsDispatchFunc, void *, void *, void *)
      = js_load_hook ((void **) &js_preload_bridge.dispatch);

  if (JS_UNLIKELY (hook == NULL) && JS_UNLIKELY (js_preload_undecided ()))
    {
      js_preload_try_activate ();
      hook = js_load_hook ((void **) &js_preload_bridge.dispatch);
    }
  if (hook != NULL)
    return hook (real, source, callback, user_data);
  return real (source, callback, user_data);
}
