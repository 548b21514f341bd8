/* js-tiers.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-tiers.h"

#include <string.h>

#define NS_PER_MS G_GINT64_CONSTANT (1000000)

static const char *const names[JS_N_EVENT_TIERS] = {
  [JS_TIER_NOTICEABLE] = "noticeable", [JS_TIER_SEVERE] = "severe",
  [JS_TIER_FROZEN] = "frozen",         [JS_TIER_HANG] = "hang",
  [JS_TIER_LIGHT] = "light",
};

void
js_tier_default_bounds (gint64 bound_ns[JS_N_TIERS])
{
  bound_ns[JS_TIER_NOTICEABLE] = JS_TIER_DEFAULT_NOTICEABLE_MS * NS_PER_MS;
  bound_ns[JS_TIER_SEVERE] = JS_TIER_DEFAULT_SEVERE_MS * NS_PER_MS;
  bound_ns[JS_TIER_FROZEN] = JS_TIER_DEFAULT_FROZEN_MS * NS_PER_MS;
  bound_ns[JS_TIER_HANG] = JS_TIER_DEFAULT_HANG_MS * NS_PER_MS;
}

const char *
js_tier_name (JsTier tier)
{
  /* No g_return_val_if_fail: the core runs inside apps that make
   * criticals fatal. */
  return (guint) tier < JS_N_EVENT_TIERS ? names[tier] : NULL;
}

gboolean
js_tier_from_name (const char *name, JsTier *tier)
{
  for (guint t = 0; name != NULL && t < JS_N_EVENT_TIERS; t++)
    if (strcmp (name, names[t]) == 0)
      {
        *tier = (JsTier) t;
        return TRUE;
      }
  return FALSE;
}

JsTier
js_tier_by_mildness (guint i)
{
  return i == 0 ? JS_TIER_LIGHT : i < JS_N_EVENT_TIERS ? (JsTier) (i - 1) : JS_TIER_HANG;
}

JsTier
js_tier_of_stall (const gint64 bound_ns[JS_N_TIERS], gint64 duration_ns)
{
  for (int t = JS_TIER_HANG; t > JS_TIER_NOTICEABLE; t--)
    if (duration_ns >= bound_ns[t])
      return (JsTier) t;
  return JS_TIER_NOTICEABLE;
}

JsTier
js_tier_of_frame (const gint64 bound_ns[JS_N_TIERS], gint64 frame_ns)
{
  /* Frozen is strict: a frame of exactly the bound is severe (the core's
   * rule since frames were first judged; docs/report-format.md). */
  if (frame_ns > bound_ns[JS_TIER_FROZEN])
    return JS_TIER_FROZEN;
  if (frame_ns >= bound_ns[JS_TIER_SEVERE])
    return JS_TIER_SEVERE;
  if (frame_ns >= bound_ns[JS_TIER_NOTICEABLE])
    return JS_TIER_NOTICEABLE;
  return JS_TIER_LIGHT;
}

guint
js_tier_mildness (JsTier tier)
{
  if (tier == JS_TIER_LIGHT)
    return 0;
  return (guint) tier < JS_N_TIERS ? (guint) tier + 1 : JS_N_EVENT_TIERS;
}

JsTier
js_tier_worse (JsTier a, JsTier b)
{
  return js_tier_mildness (b) > js_tier_mildness (a) ? b : a;
}

JsTier
js_tier_of_episode (const gint64 bound_ns[JS_N_TIERS], gboolean frames, JsTier longest,
                    gint64 blocked_ns)
{
  JsTier by_blocked;

  if (frames)
    {
      by_blocked = js_tier_of_frame (bound_ns, blocked_ns);
      if (by_blocked == JS_TIER_FROZEN)
        by_blocked = JS_TIER_SEVERE;
    }
  else
    {
      by_blocked = js_tier_of_stall (bound_ns, blocked_ns);
      if (by_blocked == JS_TIER_HANG)
        by_blocked = JS_TIER_FROZEN;
    }
  return js_tier_worse (longest, by_blocked);
}
