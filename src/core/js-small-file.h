/* js-small-file.h: a small file of the kernel's (/proc, /sys) read whole
 * into the caller's buffer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* At most `size` - 1 bytes of the regular file at `path` into `buf`,
 * NUL-terminated, without allocating. Never waits on a FIFO and reads no
 * device (procfs and sysfs files are regular files). FALSE when it could
 * not be read or was empty (`buf` then holds ""). */
gboolean js_small_file_read (const char *path, char *buf, gsize size);

G_END_DECLS
