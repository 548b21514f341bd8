/* js-report-file.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-report-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPEN_FLAGS (O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK)

static gboolean
set_errno_error (GError **error, int saved_errno, const char *what)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s: %s", what,
               g_strerror (saved_errno));
  return FALSE;
}

static const char *
kind_of (mode_t mode)
{
  if (S_ISLNK (mode))
    return "a symbolic link";
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "a device";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

static gboolean
not_regular (GError **error, mode_t mode)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
               "it is %s; jankscope writes reports only to regular files", kind_of (mode));
  return FALSE;
}

/* lstat: *exists and *st when there is something at `path`. */
static gboolean
look (const char *path, gboolean *exists, struct stat *st, GError **error)
{
  if (lstat (path, st) == 0)
    {
      *exists = TRUE;
      return S_ISREG (st->st_mode) ? TRUE : not_regular (error, st->st_mode);
    }
  if (errno == ENOENT)
    {
      *exists = FALSE;
      return TRUE;
    }
  return set_errno_error (error, errno, "cannot look at it");
}

gboolean
js_report_file_check_target (const char *path, GError **error)
{
  struct stat st;
  gboolean exists;

  return look (path, &exists, &st, error);
}

static gboolean
write_all (int fd, const char *data, gsize length, GError **error)
{
  while (length > 0)
    {
      gssize n = write (fd, data, MIN (length, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return set_errno_error (error, errno, "cannot write");
      if (n == 0)
        return set_errno_error (error, ENOSPC, "cannot write");
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static gboolean
write_and_sync (int fd, const char *data, gsize length, gboolean sync, GError **error)
{
  if (!write_all (fd, data, length, error))
    return FALSE;
  /* EINVAL: a file system that cannot sync (nothing to wait for). */
  if (sync && fdatasync (fd) != 0 && errno != EINVAL)
    return set_errno_error (error, errno, "cannot sync");
  return TRUE;
}

/* "DIR/.NAME.jankscope-XXXXXX" */
static char *
temporary_name (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);

  return g_strdup_printf ("%s/.%s.jankscope-XXXXXX", dir, base);
}

/* An unnamed file in `path`'s directory (O_TMPFILE) that gets its temporary
 * name only when complete: if the process dies while it writes, nothing is
 * left behind. -1 when the file system cannot do that. */
static int
open_unnamed (const char *path, mode_t mode)
{
  g_autofree char *dir = g_path_get_dirname (path);

  return open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

/* 64 bits for a name that no other writer is likely to pick: splitmix64 of
 * a counter stepped per call, the time and the pid. Not g_random_*: GLib's
 * global generator is the app's, and every number drawn from it would shift
 * the sequence an app that seeded it (g_random_set_seed) sees. */
static guint64
name_bits (void)
{
  static guint64 counter;
  guint64 z
      = __atomic_add_fetch (&counter, G_GUINT64_CONSTANT (0x9e3779b97f4a7c15), __ATOMIC_RELAXED)
        ^ (guint64) g_get_monotonic_time () ^ ((guint64) getpid () << 40);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static gboolean
name_unnamed (int fd, char *templ)
{
  char proc_path[64];

  snprintf (proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
  for (int attempt = 0; attempt < 16; attempt++)
    {
      /* The X's of the template become random characters. */
      char *x = templ + strlen (templ) - 6;
      guint64 bits = name_bits ();

      for (int i = 0; i < 6; i++, bits /= 36)
        x[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[bits % 36];
      if (linkat (AT_FDCWD, proc_path, AT_FDCWD, templ, AT_SYMLINK_FOLLOW) == 0)
        return TRUE;
      if (errno != EEXIST)
        return FALSE;
    }
  return FALSE;
}

/* Writes `data` to a new file in `path`'s folder and gives it the name
 * `templ` (its X's made random) once complete. Returns the open file, or
 * -1 with `error` set (and nothing left behind). */
static int
write_temporary (const char *path, char *templ, mode_t mode, gboolean set_mode, const char *data,
                 gsize length, gboolean sync, GError **error)
{
  for (int named = 0; named <= 1; named++)
    {
      int fd = named ? g_mkstemp_full (templ, O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644)
                     : open_unnamed (path, mode);

      if (fd < 0 && named)
        {
          set_errno_error (error, errno, "cannot create a temporary file");
          return -1;
        }
      if (fd < 0)
        continue; /* no O_TMPFILE on this file system: a named file */
      if (set_mode)
        (void) fchmod (fd, mode);
      if (!write_and_sync (fd, data, length, sync, error))
        {
          if (named)
            unlink (templ);
          close (fd);
          return -1;
        }
      if (named || name_unnamed (fd, templ))
        return fd;
      /* No /proc to name it by (or no link support): write it again,
       * to a named file. */
      close (fd);
    }
  return -1;
}

gboolean
js_report_file_replace (const char *path, const char *data, gsize length, gboolean sync,
                        GError **error)
{
  g_autofree char *templ = temporary_name (path);
  struct stat st;
  gboolean exists;
  mode_t mode;
  int fd;

  if (!look (path, &exists, &st, error))
    return FALSE;
  /* An existing report keeps its permissions (a user may have made it
   * private); a new one gets 0644 less the umask, like any new file. */
  mode = exists ? st.st_mode & 07777 : 0644;
  fd = write_temporary (path, templ, mode, exists, data, length, sync, error);
  if (fd < 0)
    return FALSE;
  /* Looked at again right before the rename: what is at the path now must
   * still be a regular file (or nothing). rename() replaces a name, never
   * follows a link or opens a device. */
  if (!look (path, &exists, &st, error)
      || (rename (templ, path) != 0
          && !set_errno_error (error, errno, "cannot rename the temporary file")))
    {
      unlink (templ);
      close (fd);
      return FALSE;
    }
  close (fd);
  return TRUE;
}

gboolean
js_report_file_append (const char *path, const char *data, gsize length, GError **error)
{
  struct stat st;
  gboolean exists, ok;
  int fd;

  if (!look (path, &exists, &st, error))
    return FALSE;
  fd = open (path, O_WRONLY | O_APPEND | O_CREAT | OPEN_FLAGS, 0644);
  if (fd < 0)
    return set_errno_error (error, errno, "cannot open");
  /* The file opened may not be the one looked at (a race with whoever
   * else can write in that directory): check the one we have. */
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return not_regular (error, st.st_mode);
    }
  ok = write_all (fd, data, length, error);
  close (fd);
  return ok;
}

gboolean
js_report_file_remove (const char *path, GError **error)
{
  struct stat st;
  gboolean exists;

  if (!look (path, &exists, &st, error))
    return FALSE;
  if (exists && unlink (path) != 0 && errno != ENOENT)
    return set_errno_error (error, errno, "cannot remove");
  return TRUE;
}

char *
js_report_file_read_tail (const char *path, gsize max, gsize *length, guint64 *file_size,
                          GError **error)
{
  g_autofree char *buffer = NULL;
  struct stat st;
  gsize want, done = 0;
  goffset offset;
  int fd;

  fd = open (path, O_RDONLY | OPEN_FLAGS);
  if (fd < 0)
    {
      set_errno_error (error, errno, "cannot open");
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      not_regular (error, st.st_mode);
      return NULL;
    }
  want = (gsize) MIN ((guint64) st.st_size, (guint64) max);
  offset = st.st_size - (goffset) want;
  buffer = g_malloc (want + 1);
  while (done < want)
    {
      gssize n = pread (fd, buffer + done, want - done, offset + (goffset) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break; /* shorter than it was: keep what was read */
      done += (gsize) n;
    }
  close (fd);
  buffer[done] = '\0';
  *length = done;
  if (file_size != NULL)
    *file_size = (guint64) st.st_size;
  return g_steal_pointer (&buffer);
}
