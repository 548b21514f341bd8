/* Unit tests of the JSON writer (src/common/js-json-writer.c, and the
 * reader's jsr_json_writer_node):
 * each style's separators and line breaks, json-glib's pretty printing,
 * strings, numbers, and that what it writes reads back the same. */
#include <math.h>
#include <string.h>

#include "jsr-json-doc.h"
#include "jsr-json-writer.h"

static GString *
start (JsJsonWriter *w, JsJsonWriterStyle style)
{
  GString *out = g_string_new (NULL);

  js_json_writer_init (w, out, style);
  return out;
}

static void
write_sample (JsJsonWriter *w)
{
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "a");
  js_json_writer_int (w, -3);
  js_json_writer_member (w, "b");
  js_json_writer_begin_array (w);
  js_json_writer_uint (w, G_MAXUINT64);
  js_json_writer_string (w, NULL);
  js_json_writer_bool (w, FALSE);
  js_json_writer_begin_object (w);
  js_json_writer_end_object (w);
  js_json_writer_begin_array (w);
  js_json_writer_end_array (w);
  js_json_writer_end_array (w);
  js_json_writer_end_object (w);
}

static void
test_styles (void)
{
  JsJsonWriter w;
  g_autoptr (GString) compact = start (&w, JS_JSON_WRITER_COMPACT);
  g_autoptr (GString) spaced = NULL;
  g_autoptr (GString) pretty = NULL;

  write_sample (&w);
  g_assert_cmpstr (compact->str, ==, "{\"a\":-3,\"b\":[18446744073709551615,null,false,{},[]]}");

  spaced = start (&w, JS_JSON_WRITER_SPACED);
  write_sample (&w);
  g_assert_cmpstr (spaced->str, ==,
                   "{\"a\": -3, \"b\": [18446744073709551615, null, false, {}, []]}");

  /* json-glib 1.6's generator (pretty, indent 2), an empty object included. */
  pretty = start (&w, JS_JSON_WRITER_PRETTY);
  write_sample (&w);
  g_assert_cmpstr (pretty->str, ==,
                   "{\n"
                   "  \"a\" : -3,\n"
                   "  \"b\" : [\n"
                   "    18446744073709551615,\n"
                   "    null,\n"
                   "    false,\n"
                   "    {    },\n"
                   "    []\n"
                   "  ]\n"
                   "}");
}

/* Line breaks where the caller asks, commas at the end of the line before;
 * before a closing bracket too. */
static void
test_newlines (void)
{
  JsJsonWriter w;
  g_autoptr (GString) out = start (&w, JS_JSON_WRITER_SPACED);

  js_json_writer_begin_object (&w);
  js_json_writer_newline (&w, 2);
  js_json_writer_member (&w, "list");
  js_json_writer_begin_array (&w);
  for (int i = 0; i < 2; i++)
    {
      js_json_writer_newline (&w, 4);
      js_json_writer_begin_object (&w);
      js_json_writer_member (&w, "x");
      js_json_writer_int (&w, i);
      js_json_writer_newline (&w, 5);
      js_json_writer_member (&w, "y");
      js_json_writer_null (&w);
      js_json_writer_end_object (&w);
    }
  js_json_writer_newline (&w, 2);
  js_json_writer_end_array (&w);
  js_json_writer_newline (&w, 0);
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==,
                   "{\n"
                   "  \"list\": [\n"
                   "    {\"x\": 0,\n"
                   "     \"y\": null},\n"
                   "    {\"x\": 1,\n"
                   "     \"y\": null}\n"
                   "  ]\n"
                   "}");
}

static void
test_strings (void)
{
  JsJsonWriter w;
  g_autoptr (GString) out = start (&w, JS_JSON_WRITER_COMPACT);
  g_autoptr (GString) pretty = NULL;
  const char *text = "q\"b\\n\nt\tr\rb\bf\f\x01\x1f\x7f é \xe2\x80\xae";

  js_json_writer_string (&w, text);
  g_assert_cmpstr (out->str, ==,
                   "\"q\\\"b\\\\n\\nt\\tr\\rb\\u0008f\\u000c\\u0001\\u001f\\u007f "
                   "é \xe2\x80\xae\"");

  /* json-glib's short forms for \b and \f; U+001F escaped (json-glib wrote
   * it raw, which is not JSON). */
  pretty = start (&w, JS_JSON_WRITER_PRETTY);
  js_json_writer_string (&w, "b\bf\f\x1f");
  g_assert_cmpstr (pretty->str, ==, "\"b\\bf\\f\\u001f\"");

  /* Invalid UTF-8 is replaced, wherever it starts. */
  g_string_truncate (out, 0);
  js_json_writer_init (&w, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_string (&w, "ab\"\xff\xfe"
                             "c\xc3");
  g_assert_cmpstr (out->str, ==,
                   "\"ab\\\"\xef\xbf\xbd\xef\xbf\xbd"
                   "c\xef\xbf\xbd\"");
}

static void
test_numbers (void)
{
  JsJsonWriter w;
  g_autoptr (GString) out = start (&w, JS_JSON_WRITER_COMPACT);

  js_json_writer_begin_array (&w);
  js_json_writer_int (&w, G_MININT64);
  js_json_writer_int (&w, 0);
  js_json_writer_fixed (&w, 1234567, 1000, 3);
  js_json_writer_fixed (&w, -5, 1000, 3);
  js_json_writer_fixed (&w, G_MININT64, 1000000, 6);
  js_json_writer_fixed (&w, 7, 100, 2);
  js_json_writer_double (&w, 0.1);
  js_json_writer_double (&w, 3);
  js_json_writer_double (&w, 1e20);
  js_json_writer_double (&w, INFINITY);
  js_json_writer_double (&w, -INFINITY);
  js_json_writer_double (&w, NAN);
  js_json_writer_number (&w, "0.500");
  js_json_writer_end_array (&w);
  g_assert_cmpstr (out->str, ==,
                   "[-9223372036854775808,0,1234.567,-0.005,-9223372036854.775808,0.07,"
                   "0.10000000000000001,3.0,1e+20,1.7976931348623157e+308,"
                   "-1.7976931348623157e+308,0.0,0.500]");
}

/* A parsed document written back (compact) is the same document. */
static void
test_round_trip (void)
{
  static const char text[]
      = "{\"s\":\"a\\u0000b\\ud800\",\"n\":[1,-2.5,1e300,true,null,{\"k\":{}}],\"s\":\"last\"}";
  g_autoptr (GError) error = NULL;
  g_autoptr (JsrJsonDoc) doc = jsr_json_doc_parse (text, strlen (text), 64, &error);
  g_autoptr (JsrJsonDoc) again = NULL;
  g_autoptr (GString) out = NULL;
  g_autoptr (GString) out2 = NULL;
  JsJsonWriter w;

  g_assert_no_error (error);
  out = start (&w, JS_JSON_WRITER_COMPACT);
  jsr_json_writer_node (&w, jsr_json_doc_get_root (doc));
  /* Every member as parsed (the readers take the last "s"); \u0000 and the
   * lone surrogate were read as U+FFFD. */
  g_assert_cmpstr (out->str, ==,
                   "{\"s\":\"a\xef\xbf\xbd"
                   "b\xef\xbf\xbd\",\"n\":[1,-2.5,"
                   "1.0000000000000001e+300,true,null,{\"k\":{}}],\"s\":\"last\"}");
  again = jsr_json_doc_parse (out->str, out->len, 64, &error);
  g_assert_no_error (error);
  out2 = start (&w, JS_JSON_WRITER_COMPACT);
  jsr_json_writer_node (&w, jsr_json_doc_get_root (again));
  g_assert_cmpstr (out2->str, ==, out->str);
}

/* An end with no container open writes nothing, and no critical (the
 * writer runs inside the app in the GTK 4 window, under fatal criticals). */
static void
test_unbalanced (void)
{
  g_autoptr (GString) out = NULL;
  JsJsonWriter w;

  out = start (&w, JS_JSON_WRITER_COMPACT);
  js_json_writer_end_array (&w);
  js_json_writer_begin_array (&w);
  js_json_writer_int (&w, 1);
  js_json_writer_end_array (&w);
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==, "[1]");
}

/* An object's first members kept as text and appended to another object
 * begun by a writer of the same style: the same document as one written
 * whole. Nowhere a member's name may not come, nothing is written. */
static void
test_members_text (void)
{
  static const JsJsonWriterStyle styles[]
      = { JS_JSON_WRITER_COMPACT, JS_JSON_WRITER_SPACED, JS_JSON_WRITER_PRETTY };

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      JsJsonWriter w;
      g_autoptr (GString) whole = start (&w, styles[i]);
      g_autoptr (GString) again = NULL;
      g_autofree char *kept = NULL;
      gsize kept_from;

      js_json_writer_begin_object (&w);
      kept_from = whole->len;
      js_json_writer_member_int (&w, "id", 1);
      js_json_writer_member (&w, "stacks");
      js_json_writer_begin_array (&w);
      js_json_writer_string (&w, "a");
      js_json_writer_end_array (&w);
      kept = g_strndup (whole->str + kept_from, whole->len - kept_from);
      js_json_writer_member_string (&w, "scene", "s");
      js_json_writer_end_object (&w);

      again = start (&w, styles[i]);
      js_json_writer_begin_object (&w);
      js_json_writer_members_text (&w, kept, strlen (kept));
      js_json_writer_member_string (&w, "scene", "s");
      js_json_writer_end_object (&w);
      g_assert_cmpstr (again->str, ==, whole->str);
    }
  {
    JsJsonWriter w;
    g_autoptr (GString) out = start (&w, JS_JSON_WRITER_COMPACT);

    js_json_writer_members_text (&w, "\"a\":1", 5); /* no object */
    js_json_writer_begin_object (&w);
    js_json_writer_member (&w, "b");
    js_json_writer_members_text (&w, "\"a\":1", 5); /* a value is due */
    js_json_writer_int (&w, 2);
    js_json_writer_members_text (&w, "", 0);
    js_json_writer_member_int (&w, "c", 3);
    js_json_writer_end_object (&w);
    g_assert_cmpstr (out->str, ==, "{\"b\":2,\"c\":3}");
  }
}

/* A filter: "secret" becomes "***" wherever it appears. */
static char *
hide_secret (gpointer data, const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "secret", -1);

  g_assert_cmpstr (data, ==, "data");
  return g_strjoinv ("***", parts);
}

/* Every string value filtered (names not), the withheld member null
 * whatever its value, the document around it whole. */
static void
test_filter (void)
{
  JsJsonWriter w;
  g_autoptr (GString) out = start (&w, JS_JSON_WRITER_COMPACT);

  js_json_writer_set_filter (&w, hide_secret, (gpointer) "data", "title");
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "secret", "my secret file");
  js_json_writer_member_string (&w, "title", "a secret");
  js_json_writer_member (&w, "list");
  js_json_writer_begin_array (&w);
  js_json_writer_string (&w, "secret");
  js_json_writer_string (&w, NULL);
  js_json_writer_int (&w, 1);
  js_json_writer_end_array (&w);
  js_json_writer_member (&w, "title");
  js_json_writer_begin_object (&w);
  js_json_writer_member (&w, "deep");
  js_json_writer_begin_array (&w);
  js_json_writer_begin_object (&w);
  js_json_writer_end_object (&w);
  js_json_writer_double (&w, 0.5);
  js_json_writer_end_array (&w);
  js_json_writer_member_int (&w, "n", 3);
  js_json_writer_newline (&w, 2);
  js_json_writer_end_object (&w);
  js_json_writer_member (&w, "nested");
  js_json_writer_begin_object (&w);
  js_json_writer_member_int (&w, "title", 7);
  js_json_writer_member_bool (&w, "b", TRUE);
  js_json_writer_member (&w, "title");
  js_json_writer_null (&w);
  js_json_writer_member (&w, "title");
  js_json_writer_fixed (&w, 1234, 1000, 3);
  js_json_writer_member (&w, "title");
  js_json_writer_number (&w, "1.5");
  js_json_writer_member (&w, "title");
  js_json_writer_uint (&w, 1);
  js_json_writer_member (&w, "title");
  js_json_writer_begin_array (&w);
  js_json_writer_end_array (&w);
  js_json_writer_end_object (&w);
  /* No value for it: the object's end is still written. */
  js_json_writer_member (&w, "title");
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==,
                   "{\"secret\":\"my *** file\",\"title\":null,\"list\":[\"***\",null,1],"
                   "\"title\":null,\"nested\":{\"title\":null,\"b\":true,\"title\":null,"
                   "\"title\":null,\"title\":null,\"title\":null,\"title\":null},"
                   "\"title\":null}");

  /* Off again: written as they are. */
  g_string_truncate (out, 0);
  js_json_writer_init (&w, out, JS_JSON_WRITER_PRETTY);
  js_json_writer_set_filter (&w, hide_secret, (gpointer) "data", "title");
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "title", "secret");
  js_json_writer_member_string (&w, "b", "secret");
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==, "{\n  \"title\" : null,\n  \"b\" : \"***\"\n}");
  g_string_truncate (out, 0);
  js_json_writer_init (&w, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_set_filter (&w, NULL, NULL, NULL);
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "title", "secret");
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==, "{\"title\":\"secret\"}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-writer/styles", test_styles);
  g_test_add_func ("/json-writer/newlines", test_newlines);
  g_test_add_func ("/json-writer/strings", test_strings);
  g_test_add_func ("/json-writer/numbers", test_numbers);
  g_test_add_func ("/json-writer/round-trip", test_round_trip);
  g_test_add_func ("/json-writer/unbalanced", test_unbalanced);
  g_test_add_func ("/json-writer/filter", test_filter);
  g_test_add_func ("/json-writer/members-text", test_members_text);
  return g_test_run ();
}
