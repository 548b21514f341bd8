/* js-slow-frame.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-slow-frame.h"

gint64
js_frame_budget (gint64 budget_ns)
{
  return budget_ns > 0 ? budget_ns : JS_FALLBACK_FRAME_BUDGET_NS;
}

gboolean
js_frame_is_slow (gint64 frame_ns, gint64 budget_ns, guint slow_pct)
{
  guint64 frame_x100, budget_x_pct;
  gboolean frame_fits, budget_fits;

  /* frame_ns * 100 > budget_ns * slow_pct, where the products may not fit:
   * the budget is positive, so a frame of 0 or less is never slow, and a
   * product that does not fit in 64 bits is larger than one that does. */
  budget_ns = js_frame_budget (budget_ns);
  if (frame_ns <= 0)
    return FALSE;
  frame_fits = g_uint64_checked_mul (&frame_x100, (guint64) frame_ns, 100);
  budget_fits = g_uint64_checked_mul (&budget_x_pct, (guint64) budget_ns, slow_pct);
  if (frame_fits && budget_fits)
    return frame_x100 > budget_x_pct;
  if (frame_fits != budget_fits)
    return budget_fits;
  /* Both past 2^64 (years of frame time: a hostile snapshot's numbers):
   * long doubles are close enough there. */
  return (long double) frame_ns * 100 > (long double) budget_ns * slow_pct;
}

gboolean
js_frame_is_frozen (const gint64 bound_ns[JS_N_TIERS], gint64 frame_ns)
{
  return js_tier_of_frame (bound_ns, frame_ns) == JS_TIER_FROZEN;
}
