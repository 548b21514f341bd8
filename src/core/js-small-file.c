/* js-small-file.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-small-file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean
js_small_file_read (const char *path, char *buf, gsize size)
{
  gsize got = 0;
  struct stat st;
  int fd;

  if (size == 0)
    return FALSE;
  buf[0] = '\0';
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return FALSE;
    }
  while (got < size - 1)
    {
      ssize_t n = read (fd, buf + got, size - 1 - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  buf[got] = '\0';
  return got > 0;
}
