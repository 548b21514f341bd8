/* jsui-stack-tree.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "jsr-profile.h"
#include "jsui-format.h"
#include "jsui-stack-tree.h"

static JsuiStackNode *
node_new (const char *name, const char *module, JsuiStackNode *parent)
{
  JsuiStackNode *node = g_new0 (JsuiStackNode, 1);

  node->name = g_strdup (name);
  node->module = g_strdup (module);
  node->parent = parent;
  node->depth = parent != NULL ? parent->depth + 1 : 0;
  node->children = g_ptr_array_new ();
  return node;
}

static void
node_free (JsuiStackNode *node)
{
  for (guint i = 0; i < node->children->len; i++)
    node_free (g_ptr_array_index (node->children, i));
  g_ptr_array_unref (node->children);
  g_clear_pointer (&node->index, g_hash_table_unref);
  g_free (node->name);
  g_free (node->module);
  g_free (node);
}

JsuiStackTree *
jsui_stack_tree_new (const char *root_label)
{
  JsuiStackTree *tree = g_atomic_rc_box_new0 (JsuiStackTree);

  tree->root = node_new (root_label, NULL, NULL);
  return tree;
}

JsuiStackTree *
jsui_stack_tree_ref (JsuiStackTree *tree)
{
  return g_atomic_rc_box_acquire (tree);
}

static void
tree_clear (gpointer data)
{
  JsuiStackTree *tree = data;

  node_free (tree->root);
}

void
jsui_stack_tree_unref (JsuiStackTree *tree)
{
  if (tree != NULL)
    g_atomic_rc_box_release_full (tree, tree_clear);
}

/* Past this many children, child_named () looks them up in a hash set
 * instead of scanning them: merging wide trees stays linear. */
#define INDEX_THRESHOLD 16

static guint
node_key_hash (gconstpointer p)
{
  const JsuiStackNode *n = p;

  return g_str_hash (n->name != NULL ? n->name : "") * 31
         + (n->module != NULL ? g_str_hash (n->module) : 0);
}

static gboolean
node_key_equal (gconstpointer a, gconstpointer b)
{
  const JsuiStackNode *x = a, *y = b;

  return g_strcmp0 (x->name, y->name) == 0 && g_strcmp0 (x->module, y->module) == 0;
}

static JsuiStackNode *
child_named (JsuiStackNode *node, const char *name, const char *module)
{
  JsuiStackNode *c;

  if (node->index != NULL)
    {
      JsuiStackNode key = { .name = (char *) name, .module = (char *) module };

      c = g_hash_table_lookup (node->index, &key);
      if (c != NULL)
        return c;
    }
  else
    for (guint i = 0; i < node->children->len; i++)
      {
        c = g_ptr_array_index (node->children, i);

        if (g_strcmp0 (c->name, name) == 0 && g_strcmp0 (c->module, module) == 0)
          return c;
      }
  c = node_new (name, module, node);
  g_ptr_array_add (node->children, c);
  if (node->index != NULL)
    g_hash_table_add (node->index, c);
  else if (node->children->len > INDEX_THRESHOLD)
    {
      node->index = g_hash_table_new (node_key_hash, node_key_equal);
      for (guint i = 0; i < node->children->len; i++)
        g_hash_table_add (node->index, g_ptr_array_index (node->children, i));
    }
  return c;
}

void
jsui_stack_tree_add_weighted (JsuiStackTree *tree, const char *const *names,
                              const char *const *modules, guint n_frames, gint64 weight,
                              gint64 samples)
{
  JsuiStackNode *node = tree->root;

  g_return_if_fail (weight >= 0 && samples >= 0);

  node->total = jsui_sat_add (node->total, weight);
  node->total_samples = jsui_sat_add (node->total_samples, samples);
  for (guint i = 0; i < n_frames; i++)
    {
      node = child_named (node, names[i], modules != NULL ? modules[i] : NULL);
      node->total = jsui_sat_add (node->total, weight);
      node->total_samples = jsui_sat_add (node->total_samples, samples);
    }
  node->self = jsui_sat_add (node->self, weight);
  node->self_samples = jsui_sat_add (node->self_samples, samples);
}

void
jsui_stack_tree_add (JsuiStackTree *tree, const char *const *names, const char *const *modules,
                     guint n_frames, gint64 count)
{
  jsui_stack_tree_add_weighted (tree, names, modules, n_frames, count, count);
}

static int
compare_nodes (gconstpointer a, gconstpointer b)
{
  const JsuiStackNode *x = *(const JsuiStackNode *const *) a;
  const JsuiStackNode *y = *(const JsuiStackNode *const *) b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static void
sort_node (JsuiStackNode *node)
{
  g_ptr_array_sort (node->children, compare_nodes);
  for (guint i = 0; i < node->children->len; i++)
    sort_node (g_ptr_array_index (node->children, i));
}

void
jsui_stack_tree_sort (JsuiStackTree *tree)
{
  sort_node (tree->root);
}

char *
jsui_frame_name (const JsrReportFrame *frame)
{
  if (frame->function != NULL)
    return g_strdup (frame->function);
  if (frame->module != NULL)
    return g_strdup_printf ("%s+%s", frame->module, frame->offset != NULL ? frame->offset : "?");
  return g_strdup ("??");
}

gboolean
jsui_frame_is_own (const JsrReportFrame *frame)
{
  return frame->module != NULL && g_str_has_prefix (frame->module, "libjankscope");
}

/* The stack ending at a node of the profile, into the tree: root first,
 * jankscope's own frames of older reports left out (reports with profiles
 * have none: the core removed them). */
gboolean
jsui_frame_is_dispatch (const JsrReportFrame *frame)
{
  return frame->function != NULL
         && (strcmp (frame->function, "g_main_dispatch") == 0
             || strcmp (frame->function, "g_main_context_dispatch") == 0);
}

/* A frame of the loop's own below its dispatch: GLib's nameless ones (a
 * stripped g_main_dispatch, g_idle_dispatch), jankscope's (older reports). */
static gboolean
is_loop_glue (const JsrProfile *profile, const JsrProfileNode *n)
{
  const JsrReportFrame *f = n->frame >= 0 ? g_ptr_array_index (profile->frames, n->frame) : NULL;

  return f != NULL
         && (jsui_frame_is_own (f)
             || (f->function == NULL && f->module != NULL
                 && g_str_has_prefix (f->module, "libglib-2.0.so")));
}

/* Where a path (leaf first, as jsr_profile_path gives it) starts to be
 * shown: after its innermost dispatch of the main loop when @whole is FALSE
 * and something follows it, else at its outermost frame. */
static guint
first_shown (const JsrProfile *profile, GPtrArray *path, gboolean whole)
{
  if (whole)
    return path->len;
  for (guint i = 1; i < path->len; i++) /* the leaf itself is never cut */
    {
      const JsrProfileNode *n = g_ptr_array_index (path, i);
      const JsrReportFrame *f
          = n->frame >= 0 ? g_ptr_array_index (profile->frames, n->frame) : NULL;

      if (n->dispatch || (f != NULL && jsui_frame_is_dispatch (f)))
        {
          while (i > 1 && is_loop_glue (profile, g_ptr_array_index (path, i - 1)))
            i--;
          return i; /* i - 1, its callee, is the first frame shown */
        }
    }
  return path->len;
}

static void
add_node (JsuiStackTree *tree, const JsrProfile *profile, guint node, gint64 weight, gint64 samples,
          gboolean whole, GPtrArray *path, GPtrArray *names, GPtrArray *modules)
{
  g_ptr_array_set_size (path, 0);
  g_ptr_array_set_size (names, 0);
  g_ptr_array_set_size (modules, 0);
  jsr_profile_path (profile, node, path);
  for (guint i = first_shown (profile, path, whole); i-- > 0;)
    {
      const JsrProfileNode *n = g_ptr_array_index (path, i);
      const JsrReportFrame *f
          = n->frame >= 0 ? g_ptr_array_index (profile->frames, n->frame) : NULL;

      if (f != NULL && jsui_frame_is_own (f))
        continue;
      g_ptr_array_add (names, f != NULL ? jsui_frame_name (f)
                                        : g_strdup (n->frame == JSR_PROFILE_TRUNCATED
                                                        ? JSR_PROFILE_TRUNCATED_NAME
                                                        : JSR_PROFILE_OTHER_NAME));
      g_ptr_array_add (modules, f != NULL ? f->module : NULL);
    }
  jsui_stack_tree_add_weighted (tree, (const char *const *) names->pdata,
                                (const char *const *) modules->pdata, names->len, MAX (weight, 0),
                                MAX (samples, 0));
}

JsuiStackTree *
jsui_stack_tree_from_event (const JsrReportEvent *event, gboolean whole)
{
  const JsrProfile *profile = event->detail != NULL ? event->detail->profile : NULL;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  JsuiStackTree *tree;

  if (profile == NULL)
    return NULL;
  tree = jsui_stack_tree_new (_ ("All samples"));
  for (guint n = 0; n < profile->nodes->len; n++)
    {
      const JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, n);

      if (node->self_ns > 0 || node->self_samples > 0)
        add_node (tree, profile, n, node->self_ns, node->self_samples, whole, path, names, modules);
    }
  jsui_stack_tree_sort (tree);
  return tree;
}

JsuiStackTree *
jsui_stack_tree_from_part (const JsrReportEvent *event, guint part_index, gboolean whole)
{
  const JsrProfile *profile = event->detail != NULL ? event->detail->profile : NULL;
  const JsrReportPart *part;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  JsuiStackTree *tree;

  if (profile == NULL || event->parts == NULL || part_index >= event->parts->len)
    return NULL;
  part = g_ptr_array_index (event->parts, part_index);
  if (part->profile == NULL)
    return NULL;
  tree = jsui_stack_tree_new (_ ("All samples"));
  for (guint i = 0; i < part->profile->len; i++)
    {
      const JsrReportPartNode *entry = &g_array_index (part->profile, JsrReportPartNode, i);

      /* The reader checked the node against the profile. */
      add_node (tree, profile, (guint) entry->node, entry->self_ns, entry->self_samples, whole,
                path, names, modules);
    }
  /* What the part's profile left out: its time, not where it went. */
  if (part->other_ns > 0 || part->other_samples > 0)
    {
      const char *other[] = { JSR_PROFILE_OTHER_NAME };

      jsui_stack_tree_add_weighted (tree, other, NULL, 1, part->other_ns, part->other_samples);
    }
  jsui_stack_tree_sort (tree);
  return tree;
}

/* Every path that ends in a node with self samples, read upwards. */
static void
add_callers (JsuiStackTree *inverted, const JsuiStackNode *node, GPtrArray *names,
             GPtrArray *modules)
{
  if (node->self > 0 || node->self_samples > 0)
    {
      g_ptr_array_set_size (names, 0);
      g_ptr_array_set_size (modules, 0);
      for (const JsuiStackNode *n = node; n->parent != NULL; n = n->parent)
        {
          g_ptr_array_add (names, n->name);
          g_ptr_array_add (modules, n->module);
        }
      jsui_stack_tree_add_weighted (inverted, (const char *const *) names->pdata,
                                    (const char *const *) modules->pdata, names->len, node->self,
                                    node->self_samples);
    }
  for (guint i = 0; i < node->children->len; i++)
    add_callers (inverted, g_ptr_array_index (node->children, i), names, modules);
}

JsuiStackTree *
jsui_stack_tree_bottom_up (const JsuiStackTree *top_down)
{
  JsuiStackTree *inverted;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();

  g_return_val_if_fail (top_down != NULL, NULL);

  inverted = jsui_stack_tree_new (top_down->root->name);
  add_callers (inverted, top_down->root, names, modules);
  jsui_stack_tree_sort (inverted);
  return inverted;
}

static void
merge_node (JsuiStackNode *dst, const JsuiStackNode *src)
{
  dst->total = jsui_sat_add (dst->total, src->total);
  dst->self = jsui_sat_add (dst->self, src->self);
  dst->total_samples = jsui_sat_add (dst->total_samples, src->total_samples);
  dst->self_samples = jsui_sat_add (dst->self_samples, src->self_samples);
  for (guint i = 0; i < src->children->len; i++)
    {
      const JsuiStackNode *c = g_ptr_array_index (src->children, i);

      merge_node (child_named (dst, c->name, c->module), c);
    }
}

void
jsui_stack_tree_merge (JsuiStackTree *dst, const JsuiStackTree *src)
{
  g_return_if_fail (dst != NULL && src != NULL);
  merge_node (dst->root, src->root);
}
