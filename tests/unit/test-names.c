/* Unit tests of source names (js-names.c): a new source named with a string
 * seen before is named without hashing the string again, and an address that
 * now holds another string is never taken for the old name; a literal's
 * address is trusted without comparing its text until the dlclose count
 * moves, and nothing else is (a writable buffer, the heap, no count). */
#include "js-names.h"

#include <dlfcn.h>
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

/* New sources named `name` (statically), `n` of them: the text compares
 * they cost; each must be named `name`. */
static guint64
text_checks_for (const char *name, guint n)
{
  guint64 before = js_names_text_checks ();

  for (guint i = 0; i < n; i++)
    {
      GSource *s = named_source (name, TRUE);

      g_assert_cmpstr (js_names_get (js_names_for_source (s)), ==, name);
      drop (s);
    }
  return js_names_text_checks () - before;
}

static gboolean
have_find_object (void)
{
  if (dlsym (RTLD_DEFAULT, "_dl_find_object") != NULL)
    return TRUE;
  g_test_skip ("no _dl_find_object (glibc before 2.35): every name is checked");
  return FALSE;
}

static unsigned unloads;

/* A string literal (a read-only segment of this program): after the first
 * source, trusted by its address; a dlclose (the count moves) makes the next
 * hit compare the text once, then it is trusted again. */
static void
test_literal_trusted (void)
{
  static const char *const name = "test-names literal";

  if (!have_find_object ())
    return;
  js_names_set_unloads (&unloads);
  g_assert_cmpuint (text_checks_for (name, 1), ==, 0); /* hashed */
  g_assert_cmpuint (text_checks_for (name, 100), ==, 0);
  unloads++;
  g_assert_cmpuint (text_checks_for (name, 100), ==, 1);
  js_names_set_unloads (NULL);
  g_assert_cmpuint (text_checks_for (name, 10), ==, 10);
}

/* A writable static buffer is inside this program's image too, but may be
 * rewritten: every hit compares, and a new text is a new name. */
static char writable[64];

static void
test_writable_checked (void)
{
  if (!have_find_object ())
    return;
  js_names_set_unloads (&unloads);
  strcpy (writable, "test-names writable");
  g_assert_cmpuint (text_checks_for (writable, 11), ==, 10);
  strcpy (writable, "test-names rewritten");
  g_assert_cmpuint (text_checks_for (writable, 1), ==, 1);
  g_assert_cmpuint (text_checks_for (writable, 10), ==, 10);
  js_names_set_unloads (NULL);
}

/* On the heap: every hit compares. */
static void
test_heap_checked (void)
{
  char *name = g_strdup ("test-names heap");

  if (!have_find_object ())
    {
      g_free (name);
      return;
    }
  js_names_set_unloads (&unloads);
  g_assert_cmpuint (text_checks_for (name, 11), ==, 10);
  js_names_set_unloads (NULL);
  g_free (name);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  context = g_main_context_new ();
  g_test_add_func ("/names/static-name-hashed-once", test_static_name_hashed_once);
  g_test_add_func ("/names/reused-address", test_reused_address);
  g_test_add_func ("/names/copied-names", test_copied_names);
  g_test_add_func ("/names/literal-trusted", test_literal_trusted);
  g_test_add_func ("/names/writable-checked", test_writable_checked);
  g_test_add_func ("/names/heap-checked", test_heap_checked);
  return g_test_run ();
}
