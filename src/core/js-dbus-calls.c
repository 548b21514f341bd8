/* js-dbus-calls.c: the main thread's synchronous D-Bus call, noted for the
 * watchdog (js-dbus-calls.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-dbus-calls.h"

#include <gio/gio.h>
#include <pthread.h>
#include <string.h>

/* Each name cut at this many bytes (a bus name or interface is at most 255
 * by the D-Bus specification; object paths have no bound). */
#define NAME_BYTES 256
enum
{
  BUS,
  OBJECT_PATH,
  INTERFACE,
  METHOD,
  N_NAMES
};

/* Written by the main thread only, read by the watchdog. A sequence count:
 * odd while the main thread writes; a reader that sees it change (or odd)
 * drops what it copied. Every byte is accessed with relaxed atomics: the
 * reader may race with the writer, and then throws its copy away. */
static struct
{
  guint seq;
  gint depth; /* calls under way (a sync call inside another's wait: never in practice) */
  char names[N_NAMES][NAME_BYTES];
} note;

/* The thread whose calls are noted: the one that installed the hooks (the
 * main thread, at start-up). */
static pthread_t noted_thread;

/* A byte of a D-Bus name, bus name, object path, interface or member ([A-Za-z0-9_.:/-]), else
 * '?': what the app passed is copied, never trusted. */
static char
name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == ':' || c == '/' || c == '-' ? c : '?';
}

static void
store_name (guint which, const char *value, gsize len)
{
  gsize i = 0;

  for (; value != NULL && i < len && i < NAME_BYTES - 1 && value[i] != '\0'; i++)
    __atomic_store_n (&note.names[which][i], name_char (value[i]), __ATOMIC_RELAXED);
  __atomic_store_n (&note.names[which][i], '\0', __ATOMIC_RELAXED);
}

void
js_dbus_calls_begin (int kind, void *object, const char *bus_name, const char *object_path,
                     const char *interface_name, const char *method_name)
{
  const char *dot = NULL;
  guint seq;

  if (!pthread_equal (pthread_self (), noted_thread))
    return;
  if (kind == JS_DBUS_CALL_PROXY)
    {
      GDBusProxy *proxy = object;

      if (proxy == NULL || !G_TYPE_CHECK_INSTANCE_TYPE (proxy, G_TYPE_DBUS_PROXY))
        proxy = NULL; /* GIO will say what is wrong with it: not ours to */
      bus_name = proxy != NULL ? g_dbus_proxy_get_name (proxy) : NULL;
      object_path = proxy != NULL ? g_dbus_proxy_get_object_path (proxy) : NULL;
      interface_name = proxy != NULL ? g_dbus_proxy_get_interface_name (proxy) : NULL;
      /* g_dbus_proxy_call's method may be "Interface.Method". */
      if (method_name != NULL)
        dot = strrchr (method_name, '.');
    }
  else if (kind == JS_DBUS_CALL_MESSAGE)
    {
      GDBusMessage *message = object;

      if (message == NULL || !G_TYPE_CHECK_INSTANCE_TYPE (message, G_TYPE_DBUS_MESSAGE))
        message = NULL;
      bus_name = message != NULL ? g_dbus_message_get_destination (message) : NULL;
      object_path = message != NULL ? g_dbus_message_get_path (message) : NULL;
      interface_name = message != NULL ? g_dbus_message_get_interface (message) : NULL;
      method_name = message != NULL ? g_dbus_message_get_member (message) : NULL;
    }
  seq = __atomic_load_n (&note.seq, __ATOMIC_RELAXED);
  __atomic_store_n (&note.seq, seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  store_name (BUS, bus_name, G_MAXSIZE);
  store_name (OBJECT_PATH, object_path, G_MAXSIZE);
  if (dot != NULL)
    {
      store_name (INTERFACE, method_name, (gsize) (dot - method_name));
      store_name (METHOD, dot + 1, G_MAXSIZE);
    }
  else
    {
      store_name (INTERFACE, interface_name, G_MAXSIZE);
      store_name (METHOD, method_name, G_MAXSIZE);
    }
  __atomic_store_n (&note.seq, seq + 2, __ATOMIC_RELEASE);
  __atomic_add_fetch (&note.depth, 1, __ATOMIC_RELEASE);
}

void
js_dbus_calls_end (void)
{
  if (pthread_equal (pthread_self (), noted_thread)
      && __atomic_load_n (&note.depth, __ATOMIC_RELAXED) > 0)
    __atomic_sub_fetch (&note.depth, 1, __ATOMIC_RELEASE);
}

guint
js_dbus_calls_generation (void)
{
  if (__atomic_load_n (&note.depth, __ATOMIC_ACQUIRE) <= 0)
    return 0;
  /* Odd while a begin writes the names: never equal to a later reading. */
  return __atomic_load_n (&note.seq, __ATOMIC_ACQUIRE);
}

char *
js_dbus_calls_current (void)
{
  char copy[N_NAMES][NAME_BYTES];
  guint before, after;

  if (__atomic_load_n (&note.depth, __ATOMIC_ACQUIRE) <= 0)
    return NULL;
  before = __atomic_load_n (&note.seq, __ATOMIC_ACQUIRE);
  if (before & 1)
    return NULL;
  for (guint k = 0; k < N_NAMES; k++)
    for (guint i = 0; i < NAME_BYTES; i++)
      copy[k][i] = __atomic_load_n (&note.names[k][i], __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  after = __atomic_load_n (&note.seq, __ATOMIC_RELAXED);
  if (after != before)
    return NULL;
  for (guint k = 0; k < N_NAMES; k++)
    copy[k][NAME_BYTES - 1] = '\0';
  return g_strdup_printf ("D%s\n%s\n%s\n%s", copy[BUS], copy[OBJECT_PATH], copy[INTERFACE],
                          copy[METHOD]);
}

void
js_dbus_calls_install (JsBridge *bridge)
{
  noted_thread = pthread_self ();
  /* end before begin: the preload calls end only after a begin it saw. */
  __atomic_store_n (&bridge->dbus_sync_end, js_dbus_calls_end, __ATOMIC_RELEASE);
  __atomic_store_n (&bridge->dbus_sync_begin, js_dbus_calls_begin, __ATOMIC_RELEASE);
}
