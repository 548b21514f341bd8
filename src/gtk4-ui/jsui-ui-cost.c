/* jsui-ui-cost.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jsui-ui-cost.h"

#define WATCHED_KEY "jankscope-ui-cost"

/* A ring of per-second totals, slot = second % N; `second` tells whether a
 * slot is current. */
static struct
{
  gint64 second;
  gint64 spent_us;
} slots[JSUI_UI_COST_SECONDS + 1];
static gint64 first_second = -1;

void
jsui_ui_cost_add (gint64 now_us, gint64 spent_us)
{
  gint64 second = now_us / G_USEC_PER_SEC;
  guint i = second % G_N_ELEMENTS (slots);

  if (first_second < 0)
    first_second = second;
  if (slots[i].second != second)
    {
      slots[i].second = second;
      slots[i].spent_us = 0;
    }
  slots[i].spent_us += MAX (spent_us, 0);
}

double
jsui_ui_cost_ms_per_s (gint64 now_us)
{
  gint64 second = now_us / G_USEC_PER_SEC;
  gint64 total = 0;
  guint n = 0;

  if (first_second < 0)
    first_second = second; /* nothing spent yet counts as a start */
  /* The full seconds before this one, back to the first one seen. */
  for (gint64 s = second - 1; s >= first_second && s >= second - JSUI_UI_COST_SECONDS; s--)
    {
      guint i = s % G_N_ELEMENTS (slots);

      total += slots[i].second == s ? slots[i].spent_us : 0;
      n++;
    }
  return n > 0 ? total / 1000.0 / n : -1;
}

void
jsui_ui_cost_reset (void)
{
  memset (slots, 0, sizeof slots);
  first_second = -1;
}

static void
before_paint_cb (GdkFrameClock *clock, gpointer user_data)
{
  g_object_set_data (G_OBJECT (clock), WATCHED_KEY "-start",
                     GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ()));
}

static void
after_paint_cb (GdkFrameClock *clock, gpointer user_data)
{
  gint64 start
      = (gint64) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (clock), WATCHED_KEY "-start"));
  gint64 now = g_get_monotonic_time ();

  if (start > 0)
    jsui_ui_cost_add (now, now - start);
}

void
jsui_ui_cost_watch_clock (GdkFrameClock *clock)
{
  if (clock == NULL || g_object_get_data (G_OBJECT (clock), WATCHED_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (clock), WATCHED_KEY, GINT_TO_POINTER (1));
  /* First and last: the whole layout and paint of the frame. */
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
  g_signal_connect_after (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
}
