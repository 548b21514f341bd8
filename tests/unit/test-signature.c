/* Unit tests of stack signatures (js-signature.h): the same cause gets the
 * same key, whatever the leaf system frames, addresses, loop frames or
 * jankscope's own frames around it. */
#include "js-signature.h"

#include <string.h>

typedef JsSignatureFrame F;

static char *
sig (const F *frames, guint n, guint max, char id[17])
{
  return js_signature_compute (frames, n, max, id);
}

static void
test_rules (void)
{
  const F busy[] = {
    { "__vdso_clock_gettime", "linux-vdso.so.1" },
    { "__clock_gettime", "libc.so.6" },
    { "g_get_monotonic_time", "libglib-2.0.so.0" },
    { "busy_fn", "app" },
    { "step", "app" },
    { NULL, "libglib-2.0.so.0" },
    { "js_dispatch", "libjankscope-core.so" },
    { "g_main_context_dispatch", "libglib-2.0.so.0" },
    { NULL, "libglib-2.0.so.0" },
    { "g_main_loop_run", "libglib-2.0.so.0" },
    { "main", "app" },
    { "__libc_start_call_main", "libc.so.6" },
    { "_start", "app" },
  };
  const F busy_elsewhere[] = {
    { "busy_fn", "app" },
    { "step", "app" },
    { "g_main_context_dispatch", "libglib-2.0.so.0" },
    { "main", "app" },
  };
  const F sleep[] = {
    { "clock_nanosleep", "libc.so.6" },
    { "usleep", "libc.so.6" },
    { "sleeper", "app" },
    { "step", "app" },
    { "main", "app" },
  };
  char a[17], b[17], c[17];
  g_autofree char *t1 = sig (busy, G_N_ELEMENTS (busy), 5, a);
  g_autofree char *t2 = sig (busy_elsewhere, G_N_ELEMENTS (busy_elsewhere), 5, b);
  g_autofree char *t3 = sig (sleep, G_N_ELEMENTS (sleep), 5, c);

  g_assert_cmpstr (t1, ==, "busy_fn < step");
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (t2, ==, t1);
  g_assert_cmpstr (t3, ==, "sleeper < step");
  g_assert_cmpstr (a, !=, c);
  g_assert_cmpuint (strlen (a), ==, 16);
}

static void
test_depth_and_unnamed (void)
{
  const F deep[] = {
    { "f1", "libapp.so" }, { NULL, "libgtk-4.so.1" }, { NULL, "libgtk-4.so.1" },
    { "f2", "libapp.so" }, { "f3", "libapp.so" },     { "f4", "libapp.so" },
    { "f5", "libapp.so" },
  };
  char id[17], id2[17];
  g_autofree char *t = sig (deep, G_N_ELEMENTS (deep), 3, id);
  g_autofree char *t_all = sig (deep, G_N_ELEMENTS (deep), 64, id2);
  g_autofree char *t_clamped = sig (deep, G_N_ELEMENTS (deep), 0, id2);

  /* Repeated unnamed frames of one module count once, by module name. */
  g_assert_cmpstr (t, ==, "f1 < libgtk-4.so.1!? < f2");
  g_assert_cmpstr (t_all, ==, "f1 < libgtk-4.so.1!? < f2 < f3 < f4 < f5");
  g_assert_cmpstr (t_clamped, ==, "f1");
}

static void
test_only_system (void)
{
  const F sys[] = {
    { "syscall", "libc.so.6" },
    { "g_mutex_lock_slowpath", "libglib-2.0.so.0" },
    { NULL, "libglib-2.0.so.0" },
    { "g_main_context_iteration", "libglib-2.0.so.0" },
  };
  const F noise[] = { { NULL, "libc.so.6" }, { "js_dispatch", "libjankscope-core.so" } };
  char id[17], id2[17];
  g_autofree char *t = sig (sys, G_N_ELEMENTS (sys), 5, id);
  g_autofree char *empty = sig (noise, G_N_ELEMENTS (noise), 5, id2);
  g_autofree char *none = sig (NULL, 0, 5, id2);

  /* Never leaves GLib: its named frames are the signature. */
  g_assert_cmpstr (t, ==, "syscall < g_mutex_lock_slowpath");
  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (none, ==, "");
  g_assert_true (js_signature_frame_is_noise ("g_main_context_dispatch", "libglib-2.0.so.0"));
  g_assert_true (js_signature_frame_is_noise ("anything", "libjankscope-core.so"));
  g_assert_false (js_signature_frame_is_noise ("gtk_widget_measure", "libgtk-4.so.1"));
  g_assert_false (js_signature_frame_is_noise (NULL, "libgtk-4.so.1"));
}

static void
test_rust_hash (void)
{
  /* Two builds of one crate: only the legacy hash differs. */
  const F build_a[] = {
    { "app::slow::work::h0123456789abcdef", "rust-app" },
    { "_ZN3app6on_idle17h00000000deadbeefE", "rust-app" },
    { "ns::Klass::method", "cxx-app" },
    { "ns::tmpl<int>", "cxx-app" },
  };
  const F build_b[] = {
    { "app::slow::work::hfedcba9876543210", "rust-app" },
    { "_ZN3app6on_idle17h1111111122222222E", "rust-app" },
    { "ns::Klass::method", "cxx-app" },
    { "ns::tmpl<int>", "cxx-app" },
  };
  /* Not hashes: kept. */
  const F other[] = {
    { "app::h0123456789abcdeg", "rust-app" },
    { "app::h0123456789abcde", "rust-app" },
    { "_ZN3app6on_idle17h00000000deadbeef", "rust-app" },
    { "ns::tmpl<double>", "cxx-app" },
  };
  char id_a[17], id_b[17], id_o[17];
  g_autofree char *a = sig (build_a, G_N_ELEMENTS (build_a), 5, id_a);
  g_autofree char *b = sig (build_b, G_N_ELEMENTS (build_b), 5, id_b);
  g_autofree char *o = sig (other, G_N_ELEMENTS (other), 5, id_o);

  g_assert_cmpstr (a, ==, "app::slow::work < _ZN3app6on_idleE < ns::Klass::method < ns::tmpl<int>");
  g_assert_cmpstr (b, ==, a);
  g_assert_cmpstr (id_b, ==, id_a);
  /* Template arguments are kept: another instantiation, another cause. */
  g_assert_cmpstr (o, ==,
                   "app::h0123456789abcdeg < app::h0123456789abcde < "
                   "_ZN3app6on_idle17h00000000deadbeef < ns::tmpl<double>");
}

static void
test_rust_start_up (void)
{
  /* Legacy and v0 names of one Rust program: its runtime's start-up frames
   * (printed differently) are left out like C's main. */
  const F legacy[] = {
    { "rust_names::slow::crunch", "rust-names" },
    { "rust_names::on_timeout", "rust-names" },
    { "g_main_loop_run", "libglib-2.0.so.0" },
    { "rust_names::main", "rust-names" },
    { "core::ops::function::FnOnce::call_once", "rust-names" },
    { "std::sys_common::backtrace::__rust_begin_short_backtrace", "rust-names" },
    { "std::rt::lang_start::{{closure}}", "rust-names" },
    { "std::rt::lang_start_internal", "rust-names" },
    { "main", "rust-names" },
  };
  const F v0[] = {
    { "rust_names::slow::crunch", "rust-names" },
    { "rust_names::on_timeout", "rust-names" },
    { "g_main_loop_run", "libglib-2.0.so.0" },
    { "rust_names::main", "rust-names" },
    { "std::sys::backtrace::__rust_begin_short_backtrace::<fn(), ()>", "rust-names" },
    { "std::rt::lang_start::<()>::{closure#0}", "rust-names" },
    { "std::rt::lang_start_internal", "rust-names" },
    { "main", "rust-names" },
  };
  char id[17], id_v0[17];
  g_autofree char *t = sig (legacy, G_N_ELEMENTS (legacy), 5, id);
  g_autofree char *t_v0 = sig (v0, G_N_ELEMENTS (v0), 5, id_v0);

  g_assert_cmpstr (t, ==,
                   "rust_names::slow::crunch < rust_names::on_timeout < rust_names::main < "
                   "core::ops::function::FnOnce::call_once");
  g_assert_cmpstr (t_v0, ==,
                   "rust_names::slow::crunch < rust_names::on_timeout < rust_names::main");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Signature/rules", test_rules);
  g_test_add_func ("/Signature/depth-and-unnamed", test_depth_and_unnamed);
  g_test_add_func ("/Signature/only-system", test_only_system);
  g_test_add_func ("/Signature/rust-hash", test_rust_hash);
  g_test_add_func ("/Signature/rust-start-up", test_rust_start_up);
  return g_test_run ();
}
