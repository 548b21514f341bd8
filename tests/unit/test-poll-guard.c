/* Unit tests of which guard covers the main loop's poll (js-mainloop.c's
 * guarded_poll, js-call-guard.h): the core's own, or the preload's wrapper
 * of poll below GLib's g_poll, never neither.
 *
 * This program defines poll itself: the executable comes first in the
 * global scope, so GLib's g_poll (a call of poll through the PLT) lands
 * here, as it lands in the preload's wrapper under LD_PRELOAD. It notes the
 * guard's depth and forwards to libc's. A depth of 1 there means the core
 * guarded the call; 0 means it left it to the wrapper below, which only the
 * preload that says it wraps poll may do, and only for g_poll: an app's own
 * poll function may reach the kernel by a way no wrapper sees. The guard is
 * on (a signal number, this thread) but no signal is ever sent.
 *
 * js_mainloop_start runs once per process: each case runs in a subprocess
 * with its own bridge. */
#define _GNU_SOURCE
#include "js-call-guard.h"
#include "js-mainloop.h"
#include "js-ring.h"
#include "js-sampler.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>

typedef int (*PollFunc) (struct pollfd *, nfds_t, int);

static guint polls;         /* calls of poll (this program's) on this thread */
static int poll_depth = -1; /* the guard's depth in the last one */
static guint app_polls;
static int app_poll_depth = -1;
static int app_poll_held = -1; /* the sampling signal was blocked in the app's poll function */

int
poll (struct pollfd *fds, nfds_t nfds, int timeout)
{
  static PollFunc real;

  if (real == NULL)
    real = (PollFunc) dlsym (RTLD_NEXT, "poll");
  if (js_call_guard_on_thread (&js_sampler_guard))
    {
      polls++;
      poll_depth = __atomic_load_n (&js_sampler_guard.depth, __ATOMIC_RELAXED);
    }
  return real (fds, nfds, timeout);
}

/* An app's own poll function: reaches the kernel without poll. */
static gint
app_poll_func (GPollFD *fds, guint n_fds, gint timeout)
{
  sigset_t mask;

  app_polls++;
  app_poll_depth = __atomic_load_n (&js_sampler_guard.depth, __ATOMIC_RELAXED);
  pthread_sigmask (SIG_BLOCK, NULL, &mask);
  app_poll_held = sigismember (&mask, js_sampler_guard.signal);
  return ppoll ((struct pollfd *) fds, n_fds, &(struct timespec){ 0, 0 }, NULL);
}

/* The core started on this thread as `mode`, the preload (if any) saying
 * `poll_wrapped`; the guard on, nothing in flight. `own_func`: the app sets
 * its poll function as the preload would hand it over. */
static void
start (JsMode mode, int poll_wrapped, gboolean own_func)
{
  static JsBridge bridge;

  bridge = (JsBridge){ .abi = JS_BRIDGE_ABI, .mode = mode, .poll_wrapped = poll_wrapped };
  js_mainloop_start (js_ring_new (1024), &bridge, g_main_context_set_poll_func,
                     g_main_context_get_poll_func);
  js_call_guard_set_thread (&js_sampler_guard);
  __atomic_store_n (&js_sampler_guard.signal, SIGRTMIN + 4, __ATOMIC_RELEASE);
  if (own_func)
    {
      g_assert_nonnull (bridge.set_poll_func);
      g_assert_true (bridge.set_poll_func (NULL, (void *) app_poll_func));
    }
}

static void
iterate (guint n)
{
  for (guint i = 0; i < n; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (js_sampler_guard.depth, ==, 0);
}

/* g_poll with the preload's wrapper below: the core does not guard it. */
static void
case_preload_g_poll (void)
{
  start (JS_MODE_PRELOAD, 1, FALSE);
  iterate (3);
  g_assert_cmpuint (polls, >=, 3);
  g_assert_cmpint (poll_depth, ==, 0);
}

/* The preload says it does not wrap poll (dlopened after libc, or another
 * poll first): the core guards g_poll. */
static void
case_preload_not_wrapped (void)
{
  start (JS_MODE_PRELOAD, 0, FALSE);
  iterate (3);
  g_assert_cmpuint (polls, >=, 3);
  g_assert_cmpint (poll_depth, ==, 1);
}

/* GTK module mode: no wrapper below; the core guards g_poll whatever the
 * bridge says. */
static void
case_module_g_poll (void)
{
  start (JS_MODE_GTK_MODULE, 1, FALSE);
  iterate (3);
  g_assert_cmpuint (polls, >=, 3);
  g_assert_cmpint (poll_depth, ==, 1);
}

/* The app's own poll function, preload wrapping poll or not: guarded by the
 * core. */
static void
case_preload_app_func (void)
{
  start (JS_MODE_PRELOAD, 1, TRUE);
  iterate (3);
  g_assert_cmpuint (app_polls, >=, 3);
  g_assert_cmpint (app_poll_depth, ==, 1);
  g_assert_cmpint (app_poll_held, ==, 0);
}

/* The same with a sampling signal in flight: the app's function runs with
 * it blocked (the core's slow path). */
static void
case_preload_app_func_in_flight (void)
{
  start (JS_MODE_PRELOAD, 1, TRUE);
  __atomic_store_n (&js_sampler_guard.in_flight, 1, __ATOMIC_SEQ_CST);
  iterate (3);
  g_assert_cmpuint (app_polls, >=, 3);
  g_assert_cmpint (app_poll_depth, ==, 1);
  g_assert_cmpint (app_poll_held, ==, 1);
}

/* The app sets g_poll back (NULL): left to the wrapper again. */
static void
case_preload_app_func_reset (void)
{
  start (JS_MODE_PRELOAD, 1, TRUE);
  iterate (2);
  g_assert_cmpint (app_poll_depth, ==, 1);
  g_assert_true (js_mainloop_ensure_poll_func () == FALSE);
  g_main_context_set_poll_func (NULL, NULL); /* not through the bridge: GLib's own */
  js_mainloop_ensure_poll_func ();           /* the core takes it back, chaining to g_poll */
  polls = 0;
  iterate (3);
  g_assert_cmpuint (polls, >=, 3);
  g_assert_cmpint (poll_depth, ==, 0);
}

static void
in_subprocess (gconstpointer data)
{
  g_test_trap_subprocess (data, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  static const struct
  {
    const char *name;
    GTestFunc func;
  } cases[] = {
    { "preload-g-poll", case_preload_g_poll },
    { "preload-not-wrapped", case_preload_not_wrapped },
    { "module-g-poll", case_module_g_poll },
    { "preload-app-func", case_preload_app_func },
    { "preload-app-func-in-flight", case_preload_app_func_in_flight },
    { "preload-app-func-reset", case_preload_app_func_reset },
  };

  /* The subprocess paths live as long as the program (a subprocess exits
   * without freeing the suite's data: LeakSanitizer would count them). */
  static char *subs[G_N_ELEMENTS (cases)];

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/PollGuard/%s", cases[i].name);

      subs[i] = g_strdup_printf ("/PollGuard/subprocess/%s", cases[i].name);
      g_test_add_data_func (path, subs[i], in_subprocess);
      g_test_add_func (subs[i], cases[i].func);
    }
  return g_test_run ();
}
