/* Unit tests of the demangler (js-demangle.h): C++ and Rust names come out
 * as profiles want them, and hostile names (a binary's symbol table is
 * untrusted input) are refused or cut within bounds: length, output, stack.
 * The fuzz part runs a fixed number of random and mutated manglings from a
 * fixed seed, on a thread whose stack is just what js_demangle asks for. */
#include "js-demangle.h"

#include <pthread.h>
#include <string.h>

#define FUZZ_ITERATIONS 20000
#define FUZZ_SEED 20261204

static void
skip_without_libiberty (void)
{
  if (!js_demangle_available ())
    g_test_skip ("built without libiberty (libiberty-dev)");
}

static void
expect (const char *symbol, const char *wanted)
{
  g_autofree char *got = js_demangle (symbol);

  g_assert_cmpstr (got, ==, wanted);
}

static void
test_names (void)
{
  skip_without_libiberty ();
  if (g_test_failed () || !js_demangle_available ())
    return;
  /* C++: qualified name, template arguments, no parameters, return type,
   * cv-qualifier or clone suffix. */
  expect ("_ZNK2ns5Klass6methodEi", "ns::Klass::method");
  expect ("_ZN2ns4tmplIiEET_S1_", "ns::tmpl<int>");
  expect ("_ZN2ns5Klass6methodEi.cold", "ns::Klass::method");
  expect ("_ZN12_GLOBAL__N_14anonEi", "(anonymous namespace)::anon");
  expect ("_ZZ4mainENKUliE_clEi", "main::{lambda(int)#1}::operator()");
  /* Rust legacy: no hash; the same name for another build's hash. */
  expect ("_ZN3gtk6widget6Widget4show17h0123456789abcdefE", "gtk::widget::Widget::show");
  expect ("_ZN3gtk6widget6Widget4show17hfedcba9876543210E", "gtk::widget::Widget::show");
  /* Rust v0: no crate disambiguator. */
  expect ("_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar");
  expect ("_RNvNtCs5678_7mycrate3foo3bar", "mycrate::foo::bar");
  /* Not mangled, or not valid. */
  expect ("g_main_context_dispatch", NULL);
  expect ("_start", NULL);
  expect ("_Z", NULL);
  expect ("_ZN3foo", NULL);
  expect ("_ZN9toolongE", NULL);
  expect ("_R", NULL);
  /* Not UTF-8 once demangled: stays raw. */
  expect ("_ZN2ns3\xff\xfe\xfd"
          "E",
          NULL);
  expect ("", NULL);
  expect (NULL, NULL);
}

static char *
rust_name_of_length (gsize length)
{
  /* _RNvC1a<n><n letters>: a::aaa... */
  gsize n = length - strlen ("_RNvC1a") - 4;
  GString *name = g_string_new (NULL);

  g_string_printf (name, "_RNvC1a%04" G_GSIZE_FORMAT, n);
  for (gsize i = 0; i < n; i++)
    g_string_append_c (name, 'a');
  g_assert_cmpuint (name->len, ==, length);
  return g_string_free (name, FALSE);
}

static void
test_too_long (void)
{
  g_autofree char *longest = rust_name_of_length (JS_DEMANGLE_MAX_INPUT);
  g_autofree char *too_long = rust_name_of_length (JS_DEMANGLE_MAX_INPUT + 1);
  g_autofree char *out = js_demangle (longest);

  skip_without_libiberty ();
  /* A valid name at the limit is demangled; one byte over, it is not.
   * (libiberty itself refuses C++ names over 1 KiB.) */
  if (js_demangle_available ())
    g_assert_true (out != NULL && g_str_has_prefix (out, "a::aaaa"));
  expect (too_long, NULL);
}

/* A C++ template function f<A<int, int>, T1, ..., Tn> where Tk is
 * A<T(k-1), T(k-1)>, T(k-1) being a substitution: it prints 2^n times longer
 * than it is. Substitutions: S_ is f, S0_ is A, S1_ is A<int, int>, S<k+1>_
 * is Tk (sequence numbers in base 36). */
static char *
exponential_cxx (guint n)
{
  GString *s = g_string_new ("_Z1fI1AIiiE");

  for (guint k = 0; k < n; k++)
    {
      const char *digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
      guint seq = k + 1;
      char sub[8];

      if (seq < 36)
        g_snprintf (sub, sizeof sub, "S%c_", digits[seq]);
      else
        g_snprintf (sub, sizeof sub, "S%c%c_", digits[seq / 36], digits[seq % 36]);
      g_string_append_printf (s, "S0_I%s%sE", sub, sub);
    }
  g_string_append (s, "Evv");
  return g_string_free (s, FALSE);
}

static void
base62 (GString *s, guint64 value)
{
  const char *digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  char buf[16];
  int n = 0;

  /* Rust v0 back-references: "_" is 0, "<base-62 of value - 1>_" above. */
  if (value > 0)
    {
      value--;
      do
        buf[n++] = digits[value % 62];
      while ((value /= 62) > 0);
      while (n > 0)
        g_string_append_c (s, buf[--n]);
    }
  g_string_append_c (s, '_');
}

/* The same with Rust v0 back-references: f::<S<T, T>, ...>. */
static char *
exponential_rust (guint n)
{
  GString *s = g_string_new ("_RINvC1a1f");
  gsize prev = s->len - 2;

  g_string_append (s, "INtC1a1SllE");
  for (guint k = 0; k < n; k++)
    {
      gsize here = s->len - 2; /* positions count after "_R" */

      g_string_append (s, "INtC1a1SB");
      base62 (s, prev);
      g_string_append_c (s, 'B');
      base62 (s, prev);
      g_string_append_c (s, 'E');
      prev = here;
    }
  g_string_append_c (s, 'E');
  return g_string_free (s, FALSE);
}

static void
test_exponential (void)
{
  skip_without_libiberty ();
  if (!js_demangle_available ())
    return;
  /* Small: demangled whole (the generators are right). */
  {
    g_autofree char *small = exponential_cxx (2);
    g_autofree char *out = js_demangle (small);

    g_assert_cmpstr (out, ==,
                     "f<A<int, int>, A<A<int, int>, A<int, int> >, A<A<A<int, int>, A<int, int> >, "
                     "A<A<int, int>, A<int, int> > > >");
  }
  {
    g_autofree char *small = exponential_rust (2);
    g_autofree char *out = js_demangle (small);

    g_assert_cmpstr (out, ==,
                     "a::f::<a::S<i32, i32>, a::S<a::S<i32, i32>, a::S<i32, i32>>, "
                     "a::S<a::S<a::S<i32, i32>, a::S<i32, i32>>, a::S<a::S<i32, i32>, "
                     "a::S<i32, i32>>>>");
  }
  /* 2^40 times: cut at the budget (without it, this test would not end). */
  {
    g_autofree char *big = exponential_cxx (40);
    g_autofree char *out = js_demangle (big);

    g_assert_cmpuint (strlen (big), <, 1024);
    g_assert_null (out);
  }
  {
    g_autofree char *big = exponential_rust (40);
    g_autofree char *out = js_demangle (big);

    g_assert_cmpuint (strlen (big), <, 1024);
    g_assert_null (out);
  }
}

/* ---- on a thread with a given stack ---------------------------------------- */

typedef void (*Body) (gpointer data);

typedef struct
{
  Body body;
  gpointer data;
} Job;

static void *
job_thread (void *data)
{
  Job *job = data;

  job->body (job->data);
  return NULL;
}

static void
on_stack (gsize stack_size, Body body, gpointer data)
{
  pthread_attr_t attr;
  pthread_t thread;
  Job job = { body, data };

  g_assert_cmpint (pthread_attr_init (&attr), ==, 0);
  g_assert_cmpint (pthread_attr_setstacksize (&attr, stack_size), ==, 0);
  g_assert_cmpint (pthread_create (&thread, &attr, job_thread, &job), ==, 0);
  g_assert_cmpint (pthread_join (thread, NULL), ==, 0);
  pthread_attr_destroy (&attr);
}

/* A name of `prefix`, `open` n times, `middle`, `close` n times and
 * `suffix`, as long as fits in `length`. */
static char *
nested (const char *prefix, const char *open, const char *middle, const char *close,
        const char *suffix, gsize length)
{
  gsize fixed = strlen (prefix) + strlen (middle) + strlen (suffix);
  gsize n = (length - fixed) / (strlen (open) + strlen (close));
  GString *s = g_string_new (prefix);

  for (gsize k = 0; k < n; k++)
    g_string_append (s, open);
  g_string_append (s, middle);
  for (gsize k = 0; k < n; k++)
    g_string_append (s, close);
  g_string_append (s, suffix);
  return g_string_free (s, FALSE);
}

/* The deepest nestings the grammars allow, as long as demanglers take them:
 * libiberty refuses C++ names over 1 KiB itself. */
static GPtrArray *
deep_names (void)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  /* In a template argument list: printed, unlike parameters. */
  const char *cxx[][2] = { { "P", "" },    { "PFv", "E" }, { "1AI", "E" },
                           { "N1a", "E" }, { "A1_", "" },  { "M1a", "" } };
  const char *rust[][2] = { { "R", "" }, { "INtC1a1S", "E" }, { "Nv", "1f" }, { "A", "Kj0_" } };

  for (gsize length = 256; length <= JS_DEMANGLE_MAX_INPUT; length += 256)
    {
      for (guint i = 0; i < G_N_ELEMENTS (cxx); i++)
        g_ptr_array_add (names,
                         nested ("_Z1fI", cxx[i][0], "i", cxx[i][1], "Ev", MIN (length, 1024)));
      for (guint i = 0; i < G_N_ELEMENTS (rust); i++)
        g_ptr_array_add (names, nested ("_RINvC1a1f", rust[i][0], "l", rust[i][1], "E", length));
    }
  return names;
}

static void
demangle_all (gpointer data)
{
  GPtrArray *names = data;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *out = js_demangle (g_ptr_array_index (names, i));

      if (out != NULL)
        g_assert_cmpuint (strlen (out), <=, JS_DEMANGLE_MAX_OUTPUT);
    }
}

static void
test_deep (void)
{
  g_autoptr (GPtrArray) names = deep_names ();

  skip_without_libiberty ();
  /* What js_demangle asks for, and a little for this thread's own frames:
   * past the stack's end the test would crash. (The worst of these takes
   * between 256 and 512 KiB.) */
  on_stack (JS_DEMANGLE_STACK_NEEDED + 64 * 1024, demangle_all, names);
}

static void
demangle_refused (gpointer data)
{
  g_autofree char *out = js_demangle ("_ZNK2ns5Klass6methodEi");

  g_assert_null (out);
}

static void
test_small_stack (void)
{
  /* Less stack than the worst case needs: not demangled, no crash. (Small
   * enough that glibc does not hand the thread a larger cached stack of an
   * earlier test's thread.) */
  on_stack (JS_DEMANGLE_STACK_NEEDED / 8, demangle_refused, NULL);
}

/* ---- fuzz ------------------------------------------------------------------ */

static const char *const seeds[] = {
  "_ZNK2ns5Klass6methodEi",
  "_ZN2ns4tmplIiEET_S1_",
  "_ZZ4mainENKUliE_clEi",
  "_ZNSt6vectorIiSaIiEE9push_backERKi",
  "_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
  "_ZNKSt8functionIFvvEEclEv",
  "_Z1fIJidEEvDpT_",
  "_ZN1AIXadL_Z1gvEEE1hEv",
  "_ZN3gtk6widget6Widget4show17h0123456789abcdefE",
  "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$"
  "$u7d$$GT$17h0123456789abcdefE",
  "_RNvNtCs1234_7mycrate3foo3bar",
  "_RINvNtCs1234_7mycrate3foo4tmplmEB4_",
  "_RNvMNtCs1234_7mycrate3fooNtB2_6Widget4show",
  "_RNvCs1234_7mycrateu8gdel_5qa",
  "_RINvC1a1fRAmj8_FKcEuE",
};

static const char alphabet[] = "_ZRNSEIJKLTXYDPFBCMvijlmsdfcah0123456789$.u";

static void
mutate (GRand *rand, GString *s)
{
  guint edits = g_rand_int_range (rand, 1, 8);

  for (guint e = 0; e < edits; e++)
    {
      guint at = s->len > 2 ? (guint) g_rand_int_range (rand, 2, s->len + 1) : (guint) s->len;
      char c = g_rand_boolean (rand) ? alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]
                                     : (char) g_rand_int_range (rand, 1, 256);

      switch (g_rand_int_range (rand, 0, 5))
        {
        case 0:
          g_string_insert_c (s, at, c);
          break;
        case 1:
          if (at < s->len)
            g_string_erase (s, at, 1);
          break;
        case 2:
          if (at < s->len)
            s->str[at] = c;
          break;
        case 3:
          /* A copy of a piece of itself: nestings and back-references. */
          if (s->len > 4)
            {
              guint from = g_rand_int_range (rand, 2, s->len);
              guint n = g_rand_int_range (rand, 1, MIN (s->len - from, 64) + 1);
              g_autofree char *piece = g_strndup (s->str + from, n);

              g_string_insert (s, at, piece);
            }
          break;
        default:
          g_string_insert (s, at, g_rand_boolean (rand) ? "S_" : "B0_");
          break;
        }
    }
}

static void
fuzz (gpointer data)
{
  GRand *rand = g_rand_new_with_seed (FUZZ_SEED);
  guint demangled = 0;

  for (guint i = 0; i < FUZZ_ITERATIONS; i++)
    {
      GString *s;
      g_autofree char *out = NULL;

      if (i % 4 == 0)
        {
          /* Random bytes after a prefix. */
          guint n = g_rand_int_range (rand, 0, 64);

          s = g_string_new (g_rand_boolean (rand) ? "_Z" : "_R");
          for (guint k = 0; k < n; k++)
            g_string_append_c (s, g_rand_boolean (rand)
                                      ? alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]
                                      : (char) g_rand_int_range (rand, 1, 256));
        }
      else
        {
          s = g_string_new (seeds[g_rand_int_range (rand, 0, G_N_ELEMENTS (seeds))]);
          mutate (rand, s);
        }
      out = js_demangle (s->str);
      if (out != NULL)
        {
          demangled++;
          g_assert_cmpuint (strlen (out), <=, JS_DEMANGLE_MAX_OUTPUT);
          g_assert_true (g_utf8_validate (out, -1, NULL));
        }
      g_string_free (s, TRUE);
    }
  /* The mutations leave many valid: the demangler was exercised. */
  if (js_demangle_available ())
    g_assert_cmpuint (demangled, >, FUZZ_ITERATIONS / 20);
  g_rand_free (rand);
}

static void
test_fuzz (void)
{
  skip_without_libiberty ();
  on_stack (JS_DEMANGLE_STACK_NEEDED + 64 * 1024, fuzz, NULL);
}

static void
test_rust_cuts (void)
{
  g_autofree char *big = exponential_rust (40);

  skip_without_libiberty ();
  if (!js_demangle_available ())
    return;
  /* A cut Rust name may leak the demangler's punycode buffer: after 64
   * cuts, v0 names are no longer demangled; the others still are. (Last:
   * this changes the process's state.) */
  for (guint i = 0; i < 64; i++)
    {
      g_autofree char *out = js_demangle (big);

      g_assert_null (out);
    }
  expect ("_RNvNtCs1234_7mycrate3foo3bar", NULL);
  expect ("_ZN3gtk6widget6Widget4show17h0123456789abcdefE", "gtk::widget::Widget::show");
  expect ("_ZNK2ns5Klass6methodEi", "ns::Klass::method");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Demangle/names", test_names);
  g_test_add_func ("/Demangle/too-long", test_too_long);
  g_test_add_func ("/Demangle/exponential", test_exponential);
  g_test_add_func ("/Demangle/deep", test_deep);
  g_test_add_func ("/Demangle/small-stack", test_small_stack);
  g_test_add_func ("/Demangle/fuzz", test_fuzz);
  g_test_add_func ("/Demangle/rust-cuts", test_rust_cuts);
  return g_test_run ();
}
