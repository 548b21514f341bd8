/* output-file.c: the files the CLI is asked to write (-o FILE of export and
 * merge), or standard output for "-"
 *
 * The path comes from a command line, perhaps a script's, perhaps run as
 * root: whatever is there already must not be harmed by an export.
 *  - An existing path must be a regular file. A character or block device
 *    (/dev/full, a disk), a FIFO, a socket, a directory or a symbolic link
 *    is refused before anything is opened: nothing writes into a device,
 *    nothing waits for a FIFO's reader, nothing replaces a device node with
 *    a file, and a link planted in a shared folder leads nowhere. lstat,
 *    not stat: the link itself is what is refused.
 *  - The new contents go to a temporary file beside the target (the same
 *    folder, so the rename is atomic), are synced, take the old file's
 *    mode (and owner and group, where the CLI may set them), and are renamed
 *    over it: a reader sees the old file or the whole new one, and a failed
 *    write leaves the old file as it was and no temporary file.
 *  - A new file gets 0666 minus the umask, as a shell redirection would.
 * The path is looked at again just before the rename: what appeared there
 * meanwhile is refused the same way (a window remains between that look and
 * the rename, which replaces a name and never writes into what it names).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-common.h"
#include "output-file.h"

static gboolean
errno_error (GError **error, int saved_errno, const char *path, gboolean beside)
{
  g_autofree char *name = jsr_display_filename (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               beside ? _ ("cannot create a file beside %s: %s") : _ ("cannot write %s: %s"), name,
               g_strerror (saved_errno));
  return FALSE;
}

/* FALSE when @path exists and is not a regular file; *st is its status
 * when *exists. */
static gboolean
check_target (const char *path, struct stat *st, gboolean *exists, GError **error)
{
  g_autofree char *name = NULL;
  const char *what;

  if (g_lstat (path, st) != 0)
    {
      if (errno != ENOENT)
        return errno_error (error, errno, path, FALSE);
      *exists = FALSE;
      return TRUE;
    }
  *exists = TRUE;
  if (S_ISREG (st->st_mode))
    return TRUE;

  if (S_ISLNK (st->st_mode))
    what = _ ("a symbolic link");
  else if (S_ISDIR (st->st_mode))
    what = _ ("a directory");
  else if (S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode))
    what = _ ("a device");
  else if (S_ISFIFO (st->st_mode))
    what = _ ("a FIFO");
  else if (S_ISSOCK (st->st_mode))
    what = _ ("a socket");
  else
    what = _ ("not a regular file");
  name = jsr_display_filename (path);
  /* Translators: the file, then what it is ("a device", "a FIFO"...). */
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
               _ ("%s is %s: only a regular file is replaced (nothing written)"), name, what);
  return FALSE;
}

static gboolean
write_all (int fd, const guint8 *data, gsize length)
{
  while (length > 0)
    {
      gssize written = write (fd, data, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          if (written == 0)
            errno = EIO;
          return FALSE;
        }
      data += written;
      length -= (gsize) written;
    }
  return TRUE;
}

static gboolean
write_file (const char *path, const void *data, gsize length, GError **error)
{
  g_autofree char *temporary = g_strconcat (path, ".XXXXXX", NULL);
  struct stat st, again;
  gboolean exists, exists_again;
  int fd;

  if (!check_target (path, &st, &exists, error))
    return FALSE;

  /* 0600 until it has the old file's mode; a new file's mode is the
   * umask's, as open (O_CREAT, 0666) gives it. */
  fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, exists ? 0600 : 0666);
  if (fd < 0)
    return errno_error (error, errno, path, TRUE);

  if (exists)
    {
      /* Owner first: fchown may clear the set-id bits that fchmod sets.
       * Only root may give a file away: elsewhere it stays the caller's. */
      if ((st.st_uid != geteuid () || st.st_gid != getegid ())
          && fchown (fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
        goto fail;
      if (fchmod (fd, st.st_mode & 07777) != 0)
        goto fail;
    }
  if (!write_all (fd, data, length) || g_fsync (fd) != 0)
    goto fail;
  if (close (fd) != 0)
    {
      fd = -1;
      goto fail;
    }
  fd = -1;

  if (!check_target (path, &again, &exists_again, error))
    {
      g_unlink (temporary);
      return FALSE;
    }
  if (g_rename (temporary, path) != 0)
    goto fail;
  return TRUE;

fail:
  {
    int saved_errno = errno;

    if (fd >= 0)
      close (fd);
    g_unlink (temporary);
    return errno_error (error, saved_errno, path, FALSE);
  }
}

gboolean
cli_output_write (const char *path, const void *data, gsize length, gboolean binary, GError **error)
{
  if (strcmp (path, "-") != 0)
    return write_file (path, data, length, error);

  if (binary && isatty (STDOUT_FILENO))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _ ("not writing binary data to a terminal: give a file with -o FILE, or "
                      "redirect the output"));
      return FALSE;
    }
  return cli_write_stdout (data, length, error);
}
