/* js-tiers.h: how bad a stall or a slow frame was, one rule for all.
 *
 * Four tiers have a lower bound (the app's JANKSCOPE_THRESHOLD_MS and
 * JANKSCOPE_TIERS_MS, by default 50, 200, 700 and 3000 ms: the first stall
 * a user notices, a severe one, a frozen window, and where a hang starts, the
 * point at which an app is at risk of being called unresponsive); slow frames
 * under the first bound are "light". The bounds an app ran with are in its
 * reports (`config.tiers_ns`, docs/report-format.md), so every reader judges
 * with the app's own.
 *
 * Used by the core (dispatch parts, iterations, stalls, slow frames), the
 * reader (the reports' tier names) and the window (colours, labels). GLib
 * only; pure, any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The tiers with a bound come first, mildest first: arrays of
 * [JS_N_TIERS] (bounds, events_by_tier) are indexed by them. */
typedef enum
{
  JS_TIER_NOTICEABLE,
  JS_TIER_SEVERE,
  JS_TIER_FROZEN,
  JS_TIER_HANG,
  JS_N_TIERS,
  JS_TIER_LIGHT = JS_N_TIERS, /* a slow frame under the noticeable bound (frame events only) */
  JS_N_EVENT_TIERS,
} JsTier;

#define JS_TIER_DEFAULT_NOTICEABLE_MS 50
#define JS_TIER_DEFAULT_SEVERE_MS 200
#define JS_TIER_DEFAULT_FROZEN_MS 700
#define JS_TIER_DEFAULT_HANG_MS 3000

/* The default lower bounds, in ns. */
void js_tier_default_bounds (gint64 bound_ns[JS_N_TIERS]);

/* "noticeable", "severe", "frozen", "hang", "light" (the reports' names);
 * NULL for anything else. */
const char *js_tier_name (JsTier tier);
/* The tier of a report's name; FALSE (and *tier untouched) for another
 * string or NULL. */
gboolean js_tier_from_name (const char *name, JsTier *tier);
/* The tiers mildest first: i = 0 is light, JS_N_EVENT_TIERS - 1 hang;
 * past that, hang. */
JsTier js_tier_by_mildness (guint i);

/* A stall's tier (a dispatch part, an iteration, a hang under way): the
 * highest tier whose bound it reaches; noticeable below them all (the caller
 * decides whether it is a stall at all: the noticeable bound is the jank
 * threshold). The bounds need not increase (JANKSCOPE_THRESHOLD_MS may be
 * set above the severe bound). */
JsTier js_tier_of_stall (const gint64 bound_ns[JS_N_TIERS], gint64 duration_ns);

/* A slow frame's tier (js-slow-frame.h says which frames are slow): frozen
 * over (strictly) the frozen bound, severe from its bound, noticeable from
 * its bound, light below; never hang (frames have no hang tier). */
JsTier js_tier_of_frame (const gint64 bound_ns[JS_N_TIERS], gint64 frame_ns);

/* Where a tier stands, mildest first: 0 for light, 4 for hang (the inverse
 * of js_tier_by_mildness); past the tiers, above hang. */
guint js_tier_mildness (JsTier tier);
/* The worse of two tiers. */
JsTier js_tier_worse (JsTier a, JsTier b);

/* An episode's tier (a jank event: parts less than the merge gap apart).
 * `longest` is the tier of its longest part (a frame event's from
 * js_tier_of_frame, a stall's from js_tier_of_stall); `blocked_ns` the time
 * the parts blocked in all: a stall event's parts' own durations summed, a
 * frame event's frames' time past their budget summed (the time the display
 * fell behind), so back-to-back slow callbacks or seconds of slow frames
 * rank by what the user sat through, not by their longest piece. Blocked
 * time alone never reaches the tier only one uninterrupted part can: a
 * hang is one stall that long, a frozen frame event has a frozen frame, so
 * it raises a stall event to frozen at most and a frame event to severe. */
JsTier js_tier_of_episode (const gint64 bound_ns[JS_N_TIERS], gboolean frames, JsTier longest,
                           gint64 blocked_ns);

G_END_DECLS
