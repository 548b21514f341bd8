/* js-demangle.h: C++ and Rust symbol names, demangled.
 *
 * libiberty's demangler (the one of binutils and GDB): C++ (Itanium ABI)
 * and Rust (legacy and v0 manglings). The name comes out the way profiles
 * and signatures want it: the qualified name without parameter list,
 * return type, cv-qualifiers or GCC's clone suffixes (".cold",
 * ".constprop.0"), template and generic arguments kept
 * ("ns::Klass::method", "ns::tmpl<int>", "gtk::widget::Widget::show"), and
 * without Rust's legacy hash ("::h0123456789abcdef") or crate
 * disambiguators.
 *
 * The names come from the modules' symbol tables: a hostile binary's, so
 * the input is untrusted. Bounded: a name longer than
 * JS_DEMANGLE_MAX_INPUT is not demangled; the output stops at
 * JS_DEMANGLE_MAX_OUTPUT (substitutions and back-references can make a
 * short name print exponentially long), which bounds the time too; the
 * thread needs JS_DEMANGLE_STACK_NEEDED bytes of stack left (the demangler
 * recurses, its depth bounded by libiberty's recursion limit). A name whose
 * demangled form is not UTF-8 is not demangled.
 *
 * Any thread but never a signal handler (libiberty's Rust demangler
 * allocates). Thread-safe.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_DEMANGLE_MAX_INPUT 4096
#define JS_DEMANGLE_MAX_OUTPUT 16384
#define JS_DEMANGLE_STACK_NEEDED (1024 * 1024)

/* The demangled name of `symbol` (free with g_free), or NULL: not a C++ or
 * Rust mangled name, not valid, or over the bounds above. */
char *js_demangle (const char *symbol);

/* Whether this build can demangle (libiberty was found). */
gboolean js_demangle_available (void);

G_END_DECLS
