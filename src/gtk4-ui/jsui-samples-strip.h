/* jsui-samples-strip.h: a jank event's samples over time, a strip as wide
 * as the event, each sample a box coloured by its stack (waiting samples
 * paler); hovering names the stack, clicking picks it (::stack-activated).
 *
 * The layout is a pure function (jsui_samples_layout), tested without a
 * display, like jsui-flame-layout.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "jsui-snapshot.h"

G_BEGIN_DECLS

/* The time one sample speaks for, as a share of the event's span. */
typedef struct
{
  double x;     /* 0..1 from the event's start */
  double width; /* 0..1 */
  int stack;    /* index into the event's stacks, -1: none (or not listed) */
  int node;     /* the profile node of its innermost frame, -1: no stack */
  gboolean waiting;
  guint sample; /* index into detail->samples */
} JsuiSampleSpan;

/* Each sample speaks for the time nearer to it than to its neighbours (a
 * folded sample from its first to its last time); the first and the last
 * reach out as far on their outer side, within the event. Spans are in
 * time order and do not overlap. An event without samples: empty. */
GArray *jsui_samples_layout (const JsrReportEvent *event);
/* The span at x (0..1), NULL if none. */
const JsuiSampleSpan *jsui_samples_hit (GArray *spans, double x);

#define JSUI_TYPE_SAMPLES_STRIP (jsui_samples_strip_get_type ())
G_DECLARE_FINAL_TYPE (JsuiSamplesStrip, jsui_samples_strip, JSUI, SAMPLES_STRIP, GtkWidget)

#define JSUI_SAMPLES_STRIP_HEIGHT 22

GtkWidget *jsui_samples_strip_new (void);
/* The samples of `event` (of `snapshot`: a reference is kept); NULL: none. */
void jsui_samples_strip_set_event (JsuiSamplesStrip *self, JsuiSnapshot *snapshot,
                                   const JsrReportEvent *event);
/* The spans of the last layout, never NULL. */
GArray *jsui_samples_strip_get_spans (JsuiSamplesStrip *self);
/* What a click at x (widget coordinates) does: emits ::stack-activated with
 * the stack of the sample there; returns it (-1: none). */
int jsui_samples_strip_activate_at (JsuiSamplesStrip *self, double x);
/* The text of the tooltip at x, NULL if none (free it). */
char *jsui_samples_strip_describe_at (JsuiSamplesStrip *self, double x);

G_END_DECLS
