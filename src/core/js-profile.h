/* js-profile.h: a calling-context tree at function level, bounded.
 *
 * Each node is a function (module and name; module and offset for a frame
 * without a name) called from its parent node; a sample adds to the node
 * of its innermost frame (self samples, self time). Two samples at other
 * lines of the same functions land on the same node. The frame a node
 * keeps (file, line, offset) is that of the first sample that made it.
 *
 * Bounded: at most `max_nodes` function nodes. Once full, a sample whose
 * path goes deeper than the tree can follow is counted at the deepest node
 * that exists, in that node's [other] child (one per node at most, outside
 * the bound): counts and times stay exact, only depth is lost.
 *
 * Strings are borrowed from the symbolizer (it keeps them for its life).
 * Collector thread only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-symbolizer.h"

G_BEGIN_DECLS

#define JS_PROFILE_NONE G_MAXUINT32

/* What a frame is to the culprit rules (js-stack-path.h). */
enum
{
  JS_NODE_DISPATCH = 1 << 0,  /* the main loop's dispatch (or the frame clock's paint): what
                                 it calls was dispatched */
  JS_NODE_LOOP = 1 << 1,      /* calls into the main loop or starts the program (main, ...) */
  JS_NODE_APP = 1 << 2,       /* the app's own code */
  JS_NODE_SYSTEM = 1 << 3,    /* libc, the loader, GLib/GObject/GIO and their kin */
  JS_NODE_OTHER = 1 << 4,     /* [other]: deeper frames not kept (the tree was full) */
  JS_NODE_TRUNCATED = 1 << 5, /* [truncated]: the root of a stack deeper than was sampled */
};
/* Where a culprit's search stops going up. */
#define JS_NODE_STOP (JS_NODE_DISPATCH | JS_NODE_LOOP)
#define JS_NODE_PSEUDO (JS_NODE_OTHER | JS_NODE_TRUNCATED)

typedef struct
{
  JsFrame frame;  /* representative (pseudo nodes: all 0) */
  guint32 parent; /* JS_PROFILE_NONE: a root */
  guint32 first_child;
  guint32 next_sibling;
  guint32 other; /* its [other] child, or JS_PROFILE_NONE */
  guint32 flags; /* JS_NODE_* */
  guint64 self_samples;
  gint64 self_ns;
} JsProfileNode;

typedef struct
{
  const JsFrame *frame; /* NULL: [truncated] */
  guint32 flags;
} JsPathFrame;

typedef struct
{
  GArray *nodes; /* JsProfileNode; a parent before its children */
  guint32 first_root;
  guint32 root_other; /* the [other] root, or JS_PROFILE_NONE */
  guint n_function_nodes;
  guint max_nodes;
  guint64 samples;
  gint64 time_ns;
} JsProfile;

JsProfile *js_profile_new (guint max_nodes);
void js_profile_free (JsProfile *p);
JsProfile *js_profile_copy (const JsProfile *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsProfile, js_profile_free)

/* The node for `path` (root first), made as needed; when the tree is full,
 * the [other] child of the deepest node that exists (or of no node: an
 * [other] root). Adds nothing. */
guint32 js_profile_intern (JsProfile *p, const JsPathFrame *path, guint n);

/* Adds samples and time to a node. */
void js_profile_add (JsProfile *p, guint32 node, guint64 samples, gint64 ns);

/* Adds every node of `src` to `dst`; `map` (src->nodes->len entries, may be
 * NULL) gets the node of `dst` each one went to. */
void js_profile_merge (JsProfile *dst, const JsProfile *src, guint32 *map);

static inline const JsProfileNode *
js_profile_node (const JsProfile *p, guint32 node)
{
  return &g_array_index (p->nodes, JsProfileNode, node);
}

/* Do two frames stand for the same function? */
gboolean js_profile_same_function (const JsFrame *a, const JsFrame *b);

G_END_DECLS
