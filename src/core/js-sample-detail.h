/* js-sample-detail.h: what a sample shows besides its stack, the evidence a
 * developer needs to act on a diagnosis (docs/report-format.md,
 * "Diagnosis", `detail`).
 *
 * A detail is a short text, its first byte its kind:
 *  - 'F' + a file's path: the main thread was blocked in a system call on
 *    that file (js_thread_probe_file_path);
 *  - 'D' + BUS '\n' OBJECT_PATH '\n' INTERFACE '\n' METHOD: it was inside a
 *    synchronous D-Bus call (js-dbus-calls.h).
 * The watchdog makes one per fresh sample that has one; the collector interns
 * it (at most JS_SAMPLE_DETAIL_MAX distinct texts a run, each kept until the
 * core ends; the rest are dropped) and each JsSampleStats keeps the time of
 * the first JS_SAMPLE_DETAILS details it sees (the rest in other_ns).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-thread-probe.h"

G_BEGIN_DECLS

#define JS_SAMPLE_DETAIL_FILE 'F'
#define JS_SAMPLE_DETAIL_DBUS 'D'
#define JS_SAMPLE_DETAILS 4
#define JS_SAMPLE_DETAIL_MAX 1024

typedef struct
{
  const char *text[JS_SAMPLE_DETAILS]; /* interned */
  gint64 ns[JS_SAMPLE_DETAILS];
  gint64 other_ns;
} JsSampleDetails;

/* Watchdog: the detail of the sample just taken with `snap`, newly
 * allocated, or NULL. */
char *js_sample_detail_take (const JsThreadSnapshot *snap);

/* Collector: `detail` interned (NULL: none, or the table is full). */
const char *js_sample_detail_intern (const char *detail);

/* `ns` of sample time to an interned `detail` (NULL: nothing). */
void js_sample_details_add (JsSampleDetails *d, const char *detail, gint64 ns);
/* `from`'s times, scaled by `share` (0-1), into `to`. */
void js_sample_details_merge (JsSampleDetails *to, const JsSampleDetails *from, double share);
/* The detail of `kind` with the most time (its text after the kind byte), or
 * NULL. */
const char *js_sample_details_heaviest (const JsSampleDetails *d, char kind);

G_END_DECLS
