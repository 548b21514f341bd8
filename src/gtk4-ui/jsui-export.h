/* jsui-export.h: the panel's Save and Export: a live snapshot document
 * (the report plus `live`, as the refresher received it) written as the
 * report alone (JSON, `live` left out), a Chrome trace or folded stacks.
 *
 * The formats are `jankscope export`'s own exporters (src/export/, linked
 * into this module like the reader, src/reader/): the same bytes as
 * `jankscope export --format chrome|folded REPORT`.
 *
 * Converting and writing happen in a GTask worker thread, never on the
 * app's main thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  JSUI_EXPORT_REPORT, /* "report": the report document, JSON */
  JSUI_EXPORT_CHROME, /* "chrome": Chrome trace event JSON (chrome://tracing, Perfetto) */
  JSUI_EXPORT_FOLDED, /* "folded": folded stacks (flamegraph.pl, speedscope) */
} JsuiExportFormat;

/* "report", "chrome", "folded"; FALSE for anything else. */
gboolean jsui_export_format_from_name (const char *name, JsuiExportFormat *format);
/* A file name to offer, e.g. "gtk4-stall-1234-trace.json" (app and pid from
 * the document when known: pass NULL/0 otherwise). */
char *jsui_export_suggested_name (JsuiExportFormat format, const char *app, gint64 pid);

/* Any thread: the bytes of `format` for `document`. */
GBytes *jsui_export_convert (GBytes *document, JsuiExportFormat format, GError **error);

/* Converts in a worker thread and writes `dest` (replaced as a whole). */
void jsui_export_async (GBytes *document, JsuiExportFormat format, GFile *dest,
                        GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data);
gboolean jsui_export_finish (GAsyncResult *result, GError **error);

G_END_DECLS
