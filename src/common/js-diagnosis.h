/* js-diagnosis.h: which named anti-pattern (js-diagnosis-table.h) explains a
 * part's (or an event's) time.
 *
 * Over a calling-context profile, with the time each node holds (a part's
 * share, or an event's own): a specific rule's evidence is the inclusive
 * time of the outermost frames that match one of its functions (on each
 * path from the root, the first matching node counts with everything below
 * it, so a matching frame inside another is not counted twice), or the time
 * of blocked samples of its wait kind, whichever is larger (the two usually
 * describe the same time: g_usleep sleeping). A rule fires only when its
 * evidence is at least JS_DIAGNOSIS_MIN_NS and at least JS_DIAGNOSIS_MIN_SHARE
 * of the attributed time: one stray sample never makes a diagnosis. Of the
 * rules that fire, the one with the most evidence wins (ties: the table's
 * order).
 *
 * When none fires, the generic rule ("slow-callback", or "slow-frame" for a
 * frame) names the culprit, under the same thresholds, and never a frame
 * that runs the program or the main loop (`main`, `g_main_loop_run`...).
 *
 * The core computes it for each part and event of a report; the reading
 * side only reads it (it keeps the table for titles and fixes). GLib only,
 * pure, any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-diagnosis-table.h"

G_BEGIN_DECLS

/* The least evidence that makes a diagnosis. */
#define JS_DIAGNOSIS_MIN_NS (40 * G_GINT64_CONSTANT (1000000))
#define JS_DIAGNOSIS_MIN_SHARE 0.3

#define JS_DIAGNOSIS_NO_NODE G_MAXUINT32

typedef struct
{
  guint n_nodes;
  const guint32 *parent;        /* JS_DIAGNOSIS_NO_NODE: a root; a parent before its children */
  const char *const *function;  /* per node; NULL: no name (or a pseudo node) */
  const gint64 *self_ns;        /* per node: the part's time there */
  const char *const *wait_kind; /* n_waits names ("io", "sleep"...) */
  const gint64 *wait_ns;        /* the blocked samples' time per wait kind */
  guint n_waits;
  gint64 attributed_ns; /* the time the profile speaks for */
  gboolean frame;       /* a slow frame (generic rule: "slow-frame") */
  guint32 culprit;      /* its node, or JS_DIAGNOSIS_NO_NODE */
  gint64 culprit_ns;
  const guint64 *masks; /* per node, js_diagnosis_match of its function; NULL: matched here.
                           The parts of one event share their event's profile: match once */
} JsDiagnosisInput;

typedef struct
{
  const JsDiagnosisRule *rule; /* NULL: no diagnosis */
  gint64 evidence_ns;
  double share;     /* evidence_ns / attributed_ns, at most 1 */
  guint32 node;     /* the matching node with the most time (the culprit for a generic rule),
                       or JS_DIAGNOSIS_NO_NODE when the wait was the evidence */
  const char *wait; /* the wait kind when its time was the evidence, else NULL */
} JsDiagnosis;

/* The diagnosis of `in` into `out`; returns whether there is one. */
gboolean js_diagnosis_find (const JsDiagnosisInput *in, JsDiagnosis *out);

/* The rules `function` matches: bit r for the r-th rule of the table. */
guint64 js_diagnosis_match (const char *function);

/* Does `function` match one of the rule's functions? */
gboolean js_diagnosis_rule_matches (const JsDiagnosisRule *rule, const char *function);

/* May the generic rules name this function (not a frame that runs the
 * program or the main loop)? */
gboolean js_diagnosis_nameable (const char *function);

G_END_DECLS
