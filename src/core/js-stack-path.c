/* js-stack-path.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stack-path.h"

#include <string.h>

/* Modules of the system: libc, the loader, GLib's main loop and object
 * system, and what they call. */
static const char *const system_prefixes[] = {
  "libc.so",    "libc-",          "ld-linux",   "ld-musl",     "libpthread",
  "libdl.so",   "libm.so",        "linux-vdso", "libglib-2.0", "libgobject-2.0",
  "libgio-2.0", "libgmodule-2.0", "libffi",     "libunwind",   "libgcc_s",
};

/* The main loop's dispatch, and the frame clock's paint (its phases are
 * signals emitted from there). */
static const char *const dispatch_functions[] = {
  "g_main_dispatch",
  "g_main_context_dispatch",
  "g_main_context_dispatch_unlocked",
  "gdk_frame_clock_paint_idle",
};
static const char *const dispatch_prefixes[] = { "_gdk_frame_clock_emit_" };

/* Frames that call into the main loop or start the program: never what the
 * loop dispatched. */
static const char *const loop_functions[] = {
  "main",
  "_start",
  "__libc_start_main",
  "__libc_start_call_main",
  "__libc_start_main_impl",
  "g_application_run",
  "gtk_main",
  "gtk_main_iteration",
  "gtk_main_iteration_do",
  "g_main_loop_run",
  "g_main_context_iteration",
  "g_main_context_iterate",
  "g_main_context_iterate_unlocked",
  "gtk_dialog_run",
  "gtk_native_dialog_run",
};

static gboolean
in_list (const char *s, const char *const *list, guint n)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (s, list[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_prefix_in (const char *s, const char *const *list, guint n)
{
  for (guint i = 0; i < n; i++)
    if (g_str_has_prefix (s, list[i]))
      return TRUE;
  return FALSE;
}

/* jankscope's own code on the main thread: its libraries but the window's. */
static gboolean
name_is_own (const char *name)
{
  return g_str_has_prefix (name, "libjankscope") && !g_str_has_prefix (name, "libjankscope-gtk4");
}

gboolean
js_stack_path_module_is_own (const JsModule *m)
{
  return m != NULL && m->name != NULL && name_is_own (m->name);
}

static gboolean
module_is_system (const JsModule *m)
{
  return m != NULL && m->name != NULL
         && has_prefix_in (m->name, system_prefixes, G_N_ELEMENTS (system_prefixes));
}

gboolean
js_stack_path_library_is_app (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;

  if (path == NULL || path[0] == '\0')
    return FALSE;
  name = g_path_get_basename (path);
  if (has_prefix_in (name, system_prefixes, G_N_ELEMENTS (system_prefixes)) || name_is_own (name))
    return FALSE;
  dir = g_path_get_dirname (path);
  return !(g_str_equal (dir, "/usr/lib") || g_str_equal (dir, "/lib")
           || g_str_equal (dir, "/usr/lib64") || g_str_equal (dir, "/lib64")
           || (g_str_has_prefix (dir, "/usr/lib/") && g_str_has_suffix (dir, "-linux-gnu"))
           || (g_str_has_prefix (dir, "/lib/") && g_str_has_suffix (dir, "-linux-gnu")));
}

/* The app's own code: the executable, or a library outside the system's
 * library directories (apps keep private ones in a subfolder). */
static gboolean
module_is_app (const JsModule *m)
{
  if (m == NULL)
    return FALSE;
  if (m->is_main)
    return TRUE;
  return m->path != NULL && !module_is_system (m) && !js_stack_path_module_is_own (m)
         && js_stack_path_library_is_app (m->path);
}

static guint32
frame_flags (const JsFrame *f, const JsModule *m)
{
  guint32 flags = 0;

  if (f->function != NULL)
    {
      if (in_list (f->function, dispatch_functions, G_N_ELEMENTS (dispatch_functions))
          || has_prefix_in (f->function, dispatch_prefixes, G_N_ELEMENTS (dispatch_prefixes)))
        flags |= JS_NODE_DISPATCH;
      if (in_list (f->function, loop_functions, G_N_ELEMENTS (loop_functions)))
        flags |= JS_NODE_LOOP;
    }
  if (module_is_app (m))
    flags |= JS_NODE_APP;
  else if (module_is_system (m))
    flags |= JS_NODE_SYSTEM;
  return flags;
}

/* Was a run of jankscope's frames its dispatch hook (rather than a wrapper
 * of a blocking call)? By name where there are names; else by what it sits
 * between: the main loop (GLib) above, and not libc below. */
static gboolean
run_is_dispatch (JsModules *modules, const JsStack *stack, guint first, guint last)
{
  const JsFrame *above, *below;
  const JsModule *ma, *mb;
  gboolean named = FALSE;

  for (guint i = first; i <= last; i++)
    {
      const JsFrame *f = &g_array_index (stack->frames, JsFrame, i);

      if (f->function != NULL)
        {
          named = TRUE;
          if (strstr (f->function, "dispatch") != NULL)
            return TRUE;
        }
    }
  if (named || last + 1 >= stack->frames->len || first == 0)
    return FALSE;
  above = &g_array_index (stack->frames, JsFrame, last + 1);
  below = &g_array_index (stack->frames, JsFrame, first - 1);
  ma = js_modules_get (modules, above->module);
  mb = js_modules_get (modules, below->module);
  return ma != NULL && ma->name != NULL && g_str_has_prefix (ma->name, "libglib-2.0")
         && !(mb != NULL && mb->name != NULL
              && (g_str_has_prefix (mb->name, "libc.so") || g_str_has_prefix (mb->name, "libc-")));
}

static void
make_path (JsModules *modules, JsStack *stack)
{
  guint n = stack->frames->len;
  g_autoptr (GArray) kept = g_array_sized_new (FALSE, FALSE, sizeof (JsPathFrame), n + 1);
  guint outer;

  /* Leaf first, as sampled. */
  for (guint i = 0; i < n;)
    {
      const JsFrame *f = &g_array_index (stack->frames, JsFrame, i);
      const JsModule *m = js_modules_get (modules, f->module);
      JsPathFrame pf;

      if (js_stack_path_module_is_own (m))
        {
          guint last = i;

          while (last + 1 < n
                 && js_stack_path_module_is_own (js_modules_get (
                     modules, g_array_index (stack->frames, JsFrame, last + 1).module)))
            last++;
          if (last + 1 < n && run_is_dispatch (modules, stack, i, last))
            {
              const JsFrame *caller = &g_array_index (stack->frames, JsFrame, last + 1);

              pf.frame = caller;
              pf.flags = frame_flags (caller, js_modules_get (modules, caller->module))
                         | JS_NODE_DISPATCH;
              g_array_append_val (kept, pf);
              i = last + 2;
            }
          else
            i = last + 1;
          continue;
        }
      pf.frame = f;
      pf.flags = frame_flags (f, m);
      g_array_append_val (kept, pf);
      i++;
    }
  /* Frames outside any module at the outermost end: unwinding lost its way. */
  outer = kept->len;
  while (outer > 0 && g_array_index (kept, JsPathFrame, outer - 1).frame->module == 0
         && g_array_index (kept, JsPathFrame, outer - 1).frame->function == NULL)
    outer--;
  stack->n_path = outer + (stack->truncated ? 1 : 0);
  stack->path = g_new0 (JsPathFrame, MAX (stack->n_path, 1));
  {
    guint k = 0;

    if (stack->truncated)
      stack->path[k++] = (JsPathFrame){ NULL, JS_NODE_TRUNCATED };
    for (guint i = outer; i-- > 0;)
      stack->path[k++] = g_array_index (kept, JsPathFrame, i);
  }
  stack->have_path = TRUE;
}

const JsPathFrame *
js_stack_path_get (JsModules *modules, const JsStack *stack, guint *n)
{
  /* A cache kept with the stack: the stack itself does not change. */
  if (!stack->have_path)
    make_path (modules, (JsStack *) stack);
  *n = stack->n_path;
  return stack->path;
}
