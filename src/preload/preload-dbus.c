/* preload-dbus.c: GIO's synchronous D-Bus calls, noted by the core while
 * they last (js-dbus-calls.h: the names of a `dbus-sync` diagnosis).
 *
 * Only the app's calls reach these (GIO's internal calls bind directly).
 * Each forwards to GIO's function (js_preload_real_symbol, once), between the
 * core's begin and end hooks when the core is running: on the main thread
 * the core copies a few bounded names, elsewhere it returns at once. GIO's
 * prototypes without GIO's types: pointers, ints and a GVariant* return.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <stddef.h>

/* GIO may be loaded RTLD_LOCAL (a plugin's dependency): js_preload_real_symbol. */
#define REAL(name, type) ((type) js_preload_real_symbol (&real_##name, #name, "libgio-2.0.so.0"))

static void *real_g_dbus_connection_call_sync;
static void *real_g_dbus_connection_call_with_unix_fd_list_sync;
static void *real_g_dbus_connection_send_message_with_reply_sync;
static void *real_g_dbus_proxy_call_sync;
static void *real_g_dbus_proxy_call_with_unix_fd_list_sync;

/* The core's end hook when its begin hook ran, else NULL. */
static void (*begin (int kind, void *object, const char *bus_name, const char *object_path,
                     const char *interface_name, const char *method_name)) (void)
{
  void (*hook) (int, void *, const char *, const char *, const char *, const char *)
      = js_load_hook ((void **) &js_preload_bridge.dbus_sync_begin);

  if (hook == NULL)
    return NULL;
  hook (kind, object, bus_name, object_path, interface_name, method_name);
  /* Stored before begin (release): seen once begin is. */
  return js_load_hook ((void **) &js_preload_bridge.dbus_sync_end);
}

static void
end (void (*hook) (void))
{
  if (hook != NULL)
    hook ();
}

JS_EXPORT void *g_dbus_connection_call_sync (void *connection, const char *bus_name,
                                             const char *object_path, const char *interface_name,
                                             const char *method_name, void *parameters,
                                             const void *reply_type, int flags, int timeout_msec,
                                             void *cancellable, void **error);
JS_EXPORT void *g_dbus_connection_call_with_unix_fd_list_sync (
    void *connection, const char *bus_name, const char *object_path, const char *interface_name,
    const char *method_name, void *parameters, const void *reply_type, int flags, int timeout_msec,
    void *fd_list, void **out_fd_list, void *cancellable, void **error);
JS_EXPORT void *g_dbus_connection_send_message_with_reply_sync (void *connection, void *message,
                                                                int flags, int timeout_msec,
                                                                unsigned *out_serial,
                                                                void *cancellable, void **error);
JS_EXPORT void *g_dbus_proxy_call_sync (void *proxy, const char *method_name, void *parameters,
                                        int flags, int timeout_msec, void *cancellable,
                                        void **error);
JS_EXPORT void *g_dbus_proxy_call_with_unix_fd_list_sync (void *proxy, const char *method_name,
                                                          void *parameters, int flags,
                                                          int timeout_msec, void *fd_list,
                                                          void **out_fd_list, void *cancellable,
                                                          void **error);

JS_EXPORT void *
g_dbus_connection_call_sync (void *connection, const char *bus_name, const char *object_path,
                             const char *interface_name, const char *method_name, void *parameters,
                             const void *reply_type, int flags, int timeout_msec, void *cancellable,
                             void **error)
{
  void (*done) (void)
      = begin (JS_DBUS_CALL_NAMES, NULL, bus_name, object_path, interface_name, method_name);
  void *reply = REAL (g_dbus_connection_call_sync,
                      void *(*) (void *, const char *, const char *, const char *, const char *,
                                 void *, const void *, int, int, void *, void **) ) (
      connection, bus_name, object_path, interface_name, method_name, parameters, reply_type, flags,
      timeout_msec, cancellable, error);

  end (done);
  return reply;
}

JS_EXPORT void *
g_dbus_connection_call_with_unix_fd_list_sync (void *connection, const char *bus_name,
                                               const char *object_path, const char *interface_name,
                                               const char *method_name, void *parameters,
                                               const void *reply_type, int flags, int timeout_msec,
                                               void *fd_list, void **out_fd_list, void *cancellable,
                                               void **error)
{
  void (*done) (void)
      = begin (JS_DBUS_CALL_NAMES, NULL, bus_name, object_path, interface_name, method_name);
  void *reply
      = REAL (g_dbus_connection_call_with_unix_fd_list_sync,
              void *(*) (void *, const char *, const char *, const char *, const char *, void *,
                         const void *, int, int, void *, void **, void *, void **) ) (
          connection, bus_name, object_path, interface_name, method_name, parameters, reply_type,
          flags, timeout_msec, fd_list, out_fd_list, cancellable, error);

  end (done);
  return reply;
}

JS_EXPORT void *
g_dbus_connection_send_message_with_reply_sync (void *connection, void *message, int flags,
                                                int timeout_msec, unsigned *out_serial,
                                                void *cancellable, void **error)
{
  void (*done) (void) = begin (JS_DBUS_CALL_MESSAGE, message, NULL, NULL, NULL, NULL);
  void *reply = REAL (g_dbus_connection_send_message_with_reply_sync,
                      void *(*) (void *, void *, int, int, unsigned *, void *, void **) ) (
      connection, message, flags, timeout_msec, out_serial, cancellable, error);

  end (done);
  return reply;
}

JS_EXPORT void *
g_dbus_proxy_call_sync (void *proxy, const char *method_name, void *parameters, int flags,
                        int timeout_msec, void *cancellable, void **error)
{
  void (*done) (void) = begin (JS_DBUS_CALL_PROXY, proxy, NULL, NULL, NULL, method_name);
  void *reply = REAL (g_dbus_proxy_call_sync,
                      void *(*) (void *, const char *, void *, int, int, void *, void **) ) (
      proxy, method_name, parameters, flags, timeout_msec, cancellable, error);

  end (done);
  return reply;
}

JS_EXPORT void *
g_dbus_proxy_call_with_unix_fd_list_sync (void *proxy, const char *method_name, void *parameters,
                                          int flags, int timeout_msec, void *fd_list,
                                          void **out_fd_list, void *cancellable, void **error)
{
  void (*done) (void) = begin (JS_DBUS_CALL_PROXY, proxy, NULL, NULL, NULL, method_name);
  void *reply = REAL (g_dbus_proxy_call_with_unix_fd_list_sync,
                      void *(*) (void *, const char *, void *, int, int, void *, void **, void *,
                                 void **) ) (proxy, method_name, parameters, flags, timeout_msec,
                                             fd_list, out_fd_list, cancellable, error);

  end (done);
  return reply;
}
