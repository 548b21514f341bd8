/* jsr-display.h: values from outside, as messages may quote them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A value from outside (a file name, a string of a report, an option's
 * value) as a message may quote it: valid UTF-8 (invalid bytes become
 * U+FFFD), the characters a terminal or the bidi algorithm would act on
 * escaped visibly ("\x1b", "\n", "\u202e"), and cut at JSR_DISPLAY_MAX_CHARS
 * characters with "…". NULL reads "(null)". Every message of the CLI that
 * quotes such a value goes through it. */
#define JSR_DISPLAY_MAX_CHARS 200
char *jsr_display (const char *text);
/* The same for a file name in the file system's encoding. */
char *jsr_display_filename (const char *path);
/* Any limit (0: none). */
char *jsr_display_cut (const char *text, guint max_chars);

G_END_DECLS
