/* jsr-profile.c: an event's calling-context profile (docs/report-format.md, "Profiles")
 *
 * The reader's rules for an untrusted profile (docs/report-format.md,
 * "Reading profiles (jankscope's own reader)"):
 *  - `nodes` is an object of four arrays of integers of one length, at most
 *    JSR_PROFILE_MAX_NODES; `frames` at most JSR_PROFILE_MAX_FRAMES objects;
 *  - a node's `parent` is −1 or a node *before* it: so the tree has no
 *    cycle, and every pass over it is a loop over the array (no recursion,
 *    however deep); its depth is at most JSR_PROFILE_MAX_DEPTH;
 *  - a node's `frame` is −1 ([other]), −2 ([truncated]) or an index of
 *    `frames`;
 *  - counts and times are integers >= 0; their sums saturate at 2^63 − 1,
 *    and the profile's `samples` and `time_ns` are those sums, not the
 *    file's members (which must only be counts): a reader then never shows a
 *    total its parts do not make.
 * A problem fails the load with an error that names the member.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "js-signature.h"
#include "jsr-aggregate.h"
#include "jsr-profile.h"
#include "jsr-saturate.h"

typedef const JsrJsonNode Node;
typedef JsrJsonPath Path;

static void
frame_free (JsrReportFrame *frame)
{
  g_free (frame->function);
  g_free (frame->symbol);
  g_free (frame->module);
  g_free (frame->file);
  g_free (frame->offset);
  g_free (frame->build_id);
  g_free (frame);
}

static JsrProfile *
profile_new (void)
{
  JsrProfile *profile = g_new0 (JsrProfile, 1);

  profile->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
  profile->nodes = g_array_new (FALSE, TRUE, sizeof (JsrProfileNode));
  return profile;
}

void
jsr_profile_free (JsrProfile *profile)
{
  if (profile == NULL)
    return;
  g_ptr_array_unref (profile->frames);
  g_array_unref (profile->nodes);
  g_free (profile);
}

static gboolean
too_many (GError **error, const Path *path, const char *member, guint found, guint limit)
{
  g_autofree char *full = jsr_json_path_to_string (path, member);

  g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_TOO_LARGE,
               _ ("%s has %u entries: at most %u can be loaded"), full, found, limit);
  return FALSE;
}

/* ---- parsing ------------------------------------------------------------------- */

static JsrReportFrame *
parse_frame (Node *object, const Path *path, GError **error)
{
  JsrReportFrame *frame = g_new0 (JsrReportFrame, 1);

  frame->line = JSR_UNKNOWN;
  if (jsr_json_read_string (object, path, "function", TRUE, &frame->function, error)
      && jsr_json_read_string (object, path, "symbol", TRUE, &frame->symbol, error)
      && jsr_json_read_string (object, path, "module", TRUE, &frame->module, error)
      && jsr_json_read_string (object, path, "offset", TRUE, &frame->offset, error)
      && jsr_json_read_string (object, path, "build_id", TRUE, &frame->build_id, error)
      && jsr_json_read_optional_bool (object, path, "symbolized", &frame->symbolized, error))
    return frame;

  frame_free (frame);
  return NULL;
}

static gboolean
parse_frames (Node *object, const Path *path, JsrProfile *profile, GError **error)
{
  Path frames_path = JSR_JSON_MEMBER (path, "frames");
  Node *frames = jsr_json_read_array (object, path, "frames", error);

  if (frames == NULL)
    return FALSE;
  if (frames->length > JSR_PROFILE_MAX_FRAMES)
    return too_many (error, path, "frames", frames->length, JSR_PROFILE_MAX_FRAMES);
  for (guint i = 0; i < frames->length; i++)
    {
      Path frame_path = JSR_JSON_ELEMENT (&frames_path, i);
      Node *element = jsr_json_read_element (frames, &frame_path, error);
      JsrReportFrame *frame;

      if (element == NULL || (frame = parse_frame (element, &frame_path, error)) == NULL)
        return FALSE;
      g_ptr_array_add (profile->frames, frame);
    }
  return TRUE;
}

/* Element i of a column: an integer from `min` to `max`. */
static gboolean
read_column_int (Node *column, const Path *column_path, guint i, gint64 min, gint64 max,
                 const char *why, gint64 *out, GError **error)
{
  Path element_path = JSR_JSON_ELEMENT (column_path, i);
  Node *element = &column->v.elements[i];

  if (element->type != JSR_JSON_INT)
    return jsr_json_invalid (error, &element_path, NULL, _ ("an integer"), element);
  if (element->v.integer < min || element->v.integer > max)
    {
      g_autofree char *full = jsr_json_path_to_string (&element_path, NULL);

      if (max == G_MAXINT64)
        g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                     _ ("%s must not be negative (it is %lld)"), full,
                     (long long) element->v.integer);
      else
        /* Translators: the last %s says why, e.g. ": a parent comes before its child" */
        g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                     _ ("%s must be from %lld to %lld (it is %lld)%s"), full, (long long) min,
                     (long long) max, (long long) element->v.integer, why);
      return FALSE;
    }
  *out = element->v.integer;
  return TRUE;
}

static const char *const columns[] = { "parent", "frame", "self_samples", "self_ns" };

/* dispatch_nodes (optional): indices of nodes. */
static gboolean
parse_dispatch_nodes (Node *object, const Path *path, JsrProfile *profile, GError **error)
{
  Path list_path = JSR_JSON_MEMBER (path, "dispatch_nodes");
  Node *list;

  if (jsr_json_object_get (object, "dispatch_nodes") == NULL)
    return TRUE;
  list = jsr_json_read_array (object, path, "dispatch_nodes", error);
  if (list == NULL)
    return FALSE;
  if (list->length > profile->nodes->len)
    return too_many (error, &list_path, NULL, list->length, profile->nodes->len);
  for (guint i = 0; i < list->length; i++)
    {
      gint64 node;

      if (!read_column_int (list, &list_path, i, 0, (gint64) profile->nodes->len - 1,
                            _ (": an index of nodes"), &node, error))
        return FALSE;
      g_array_index (profile->nodes, JsrProfileNode, node).dispatch = TRUE;
    }
  return TRUE;
}

static gboolean
parse_nodes (Node *object, const Path *path, JsrProfile *profile, GError **error)
{
  Path nodes_path = JSR_JSON_MEMBER (path, "nodes");
  Node *nodes = jsr_json_read_object (object, path, "nodes", error);
  Node *column[G_N_ELEMENTS (columns)];
  Path column_path[G_N_ELEMENTS (columns)];
  guint n = 0;

  if (nodes == NULL)
    return FALSE;
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      column[c] = jsr_json_read_array (nodes, &nodes_path, columns[c], error);
      column_path[c] = (Path) JSR_JSON_MEMBER (&nodes_path, columns[c]);
      if (column[c] == NULL)
        return FALSE;
      if (c == 0)
        n = column[c]->length;
      else if (column[c]->length != n)
        {
          g_autofree char *full = jsr_json_path_to_string (&nodes_path, NULL);

          g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                       _ ("%s: “%s” has %u entries and “%s” %u: the columns must be of one "
                          "length"),
                       full, columns[0], n, columns[c], column[c]->length);
          return FALSE;
        }
    }
  if (n > JSR_PROFILE_MAX_NODES)
    return too_many (error, &nodes_path, "parent", n, JSR_PROFILE_MAX_NODES);

  g_array_set_size (profile->nodes, n);
  for (guint i = 0; i < n; i++)
    {
      JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, i);
      gint64 parent, frame;

      if (!read_column_int (column[0], &column_path[0], i, -1, (gint64) i - 1,
                            _ (": a parent comes before its child"), &parent, error)
          || !read_column_int (column[1], &column_path[1], i, JSR_PROFILE_TRUNCATED,
                               (gint64) profile->frames->len - 1,
                               _ (": an index of frames, or −1 or −2"), &frame, error)
          || !read_column_int (column[2], &column_path[2], i, 0, G_MAXINT64, "",
                               &node->self_samples, error)
          || !read_column_int (column[3], &column_path[3], i, 0, G_MAXINT64, "", &node->self_ns,
                               error))
        return FALSE;
      node->parent = (gint32) parent;
      node->frame = (gint32) frame;
      node->depth
          = parent < 0 ? 0 : g_array_index (profile->nodes, JsrProfileNode, parent).depth + 1;
      if (node->depth >= JSR_PROFILE_MAX_DEPTH)
        {
          Path element_path = JSR_JSON_ELEMENT (&column_path[0], i);
          g_autofree char *full = jsr_json_path_to_string (&element_path, NULL);

          g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_TOO_LARGE,
                       _ ("%s: the node is %u calls deep: at most %u can be loaded"), full,
                       node->depth + 1, JSR_PROFILE_MAX_DEPTH);
          return FALSE;
        }
      profile->samples = jsr_sat_add (profile->samples, node->self_samples);
      profile->time_ns = jsr_sat_add (profile->time_ns, node->self_ns);
    }
  return TRUE;
}

JsrProfile *
jsr_profile_parse (Node *object, const Path *path, GError **error)
{
  JsrProfile *profile = profile_new ();
  gint64 ignored;

  /* The totals must be counts; the reader takes the nodes' sums. */
  if (jsr_json_read_optional_count (object, path, "samples", &ignored, error)
      && jsr_json_read_optional_count (object, path, "time_ns", &ignored, error)
      && jsr_json_read_optional_count (object, path, "nodes_max", &ignored, error)
      && parse_frames (object, path, profile, error) && parse_nodes (object, path, profile, error)
      && parse_dispatch_nodes (object, path, profile, error))
    return profile;

  jsr_profile_free (profile);
  return NULL;
}

/* ---- older reports: a profile from the listed stacks -------------------------- */

static char *
frame_key (const JsrReportFrame *frame)
{
  /* Function level, as the core's profiles: a frame with a name is its
   * function and module, one without its module and offset. */
  if (frame->function != NULL)
    return g_strdup_printf ("f\x1f%s\x1f%s", frame->function, frame->module ? frame->module : "");
  return g_strdup_printf ("o\x1f%s\x1f%s", frame->module ? frame->module : "",
                          frame->offset ? frame->offset : "");
}

static gint32
intern_frame (JsrProfile *profile, GHashTable *frames, const JsrReportFrame *frame)
{
  g_autofree char *key = frame_key (frame);
  gpointer index;
  JsrReportFrame *copy;

  if (g_hash_table_lookup_extended (frames, key, NULL, &index))
    return GPOINTER_TO_INT (index) - 1;
  copy = g_new0 (JsrReportFrame, 1);
  copy->function = g_strdup (frame->function);
  copy->symbol = g_strdup (frame->symbol);
  copy->module = g_strdup (frame->module);
  copy->line = JSR_UNKNOWN;
  if (frame->function == NULL)
    {
      copy->offset = g_strdup (frame->offset);
      copy->build_id = g_strdup (frame->build_id);
    }
  g_ptr_array_add (profile->frames, copy);
  g_hash_table_insert (frames, g_steal_pointer (&key), GINT_TO_POINTER (profile->frames->len));
  return profile->frames->len - 1;
}

static gint32
child_node (JsrProfile *profile, GHashTable *children, gint32 parent, gint32 frame)
{
  gint64 key = (gint64) (((guint64) (guint32) parent << 32) | (guint32) frame);
  gpointer index;
  JsrProfileNode node = { .parent = parent, .frame = frame };

  if (g_hash_table_lookup_extended (children, &key, NULL, &index))
    return GPOINTER_TO_INT (index) - 1;
  node.depth = parent < 0 ? 0 : g_array_index (profile->nodes, JsrProfileNode, parent).depth + 1;
  g_array_append_val (profile->nodes, node);
  g_hash_table_insert (children, g_memdup2 (&key, sizeof key),
                       GINT_TO_POINTER (profile->nodes->len));
  return profile->nodes->len - 1;
}

JsrProfile *
jsr_profile_from_stacks (GPtrArray *stacks, gint64 watched_ns, gint64 samples_total,
                         gint64 attributed_ns)
{
  g_autoptr (GHashTable) frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) children
      = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  JsrProfile *profile;
  gint64 samples = 0, counted = 0, given = 0;
  gint64 watched = MAX (watched_ns, 0);

  if (stacks == NULL)
    return NULL;
  /* The shares of watched time are of all the event's samples (those
   * without a stack too), as the reports of that time meant them. */
  for (guint i = 0; i < stacks->len; i++)
    samples
        = jsr_sat_add (samples, MAX (((JsrReportStack *) g_ptr_array_index (stacks, i))->count, 0));
  samples = MAX (samples, samples_total);

  profile = profile_new ();
  profile->from_stacks = TRUE;
  for (guint i = 0; i < stacks->len; i++)
    {
      JsrReportStack *stack = g_ptr_array_index (stacks, i);
      gint64 count = MAX (stack->count, 0);
      gint32 node = JSR_PROFILE_NO_NODE;
      JsrProfileNode *leaf;
      gint64 time;

      counted = jsr_sat_add (counted, count);
      if (stack->time_ns != JSR_UNKNOWN)
        time = stack->time_ns;
      else
        {
          gint64 share = samples > 0 ? (gint64) ((__int128) watched * counted / samples) : 0;

          time = share - given;
          given = share;
        }

      /* Root first: the report lists frames leaf first. A stack deeper
       * than the profiles' bound keeps its outer frames. */
      for (guint k = stack->frames->len; k-- > 0;)
        {
          if (node != JSR_PROFILE_NO_NODE
              && g_array_index (profile->nodes, JsrProfileNode, node).depth + 1
                     >= JSR_PROFILE_MAX_DEPTH)
            break;
          node = child_node (profile, children, node,
                             intern_frame (profile, frames, g_ptr_array_index (stack->frames, k)));
        }
      if (node == JSR_PROFILE_NO_NODE)
        node = child_node (profile, children, JSR_PROFILE_NO_NODE, JSR_PROFILE_OTHER);
      stack->node = node;
      leaf = &g_array_index (profile->nodes, JsrProfileNode, node);
      leaf->self_samples = jsr_sat_add (leaf->self_samples, count);
      leaf->self_ns = jsr_sat_add (leaf->self_ns, time);
      profile->samples = jsr_sat_add (profile->samples, count);
      profile->time_ns = jsr_sat_add (profile->time_ns, time);
    }

  /* The time of the stacks the report left out. */
  if (attributed_ns != JSR_UNKNOWN && attributed_ns > profile->time_ns)
    {
      gint32 other = child_node (profile, children, JSR_PROFILE_NO_NODE, JSR_PROFILE_OTHER);
      JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, other);

      node->self_ns = jsr_sat_add (node->self_ns, attributed_ns - profile->time_ns);
      profile->time_ns = attributed_ns;
    }

  if (profile->nodes->len == 0)
    {
      jsr_profile_free (profile);
      return NULL;
    }
  jsr_profile_set_sites (profile, stacks);
  return profile;
}

/* ---- walking ---------------------------------------------------------------- */

/* How many of the frames are physical ones (not inlined into the next). */
static guint
physical_frames (const GPtrArray *frames)
{
  guint n = 0;

  for (guint k = 0; k < frames->len; k++)
    n += !((const JsrReportFrame *) g_ptr_array_index (frames, k))->inlined;
  return n;
}

void
jsr_profile_set_sites (JsrProfile *profile, GPtrArray *stacks)
{
  for (guint i = 0; stacks != NULL && i < stacks->len; i++)
    {
      const JsrReportStack *stack = g_ptr_array_index (stacks, i);
      gint32 node = stack->node;
      gboolean skip_inlined;
      guint depth;

      if (node < 0 || (guint) node >= profile->nodes->len || stack->frames->len == 0)
        continue;
      /* A node per frame, as the core writes its profiles (inline frames
       * are nodes); else, as `jankscope symbolize` leaves a stack it named
       * (inline frames inserted, the profile at function level), a node
       * per physical frame. */
      depth = g_array_index (profile->nodes, JsrProfileNode, node).depth;
      if (depth + 1 == stack->frames->len)
        skip_inlined = FALSE;
      else if (depth + 1 == physical_frames (stack->frames))
        skip_inlined = TRUE;
      else
        continue;
      for (guint k = 0; node >= 0 && k < stack->frames->len; k++)
        {
          const JsrReportFrame *frame = g_ptr_array_index (stack->frames, k);
          JsrProfileNode *n = &g_array_index (profile->nodes, JsrProfileNode, node);

          if (skip_inlined && frame->inlined)
            continue;
          if (n->site == NULL)
            n->site = frame;
          node = n->parent;
        }
    }
}

void
jsr_profile_inclusive (const JsrProfile *profile, gint64 *samples, gint64 *time_ns)
{
  guint n = profile->nodes->len;

  for (guint i = 0; i < n; i++)
    {
      const JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, i);

      if (samples != NULL)
        samples[i] = node->self_samples;
      if (time_ns != NULL)
        time_ns[i] = node->self_ns;
    }
  /* Children come after their parents: from the end, each node is complete
   * when it is added to its parent. */
  for (guint i = n; i-- > 0;)
    {
      gint32 parent = g_array_index (profile->nodes, JsrProfileNode, i).parent;

      if (parent < 0)
        continue;
      if (samples != NULL)
        samples[parent] = jsr_sat_add (samples[parent], samples[i]);
      if (time_ns != NULL)
        time_ns[parent] = jsr_sat_add (time_ns[parent], time_ns[i]);
    }
}

const JsrReportFrame *
jsr_profile_node_frame (const JsrProfile *profile, guint node)
{
  gint32 frame;

  g_return_val_if_fail (node < profile->nodes->len, NULL);
  frame = g_array_index (profile->nodes, JsrProfileNode, node).frame;
  return frame >= 0 ? g_ptr_array_index (profile->frames, frame) : NULL;
}

void
jsr_profile_path (const JsrProfile *profile, guint node, GPtrArray *out)
{
  gint32 i = (gint32) node;

  g_return_if_fail (node < profile->nodes->len);
  /* Parents come first: this ends after at most depth + 1 steps. */
  while (i >= 0)
    {
      const JsrProfileNode *n = &g_array_index (profile->nodes, JsrProfileNode, i);

      g_ptr_array_add (out, (gpointer) n);
      i = n->parent;
    }
}

char *
jsr_profile_signature (const JsrProfile *profile, GPtrArray *stacks, guint node, guint max_frames,
                       char id[17])
{
  g_autofree JsSignatureFrame *frames = NULL;
  const JsrProfileNode *n;
  guint k = 0;

  g_return_val_if_fail (node < profile->nodes->len, NULL);
  n = &g_array_index (profile->nodes, JsrProfileNode, node);
  if (n->frame < 0)
    return NULL;
  for (guint i = 0; max_frames == JS_SIGNATURE_DEFAULT_FRAMES && stacks != NULL && i < stacks->len;
       i++)
    {
      const JsrReportStack *stack = g_ptr_array_index (stacks, i);

      if (stack->node == (gint32) node && stack->signature != NULL)
        {
          /* The core's, hashed as it is. */
          jsr_agg_signature_id (stack->signature, id);
          return g_strdup (stack->signature);
        }
    }

  frames = g_new0 (JsSignatureFrame, n->depth + 1);
  for (gint32 i = (gint32) node; i >= 0;
       i = g_array_index (profile->nodes, JsrProfileNode, i).parent)
    {
      const JsrProfileNode *at = &g_array_index (profile->nodes, JsrProfileNode, i);
      const JsrReportFrame *frame
          = at->frame >= 0 ? g_ptr_array_index (profile->frames, at->frame) : NULL;

      /* [truncated] (the outermost: frames unknown) and [other] (a leaf: a
       * hostile file's above one) say nothing of the cause. */
      if (frame == NULL)
        continue;
      /* A frame `jankscope symbolize` named is the unnamed one it was. */
      frames[k].function = frame->symbolized ? NULL : frame->function;
      frames[k].module = frame->module;
      k++;
    }
  return js_signature_compute (frames, k, max_frames, id);
}
