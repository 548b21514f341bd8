/* symbolize-modules.c: see symbolize-modules.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "symbolize-modules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-common.h"
#include "js-debug-files.h"
#include "js-debuginfod.h"
#include "js-modules.h"

/* Offsets are addresses of the module's file as the symbolizer reports it
 * (load bias 0): a module is alone in its registry. */
#define MODULE_SIZE (G_GUINT64_CONSTANT (1) << 47)
#define BUILD_ID_MAX 64
/* The download of one debug file: the fetch thread gives up before this
 * (JS_DEBUGINFOD_MAX_S); the CLI's own bound on waiting for it. */
#define DEBUGINFOD_WAIT_S (JS_DEBUGINFOD_MAX_S + 10)
#define DEBUGINFOD_POLL_US (50 * 1000)

typedef struct
{
  CliSymState state;
  JsModules *registry;
  JsSymbolizer *symbolizer;
  guint id;
} Module;

struct _CliSymModules
{
  char **debug_dirs;
  JsDebugFiles *files;
  JsDebuginfod *debuginfod; /* NULL without --debuginfod */
  char *exe;
  GHashTable *modules; /* "NAME\nBUILD-ID" → Module */
  GHashTable *paths;   /* "NAME\nBUILD-ID" → the path a module table gives */
};

/* The system's library folders, where a module of the report is looked
 * for by name (ld.so's default paths, Debian's multiarch ones first). */
static const char *const library_dirs[] = {
#if defined(__x86_64__)
  "/usr/lib/x86_64-linux-gnu",
  "/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
  "/usr/lib/aarch64-linux-gnu",
  "/lib/aarch64-linux-gnu",
#elif defined(__i386__)
  "/usr/lib/i386-linux-gnu",
  "/lib/i386-linux-gnu",
#endif
  "/usr/lib64",
  "/lib64",
  "/usr/lib",
  "/lib",
  "/usr/local/lib",
};

static void
module_free (gpointer data)
{
  Module *m = data;

  js_symbolizer_free (m->symbolizer);
  js_modules_free (m->registry);
  g_free (m);
}

CliSymModules *
cli_sym_modules_new (const char *const *debug_dirs, gboolean debuginfod)
{
  CliSymModules *modules = g_new0 (CliSymModules, 1);

  modules->debug_dirs = g_strdupv ((char **) debug_dirs);
  modules->files = js_debug_files_new (debug_dirs);
  if (debuginfod)
    modules->debuginfod = js_debuginfod_new ();
  modules->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, module_free);
  modules->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return modules;
}

void
cli_sym_modules_free (CliSymModules *modules)
{
  if (modules == NULL)
    return;
  g_hash_table_unref (modules->modules);
  g_hash_table_unref (modules->paths);
  if (modules->debuginfod != NULL)
    js_debuginfod_free (modules->debuginfod);
  js_debug_files_free (modules->files);
  g_strfreev (modules->debug_dirs);
  g_free (modules->exe);
  g_free (modules);
}

void
cli_sym_modules_set_exe (CliSymModules *modules, const char *exe)
{
  g_free (modules->exe);
  modules->exe = exe != NULL && g_path_is_absolute (exe) ? g_strdup (exe) : NULL;
}

void
cli_sym_modules_add_path (CliSymModules *modules, const char *name, const char *build_id,
                          const char *path)
{
  if (name == NULL || build_id == NULL || path == NULL || !g_path_is_absolute (path))
    return;
  g_hash_table_insert (modules->paths, g_strdup_printf ("%s\n%s", name, build_id), g_strdup (path));
}

static gboolean
build_id_bytes (const char *hex, guint8 *bits, gsize *len)
{
  gsize n = hex != NULL ? strlen (hex) : 0;

  if (n < 4 || n % 2 != 0 || n / 2 > BUILD_ID_MAX)
    return FALSE;
  for (gsize i = 0; i < n / 2; i++)
    {
      int hi = g_ascii_xdigit_value (hex[2 * i]), lo = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      bits[i] = (guint8) (hi << 4 | lo);
    }
  *len = n / 2;
  return TRUE;
}

/* A file named `name` where the module may be: where the module table says
 * it was loaded, the executable, the debug folders, the library folders. The first with the
 * build-id; else, in *mismatch, the first regular file of that name. */
static char *
find_by_name (CliSymModules *modules, const char *name, const char *build_id, const guint8 *bits,
              gsize len, char **mismatch)
{
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *key = g_strdup_printf ("%s\n%s", name, build_id);
  const char *loaded = g_hash_table_lookup (modules->paths, key);

  if (loaded != NULL)
    g_ptr_array_add (candidates, g_strdup (loaded));
  if (modules->exe != NULL)
    {
      g_autofree char *base = g_path_get_basename (modules->exe);

      if (strcmp (base, name) == 0)
        g_ptr_array_add (candidates, g_strdup (modules->exe));
    }
  for (guint i = 0; modules->debug_dirs != NULL && modules->debug_dirs[i] != NULL; i++)
    g_ptr_array_add (candidates, g_build_filename (modules->debug_dirs[i], name, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (library_dirs); i++)
    g_ptr_array_add (candidates, g_build_filename (library_dirs[i], name, NULL));

  for (guint i = 0; i < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);
      int fd = js_debug_files_open_checked (path, bits, len);
      GStatBuf st;

      if (fd >= 0)
        {
          close (fd);
          return g_strdup (path);
        }
      if (*mismatch == NULL && g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
        *mismatch = g_strdup (path);
    }
  return NULL;
}

/* Waits for debuginfod's answer, bounded. */
static char *
download (CliSymModules *modules, const guint8 *bits, gsize len)
{
  gint64 give_up = g_get_monotonic_time () + (gint64) DEBUGINFOD_WAIT_S * G_USEC_PER_SEC;
  char *path = NULL;

  if (modules->debuginfod == NULL)
    return NULL;
  for (;;)
    {
      switch (js_debuginfod_lookup (modules->debuginfod, bits, len, TRUE, &path))
        {
        case JS_DEBUGINFOD_FOUND:
          return path;
        case JS_DEBUGINFOD_MISSING:
          return NULL;
        case JS_DEBUGINFOD_PENDING:
          break;
        }
      if (g_get_monotonic_time () > give_up)
        return NULL;
      g_usleep (DEBUGINFOD_POLL_US);
    }
}

/* `path` (malloc ()ed by js-debug-files.c) as a g_malloc ()ed string, the
 * fd closed; NULL for fd -1. */
static char *
open_found (int fd, char *path)
{
  char *copy;

  if (fd < 0)
    return NULL;
  close (fd);
  copy = g_strdup (path);
  free (path);
  return copy;
}

static gboolean
checked (const char *path, const guint8 *bits, gsize len)
{
  int fd = js_debug_files_open_checked (path, bits, len);

  if (fd < 0)
    return FALSE;
  close (fd);
  return TRUE;
}

static char *
locate (CliSymModules *modules, const char *name, const char *build_id, CliSymState *state)
{
  g_autofree char *mismatch = NULL;
  g_autofree char *shown_name = jsr_display (name);
  g_autofree char *local = NULL;
  guint8 bits[BUILD_ID_MAX];
  gsize len = 0;
  char *path = NULL, *found = NULL;
  int fd;

  if (!build_id_bytes (build_id, bits, &len))
    {
      *state = CLI_SYM_MISSING;
      cli_warning (_ ("%s: no build-id in the report: its frames are left as they are"),
                   shown_name);
      return NULL;
    }
  *state = CLI_SYM_FOUND;
  path = find_by_name (modules, name, build_id, bits, len, &mismatch);
  if (path == NULL)
    {
      fd = js_debug_files_open_original (modules->files, bits, len, &found);
      path = open_found (fd, found);
    }
  if (path != NULL && modules->debuginfod != NULL)
    {
      /* The symbolizer finds a local debug file itself; a download is
       * waited for here, and the debug file then stands for the module. */
      found = NULL;
      fd = js_debug_files_open_debuginfo (modules->files, path, bits, len, NULL, &found);
      local = open_found (fd, found);
      if (local == NULL)
        {
          char *fetched = download (modules, bits, len);

          if (fetched != NULL && checked (fetched, bits, len))
            {
              g_free (path);
              return fetched;
            }
          g_free (fetched);
        }
    }
  if (path != NULL)
    return path;
  found = NULL;
  fd = js_debug_files_open_debuginfo (modules->files, NULL, bits, len, NULL, &found);
  path = open_found (fd, found);
  if (path != NULL)
    return path;
  path = download (modules, bits, len);
  if (path != NULL && checked (path, bits, len))
    return path;
  g_free (path);
  if (mismatch != NULL)
    {
      g_autofree char *shown = jsr_display_filename (mismatch);

      *state = CLI_SYM_REFUSED;
      cli_warning (_ ("%s: %s has another build-id than the report’s (%s): its frames are left "
                      "as they are"),
                   shown_name, shown, build_id);
      return NULL;
    }
  *state = CLI_SYM_MISSING;
  cli_warning (_ ("%s: no file with build-id %s found: its frames are left as they are"),
               shown_name, build_id);
  return NULL;
}

static Module *
get_module (CliSymModules *modules, const char *name, const char *build_id)
{
  g_autofree char *key = g_strdup_printf ("%s\n%s", name, build_id != NULL ? build_id : "");
  g_autofree char *path = NULL;
  Module *m = g_hash_table_lookup (modules->modules, key);

  if (m != NULL)
    return m;
  m = g_new0 (Module, 1);
  path = locate (modules, name, build_id, &m->state);
  if (path != NULL)
    {
      m->registry = js_modules_new_offline ();
      m->id = js_modules_add (m->registry, path, build_id, 0, MODULE_SIZE);
      if (m->id == 0)
        m->state = CLI_SYM_MISSING;
      else
        {
          /* The debug files of the module's own file: the same roots. */
          m->symbolizer = js_symbolizer_new (m->registry, FALSE);
          js_symbolizer_set_debug_dirs (m->symbolizer, (const char *const *) modules->debug_dirs);
        }
    }
  g_hash_table_insert (modules->modules, g_steal_pointer (&key), m);
  return m;
}

guint
cli_sym_modules_lookup (CliSymModules *modules, const char *name, const char *build_id,
                        guint64 offset, gboolean is_return, GArray *out, CliSymState *state)
{
  Module *m;

  if (name == NULL || name[0] == '\0')
    {
      *state = CLI_SYM_MISSING;
      return 0;
    }
  m = get_module (modules, name, build_id);
  *state = m->state;
  if (m->symbolizer == NULL || offset >= MODULE_SIZE || (is_return && offset == 0))
    return 0;
  return js_symbolizer_lookup_in (m->symbolizer, m->id, offset, is_return, out);
}
