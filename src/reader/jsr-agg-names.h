/* jsr-agg-names.h: the nameless names of an aggregate and their build-ids
 *
 * A callback or a culprit without a name (a static function of a stripped
 * library or program) is written "module+0xOFFSET" in an aggregate, and
 * keeps its module's build-id beside it (`callback_build_id`,
 * `culprit_build_id`, ... docs/aggregate-format.md) when its report's
 * module table lists that module once, so that `jankscope symbolize` can
 * name it afterwards. This file holds what every such pair shares: the
 * build-id taken from a report, the reader's checks, and the renaming.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsr-json-doc.h"
#include "jsr-json-read.h"
#include "jsr-report.h"

G_BEGIN_DECLS

/* Gives the function's name (g_malloc ()ed) of the nameless `name`
 * ("module+0x…", an address of the module's file) in the module of
 * `build_id`, or NULL to leave it as it is. The offset is looked up as a
 * function's own address (a callback's, a sampled leaf's): a culprit that
 * is a return address is named the same but after a call that is its
 * function's last instruction. */
typedef char *(*JsrAggNameFunc) (const char *name, const char *build_id, gpointer data);

/* "module+0x…": a nameless callback or culprit. */
gboolean jsr_agg_is_nameless (const char *name);

/* A culprit as the aggregate names it: its function; else, when the
 * report's module table gives its module's build-id (*build_id, borrowed
 * from the report) and the culprit has an offset, "module+0xOFFSET"; else
 * NULL (*build_id NULL). */
char *jsr_agg_culprit_name (const JsrReport *report, const JsrReportCulprit *culprit,
                            const char **build_id);

/* Reads the optional `member` (a build-id) into *out: hex digits, an even
 * number from 2 to 128, and only beside a nameless `beside`. */
gboolean jsr_agg_read_build_id (const JsrJsonNode *object, const JsrJsonPath *path,
                                const char *member, const char *beside, char **out, GError **error);

/* Names *name when it has a build-id: the name replaced and the build-id
 * dropped. TRUE when it was named. */
gboolean jsr_agg_name_pair (char **name, char **build_id, JsrAggNameFunc func, gpointer data);

G_END_DECLS
