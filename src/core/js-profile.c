/* js-profile.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-profile.h"

#include <string.h>

JsProfile *
js_profile_new (guint max_nodes)
{
  JsProfile *p = g_new0 (JsProfile, 1);

  p->nodes = g_array_new (FALSE, FALSE, sizeof (JsProfileNode));
  p->first_root = JS_PROFILE_NONE;
  p->root_other = JS_PROFILE_NONE;
  p->max_nodes = MAX (max_nodes, 1);
  return p;
}

void
js_profile_free (JsProfile *p)
{
  if (p == NULL)
    return;
  g_array_unref (p->nodes);
  g_free (p);
}

JsProfile *
js_profile_copy (const JsProfile *p)
{
  JsProfile *c = g_memdup2 (p, sizeof *p);

  c->nodes = g_array_sized_new (FALSE, FALSE, sizeof (JsProfileNode), p->nodes->len);
  g_array_append_vals (c->nodes, p->nodes->data, p->nodes->len);
  return c;
}

gboolean
js_profile_same_function (const JsFrame *a, const JsFrame *b)
{
  if (a->module != b->module)
    return FALSE;
  if (a->function != NULL || b->function != NULL)
    return a->function != NULL && b->function != NULL
           && (a->function == b->function || strcmp (a->function, b->function) == 0);
  /* Nameless: one function when the call frame information says so, else
   * one address. */
  if (a->entry != 0 || b->entry != 0)
    return a->entry == b->entry;
  return a->offset == b->offset;
}

static JsProfileNode *
node_at (JsProfile *p, guint32 i)
{
  return &g_array_index (p->nodes, JsProfileNode, i);
}

static guint32
append_node (JsProfile *p, guint32 parent, const JsFrame *frame, guint32 flags)
{
  JsProfileNode n = {
    .parent = parent,
    .first_child = JS_PROFILE_NONE,
    .next_sibling = JS_PROFILE_NONE,
    .other = JS_PROFILE_NONE,
    .flags = flags,
  };
  guint32 index = p->nodes->len;

  if (frame != NULL)
    n.frame = *frame;
  if (parent == JS_PROFILE_NONE)
    {
      n.next_sibling = p->first_root;
      p->first_root = index;
    }
  else
    {
      n.next_sibling = node_at (p, parent)->first_child;
      node_at (p, parent)->first_child = index;
    }
  g_array_append_val (p->nodes, n);
  if (!(flags & JS_NODE_OTHER))
    p->n_function_nodes++;
  return index;
}

/* The [other] child of `parent` (JS_PROFILE_NONE: the [other] root). */
static guint32
other_of (JsProfile *p, guint32 parent)
{
  guint32 *slot = parent == JS_PROFILE_NONE ? &p->root_other : &node_at (p, parent)->other;
  guint32 index;

  if (*slot != JS_PROFILE_NONE)
    return *slot;
  /* Not linked among the children: it is no function, nothing looks it up. */
  index = p->nodes->len;
  {
    JsProfileNode n = {
      .parent = parent,
      .first_child = JS_PROFILE_NONE,
      .next_sibling = JS_PROFILE_NONE,
      .other = JS_PROFILE_NONE,
      .flags = JS_NODE_OTHER,
    };

    g_array_append_val (p->nodes, n);
  }
  /* The array may have moved: look the slot up again. */
  if (parent == JS_PROFILE_NONE)
    p->root_other = index;
  else
    node_at (p, parent)->other = index;
  return index;
}

static gboolean
matches (const JsProfileNode *n, const JsFrame *frame, guint32 flags)
{
  if ((n->flags & JS_NODE_PSEUDO) != (flags & JS_NODE_PSEUDO))
    return FALSE;
  if (flags & JS_NODE_PSEUDO)
    return TRUE;
  return js_profile_same_function (&n->frame, frame);
}

/* The child of `parent` for `frame`, made if there is room; else
 * JS_PROFILE_NONE. */
static guint32
child (JsProfile *p, guint32 parent, const JsFrame *frame, guint32 flags)
{
  guint32 i = parent == JS_PROFILE_NONE ? p->first_root : node_at (p, parent)->first_child;

  for (; i != JS_PROFILE_NONE; i = node_at (p, i)->next_sibling)
    if (matches (node_at (p, i), frame, flags))
      {
        /* A dispatch is told by a removed frame of jankscope's below it
         * (js-stack-path.c) in some stacks only: once seen, it stays. */
        node_at (p, i)->flags |= flags & JS_NODE_DISPATCH;
        return i;
      }
  if (p->n_function_nodes >= p->max_nodes)
    return JS_PROFILE_NONE;
  return append_node (p, parent, frame, flags);
}

guint32
js_profile_intern (JsProfile *p, const JsPathFrame *path, guint n)
{
  guint32 node = JS_PROFILE_NONE;

  for (guint i = 0; i < n; i++)
    {
      guint32 flags = path[i].frame == NULL ? JS_NODE_TRUNCATED : path[i].flags;
      guint32 next = child (p, node, path[i].frame, flags);

      if (next == JS_PROFILE_NONE)
        return other_of (p, node);
      node = next;
    }
  return node != JS_PROFILE_NONE ? node : other_of (p, JS_PROFILE_NONE);
}

void
js_profile_add (JsProfile *p, guint32 node, guint64 samples, gint64 ns)
{
  JsProfileNode *n = node_at (p, node);

  n->self_samples += samples;
  n->self_ns += ns;
  p->samples += samples;
  p->time_ns += ns;
}

void
js_profile_merge (JsProfile *dst, const JsProfile *src, guint32 *map)
{
  g_autofree guint32 *own = map == NULL ? g_new (guint32, MAX (src->nodes->len, 1)) : NULL;

  if (map == NULL)
    map = own;
  /* Parents come first: each node's parent is mapped before it. */
  for (guint32 i = 0; i < src->nodes->len; i++)
    {
      const JsProfileNode *s = js_profile_node (src, i);
      guint32 parent = s->parent == JS_PROFILE_NONE ? JS_PROFILE_NONE : map[s->parent];
      guint32 d;

      if (parent != JS_PROFILE_NONE && (node_at (dst, parent)->flags & JS_NODE_OTHER))
        d = parent; /* below an [other] of dst: all of it goes there */
      else if (s->flags & JS_NODE_OTHER)
        d = other_of (dst, parent);
      else
        {
          d = child (dst, parent, &s->frame, s->flags);
          if (d == JS_PROFILE_NONE)
            d = other_of (dst, parent);
        }
      map[i] = d;
      if (s->self_samples != 0 || s->self_ns != 0)
        js_profile_add (dst, d, s->self_samples, s->self_ns);
    }
}
