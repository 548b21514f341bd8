/* js-stack-copy.h: a copy of a blocked thread's stack, the symbolizer's
 * input for unwinding (js-symbolizer.h); the watchdog takes it
 * (src/core/js-thread-probe.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A copy of a blocked thread's stack, [sp, sp + size), with the registers
 * /proc/self/task/TID/syscall gives (the others are unknown). */
typedef struct
{
  guint64 sp;
  guint64 pc;
  guint32 size;
  guint8 data[];
} JsStackCopy;

G_END_DECLS
