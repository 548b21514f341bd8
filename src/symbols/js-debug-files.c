/* js-debug-files.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-debug-files.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _JsDebugFiles
{
  char **roots; /* extra roots, then the system one */
  char *search_path;
};

JsDebugFiles *
js_debug_files_new (const char *const *dirs)
{
  JsDebugFiles *files = g_new0 (JsDebugFiles, 1);
  GPtrArray *roots = g_ptr_array_new ();

  elf_version (EV_CURRENT);

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    if (dirs[i][0] == '/' && roots->len < JS_DEBUG_FILES_MAX_ROOTS - 1)
      g_ptr_array_add (roots, g_strdup (dirs[i]));
  g_ptr_array_add (roots, g_strdup (JS_DEBUG_FILES_SYSTEM_ROOT));
  g_ptr_array_add (roots, NULL);
  files->roots = (char **) g_ptr_array_free (roots, FALSE);
  files->search_path = g_strjoinv (":", files->roots);
  return files;
}

void
js_debug_files_free (JsDebugFiles *files)
{
  if (files == NULL)
    return;
  g_strfreev (files->roots);
  g_free (files->search_path);
  g_free (files);
}

const char *
js_debug_files_search_path (JsDebugFiles *files)
{
  return files->search_path;
}

/* Whether the ELF file open on `fd` carries this build-id. */
static gboolean
fd_has_build_id (int fd, const guint8 *bits, gsize len)
{
  Elf *elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  const void *id = NULL;
  ssize_t n;
  gboolean same;

  if (elf == NULL)
    return FALSE;
  n = dwelf_elf_gnu_build_id (elf, &id);
  same = n > 0 && (gsize) n == len && memcmp (id, bits, len) == 0;
  elf_end (elf);
  return same;
}

int
js_debug_files_open_checked (const char *path, const guint8 *build_id, gsize build_id_len)
{
  struct stat st;
  int fd, flags;

  if (path == NULL || path[0] == '\0')
    return -1;
  /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. It is
   * cleared once the file is known to be a regular one. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
      || (build_id != NULL && !fd_has_build_id (fd, build_id, build_id_len)))
    {
      close (fd);
      return -1;
    }
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

/* Opens `path` if it is a regular ELF file with this build-id and not the
 * file `exclude` (the module's own); sets *found_path (malloc ()ed). */
static int
open_candidate (const char *path, const guint8 *bits, gsize len, const struct stat *exclude,
                char **found_path)
{
  struct stat st;
  int fd = js_debug_files_open_checked (path, bits, len);

  if (fd < 0)
    return -1;
  if (exclude != NULL && fstat (fd, &st) == 0 && st.st_dev == exclude->st_dev
      && st.st_ino == exclude->st_ino)
    {
      close (fd);
      return -1;
    }
  *found_path = strdup (path);
  return fd;
}

static char *
build_id_path (const char *root, const guint8 *bits, gsize len, const char *suffix)
{
  GString *path = g_string_new (root);

  g_string_append (path, "/.build-id/");
  for (gsize i = 0; i < len; i++)
    {
      g_string_append_printf (path, "%02x", bits[i]);
      if (i == 0)
        g_string_append_c (path, '/');
    }
  g_string_append (path, suffix);
  return g_string_free (path, FALSE);
}

static int
open_by_build_id (JsDebugFiles *files, const guint8 *bits, gsize len, const char *suffix,
                  const struct stat *exclude, char **found_path)
{
  int fd = -1;

  if (bits == NULL || len < 2)
    return -1;
  for (guint i = 0; files->roots[i] != NULL && fd < 0; i++)
    {
      g_autofree char *path = build_id_path (files->roots[i], bits, len, suffix);

      fd = open_candidate (path, bits, len, exclude, found_path);
    }
  return fd;
}

/* The .gnu_debuglink name beside the module, in .debug/ beside it, then
 * under each root with the module's directory appended. */
static int
open_by_debuglink (JsDebugFiles *files, const char *module_path, const char *debuglink,
                   const guint8 *bits, gsize len, const struct stat *exclude, char **found_path)
{
  g_autofree char *dir = NULL;
  int fd = -1;

  if (module_path == NULL || module_path[0] != '/' || debuglink == NULL || debuglink[0] == '\0'
      || strchr (debuglink, '/') != NULL || bits == NULL)
    return -1;
  dir = g_path_get_dirname (module_path);
  for (guint i = 0; fd < 0; i++)
    {
      g_autofree char *path = NULL;

      if (i == 0)
        path = g_build_filename (dir, debuglink, NULL);
      else if (i == 1)
        path = g_build_filename (dir, ".debug", debuglink, NULL);
      else if (files->roots[i - 2] != NULL)
        path = g_build_filename (files->roots[i - 2], dir, debuglink, NULL);
      else
        break;
      fd = open_candidate (path, bits, len, exclude, found_path);
    }
  return fd;
}

int
js_debug_files_open_debuginfo (JsDebugFiles *files, const char *module_path, const guint8 *build_id,
                               gsize build_id_len, const char *debuglink, char **found_path)
{
  struct stat module_stat;
  const struct stat *exclude = NULL;
  int fd;

  /* Without a build-id there is nothing to check a candidate against. */
  if (files == NULL || build_id == NULL || build_id_len == 0)
    return -1;
  if (module_path != NULL && module_path[0] == '/' && stat (module_path, &module_stat) == 0)
    exclude = &module_stat;
  fd = open_by_build_id (files, build_id, build_id_len, ".debug", exclude, found_path);
  if (fd < 0)
    fd = open_by_debuglink (files, module_path, debuglink, build_id, build_id_len, exclude,
                            found_path);
  return fd;
}

int
js_debug_files_open_original (JsDebugFiles *files, const guint8 *build_id, gsize build_id_len,
                              char **found_path)
{
  if (files == NULL)
    return -1;
  return open_by_build_id (files, build_id, build_id_len, "", NULL, found_path);
}
