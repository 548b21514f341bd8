/* js-diagnosis-table.h: the named anti-patterns of main-thread jank, as data.
 *
 * Each rule names one kind of mistake (synchronous file I/O, a synchronous
 * D-Bus call, decoding an image...) by the functions whose time shows it
 * (glob patterns over function names, `*` and `?` as in
 * g_pattern_match_simple) and, for blocking calls, the wait kind of the
 * main thread's blocked samples (docs/report-format.md, `wait`). Its title
 * and fix are English, marked N_(): the report carries them as they are,
 * readers translate them by the rule's id (js_diagnosis_rule_by_id).
 *
 * The table itself is js-diagnosis-table.c, alone: a contributor adds a rule
 * there (and a case for it in tests/unit/test-diagnosis.c) without touching
 * the matching (js-diagnosis.c). Ids are stable: reports and aggregates keep
 * them, so an id is never reused for another meaning.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JS_DIAGNOSIS_SPECIFIC, /* functions and waits */
  JS_DIAGNOSIS_CALLBACK, /* the rest, in a dispatch or iteration: names the culprit */
  JS_DIAGNOSIS_FRAME,    /* the rest, in a slow frame: names the culprit */
} JsDiagnosisKind;

typedef struct
{
  const char *id;    /* stable, [a-z0-9-] */
  const char *title; /* N_(): "File I/O on the main thread" */
  const char *fix;   /* N_(): the GLib/GTK API that avoids it */
  JsDiagnosisKind kind;
  const char *const *functions; /* NULL-terminated globs, or NULL */
  const char *wait;             /* a wait kind name ("io", "sleep"...) or NULL */
} JsDiagnosisRule;

/* The rules, in the order ties are broken (the first wins). */
const JsDiagnosisRule *js_diagnosis_rules (guint *n_rules);

/* The rule with this id, or NULL (an id of a newer jankscope). */
const JsDiagnosisRule *js_diagnosis_rule_by_id (const char *id);

G_END_DECLS
