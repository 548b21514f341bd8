/* scenarios-pollfunc.c - the app installs its own poll function
 *
 * jankscope measures the loop through the default context's poll function.
 * An app (or GLib itself) may install its own: the app's function must keep
 * being called, g_main_context_get_poll_func () must return it, and jankscope
 * must keep measuring.
 *
 * Timeline: a 10 ms ticker keeps the loop polling; the app's poll function is
 * installed at 100 ms; the 200 ms stall starts stall_after_ms later; the
 * scenario ends 300 ms after the stall.
 */
#include "scenario.h"

#include <dlfcn.h>
#include <stdio.h>

typedef void (*SetPollFunc) (GMainContext *context, GPollFunc func);

static GMainLoop *loop;
static guint app_poll_calls; /* main thread only */
static guint calls_at_stall;
static gboolean use_real_setter;

gint
app_poll_func (GPollFD *fds, guint nfds, gint timeout)
{
  app_poll_calls++;
  return g_poll (fds, nfds, timeout);
}

gboolean
pollfunc_ticker_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* The real g_main_context_set_poll_func of libglib, as GLib-internal calls
 * reach it: looked up in libglib's own scope, so that no interposer (an
 * LD_PRELOAD object comes right after the executable, so RTLD_NEXT from here
 * could find the interposer itself) is in the way. */
static SetPollFunc
real_set_poll_func (void)
{
  void *glib = dlopen ("libglib-2.0.so.0", RTLD_LAZY | RTLD_NOLOAD);
  SetPollFunc func;

  scenario_check (glib != NULL);
  func = (SetPollFunc) dlsym (glib, "g_main_context_set_poll_func");
  scenario_check (func != NULL);
  dlclose (glib);
  return func;
}

gboolean
pollfunc_end_cb (gpointer data)
{
  printf ("poll_calls_at_stall=%u\n", calls_at_stall);
  printf ("poll_calls_at_end=%u\n", app_poll_calls);
  printf ("get_poll_func_is_app=%d\n", g_main_context_get_poll_func (NULL) == app_poll_func);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

gboolean
pollfunc_stall_cb (gpointer data)
{
  calls_at_stall = app_poll_calls;
  busy_wait_ms (200);
  add_named_timeout ("pollfunc-end", 300, pollfunc_end_cb, NULL);
  return G_SOURCE_REMOVE;
}

gboolean
pollfunc_install_cb (gpointer data)
{
  guint stall_after_ms = GPOINTER_TO_UINT (data);

  if (use_real_setter)
    real_set_poll_func () (NULL, app_poll_func);
  else
    g_main_context_set_poll_func (NULL, app_poll_func);
  printf ("get_poll_func_is_app_after_set=%d\n",
          g_main_context_get_poll_func (NULL) == app_poll_func);
  add_named_timeout ("pollfunc-stall", stall_after_ms, pollfunc_stall_cb, NULL);
  return G_SOURCE_REMOVE;
}

static int
run_pollfunc_scenario (guint stall_after_ms)
{
  loop = g_main_loop_new (NULL, FALSE);
  add_named_timeout ("pollfunc-ticker", 10, pollfunc_ticker_cb, NULL);
  add_named_timeout ("pollfunc-install", 100, pollfunc_install_cb,
                     GUINT_TO_POINTER (stall_after_ms));
  run_loop (loop);
  return 0;
}

int
scenario_pollfunc_after (void)
{
  return run_pollfunc_scenario (200);
}

/* The stall comes 2 s after the hidden replacement: jankscope has had time
 * to notice it and to chain itself in front of the app's function again. */
int
scenario_pollfunc_replaced_internally (void)
{
  use_real_setter = TRUE;
  return run_pollfunc_scenario (2000);
}
