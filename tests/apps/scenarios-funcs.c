/* scenarios-funcs.c - custom GSourceFuncs tables in unusual lifetimes
 *
 * jankscope times custom sources by giving them a copy of their
 * GSourceFuncs. The app must not notice:
 *
 * source-churn: thousands of sources come and go (some with a child
 * source, some destroyed before they ran); every finalize callback runs
 * exactly once and every dispatch reaches the app's function.
 *
 * dynamic-funcs: each source gets its own heap-allocated GSourceFuncs,
 * freed after the source is gone, so that malloc hands the same address to
 * the next table, whose dispatch function differs: the right one must run.
 */
#include "scenario.h"

#include <stdio.h>

typedef struct
{
  GSource source;
  guint id;
  guint expected; /* dynamic-funcs: which dispatch function must run */
} CountedSource;

static guint dispatched, finalized, children_dispatched;

static gboolean
ready_prepare (GSource *source, gint *timeout)
{
  *timeout = 0;
  return TRUE;
}

static gboolean
counted_dispatch (GSource *source, GSourceFunc callback, gpointer data)
{
  dispatched++;
  return G_SOURCE_REMOVE;
}

static void
counted_finalize (GSource *source)
{
  finalized++;
}

static GSourceFuncs counted_funcs = {
  .prepare = ready_prepare,
  .dispatch = counted_dispatch,
  .finalize = counted_finalize,
};

gboolean
churn_child_cb (gpointer data)
{
  children_dispatched++;
  return G_SOURCE_REMOVE;
}

/* Runs the default context until nothing is ready any more. */
static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
scenario_source_churn (void)
{
  const guint rounds = 2000;

  for (guint i = 0; i < rounds; i++)
    {
      GSource *ran = g_source_new (&counted_funcs, sizeof (CountedSource));
      GSource *dropped = g_source_new (&counted_funcs, sizeof (CountedSource));

      g_source_set_name (ran, "churn");
      if (i % 4 == 0)
        {
          GSource *child = g_timeout_source_new (0);

          g_source_set_callback (child, churn_child_cb, NULL, NULL);
          g_source_add_child_source (ran, child);
          g_source_unref (child);
        }
      g_source_attach (ran, NULL);
      g_source_unref (ran);

      g_source_attach (dropped, NULL);
      g_source_destroy (dropped);
      g_source_unref (dropped);
      drain ();
    }
  printf ("dispatched=%u\nfinalized=%u\n", dispatched, finalized);
  scenario_check (dispatched == rounds);
  scenario_check (finalized == 2 * rounds);
  return 0;
}

/* The body of dispatch_even (@parity 0) and dispatch_odd (@parity 1): the
 * source must be one the app gave that function. */
static gboolean
dispatch_parity (GSource *source, guint parity)
{
  CountedSource *counted = (CountedSource *) source;

  if (counted->expected != parity)
    scenario_fail ("source %u: dispatch_%s ran, the app set dispatch_%s", counted->id,
                   parity ? "odd" : "even", parity ? "even" : "odd");
  dispatched++;
  return G_SOURCE_REMOVE;
}

static gboolean
dispatch_even (GSource *source, GSourceFunc callback, gpointer data)
{
  return dispatch_parity (source, 0);
}

static gboolean
dispatch_odd (GSource *source, GSourceFunc callback, gpointer data)
{
  return dispatch_parity (source, 1);
}

int
scenario_dynamic_funcs (void)
{
  const guint rounds = 600;
  GHashTable *addresses = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < rounds; i++)
    {
      GSourceFuncs *funcs = g_new0 (GSourceFuncs, 1);
      CountedSource *source;

      funcs->prepare = ready_prepare;
      funcs->dispatch = i % 2 ? dispatch_odd : dispatch_even;
      funcs->finalize = counted_finalize;
      g_hash_table_add (addresses, funcs);
      source = (CountedSource *) g_source_new (funcs, sizeof (CountedSource));
      source->id = i;
      source->expected = i % 2;
      g_source_set_name (&source->source, "dynamic-funcs");
      g_source_attach (&source->source, NULL);
      g_source_unref (&source->source);
      drain ();
      /* The source is finalized: the app may free its table now. */
      scenario_check (finalized == i + 1);
      g_free (funcs);
    }
  printf ("dispatched=%u\nfinalized=%u\ndistinct_tables=%u\n", dispatched, finalized,
          g_hash_table_size (addresses));
  scenario_check (dispatched == rounds);
  g_hash_table_unref (addresses);
  return 0;
}
