/* js-dbus-calls.h: the synchronous D-Bus call the main thread is making, as
 * evidence for the `dbus-sync` diagnosis (docs/report-format.md,
 * "Diagnosis").
 *
 * The main thread waits for the reply in a poll of a private context: the
 * system call says nothing of the message, and the watchdog never reads the
 * app's memory through its pointers. So the preload stands in for the
 * synchronous calls the app makes (g_dbus_connection_call_sync,
 * g_dbus_connection_call_with_unix_fd_list_sync,
 * g_dbus_connection_send_message_with_reply_sync, g_dbus_proxy_call_sync,
 * g_dbus_proxy_call_with_unix_fd_list_sync) and, on the main thread only,
 * the core copies the call's names (destination, object path, interface,
 * method), bounded, into memory of its own before forwarding it; the
 * watchdog reads that copy under a sequence count while the call lasts.
 * GLib's own calls inside GIO (g_dbus_proxy_new_sync's) bind directly and are
 * not seen, nor are calls PyGObject finds with dlsym on GIO's handle, nor
 * anything in GTK module mode (no preload): then the diagnosis has no names.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "jankscope-bridge.h"

G_BEGIN_DECLS

/* Installs the hooks in the preload's bridge (preload mode); the calling
 * thread (the main thread, at start-up) is the one whose calls are noted. */
void js_dbus_calls_install (JsBridge *bridge);

/* The hooks, exposed for the unit tests: `kind` is a JsDbusCallKind, `object`
 * the GDBusProxy or GDBusMessage (kinds PROXY, MESSAGE), the names those of
 * the call (NULL where the object gives them). */
void js_dbus_calls_begin (int kind, void *object, const char *bus_name, const char *object_path,
                          const char *interface_name, const char *method_name);
void js_dbus_calls_end (void);

/* Watchdog: the call under way on the main thread, as the sample detail
 * "D" BUS '\n' OBJECT_PATH '\n' INTERFACE '\n' METHOD (js-sample-detail.h),
 * newly allocated; NULL when none is under way (or it changed meanwhile). */
char *js_dbus_calls_current (void);

/* Any thread, async-signal-safe (a signal handler on the main thread): a
 * number that names the call under way, 0 when none is; js_dbus_calls_current
 * gives that call's names while this number stays the same. */
guint js_dbus_calls_generation (void);

G_END_DECLS
