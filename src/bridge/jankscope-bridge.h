/* jankscope-bridge.h: the ABI between the loaders (preload, GTK3 module) and the core.
 *
 * Plain C, no GLib types: the preload includes it and must not link GLib.
 * The loader dlopen()s libjankscope-core.so and calls jankscope_core_start()
 * with a JsBridge it owns; the core fills in the hook pointers it wants
 * called. The loader reads the hooks with acquire loads, so a hook becomes
 * visible to other threads only once the core is fully set up.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define JS_BRIDGE_ABI 5

/* The pid of the run's root process, set by the preload's constructor in the
 * first process of a run (js-report-path.c says who owns the report path). */
#define JS_REPORT_OWNER_VAR "JANKSCOPE_REPORT_OWNER"

struct JsCallGuard; /* js-call-guard.h */

/* Layout-compatible with GSourceFuncs (six pointers). */
typedef struct
{
  void *prepare;
  void *check;
  void *dispatch;
  void *finalize;
  void *closure_callback;
  void *closure_marshal;
} JsSourceFuncs;

typedef int (*JsDispatchFunc) (void *source, void *callback, void *user_data);

/* What the code that called GLib posted (JsBridge.posted). */
typedef enum
{
  JS_POST_IDLE = 1, /* g_idle_add* */
  JS_POST_TIMEOUT,  /* g_timeout_add* */
  JS_POST_ATTACH,   /* g_source_attach */
  JS_POST_WATCH,    /* g_child_watch_add*, g_io_add_watch*, g_unix_fd_add*, g_unix_signal_add* */
  JS_POST_GDK,      /* gdk_threads_add_* (GDK 3) */
  JS_POST_TASK,     /* g_task_new: its completion will be posted by GIO */
  JS_POST_N_KINDS
} JsPostKind;

typedef enum
{
  JS_MODE_PRELOAD = 1, /* all hooks: data interposition + function interposition */
  JS_MODE_GTK_MODULE,  /* GTK_MODULES only: poll function, no dispatch hooks */
} JsMode;

typedef struct
{
  unsigned abi; /* JS_BRIDGE_ABI */
  JsMode mode;

  /* Set by the loader: its JankscopeApiV1 table (include/jankscope.h), which
   * the app finds first, or NULL. The core stores its functions into it. */
  void *api_table;

  /* Set by the preload before the core starts: nonzero when its guarded
   * wrapper of poll (preload-blocking.c) is what the name `poll` resolves
   * to in the global scope, and so what GLib's g_poll calls (through the
   * PLT). The core's poll function then leaves g_poll's guard to it. */
  int poll_wrapped;

  /* Set by the preload before the core starts: its count of dlclose calls
   * (preload-unloads.c), bumped before each one; NULL without a preload.
   * Until it moves, no loaded object has been unloaded: an address inside
   * one's image still holds what it held (js-names.c relies on it). */
  const unsigned *unloads;

  /* Set by the core. Called by the preload; NULL means "not interested". */

  /* A dispatch of a GLib built-in source type (idle, timeout, child watch,
   * I/O watch, unix signal, unix fd): `real` is GLib's own dispatch. */
  int (*dispatch) (JsDispatchFunc real, void *source, void *callback, void *user_data);

  /* Before GLib's g_source_attach (source, context) runs. */
  void (*before_attach) (void *source, void *context);

  /* g_main_context_set_poll_func (context, func) from outside GLib.
   * Returns nonzero when the core took it over (then GLib's is not called). */
  int (*set_poll_func) (void *context, void *func);

  /* g_main_context_get_poll_func (context): nonzero + *func when the core answers. */
  int (*get_poll_func) (void *context, void **func);

  /* For g_main_context_find_source_by_funcs_user_data (): the funcs the core
   * gave to sources that were attached with `funcs`, or NULL. */
  const void *(*swapped_funcs) (const void *funcs);

  /* The handshake between the sampling signal and the main thread's blocking
   * calls (js-call-guard.h), owned by the core; the preload's wrappers of
   * poll, nanosleep & co. follow it. */
  struct JsCallGuard *call_guard;

  /* After a call from outside GLib posted work (preload-post.c): the
   * return address into the code that called (`caller`), the callback
   * (`func`, or NULL), and the source's id in `context` (NULL: the default
   * context), or the GTask (`task`, id 0). Any thread. */
  void (*posted) (int kind, const void *caller, const void *func, unsigned id, void *context,
                  void *task);
  /* A synchronous D-Bus call the app makes (js-dbus-calls.h): the preload
   * calls dbus_sync_begin before forwarding it and, if it did, dbus_sync_end
   * after. `kind`: JS_DBUS_CALL_NAMES (the names given), JS_DBUS_CALL_PROXY
   * (`object` a GDBusProxy, `method_name` given), JS_DBUS_CALL_MESSAGE
   * (`object` a GDBusMessage). */
  void (*dbus_sync_begin) (int kind, void *object, const char *bus_name, const char *object_path,
                           const char *interface_name, const char *method_name);
  void (*dbus_sync_end) (void);
} JsBridge;

enum
{
  JS_DBUS_CALL_NAMES,
  JS_DBUS_CALL_PROXY,
  JS_DBUS_CALL_MESSAGE,
};

/* Exported by libjankscope-core.so. Returns 0 on success; on failure the core
 * has printed why and leaves every hook NULL. */
typedef int (*JsCoreStartFunc) (JsBridge *bridge);
#define JS_CORE_START_SYMBOL "jankscope_core_start"
#define JS_CORE_LIBRARY "libjankscope-core.so"
