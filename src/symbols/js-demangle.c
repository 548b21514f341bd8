/* js-demangle.c
 *
 * libiberty's callback entry points (cplus_demangle_v3_callback,
 * rust_demangle_callback) hand the text over in pieces and, for C++, use no
 * heap at all (their tables are arrays on the stack). The output budget is
 * kept in our callback: past it, the callback leaves the demangler with
 * longjmp. That is how a name whose substitutions print 2^n times (a few
 * hundred bytes of "S_IS0_S0_E"-style back-references make hundreds of
 * megabytes and seconds) costs no more than JS_DEMANGLE_MAX_OUTPUT bytes of
 * printing.
 *
 * Leaving C++ demangling that way leaks nothing. The Rust demangler
 * allocates in one place (decoding a punycode identifier, freed once it is
 * printed): a Rust name cut while that identifier prints leaks that buffer
 * (at most 4 bytes per input byte). After MAX_RUST_CUTS such cuts, Rust v0
 * names are no longer demangled: a hostile binary costs a bounded amount.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-demangle.h"

#include <pthread.h>
#include <setjmp.h>
#include <string.h>

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

#define MAX_RUST_CUTS 64

#ifdef HAVE_LIBIBERTY

typedef struct
{
  char text[JS_DEMANGLE_MAX_OUTPUT + 1];
  gsize len;
  jmp_buf over;
} Output;

static gint rust_cuts;

static void
append (const char *piece, size_t n, void *data)
{
  Output *out = data;

  if (n == 0)
    return; /* the Rust demangler passes (NULL, 0) at times */
  if (n > JS_DEMANGLE_MAX_OUTPUT - out->len)
    longjmp (out->over, 1);
  memcpy (out->text + out->len, piece, n);
  out->len += n;
}

/* The lowest address of the calling thread's stack (cached per thread), or
 * NULL if unknown. */
static const char *
stack_low (void)
{
  static __thread const char *low;
  static __thread gboolean known;
  pthread_attr_t attr;

  if (!known)
    {
      void *addr = NULL;
      size_t size = 0;

      known = TRUE;
      if (pthread_getattr_np (pthread_self (), &attr) == 0)
        {
          if (pthread_attr_getstack (&attr, &addr, &size) == 0)
            low = addr;
          pthread_attr_destroy (&attr);
        }
    }
  return low;
}

static gboolean
enough_stack (void)
{
  const char *low = stack_low ();
  char here;

  return low != NULL && &here > low && (gsize) (&here - low) >= JS_DEMANGLE_STACK_NEEDED;
}

/* One attempt; the output (NUL-terminated) in `out`. */
static gboolean
run (const char *symbol, gboolean rust, Output *out)
{
  volatile gboolean ok = FALSE;

  out->len = 0;
  if (setjmp (out->over) == 0)
    {
      /* No DMGL_PARAMS: no parameter list, nor return type. No
       * DMGL_VERBOSE: no Rust hash. */
      ok = rust ? rust_demangle_callback (symbol, 0, append, out) != 0
                : cplus_demangle_v3_callback (symbol, DMGL_ANSI, append, out) != 0;
    }
  else
    {
      /* Over the budget: cut. */
      if (rust && symbol[1] == 'R')
        g_atomic_int_inc (&rust_cuts);
      return FALSE;
    }
  out->text[out->len] = '\0';
  return ok && out->len > 0;
}

char *
js_demangle (const char *symbol)
{
  g_autofree Output *out = NULL;
  gsize len;
  gboolean v0;

  if (symbol == NULL || symbol[0] != '_' || (symbol[1] != 'Z' && symbol[1] != 'R'))
    return NULL;
  len = strnlen (symbol, JS_DEMANGLE_MAX_INPUT + 1);
  if (len > JS_DEMANGLE_MAX_INPUT || !enough_stack ())
    return NULL;
  v0 = symbol[1] == 'R';
  if (v0 && g_atomic_int_get (&rust_cuts) >= MAX_RUST_CUTS)
    return NULL;
  out = g_new (Output, 1);
  /* Rust first: a legacy Rust name is a valid C++ name too ("_ZN...E"),
   * which C++ demangling would print with its hash. */
  if (!run (symbol, TRUE, out) && (v0 || !run (symbol, FALSE, out)))
    return NULL;
  /* Reports are JSON: a name that is not UTF-8 (a hostile table's bytes, a
   * punycode identifier decoded to no character) stays raw. */
  if (!g_utf8_validate_len (out->text, out->len, NULL))
    return NULL;
  return g_strndup (out->text, out->len);
}

gboolean
js_demangle_available (void)
{
  return TRUE;
}

#else /* !HAVE_LIBIBERTY */

char *
js_demangle (const char *symbol)
{
  return NULL;
}

gboolean
js_demangle_available (void)
{
  return FALSE;
}

#endif
