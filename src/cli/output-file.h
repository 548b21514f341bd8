/* output-file.h: the files the CLI is asked to write (-o FILE of export and
 * merge), or standard output for "-"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes @data to @path: standard output for "-" (never @binary data to a
 * terminal); else a regular file, created or replaced atomically, keeping
 * the permissions of the one it replaces. An existing path that is not a
 * regular file (a device, a FIFO, a socket, a directory, a symbolic link) is
 * refused without being opened. FALSE with an error that names the path. */
gboolean cli_output_write (const char *path, const void *data, gsize length, gboolean binary,
                           GError **error);

G_END_DECLS
