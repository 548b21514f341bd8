/* jsui-pane-ratio.c: see jsui-pane-ratio.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsui-pane-ratio.h"

#define RATIO_KEY "jsui-pane-ratio"

typedef struct
{
  double ratio;
  int last_set; /* the position this code set last, -1: none yet */
  gboolean following;
} PaneRatio;

int
jsui_pane_ratio_position (int max_position, double ratio)
{
  if (max_position <= 0)
    return 0;
  return (int) (CLAMP (ratio, 0.0, 1.0) * max_position + 0.5);
}

/* GtkPaned recomputes max-position while it is allocated, and notifies it
 * when it changes: a new size. Setting the position there only queues
 * another allocation of the paned, which then finds the same max-position
 * and stops. */
static void
max_position_cb (GtkPaned *paned, GParamSpec *pspec, PaneRatio *pr)
{
  int max = 0;
  int position;

  (void) pspec;
  if (!pr->following)
    return;
  if (pr->last_set >= 0 && gtk_paned_get_position (paned) != pr->last_set)
    {
      /* The handle is not where we put it: the user moved it. */
      pr->following = FALSE;
      return;
    }
  g_object_get (paned, "max-position", &max, NULL);
  if (max <= 0)
    return;
  position = jsui_pane_ratio_position (max, pr->ratio);
  pr->last_set = position;
  if (position != gtk_paned_get_position (paned))
    gtk_paned_set_position (paned, position);
}

void
jsui_pane_keep_ratio (GtkPaned *paned, double ratio)
{
  PaneRatio *pr;

  g_return_if_fail (GTK_IS_PANED (paned));
  g_return_if_fail (ratio > 0.0 && ratio < 1.0);
  pr = g_new0 (PaneRatio, 1);
  pr->ratio = ratio;
  pr->last_set = -1;
  pr->following = TRUE;
  g_object_set_data_full (G_OBJECT (paned), RATIO_KEY, pr, g_free);
  g_signal_connect (paned, "notify::max-position", G_CALLBACK (max_position_cb), pr);
}

gboolean
jsui_pane_ratio_is_following (GtkPaned *paned)
{
  PaneRatio *pr = g_object_get_data (G_OBJECT (paned), RATIO_KEY);

  return pr != NULL && pr->following;
}
