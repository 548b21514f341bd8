/* dbus-note-cost.c: what noting a synchronous D-Bus call costs the main
 * thread (src/core/js-dbus-calls.c, called by the preload's stand-ins of
 * g_dbus_connection_call_sync & co.), against the same calls through an
 * empty hook, side by side in one process; and the cost off the main
 * thread (a pthread_self compare).
 *
 *   dbus-note-cost
 *
 * 7 rounds of 1,000,000 calls each side, alternating; prints the medians in
 * ns per call (begin + end).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>

#include "js-dbus-calls.h"

#define ROUNDS 7
#define CALLS 1000000

static void __attribute__ ((noinline))
empty_begin (int kind, void *object, const char *bus_name, const char *object_path,
             const char *interface_name, const char *method_name)
{
  __asm__ volatile("" : : "r"(bus_name), "r"(method_name) : "memory");
}

static void __attribute__ ((noinline)) empty_end (void) { __asm__ volatile("" : : : "memory"); }

typedef struct
{
  void (*begin) (int, void *, const char *, const char *, const char *, const char *);
  void (*end) (void);
} Hooks;

static double
round_ns (const Hooks *h)
{
  gint64 t0 = g_get_monotonic_time ();

  for (guint i = 0; i < CALLS; i++)
    {
      h->begin (JS_DBUS_CALL_NAMES, NULL, "org.freedesktop.NetworkManager",
                "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Properties", "GetAll");
      h->end ();
    }
  return (double) (g_get_monotonic_time () - t0) * 1000.0 / CALLS;
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static gpointer
off_main (gpointer data)
{
  double *out = data;
  Hooks noted = { js_dbus_calls_begin, js_dbus_calls_end };

  for (guint r = 0; r < ROUNDS; r++)
    out[r] = round_ns (&noted);
  return NULL;
}

int
main (void)
{
  JsBridge bridge = { 0 };
  Hooks empty = { empty_begin, empty_end };
  Hooks noted = { js_dbus_calls_begin, js_dbus_calls_end };
  double base[ROUNDS], note[ROUNDS], other[ROUNDS];
  char *current;

  js_dbus_calls_install (&bridge);
  for (guint r = 0; r < ROUNDS; r++)
    {
      base[r] = round_ns (&empty);
      note[r] = round_ns (&noted);
    }
  g_thread_join (g_thread_new ("other", off_main, other));
  qsort (base, ROUNDS, sizeof (double), cmp_double);
  qsort (note, ROUNDS, sizeof (double), cmp_double);
  qsort (other, ROUNDS, sizeof (double), cmp_double);
  /* The note is there while a call lasts. */
  noted.begin (JS_DBUS_CALL_NAMES, NULL, "org.a", "/a", "org.a.I", "M");
  current = js_dbus_calls_current ();
  noted.end ();
  printf ("empty hook        %.1f ns per call (median of %d rounds)\n", base[ROUNDS / 2], ROUNDS);
  printf ("noted, main       %.1f ns per call\n", note[ROUNDS / 2]);
  printf ("noted, other      %.1f ns per call\n", other[ROUNDS / 2]);
  printf ("note while a call lasts: %s\n", current != NULL ? "yes" : "NO");
  g_free (current);
  return 0;
}
