/* symbolize-doc.h: a saved report (or aggregate) with its unnamed frames
 * named, for `jankscope symbolize` (docs/report-format.md, "Symbolizing a
 * saved report")
 *
 * The document is read into a tree of its own (the reading side's parser
 * gives read-only values), changed there, and written back with the
 * reading side's writer. What is named, by module file name, build-id and
 * offset (symbolize-modules.h):
 *
 *  - stack frames (`function: null`): function, file, line, and the frames
 *    inlined at that address inserted before it (`inlined: true`), as the
 *    core writes them; each named frame gets `symbolized: true`;
 *  - `profile.frames` entries, at function level ({function, module,
 *    symbolized}); frames that became one function are one entry, and
 *    sibling nodes that became one function one node (their counts and
 *    times summed), so Σ self_samples = samples and Σ self_ns = time_ns
 *    still hold exactly and parents still come before children; every
 *    node index of the event (stacks, samples, culprit, parts' profiles
 *    and stacks) is remapped, and stacks that became one are one (counts
 *    and times summed, samples' `stack` remapped);
 *  - `culprit` and `culprit.callback`, `callback_frame`, and `callback`
 *    strings (`libfoo.so+0x1234`), through the build-id the document's
 *    frames give that module.
 *
 * Signatures (`signature`, `signature_id`) are kept as the run computed
 * them: see docs/report-format.md, "Signatures".
 *
 * An aggregate is read as `merge` reads it instead: its nameless callbacks
 * that carry a `callback_build_id` are named, the groups and cells that
 * became one merged (jsr_aggregate_name_callbacks ()), and it is written
 * as `merge` writes it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "symbolize-modules.h"

G_BEGIN_DECLS

typedef struct
{
  guint named;   /* frames, callbacks and culprits named */
  guint refused; /* left as they are: their module's file has another build-id */
  guint missing; /* left as they are: no file (or no name in it) */
} CliSymStats;

/* The document `data` (a report or an aggregate) with its frames named:
 * the new text (NULL, with an error, when it is not valid JSON or too
 * large). `*changed`: something was named. */
char *cli_symbolize_document (const char *data, gsize length, CliSymModules *modules,
                              CliSymStats *stats, gboolean *changed, GError **error);

G_END_DECLS
