/* js-log.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-log.h"

#include <stdio.h>

static gboolean debug_enabled;

void
js_log_set_debug (gboolean debug)
{
  debug_enabled = debug;
}

gboolean
js_log_debug_enabled (void)
{
  return debug_enabled;
}

static void
log_line (const char *format, va_list args)
{
  /* One fprintf per line, so lines of several threads don't interleave. */
  g_autofree char *msg = g_strdup_vprintf (format, args);

  fprintf (stderr, "jankscope: %s\n", msg);
}

void
js_log_warning (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  log_line (format, args);
  va_end (args);
}

void
js_log_debug (const char *format, ...)
{
  va_list args;

  if (!debug_enabled)
    return;
  va_start (args, format);
  log_line (format, args);
  va_end (args);
}
