/* symbolize-doc.c: see symbolize-doc.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "symbolize-doc.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "jsr-aggregate-io.h"
#include "jsr-aggregate.h"
#include "jsr-json-doc.h"
#include "js-json-writer.h"
#include "jsr-report.h"

/* The reader's bound on a stack's frames (jsr-report.h): inline frames are
 * inserted only while a stack stays within it. */
#define STACK_FRAMES_MAX JSR_REPORT_FULL_MAX_STACK_FRAMES

/* ---- a document that can be changed ------------------------------------ */

typedef struct Node Node;
struct Node
{
  JsrJsonType type;
  gint64 integer;
  double number;
  gboolean boolean;
  char *string;
  GPtrArray *items; /* Node: an array's elements, an object's values */
  GPtrArray *names; /* char: an object's member names */
};

static void
node_free (gpointer data)
{
  Node *n = data;

  if (n == NULL)
    return;
  g_free (n->string);
  if (n->items != NULL)
    g_ptr_array_unref (n->items);
  if (n->names != NULL)
    g_ptr_array_unref (n->names);
  g_free (n);
}

static Node *
node_new (JsrJsonType type)
{
  Node *n = g_new0 (Node, 1);

  n->type = type;
  if (type == JSR_JSON_ARRAY || type == JSR_JSON_OBJECT)
    n->items = g_ptr_array_new_with_free_func (node_free);
  if (type == JSR_JSON_OBJECT)
    n->names = g_ptr_array_new_with_free_func (g_free);
  return n;
}

static Node *
new_string (const char *text)
{
  Node *n;

  if (text == NULL)
    return node_new (JSR_JSON_NULL);
  n = node_new (JSR_JSON_STRING);
  n->string = g_strdup (text);
  return n;
}

static Node *
new_int (gint64 value)
{
  Node *n = node_new (JSR_JSON_INT);

  n->integer = value;
  return n;
}

static Node *
new_bool (gboolean value)
{
  Node *n = node_new (JSR_JSON_BOOLEAN);

  n->boolean = value;
  return n;
}

/* The parser's depth bound (the reader's) keeps this recursion shallow. */
static Node *
node_from_json (const JsrJsonNode *j)
{
  Node *n = node_new (j->type);

  switch (j->type)
    {
    case JSR_JSON_BOOLEAN:
      n->boolean = j->v.boolean;
      break;
    case JSR_JSON_INT:
      n->integer = j->v.integer;
      break;
    case JSR_JSON_DOUBLE:
      n->number = j->v.number;
      break;
    case JSR_JSON_STRING:
      n->string = g_strdup (j->v.string);
      break;
    case JSR_JSON_ARRAY:
      for (guint i = 0; i < j->length; i++)
        g_ptr_array_add (n->items, node_from_json (&j->v.elements[i]));
      break;
    case JSR_JSON_OBJECT:
      for (guint i = 0; i < j->length; i++)
        {
          g_ptr_array_add (n->names, g_strdup (j->v.members[i].name));
          g_ptr_array_add (n->items, node_from_json (&j->v.members[i].value));
        }
      break;
    default:
      n->type = JSR_JSON_NULL;
      break;
    }
  return n;
}

static void
node_write (JsJsonWriter *w, const Node *n)
{
  switch (n->type)
    {
    case JSR_JSON_BOOLEAN:
      js_json_writer_bool (w, n->boolean);
      break;
    case JSR_JSON_INT:
      js_json_writer_int (w, n->integer);
      break;
    case JSR_JSON_DOUBLE:
      js_json_writer_double (w, n->number);
      break;
    case JSR_JSON_STRING:
      js_json_writer_string (w, n->string);
      break;
    case JSR_JSON_ARRAY:
      js_json_writer_begin_array (w);
      for (guint i = 0; i < n->items->len; i++)
        node_write (w, g_ptr_array_index (n->items, i));
      js_json_writer_end_array (w);
      break;
    case JSR_JSON_OBJECT:
      js_json_writer_begin_object (w);
      for (guint i = 0; i < n->items->len; i++)
        {
          js_json_writer_member (w, g_ptr_array_index (n->names, i));
          node_write (w, g_ptr_array_index (n->items, i));
        }
      js_json_writer_end_object (w);
      break;
    default:
      js_json_writer_null (w);
      break;
    }
}

/* The last member `name` (as the reader reads it), or -1. */
static int
member_index (const Node *object, const char *name)
{
  if (object == NULL || object->type != JSR_JSON_OBJECT)
    return -1;
  for (guint i = object->names->len; i-- > 0;)
    if (strcmp (g_ptr_array_index (object->names, i), name) == 0)
      return (int) i;
  return -1;
}

static Node *
get (const Node *object, const char *name)
{
  int i = member_index (object, name);

  return i >= 0 ? g_ptr_array_index (object->items, i) : NULL;
}

static Node *
get_typed (const Node *object, const char *name, JsrJsonType type)
{
  Node *n = get (object, name);

  return n != NULL && n->type == type ? n : NULL;
}

static const char *
get_string (const Node *object, const char *name)
{
  Node *n = get_typed (object, name, JSR_JSON_STRING);

  return n != NULL ? n->string : NULL;
}

static gboolean
is_null (const Node *object, const char *name)
{
  Node *n = get (object, name);

  return n != NULL && n->type == JSR_JSON_NULL;
}

/* Replaces the member (the last of that name) or appends it; takes `value`. */
static void
set (Node *object, const char *name, Node *value)
{
  int i = member_index (object, name);

  if (i < 0)
    {
      g_ptr_array_add (object->names, g_strdup (name));
      g_ptr_array_add (object->items, value);
      return;
    }
  node_free (g_ptr_array_index (object->items, i));
  g_ptr_array_index (object->items, i) = value;
}

/* An array of integers as GArray (gint64); NULL when it is not one. */
static GArray *
int_column (const Node *object, const char *name)
{
  Node *n = get_typed (object, name, JSR_JSON_ARRAY);
  GArray *out;

  if (n == NULL)
    return NULL;
  out = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n->items->len);
  for (guint i = 0; i < n->items->len; i++)
    {
      const Node *e = g_ptr_array_index (n->items, i);

      if (e->type != JSR_JSON_INT)
        {
          g_array_unref (out);
          return NULL;
        }
      g_array_append_val (out, e->integer);
    }
  return out;
}

static Node *
int_array (GArray *values)
{
  Node *n = node_new (JSR_JSON_ARRAY);

  for (guint i = 0; i < values->len; i++)
    g_ptr_array_add (n->items, new_int (g_array_index (values, gint64, i)));
  return n;
}

/* ---- naming ------------------------------------------------------------- */

typedef struct
{
  CliSymModules *modules;
  CliSymStats *stats;
  GHashTable *build_ids; /* module name → its build-id in the document ("": several) */
  GArray *frames;        /* JsFrame, the last lookup's */
  gboolean changed;
} Ctx;

static gboolean
parse_offset (const char *text, guint64 *offset)
{
  char *end = NULL;

  if (text == NULL || !g_str_has_prefix (text, "0x") || !g_ascii_isxdigit (text[2]))
    return FALSE;
  *offset = g_ascii_strtoull (text + 2, &end, 16);
  return end != NULL && *end == '\0';
}

static const char *
build_id_of (Ctx *ctx, const Node *frame, const char *module)
{
  const char *id = get_string (frame, "build_id");

  if (id == NULL && module != NULL)
    id = g_hash_table_lookup (ctx->build_ids, module);
  return id != NULL && id[0] != '\0' ? id : NULL;
}

/* The frames at an unnamed frame's address, innermost first: how many (0:
 * left as it is, and counted). Only lookups whose function has a name
 * count as named. */
static guint
lookup (Ctx *ctx, const char *module, const char *build_id, const char *offset_text,
        gboolean is_return)
{
  CliSymState state = CLI_SYM_MISSING;
  guint64 offset;
  guint n = 0;

  g_array_set_size (ctx->frames, 0);
  if (module == NULL || !parse_offset (offset_text, &offset))
    return 0;
  if (build_id != NULL)
    n = cli_sym_modules_lookup (ctx->modules, module, build_id, offset, is_return, ctx->frames,
                                &state);
  if (n > 0 && g_array_index (ctx->frames, JsFrame, n - 1).function != NULL)
    return n;
  if (state == CLI_SYM_REFUSED)
    ctx->stats->refused++;
  else
    ctx->stats->missing++;
  return 0;
}

static const JsFrame *
looked_up (Ctx *ctx, guint i)
{
  return &g_array_index (ctx->frames, JsFrame, i);
}

static gboolean
is_unnamed_frame (const Node *n)
{
  return n != NULL && n->type == JSR_JSON_OBJECT && is_null (n, "function")
         && get_string (n, "module") != NULL && get_string (n, "offset") != NULL;
}

/* A stack frame object, as the core writes one (js-report-stacks.c). */
/* The raw (mangled) name beside the demangled `function`, as the core
 * writes it: only when they differ. */
static void
set_symbol (Node *frame, const JsFrame *f)
{
  if (f != NULL && f->symbol != NULL)
    set (frame, "symbol", new_string (f->symbol));
}

static Node *
stack_frame (const JsFrame *f, const char *module, const char *offset, const char *build_id,
             gboolean inlined)
{
  Node *n = node_new (JSR_JSON_OBJECT);

  set (n, "function", new_string (f->function));
  set_symbol (n, f);
  set (n, "module", new_string (module));
  set (n, "file", new_string (f->file));
  set (n, "line", f->line > 0 ? new_int (f->line) : node_new (JSR_JSON_NULL));
  set (n, "offset", new_string (offset));
  set (n, "build_id", new_string (build_id));
  if (inlined)
    set (n, "inlined", new_bool (TRUE));
  set (n, "symbolized", new_bool (TRUE));
  return n;
}

/* One frame named in place, at function level (its outermost function):
 * callback_frame, culprit, culprit.callback. */
static void
name_single (Ctx *ctx, Node *frame, const char *build_id, gboolean is_return)
{
  const char *module = get_string (frame, "module");
  guint n;
  const JsFrame *f;

  if (build_id == NULL)
    build_id = build_id_of (ctx, frame, module);
  n = lookup (ctx, module, build_id, get_string (frame, "offset"), is_return);
  if (n == 0)
    return;
  f = looked_up (ctx, n - 1);
  set (frame, "function", new_string (f->function));
  set_symbol (frame, f);
  if (get (frame, "file") != NULL)
    set (frame, "file", new_string (f->file));
  if (get (frame, "line") != NULL)
    set (frame, "line", f->line > 0 ? new_int (f->line) : node_new (JSR_JSON_NULL));
  set (frame, "symbolized", new_bool (TRUE));
  ctx->stats->named++;
  ctx->changed = TRUE;
}

/* A stack's frames (leaf first), each unnamed one named with its inline
 * frames inserted; the first frame is where the thread was (unless
 * `all_returns`: a posting site's stack, taken inside jankscope's own
 * frames), the others return addresses (an inlined frame shares the next
 * one's address). */
static void
name_stack (Ctx *ctx, Node *array, gboolean all_returns)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (node_free);
  gboolean is_return = all_returns, after_inlined = FALSE, changed = FALSE;

  for (guint i = 0; i < array->items->len; i++)
    {
      Node *f = g_ptr_array_index (array->items, i);
      Node *inlined = get_typed (f, "inlined", JSR_JSON_BOOLEAN);
      const char *module = get_string (f, "module");
      const char *offset = get_string (f, "offset");
      guint n = 0, room;

      /* A frame after an inlined one has its address. */
      if (i > 0 && !after_inlined)
        is_return = TRUE;
      after_inlined = inlined != NULL && inlined->boolean;
      if (is_unnamed_frame (f))
        n = lookup (ctx, module, build_id_of (ctx, f, module), offset, is_return);
      if (n == 0)
        {
          g_ptr_array_add (out, f);
          g_ptr_array_index (array->items, i) = NULL;
          continue;
        }
      /* Inline frames only while the stack stays within the reader's
       * bound (the rest of its frames counted in). */
      room = STACK_FRAMES_MAX - MIN (STACK_FRAMES_MAX, out->len + (array->items->len - i));
      for (guint k = (n - 1 > room ? n - 1 - room : 0); k < n; k++)
        g_ptr_array_add (out, stack_frame (looked_up (ctx, k), module, offset,
                                           build_id_of (ctx, f, module), k + 1 < n));
      ctx->stats->named++;
      changed = TRUE;
    }
  if (!changed)
    {
      /* Put the frames back where they were. */
      for (guint i = 0; i < out->len; i++)
        g_ptr_array_index (array->items, i) = g_ptr_array_index (out, i);
      g_ptr_array_set_free_func (out, NULL);
      return;
    }
  g_ptr_array_set_size (array->items, 0);
  for (guint i = 0; i < out->len; i++)
    g_ptr_array_add (array->items, g_ptr_array_index (out, i));
  g_ptr_array_set_free_func (out, NULL);
  ctx->changed = TRUE;
}

/* An array of stack frames (objects with `line` and `offset`)? */
static gboolean
is_stack_frames (const Node *array)
{
  for (guint i = 0; i < array->items->len; i++)
    {
      const Node *f = g_ptr_array_index (array->items, i);

      if (f->type != JSR_JSON_OBJECT || get (f, "line") == NULL || get (f, "offset") == NULL)
        return FALSE;
    }
  return array->items->len > 0;
}

/* A `posted_from` (docs/report-format.md, "Posting sites"): its caller and
 * its chain's links are calls (their offsets one byte into the call
 * instruction), its stack's frames and its culprit return addresses. */
static void
name_posting (Ctx *ctx, Node *posted)
{
  Node *caller = get_typed (posted, "caller", JSR_JSON_OBJECT);
  Node *stack = get_typed (posted, "stack", JSR_JSON_ARRAY);
  Node *culprit = get_typed (posted, "culprit", JSR_JSON_OBJECT);
  Node *chain = get_typed (posted, "chain", JSR_JSON_ARRAY);

  if (is_unnamed_frame (caller))
    name_single (ctx, caller, NULL, FALSE);
  if (stack != NULL && is_stack_frames (stack))
    name_stack (ctx, stack, TRUE);
  if (is_unnamed_frame (culprit))
    name_single (ctx, culprit, NULL, TRUE);
  for (guint i = 0; chain != NULL && i < chain->items->len; i++)
    if (is_unnamed_frame (g_ptr_array_index (chain->items, i)))
      name_single (ctx, g_ptr_array_index (chain->items, i), NULL, FALSE);
}

/* "libfoo.so+0x1234" → "function", when the document gives libfoo.so a
 * build-id. */
static void
name_callback (Ctx *ctx, Node *string)
{
  const char *text = string->string;
  const char *plus = strrchr (text, '+');
  g_autofree char *module = NULL;
  guint n;

  if (plus == NULL || plus == text)
    return;
  module = g_strndup (text, plus - text);
  if (!g_hash_table_contains (ctx->build_ids, module))
    return;
  n = lookup (ctx, module, build_id_of (ctx, NULL, module), plus + 1, FALSE);
  if (n == 0)
    return;
  g_free (string->string);
  string->string = g_strdup (looked_up (ctx, n - 1)->function);
  ctx->stats->named++;
  ctx->changed = TRUE;
}

/* ---- profiles ------------------------------------------------------------- */

/* "module\nbuild-id\noffset" of the event's listed stacks' frames → 1 where
 * a frame is where the thread was, 2 where it is a return address. */
static GHashTable *
stack_sites (const Node *event)
{
  GHashTable *sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const Node *stacks = get_typed (event, "stacks", JSR_JSON_ARRAY);

  for (guint s = 0; stacks != NULL && s < stacks->items->len; s++)
    {
      const Node *frames
          = get_typed (g_ptr_array_index (stacks->items, s), "frames", JSR_JSON_ARRAY);

      for (guint i = 0; frames != NULL && i < frames->items->len; i++)
        {
          const Node *f = g_ptr_array_index (frames->items, i);

          if (is_unnamed_frame (f))
            g_hash_table_insert (sites,
                                 g_strdup_printf ("%s\n%s\n%s", get_string (f, "module"),
                                                  get_string (f, "build_id"),
                                                  get_string (f, "offset")),
                                 GINT_TO_POINTER (i == 0 ? 1 : 2));
        }
    }
  return sites;
}

typedef struct
{
  GArray *parent, *frame, *self_samples, *self_ns;
} Columns;

static void
columns_clear (Columns *c)
{
  g_clear_pointer (&c->parent, g_array_unref);
  g_clear_pointer (&c->frame, g_array_unref);
  g_clear_pointer (&c->self_samples, g_array_unref);
  g_clear_pointer (&c->self_ns, g_array_unref);
}

#define COL(array, i) g_array_index ((array), gint64, (i))

/* The four columns, of one length, parents before children, frames in
 * range: else FALSE (the reader refuses such a profile; left as it is). */
static gboolean
columns_read (const Node *nodes, guint n_frames, Columns *c)
{
  c->parent = int_column (nodes, "parent");
  c->frame = int_column (nodes, "frame");
  c->self_samples = int_column (nodes, "self_samples");
  c->self_ns = int_column (nodes, "self_ns");
  if (c->parent == NULL || c->frame == NULL || c->self_samples == NULL || c->self_ns == NULL
      || c->frame->len != c->parent->len || c->self_samples->len != c->parent->len
      || c->self_ns->len != c->parent->len)
    return FALSE;
  for (guint i = 0; i < c->parent->len; i++)
    if (COL (c->parent, i) < -1 || COL (c->parent, i) >= (gint64) i || COL (c->frame, i) < -2
        || COL (c->frame, i) >= (gint64) n_frames || COL (c->self_samples, i) < 0
        || COL (c->self_ns, i) < 0)
      return FALSE;
  return TRUE;
}

static gint64
sat_add (gint64 a, gint64 b)
{
  return a > G_MAXINT64 - b ? G_MAXINT64 : a + b;
}

/* Sums into `into` the member `name` of `from` (integers), if both have it. */
static void
add_member (Node *into, const Node *from, const char *name)
{
  Node *a = get_typed (into, name, JSR_JSON_INT);
  const Node *b = get_typed (from, name, JSR_JSON_INT);

  if (a != NULL && b != NULL && a->integer >= 0 && b->integer >= 0)
    a->integer = sat_add (a->integer, b->integer);
}

static gint64
remap (const GArray *map, gint64 index)
{
  return index >= 0 && index < (gint64) map->len ? COL (map, index) : index;
}

/* `array`'s objects whose `node` became one node merged into the first of
 * them (`sums` added); in *stack_map (when given), each old index's new
 * one. */
static void
merge_by_node (Node *array, const GArray *node_map, const char *const *sums, GArray **stack_map)
{
  g_autoptr (GHashTable) first = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GPtrArray) kept = g_ptr_array_new ();
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *map = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (array == NULL)
    {
      if (stack_map != NULL)
        *stack_map = map;
      else
        g_array_unref (map);
      return;
    }
  g_array_set_size (keys, array->items->len);
  for (guint i = 0; i < array->items->len; i++)
    {
      Node *e = g_ptr_array_index (array->items, i);
      Node *node = get_typed (e, "node", JSR_JSON_INT);
      gint64 *key = &g_array_index (keys, gint64, i), at;
      gpointer found;

      if (node != NULL)
        node->integer = remap (node_map, node->integer);
      if (node == NULL || node->integer < 0)
        {
          at = kept->len;
          g_ptr_array_add (kept, e);
          g_array_append_val (map, at);
          continue;
        }
      *key = node->integer;
      if (g_hash_table_lookup_extended (first, key, NULL, &found))
        {
          Node *into = g_ptr_array_index (kept, GPOINTER_TO_UINT (found));

          for (guint k = 0; sums[k] != NULL; k++)
            add_member (into, e, sums[k]);
          at = GPOINTER_TO_UINT (found);
          g_array_append_val (map, at);
          node_free (e);
          continue;
        }
      at = kept->len;
      g_hash_table_insert (first, key, GUINT_TO_POINTER (kept->len));
      g_ptr_array_add (kept, e);
      g_array_append_val (map, at);
    }
  g_ptr_array_set_free_func (array->items, NULL);
  g_ptr_array_set_size (array->items, 0);
  for (guint i = 0; i < kept->len; i++)
    g_ptr_array_add (array->items, g_ptr_array_index (kept, i));
  g_ptr_array_set_free_func (array->items, node_free);
  if (stack_map != NULL)
    *stack_map = map;
  else
    g_array_unref (map);
}

/* A part's profile columns (node, self_samples, self_ns) with its nodes
 * remapped, those that became one summed. */
static void
remap_part_profile (Node *profile, const GArray *node_map)
{
  g_autoptr (GArray) node = int_column (profile, "node");
  g_autoptr (GArray) samples = int_column (profile, "self_samples");
  g_autoptr (GArray) ns = int_column (profile, "self_ns");
  g_autoptr (GHashTable) at = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GArray) n2 = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) s2 = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) t2 = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (node == NULL || samples == NULL || ns == NULL || samples->len != node->len
      || ns->len != node->len)
    return;
  for (guint i = 0; i < node->len; i++)
    COL (node, i) = remap (node_map, COL (node, i));
  for (guint i = 0; i < node->len; i++)
    {
      gpointer found;

      if (g_hash_table_lookup_extended (at, &COL (node, i), NULL, &found))
        {
          guint k = GPOINTER_TO_UINT (found);

          COL (s2, k) = sat_add (COL (s2, k), MAX (COL (samples, i), 0));
          COL (t2, k) = sat_add (COL (t2, k), MAX (COL (ns, i), 0));
          continue;
        }
      g_hash_table_insert (at, &COL (node, i), GUINT_TO_POINTER (n2->len));
      g_array_append_val (n2, COL (node, i));
      g_array_append_val (s2, COL (samples, i));
      g_array_append_val (t2, COL (ns, i));
    }
  set (profile, "node", int_array (n2));
  set (profile, "self_samples", int_array (s2));
  set (profile, "self_ns", int_array (t2));
}

/* A culprit (of the event or of a part) named as its node's profile frame
 * was; its file and line from its own offset (where the listed stacks say
 * whether it is a return address; else one unless its node has samples of
 * its own). */
static void
name_culprit (Ctx *ctx, Node *culprit, const Columns *old, const Node *frames, GHashTable *sites)
{
  Node *node = get_typed (culprit, "node", JSR_JSON_INT);
  const char *module = get_string (culprit, "module");
  const char *build_id = build_id_of (ctx, culprit, module);
  const char *offset = get_string (culprit, "offset");
  g_autofree char *function = NULL;
  g_autofree char *site_key = NULL;
  gboolean is_return = TRUE;
  const JsFrame *f = NULL;
  int site;
  guint n;

  if (culprit == NULL || !is_unnamed_frame (culprit))
    return;
  if (node != NULL && node->integer >= 0 && node->integer < (gint64) old->parent->len)
    {
      gint64 k = COL (old->frame, node->integer);

      if (k >= 0)
        function = g_strdup (get_string (g_ptr_array_index (frames->items, k), "function"));
      is_return = COL (old->self_samples, node->integer) == 0;
    }
  site_key = g_strdup_printf ("%s\n%s\n%s", module, build_id, offset);
  site = GPOINTER_TO_INT (g_hash_table_lookup (sites, site_key));
  if (site != 0)
    is_return = site == 2;
  n = lookup (ctx, module, build_id, offset, is_return);
  if (n > 0)
    f = looked_up (ctx, n - 1);
  if (function == NULL && f == NULL)
    return;
  set (culprit, "function", new_string (function != NULL ? function : f->function));
  if (function == NULL)
    set_symbol (culprit, f);
  set (culprit, "file", new_string (f != NULL ? f->file : NULL));
  set (culprit, "line", f != NULL && f->line > 0 ? new_int (f->line) : node_new (JSR_JSON_NULL));
  set (culprit, "symbolized", new_bool (TRUE));
  ctx->stats->named++;
  ctx->changed = TRUE;
}

/* The event's profile frames named; frames and nodes that became one
 * function merged; every node index of the event remapped. */
static void
name_event (Ctx *ctx, Node *event)
{
  static const char *const stack_sums[] = { "count", "time_ns", NULL };
  Node *profile = get_typed (event, "profile", JSR_JSON_OBJECT);
  Node *frames = get_typed (profile, "frames", JSR_JSON_ARRAY);
  Node *nodes = get_typed (profile, "nodes", JSR_JSON_OBJECT);
  g_autoptr (GHashTable) sites = NULL;
  g_autoptr (GHashTable) frame_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) node_keys
      = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GArray) frame_map = NULL;
  g_autoptr (GArray) node_map = NULL;
  g_autoptr (GArray) stack_map = NULL;
  g_autoptr (GArray) has_children = NULL;
  g_autoptr (GArray) has_self = NULL;
  g_autoptr (GPtrArray) new_frames = NULL;
  Columns old = { 0 }, now = { 0 };
  Node *culprit = get_typed (event, "culprit", JSR_JSON_OBJECT);
  Node *stacks = get_typed (event, "stacks", JSR_JSON_ARRAY);
  Node *samples = get_typed (event, "samples", JSR_JSON_ARRAY);
  Node *parts = get_typed (event, "parts", JSR_JSON_ARRAY);
  gboolean named = FALSE;

  if (frames == NULL || nodes == NULL || !columns_read (nodes, frames->items->len, &old))
    {
      columns_clear (&old);
      return;
    }
  sites = stack_sites (event);
  /* Which frames are where the thread was, and which return addresses:
   * the listed stacks say; else a frame of nodes with samples of their own
   * is taken for a leaf. */
  has_children = g_array_new (FALSE, TRUE, sizeof (gboolean));
  has_self = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_array_set_size (has_children, frames->items->len);
  g_array_set_size (has_self, frames->items->len);
  for (guint i = 0; i < old.parent->len; i++)
    {
      gint64 p = COL (old.parent, i), f = COL (old.frame, i);

      if (p >= 0 && COL (old.frame, p) >= 0)
        g_array_index (has_children, gboolean, COL (old.frame, p)) = TRUE;
      if (f >= 0 && COL (old.self_samples, i) > 0)
        g_array_index (has_self, gboolean, f) = TRUE;
    }

  /* Frames: named, then one entry per function. */
  frame_map = g_array_new (FALSE, FALSE, sizeof (gint64));
  new_frames = g_ptr_array_new ();
  for (guint k = 0; k < frames->items->len; k++)
    {
      Node *f = g_ptr_array_index (frames->items, k);
      g_autofree char *key = NULL;
      gpointer found;
      gint64 at;

      if (is_unnamed_frame (f))
        {
          const char *module = get_string (f, "module");
          const char *offset = get_string (f, "offset");
          const char *build_id = build_id_of (ctx, f, module);
          g_autofree char *site_key
              = g_strdup_printf ("%s\n%s\n%s", module, get_string (f, "build_id"), offset);
          int site = GPOINTER_TO_INT (g_hash_table_lookup (sites, site_key));
          gboolean is_return = site != 0 ? site == 2
                                         : (g_array_index (has_children, gboolean, k)
                                            && !g_array_index (has_self, gboolean, k));
          guint n = lookup (ctx, module, build_id, offset, is_return);

          if (n > 0)
            {
              Node *named_frame = node_new (JSR_JSON_OBJECT);

              set (named_frame, "function", new_string (looked_up (ctx, n - 1)->function));
              set_symbol (named_frame, looked_up (ctx, n - 1));
              set (named_frame, "module", new_string (module));
              set (named_frame, "symbolized", new_bool (TRUE));
              g_ptr_array_index (frames->items, k) = named_frame;
              node_free (f);
              f = named_frame;
              ctx->stats->named++;
              named = TRUE;
            }
        }
      if (get_string (f, "function") != NULL)
        key = g_strdup_printf ("F\n%s\n%s", get_string (f, "module"), get_string (f, "function"));
      else
        key = g_strdup_printf ("U%u", k); /* unnamed frames stay apart */
      if (g_hash_table_lookup_extended (frame_keys, key, NULL, &found))
        at = GPOINTER_TO_INT (found);
      else
        {
          at = new_frames->len;
          g_hash_table_insert (frame_keys, g_steal_pointer (&key), GINT_TO_POINTER ((int) at));
          g_ptr_array_add (new_frames, f);
        }
      g_array_append_val (frame_map, at);
    }
  /* The culprits, by the profile frames just named (old indices). */
  name_culprit (ctx, culprit, &old, frames, sites);
  for (guint i = 0; parts != NULL && i < parts->items->len; i++)
    name_culprit (ctx, get_typed (g_ptr_array_index (parts->items, i), "culprit", JSR_JSON_OBJECT),
                  &old, frames, sites);
  if (!named)
    {
      columns_clear (&old);
      return;
    }
  ctx->changed = TRUE;

  /* Nodes: one per (parent, function), parents first as before. */
  node_map = g_array_new (FALSE, FALSE, sizeof (gint64));
  now.parent = g_array_new (FALSE, FALSE, sizeof (gint64));
  now.frame = g_array_new (FALSE, FALSE, sizeof (gint64));
  now.self_samples = g_array_new (FALSE, FALSE, sizeof (gint64));
  now.self_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < old.parent->len; i++)
    {
      gint64 parent = remap (node_map, COL (old.parent, i));
      gint64 frame
          = COL (old.frame, i) >= 0 ? COL (frame_map, COL (old.frame, i)) : COL (old.frame, i);
      gint64 *key = g_new (gint64, 1);
      gpointer found;
      gint64 at;

      /* parent < 2^31 and frame ≥ -2: one 64-bit key. */
      *key = (parent + 1) * (G_GINT64_CONSTANT (1) << 32) + (frame + 2);
      if (g_hash_table_lookup_extended (node_keys, key, NULL, &found))
        {
          at = GPOINTER_TO_INT (found);
          COL (now.self_samples, at)
              = sat_add (COL (now.self_samples, at), COL (old.self_samples, i));
          COL (now.self_ns, at) = sat_add (COL (now.self_ns, at), COL (old.self_ns, i));
          g_free (key);
        }
      else
        {
          at = now.parent->len;
          g_hash_table_insert (node_keys, key, GINT_TO_POINTER ((int) at));
          g_array_append_val (now.parent, parent);
          g_array_append_val (now.frame, frame);
          g_array_append_val (now.self_samples, COL (old.self_samples, i));
          g_array_append_val (now.self_ns, COL (old.self_ns, i));
        }
      g_array_append_val (node_map, at);
    }

  /* The profile written back: the frames kept (the others freed). */
  {
    g_autoptr (GHashTable) keep = g_hash_table_new (NULL, NULL);
    Node *array = node_new (JSR_JSON_ARRAY);

    for (guint i = 0; i < new_frames->len; i++)
      {
        g_hash_table_add (keep, g_ptr_array_index (new_frames, i));
        g_ptr_array_add (array->items, g_ptr_array_index (new_frames, i));
      }
    for (guint k = 0; k < frames->items->len; k++)
      if (!g_hash_table_contains (keep, g_ptr_array_index (frames->items, k)))
        node_free (g_ptr_array_index (frames->items, k));
    g_ptr_array_set_free_func (frames->items, NULL);
    set (profile, "frames", array);
  }
  set (nodes, "parent", int_array (now.parent));
  set (nodes, "frame", int_array (now.frame));
  set (nodes, "self_samples", int_array (now.self_samples));
  set (nodes, "self_ns", int_array (now.self_ns));

  /* Every node index of the event. */
  merge_by_node (stacks, node_map, stack_sums, &stack_map);
  for (guint i = 0; samples != NULL && i < samples->items->len; i++)
    {
      Node *e = g_ptr_array_index (samples->items, i);
      Node *node = get_typed (e, "node", JSR_JSON_INT);
      Node *stack = get_typed (e, "stack", JSR_JSON_INT);

      if (node != NULL)
        node->integer = remap (node_map, node->integer);
      if (stack != NULL)
        stack->integer = remap (stack_map, stack->integer);
    }
  if (culprit != NULL)
    {
      Node *node = get_typed (culprit, "node", JSR_JSON_INT);

      if (node != NULL)
        node->integer = remap (node_map, node->integer);
    }
  for (guint i = 0; parts != NULL && i < parts->items->len; i++)
    {
      Node *part = g_ptr_array_index (parts->items, i);
      Node *part_profile = get_typed (part, "profile", JSR_JSON_OBJECT);

      Node *part_culprit = get_typed (part, "culprit", JSR_JSON_OBJECT);
      Node *node = get_typed (part_culprit, "node", JSR_JSON_INT);

      if (node != NULL)
        node->integer = remap (node_map, node->integer);
      if (part_profile != NULL)
        remap_part_profile (part_profile, node_map);
      merge_by_node (get_typed (part, "stacks", JSR_JSON_ARRAY), node_map, stack_sums, NULL);
    }
  columns_clear (&old);
  columns_clear (&now);
}

/* ---- the walk ------------------------------------------------------------ */

static void
walk (Ctx *ctx, Node *n)
{
  gboolean has_profile;

  if (n->type == JSR_JSON_ARRAY)
    {
      for (guint i = 0; i < n->items->len; i++)
        walk (ctx, g_ptr_array_index (n->items, i));
      return;
    }
  if (n->type != JSR_JSON_OBJECT)
    return;
  /* An event (or an ongoing hang): its profile first, while its stacks
   * still say which frames were leaves. */
  has_profile
      = get_typed (get_typed (n, "profile", JSR_JSON_OBJECT), "frames", JSR_JSON_ARRAY) != NULL;
  if (has_profile)
    name_event (ctx, n);
  for (guint i = 0; i < n->items->len; i++)
    {
      const char *name = g_ptr_array_index (n->names, i);
      Node *value = g_ptr_array_index (n->items, i);

      if (value->type == JSR_JSON_STRING && strcmp (name, "callback") == 0)
        name_callback (ctx, value);
      else if (value->type == JSR_JSON_OBJECT && strcmp (name, "posted_from") == 0)
        {
          name_posting (ctx, value);
          continue;
        }
      else if (value->type == JSR_JSON_ARRAY && strcmp (name, "frames") == 0
               && is_stack_frames (value))
        name_stack (ctx, value, FALSE);
      else if (strcmp (name, "culprit") == 0)
        {
          /* A culprit with a node is named with its event's profile
           * (name_event); without one, as a return address (a culprit is
           * rarely the leaf). */
          if (is_unnamed_frame (value) && !has_profile && get (value, "node") == NULL)
            name_single (ctx, value, NULL, TRUE);
        }
      else if (is_unnamed_frame (value))
        /* callback_frame, culprit.callback: a function's own address */
        name_single (ctx, value, NULL, strcmp (name, "callback") == 0);
      walk (ctx, value);
    }
}

/* Module name → build-id, from every frame that has both. */
static void
collect_build_ids (GHashTable *ids, const Node *n)
{
  if (n->type != JSR_JSON_ARRAY && n->type != JSR_JSON_OBJECT)
    return;
  if (n->type == JSR_JSON_OBJECT)
    {
      const char *module = get_string (n, "module");
      const char *id = get_string (n, "build_id");

      if (module != NULL && id != NULL)
        {
          const char *known = g_hash_table_lookup (ids, module);

          if (known == NULL)
            g_hash_table_insert (ids, g_strdup (module), g_strdup (id));
          else if (strcmp (known, id) != 0)
            g_hash_table_insert (ids, g_strdup (module), g_strdup (""));
        }
    }
  for (guint i = 0; i < n->items->len; i++)
    collect_build_ids (ids, g_ptr_array_index (n->items, i));
}

/* The module table (`modules`): each module's path for the lookups, and
 * its build-id for callbacks of modules that no frame names. */
static void
collect_module_table (GHashTable *ids, CliSymModules *modules, const Node *root)
{
  const Node *table = get_typed (root, "modules", JSR_JSON_ARRAY);

  for (guint i = 0; table != NULL && i < table->items->len; i++)
    {
      const Node *entry = g_ptr_array_index (table->items, i);
      const char *name = get_string (entry, "name");
      const char *id = get_string (entry, "build_id");
      const char *known;

      if (name == NULL || !jsr_is_build_id (id))
        continue;
      cli_sym_modules_add_path (modules, name, id, get_string (entry, "path"));
      known = g_hash_table_lookup (ids, name);
      if (known == NULL)
        g_hash_table_insert (ids, g_strdup (name), g_strdup (id));
      else if (strcmp (known, id) != 0)
        g_hash_table_insert (ids, g_strdup (name), g_strdup (""));
    }
}

/* An aggregate's nameless callback or culprit ("module+0x…" with its
 * `*_build_id`): the function's name, or NULL. Looked up as a function's
 * own address (jsr-agg-names.h): a culprit's offset may be a return
 * address, which names its function but after a call that ends it. */
static char *
name_aggregate_callback (const char *callback, const char *build_id, gpointer data)
{
  Ctx *ctx = data;
  const char *plus = strrchr (callback, '+');
  g_autofree char *module = NULL;
  guint n;

  if (plus == NULL || plus == callback)
    return NULL;
  module = g_strndup (callback, plus - callback);
  n = lookup (ctx, module, build_id, plus + 1, FALSE);
  if (n == 0)
    return NULL;
  ctx->stats->named++;
  return g_strdup (looked_up (ctx, n - 1)->function);
}

/* An aggregate: read, its callbacks, culprits and places named (the cells
 * and places that became one merged), written back as `merge` writes it. */
static char *
symbolize_aggregate (const JsrJsonNode *root, CliSymModules *modules, CliSymStats *stats,
                     gboolean *changed, GError **error)
{
  g_autoptr (JsrAggregate) agg = jsr_aggregate_load_from_json (root, error);
  g_autoptr (GArray) frames = NULL;
  Ctx ctx;

  if (agg == NULL)
    return NULL;
  frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  ctx = (Ctx){ modules, stats, NULL, frames, FALSE };
  cli_sym_modules_set_exe (modules, NULL);
  *changed = jsr_aggregate_name_callbacks (agg, name_aggregate_callback, &ctx) > 0;
  return jsr_aggregate_to_json (agg);
}

char *
cli_symbolize_document (const char *data, gsize length, CliSymModules *modules, CliSymStats *stats,
                        gboolean *changed, GError **error)
{
  g_autoptr (JsrJsonDoc) doc = jsr_json_doc_parse (data, length, JSR_REPORT_MAX_JSON_DEPTH, error);
  g_autoptr (GHashTable) build_ids = NULL;
  g_autoptr (GArray) frames = NULL;
  const JsrJsonNode *root;
  JsJsonWriter writer;
  GString *out;
  Node *tree;
  Ctx ctx;

  *changed = FALSE;
  if (doc == NULL)
    return NULL;
  root = jsr_json_doc_get_root (doc);
  if (root->type != JSR_JSON_OBJECT)
    {
      g_set_error (error, JSR_JSON_ERROR, JSR_JSON_ERROR_INVALID,
                   _ ("not a jankscope report or aggregate (not a JSON object)"));
      return NULL;
    }
  if (jsr_aggregate_json_is_aggregate (root))
    return symbolize_aggregate (root, modules, stats, changed, error);
  tree = node_from_json (root);
  g_clear_pointer (&doc, jsr_json_doc_free);

  build_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  collect_build_ids (build_ids, tree);
  collect_module_table (build_ids, modules, tree);
  cli_sym_modules_set_exe (modules,
                           get_string (get_typed (tree, "process", JSR_JSON_OBJECT), "exe"));
  frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  ctx = (Ctx){ modules, stats, build_ids, frames, FALSE };
  walk (&ctx, tree);
  *changed = ctx.changed;

  out = g_string_sized_new (length + length / 8 + 64);
  js_json_writer_init (&writer, out, JS_JSON_WRITER_PRETTY);
  node_write (&writer, tree);
  g_string_append_c (out, '\n');
  node_free (tree);
  return g_string_free (out, FALSE);
}
