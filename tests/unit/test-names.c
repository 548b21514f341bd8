/* Unit tests of source names (js-names.c): a new source named with a string
 * seen before is named without hashing the string again, and an address that
 * now holds another string is never taken for the old name. */
#include "js-names.h"

#include <string.h>

static GMainContext *context;

/* Attached, as a dispatched source is: it has an id of its own. */
static GSource *
named_source (const char *name, gboolean is_static)
{
  GSource *s = g_idle_source_new ();

  if (is_static)
    g_source_set_static_name (s, name);
  else
    g_source_set_name (s, name);
  g_source_attach (s, context);
  return s;
}

static void
drop (GSource *s)
{
  g_source_destroy (s);
  g_source_unref (s);
}

/* GLib names every g_idle_add source with one static string: a thousand new
 * sources are one hashed lookup, not a thousand. */
static void
test_static_name_hashed_once (void)
{
  static const char name[] = "test-names static";
  guint64 before = js_names_hashed_lookups ();
  guint32 id = JS_NAME_NONE;

  for (guint i = 0; i < 1000; i++)
    {
      GSource *s = named_source (name, TRUE);
      guint32 got = js_names_for_source (s);

      if (i == 0)
        id = got;
      g_assert_cmpuint (got, ==, id);
      drop (s);
    }
  g_assert_cmpstr (js_names_get (id), ==, name);
  g_assert_cmpuint (js_names_hashed_lookups () - before, ==, 1);
}

/* A name's address reused for another string: the cache checks the text. */
static void
test_reused_address (void)
{
  char buf[64];
  GSource *a, *b;
  guint32 ida, idb;

  strcpy (buf, "test-names first");
  a = named_source (buf, TRUE);
  ida = js_names_for_source (a);
  drop (a);

  strcpy (buf, "test-names second");
  b = named_source (buf, TRUE);
  idb = js_names_for_source (b);
  g_assert_cmpuint (ida, !=, idb);
  g_assert_cmpstr (js_names_get (ida), ==, "test-names first");
  g_assert_cmpstr (js_names_get (idb), ==, "test-names second");
  /* The same source renamed in place. */
  strcpy (buf, "test-names third");
  g_assert_cmpstr (js_names_get (js_names_for_source (b)), ==, "test-names second");
  g_source_set_static_name (b, "test-names fourth");
  g_assert_cmpstr (js_names_get (js_names_for_source (b)), ==, "test-names fourth");
  drop (b);
}

/* Copies (g_source_set_name): equal texts are one id whatever the address. */
static void
test_copied_names (void)
{
  GSource *a = named_source ("test-names copied", FALSE);
  GSource *b = named_source ("test-names copied", FALSE);

  g_assert_cmpuint (js_names_for_source (a), ==, js_names_for_source (b));
  g_assert_cmpuint (js_names_for_source (a), !=, JS_NAME_NONE);
  drop (a);
  drop (b);
  a = named_source (NULL, FALSE);
  g_assert_cmpuint (js_names_for_source (a), ==, JS_NAME_NONE);
  drop (a);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  context = g_main_context_new ();
  g_test_add_func ("/names/static-name-hashed-once", test_static_name_hashed_once);
  g_test_add_func ("/names/reused-address", test_reused_address);
  g_test_add_func ("/names/copied-names", test_copied_names);
  return g_test_run ();
}
