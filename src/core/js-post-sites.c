/* js-post-sites.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-post-sites.h"

#include <string.h>

#define PINNED 8

struct _JsPostSites
{
  JsStackTable *stacks;
  JsModules *modules;
  JsPostSiteInfo *sites; /* JS_POST_SITES_MAX, id - 1 */
  guint n_sites;
  GHashTable *index; /* JsPostSiteInfo (in `sites`) -> id */
  guint64 resolved, unknown, dropped;
  /* Sites of hangs' dispatches, read while they were stuck: by then the
   * full stack is still in its ring; stacks taken during the stall (every
   * attach gets one) may overwrite it before the dispatch ends. */
  struct
  {
    guint32 post, id;
  } pinned[PINNED];
  guint next_pinned;
};

static guint
site_hash (gconstpointer p)
{
  const JsPostSiteInfo *s = p;
  guint h = s->kind * 31u + s->main_thread;

  h = h * 31u + s->caller;
  for (guint i = 0; i < s->n_chain; i++)
    h = h * 31u + s->chain[i];
  return (h * 31u + s->stack) * 2u + (s->stack_inherited != 0);
}

static gboolean
site_equal (gconstpointer a, gconstpointer b)
{
  const JsPostSiteInfo *x = a, *y = b;

  return x->kind == y->kind && x->main_thread == y->main_thread && x->caller == y->caller
         && x->n_chain == y->n_chain && x->stack == y->stack
         && x->stack_inherited == y->stack_inherited
         && memcmp (x->chain, y->chain, x->n_chain * sizeof x->chain[0]) == 0;
}

JsPostSites *
js_post_sites_new (JsStackTable *stacks, JsModules *modules)
{
  JsPostSites *ps = g_new0 (JsPostSites, 1);

  ps->stacks = stacks;
  ps->modules = modules;
  ps->sites = g_new0 (JsPostSiteInfo, JS_POST_SITES_MAX);
  ps->index = g_hash_table_new (site_hash, site_equal);
  return ps;
}

static void
unref_site (JsPostSites *ps, const JsPostSiteInfo *s)
{
  js_stack_table_unref (ps->stacks, s->caller);
  for (guint i = 0; i < s->n_chain; i++)
    js_stack_table_unref (ps->stacks, s->chain[i]);
  js_stack_table_unref (ps->stacks, s->stack);
}

void
js_post_sites_free (JsPostSites *ps)
{
  if (ps == NULL)
    return;
  g_hash_table_destroy (ps->index);
  g_free (ps->sites);
  g_free (ps);
}

/* A caller (a return address) as a stack of one frame: the call itself. */
static guint
intern_caller (JsPostSites *ps, const void *caller)
{
  guint64 address = (guint64) (guintptr) caller;
  guint16 module;

  if (address == 0)
    return 0;
  address--;
  module = (guint16) js_modules_resolve (ps->modules, address);
  return js_stack_table_intern (ps->stacks, &address, &module, 1, FALSE);
}

/* The site's id (interned), 0 past the table's bound. */
static guint32
intern_site (JsPostSites *ps, const JsPostSite *site)
{
  JsPostSiteInfo info = { 0 };
  guint16 modules[JS_POSTING_MAX_FRAMES];
  gpointer found;

  info.kind = site->kind;
  info.main_thread = site->main_thread;
  info.caller = intern_caller (ps, site->caller);
  info.n_chain = site->n_chain;
  for (guint i = 0; i < site->n_chain; i++)
    info.chain[i] = intern_caller (ps, site->chain[i]);
  if (site->n_frames > 0)
    {
      for (guint i = 0; i < site->n_frames; i++)
        modules[i] = (guint16) js_modules_resolve (ps->modules,
                                                   i > 0 ? site->frames[i] - 1 : site->frames[i]);
      info.stack = js_stack_table_intern (ps->stacks, site->frames, modules, site->n_frames,
                                          site->truncated);
      info.stack_inherited = info.stack != 0 && site->stack_inherited;
    }
  if (g_hash_table_lookup_extended (ps->index, &info, NULL, &found))
    {
      unref_site (ps, &info); /* the interned one holds its own references */
      return GPOINTER_TO_UINT (found);
    }
  if (ps->n_sites >= JS_POST_SITES_MAX)
    {
      unref_site (ps, &info);
      ps->dropped++;
      return 0;
    }
  ps->sites[ps->n_sites++] = info;
  g_hash_table_insert (ps->index, &ps->sites[ps->n_sites - 1], GUINT_TO_POINTER (ps->n_sites));
  return ps->n_sites;
}

guint32
js_post_sites_resolve (JsPostSites *ps, guint32 post, const void *user_data)
{
  guint32 task = js_posting_task_post (user_data);
  JsPostSite site;

  /* A GTask's completion (its data a task whose creation was seen) is
   * posted from where the app created the task, not from GIO's return path
   * (g_task_return attaches it, from libgio, or GLib from inside). A hang
   * stuck in it was given that site too (the watchdog looks the task up):
   * pinned under it. */
  if (task != 0)
    post = task;
  for (guint i = 0; post != 0 && i < PINNED; i++)
    if (ps->pinned[i].post == post && ps->pinned[i].id != 0)
      {
        ps->resolved++;
        return ps->pinned[i].id;
      }
  if (!js_posting_read (post, &site))
    {
      ps->unknown++;
      return 0;
    }
  ps->resolved++;
  return intern_site (ps, &site);
}

guint32
js_post_sites_resolve_hang (JsPostSites *ps, guint32 post)
{
  JsPostSite site;
  guint32 id;

  if (ps == NULL || !js_posting_read (post, &site))
    return 0;
  id = intern_site (ps, &site);
  ps->pinned[ps->next_pinned % PINNED].post = post;
  ps->pinned[ps->next_pinned % PINNED].id = id;
  ps->next_pinned++;
  return id;
}

const JsPostSiteInfo *
js_post_sites_get (JsPostSites *ps, guint32 id)
{
  if (ps == NULL || id == 0 || id > ps->n_sites)
    return NULL;
  return &ps->sites[id - 1];
}

void
js_post_sites_get_stats (JsPostSites *ps, JsPostSitesStats *stats)
{
  stats->resolved = ps->resolved;
  stats->unknown = ps->unknown;
  stats->dropped = ps->dropped;
  stats->distinct = ps->n_sites;
}
