/* jsui-flame-layout.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsui-flame-layout.h"

static void
layout_node (GArray *rects, const JsuiStackNode *node, double x, double scale, double min_width)
{
  JsuiFlameRect r = { x, node->total * scale, node->depth, node };
  double cx = x;

  if (r.width < min_width || node->total <= 0)
    return;
  g_array_append_val (rects, r);
  for (guint i = 0; i < node->children->len; i++)
    {
      const JsuiStackNode *c = g_ptr_array_index (node->children, i);

      layout_node (rects, c, cx, scale, min_width);
      cx += c->total * scale;
    }
}

GArray *
jsui_flame_layout (const JsuiStackNode *root, double min_width)
{
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (JsuiFlameRect));

  g_return_val_if_fail (root != NULL, rects);

  if (root->total > 0)
    layout_node (rects, root, 0.0, 1.0 / (double) root->total, min_width);
  return rects;
}

const JsuiFlameRect *
jsui_flame_hit (GArray *rects, double x, guint depth)
{
  for (guint i = 0; i < rects->len; i++)
    {
      const JsuiFlameRect *r = &g_array_index (rects, JsuiFlameRect, i);

      if (r->depth == depth && x >= r->x && x < r->x + r->width)
        return r;
    }
  return NULL;
}
