/* Unit tests of js-dbus-calls: the names of the main thread's synchronous
 * D-Bus call, noted while it lasts, copied and checked (never trusted), and
 * nothing for other threads. */
#include "js-dbus-calls.h"

#include <gio/gio.h>

static gpointer
begin_elsewhere (gpointer data)
{
  js_dbus_calls_begin (JS_DBUS_CALL_NAMES, NULL, "org.other", "/other", "org.other.I", "M");
  return js_dbus_calls_current ();
}

static void
test_names (void)
{
  JsBridge bridge = { 0 };
  g_autofree char *text = NULL, *elsewhere = NULL, *after = NULL, *odd = NULL;
  g_autofree char *long_name = g_strnfill (600, 'a');
  g_autofree char *cut = NULL;
  GDBusMessage *message;

  js_dbus_calls_install (&bridge);
  g_assert_true (bridge.dbus_sync_begin == js_dbus_calls_begin);
  g_assert_true (bridge.dbus_sync_end == js_dbus_calls_end);
  g_assert_null (js_dbus_calls_current ());
  js_dbus_calls_begin (JS_DBUS_CALL_NAMES, NULL, "org.example.Maps", "/org/example/Maps",
                       "org.example.Maps", "Lookup");
  text = js_dbus_calls_current ();
  g_assert_cmpstr (text, ==, "Dorg.example.Maps\n/org/example/Maps\norg.example.Maps\nLookup");
  /* Another thread's call is not noted (and does not end this one). */
  elsewhere = g_thread_join (g_thread_new ("other", begin_elsewhere, NULL));
  g_assert_cmpstr (elsewhere, ==, text);
  js_dbus_calls_end ();
  after = js_dbus_calls_current ();
  g_assert_null (after);
  js_dbus_calls_end (); /* unbalanced: harmless */
  /* What the app passed is copied, never trusted: cut, and characters of
   * no D-Bus name replaced (no line break can split the detail). */
  js_dbus_calls_begin (JS_DBUS_CALL_NAMES, NULL, NULL, "/a\nb", long_name, "M\x01");
  odd = js_dbus_calls_current ();
  cut = g_strndup (long_name, 255);
  g_assert_true (g_str_has_prefix (odd, "D\n/a?b\n"));
  g_assert_nonnull (strstr (odd, cut));
  g_assert_true (g_str_has_suffix (odd, "\nM?"));
  js_dbus_calls_end ();
  /* A message's names; a proxy that is not one gives none. */
  message = g_dbus_message_new_method_call ("org.example.Dest", "/org/example/Obj",
                                            "org.example.Iface", "Call");
  js_dbus_calls_begin (JS_DBUS_CALL_MESSAGE, message, NULL, NULL, NULL, NULL);
  g_free (text);
  text = js_dbus_calls_current ();
  g_assert_cmpstr (text, ==, "Dorg.example.Dest\n/org/example/Obj\norg.example.Iface\nCall");
  js_dbus_calls_end ();
  js_dbus_calls_begin (JS_DBUS_CALL_PROXY, message, NULL, NULL, NULL, "org.example.I.Method");
  g_free (text);
  text = js_dbus_calls_current ();
  g_assert_cmpstr (text, ==, "D\n\norg.example.I\nMethod");
  js_dbus_calls_end ();
  g_object_unref (message);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/DbusCalls/names", test_names);
  return g_test_run ();
}
