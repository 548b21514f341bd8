/* js-stack-table.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-stack-table.h"

#include <string.h>

struct _JsStackTable
{
  JsSymbolizer *symbolizer;
  GHashTable *by_key; /* JsStack* (hashed by its addresses) -> itself */
  GPtrArray *by_id;   /* index id - 1; NULL where a freed stack was */
  GArray *free_ids;   /* guint: ids of freed stacks, used again first */
  guint size;
  guint provisional; /* stacks with provisional frames */
  guint generation;  /* the symbolizer's, at the last refresh */
  guint64 interned;
  guint64 dropped;
};

static guint
stack_hash (gconstpointer p)
{
  const JsStack *s = p;
  guint h = 5381 + s->n_addresses;

  for (guint i = 0; i < s->n_addresses; i++)
    h = h * 31 + (guint) (s->addresses[i] ^ (s->addresses[i] >> 32)) + s->modules[i];
  return h;
}

static gboolean
stack_equal (gconstpointer a, gconstpointer b)
{
  const JsStack *x = a, *y = b;

  return x->n_addresses == y->n_addresses
         && memcmp (x->addresses, y->addresses, x->n_addresses * sizeof (guint64)) == 0
         && memcmp (x->modules, y->modules, x->n_addresses * sizeof (guint16)) == 0;
}

static void
stack_free (gpointer p)
{
  JsStack *s = p;

  if (s == NULL)
    return;
  g_free (s->addresses);
  g_free (s->modules);
  g_free (s->path);
  if (s->frames != NULL)
    g_array_unref (s->frames);
  g_free (s);
}

static void
symbolize (JsStackTable *t, JsStack *s)
{
  gboolean was = s->provisional;

  /* The path points into the frames: made again when next asked for. */
  g_clear_pointer (&s->path, g_free);
  s->n_path = 0;
  s->have_path = FALSE;
  g_array_set_size (s->frames, 0);
  s->provisional = FALSE;
  /* [0] is where the thread was; the others are return addresses. */
  for (guint i = 0; i < s->n_addresses; i++)
    js_symbolizer_lookup_in (t->symbolizer, s->modules[i], s->addresses[i], i > 0, s->frames);
  for (guint i = 0; i < s->frames->len && !s->provisional; i++)
    s->provisional = g_array_index (s->frames, JsFrame, i).provisional;
  t->provisional += (guint) s->provisional - (guint) was;
}

JsStackTable *
js_stack_table_new (JsSymbolizer *symbolizer)
{
  JsStackTable *t = g_new0 (JsStackTable, 1);

  t->symbolizer = symbolizer;
  t->by_key = g_hash_table_new (stack_hash, stack_equal);
  t->by_id = g_ptr_array_new_with_free_func (stack_free);
  t->free_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  return t;
}

void
js_stack_table_free (JsStackTable *t)
{
  if (t == NULL)
    return;
  g_hash_table_unref (t->by_key);
  g_ptr_array_unref (t->by_id);
  g_array_unref (t->free_ids);
  g_free (t);
}

guint
js_stack_table_intern (JsStackTable *t, const guint64 *addresses, const guint16 *modules, guint n,
                       gboolean truncated)
{
  g_autofree guint16 *no_modules = modules == NULL ? g_new0 (guint16, MAX (n, 1)) : NULL;
  JsStack key = { .n_addresses = n, .addresses = (guint64 *) addresses };

  key.modules = (guint16 *) (modules != NULL ? modules : no_modules);
  JsStack *s;

  if (n == 0)
    return 0;
  s = g_hash_table_lookup (t->by_key, &key);
  if (s != NULL)
    {
      s->refs++;
      return s->id;
    }
  if (t->size >= JS_STACK_TABLE_MAX)
    {
      t->dropped++;
      return 0;
    }
  s = g_new0 (JsStack, 1);
  s->refs = 1;
  if (t->free_ids->len > 0)
    {
      s->id = g_array_index (t->free_ids, guint, t->free_ids->len - 1);
      g_array_set_size (t->free_ids, t->free_ids->len - 1);
    }
  else
    {
      g_ptr_array_add (t->by_id, NULL);
      s->id = t->by_id->len;
    }
  s->n_addresses = n;
  s->addresses = g_memdup2 (addresses, n * sizeof (guint64));
  s->modules = g_memdup2 (key.modules, n * sizeof (guint16));
  s->truncated = truncated;
  s->frames = g_array_sized_new (FALSE, FALSE, sizeof (JsFrame), n);
  symbolize (t, s);
  g_ptr_array_index (t->by_id, s->id - 1) = s;
  g_hash_table_add (t->by_key, s);
  t->size++;
  t->interned++;
  return s->id;
}

void
js_stack_table_unref (JsStackTable *t, guint id)
{
  JsStack *s;

  if (id == 0 || id > t->by_id->len || (s = g_ptr_array_index (t->by_id, id - 1)) == NULL)
    return;
  if (--s->refs > 0)
    return;
  g_hash_table_remove (t->by_key, s);
  g_ptr_array_index (t->by_id, id - 1) = NULL;
  t->provisional -= (guint) s->provisional;
  stack_free (s);
  g_array_append_val (t->free_ids, id);
  t->size--;
}

const JsStack *
js_stack_table_get (JsStackTable *t, guint id)
{
  if (id == 0 || id > t->by_id->len)
    return NULL;
  return g_ptr_array_index (t->by_id, id - 1);
}

void
js_stack_table_refresh (JsStackTable *t)
{
  guint generation = js_symbolizer_generation (t->symbolizer);

  if (t->provisional == 0 || generation == t->generation)
    return;
  t->generation = generation;
  for (guint i = 0; i < t->by_id->len; i++)
    {
      JsStack *s = g_ptr_array_index (t->by_id, i);

      if (s != NULL && s->provisional)
        symbolize (t, s);
    }
}

guint
js_stack_table_size (JsStackTable *t)
{
  return t->size;
}

guint64
js_stack_table_interned (JsStackTable *t)
{
  return t->interned;
}

guint64
js_stack_table_dropped (JsStackTable *t)
{
  return t->dropped;
}
