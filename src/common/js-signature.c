/* js-signature.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-signature.h"

#include <string.h>

/* Module name prefixes whose frames never say why the app janked. */
static const char *const noise_modules[] = {
  "libjankscope", /* the monitor itself */
  "libunwind",
};

/* Modules whose *unnamed* frames are noise (their named ones are kept:
 * "clock_nanosleep", "g_usleep" tell what the thread waited in). */
static const char *const system_modules[] = {
  "libc.so",    "libc-",       "ld-linux",       "libpthread", "libdl.so",       "libm.so",
  "linux-vdso", "libglib-2.0", "libgobject-2.0", "libgio-2.0", "libgmodule-2.0", "libffi",
};

/* Function name prefixes of the main loop, dispatch glue and start-up. */
static const char *const noise_function_prefixes[] = {
  "g_main_context_",
  "g_main_loop_",
  "g_main_dispatch",
  "g_main_current_",
  "g_poll",
  "g_timeout_dispatch",
  "g_idle_dispatch",
  "g_child_watch_dispatch",
  "g_unix_signal_watch_dispatch",
  "g_io_unix_dispatch",
  "g_source_dispatch",
  "g_application_run",
  "gtk_main",
  "__libc_start",
  "_start",
  "__restore_rt",
  "__GI___poll",
  "__poll",
  "__ppoll",
  "js_dispatch",
  "js_poll",
  "jankscope_",
  "preload_",
};

static const char *const noise_functions[] = {
  "main",
  "poll",
  "ppoll",
  "epoll_wait",
  "epoll_pwait",
  "select",
  "pselect",
  "g_main_context_iteration",
  "gdk_frame_clock_paint_idle",
};

static gboolean
has_prefix_in (const char *text, const char *const *prefixes, guint n)
{
  for (guint i = 0; i < n; i++)
    if (g_str_has_prefix (text, prefixes[i]))
      return TRUE;
  return FALSE;
}

gboolean
js_signature_frame_is_noise (const char *function, const char *module)
{
  if (module != NULL && has_prefix_in (module, noise_modules, G_N_ELEMENTS (noise_modules)))
    return TRUE;
  if (function == NULL)
    return module == NULL || has_prefix_in (module, system_modules, G_N_ELEMENTS (system_modules));
  for (guint i = 0; i < G_N_ELEMENTS (noise_functions); i++)
    if (strcmp (function, noise_functions[i]) == 0)
      return TRUE;
  return has_prefix_in (function, noise_function_prefixes, G_N_ELEMENTS (noise_function_prefixes));
}

static gboolean
is_hex_run (const char *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isxdigit (p[i]))
      return FALSE;
  return TRUE;
}

/* A Rust legacy name's hash changes with every build of its crate: it is no
 * part of the key. Demangled, "::h" and 16 hex digits at the end (where a
 * demangler printed it); raw, "17h" and 16 hex digits before the final "E"
 * of a "_ZN" name (a frame that was not demangled): left out. */
static void
append_function (GString *text, const char *function)
{
  gsize len = strlen (function);

  if (len > 19 && memcmp (function + len - 19, "::h", 3) == 0
      && is_hex_run (function + len - 16, 16))
    g_string_append_len (text, function, (gssize) (len - 19));
  else if (len > 23 && g_str_has_prefix (function, "_ZN") && function[len - 1] == 'E'
           && memcmp (function + len - 20, "17h", 3) == 0 && is_hex_run (function + len - 17, 16))
    {
      g_string_append_len (text, function, (gssize) (len - 20));
      g_string_append_c (text, 'E');
    }
  else
    g_string_append (text, function);
}

/* The program's start-up: C's main and below; and Rust's runtime below the
 * crate's main (std::rt::lang_start calls it through
 * __rust_begin_short_backtrace, in std::sys_common::backtrace or
 * std::sys::backtrace, its generic arguments printed by v0 names only). */
static gboolean
is_start_up (const char *function)
{
  return function != NULL
         && (strcmp (function, "main") == 0 || g_str_has_prefix (function, "__libc_start")
             || g_str_has_prefix (function, "std::rt::lang_start")
             || (g_str_has_prefix (function, "std::sys")
                 && strstr (function, "::backtrace::__rust_begin_short_backtrace") != NULL));
}

char *
js_signature_compute (const JsSignatureFrame *frames, guint n_frames, guint max_frames, char id[17])
{
  GString *text = g_string_new (NULL);
  const char *last_unnamed_module = NULL;
  guint kept = 0;
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);

  guint first = 0;

  max_frames = CLAMP (max_frames, 1, JS_SIGNATURE_MAX_FRAMES);
  /* Start at the innermost frame outside libc, the loader and GLib: where in
   * g_get_monotonic_time () or memcpy () a sample landed must not split one
   * cause into several signatures. Stacks that never leave them keep their
   * named system frames. */
  for (guint i = 0; i < n_frames; i++)
    {
      const JsSignatureFrame *f = &frames[i];

      if (is_start_up (f->function))
        break;
      if (!js_signature_frame_is_noise (f->function, f->module)
          && (f->module == NULL
              || !has_prefix_in (f->module, system_modules, G_N_ELEMENTS (system_modules))))
        {
          first = i;
          break;
        }
    }
  for (guint i = first; i < n_frames && kept < max_frames; i++)
    {
      const JsSignatureFrame *f = &frames[i];

      if (is_start_up (f->function))
        break; /* main and below: the same for every stack */
      if (js_signature_frame_is_noise (f->function, f->module))
        continue;
      if (f->function == NULL)
        {
          /* Unnamed frames: the module, once per run of them. */
          if (last_unnamed_module != NULL && g_strcmp0 (last_unnamed_module, f->module) == 0)
            continue;
          last_unnamed_module = f->module;
        }
      else
        last_unnamed_module = NULL;
      if (kept > 0)
        g_string_append (text, " < ");
      if (f->function != NULL)
        append_function (text, f->function);
      else
        g_string_append_printf (text, "%s!?", f->module);
      kept++;
    }
  for (const char *p = text->str; *p != '\0'; p++)
    {
      hash ^= (guchar) *p;
      hash *= G_GUINT64_CONSTANT (1099511628211);
    }
  g_snprintf (id, 17, "%016" G_GINT64_MODIFIER "x", hash);
  return g_string_free (text, FALSE);
}
