/* jsui-flame-layout.h: the geometry of a flame graph, apart from drawing
 * (a pure function, unit-tested: tests/ui/test-inspector.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "jsui-stack-tree.h"

G_BEGIN_DECLS

/* One box: x and width are fractions of the root's samples (0..1), depth
 * counts rows from the root (row 0, drawn at the bottom of an upright flame
 * graph). */
typedef struct
{
  double x;
  double width;
  guint depth;
  const JsuiStackNode *node;
} JsuiFlameRect;

/* Boxes of `root` and its descendants, parents before children, children
 * left to right in the tree's order starting at their parent's x. Boxes
 * narrower than min_width are left out with their subtree. A root without
 * samples has no box. */
GArray *jsui_flame_layout (const JsuiStackNode *root, double min_width);

/* The deepest box under (x, depth), NULL if none. */
const JsuiFlameRect *jsui_flame_hit (GArray *rects, double x, guint depth);

G_END_DECLS
