/* Unit tests of posting sites (js-posting.h) as the preload's stand-ins
 * report them: a source's site is found at its dispatch and read back with
 * its caller, its chain (the callers of the dispatches it was posted from)
 * and sometimes a full stack; the main thread's repeated attaches from one
 * place share one site, so they do not push older sites out of the ring; a
 * callback marked slow, a stall and a caller seen for the first time still
 * get full stacks; other threads' attaches are noted too. A library's
 * caller (every caller here: these addresses are in no module of the app)
 * without a stack of its own inherits the last one of the same caller and
 * callback; a hang stuck in a GTask's completion finds the task's site.
 *
 * The main loop's hooks are started in preload mode and the test calls the
 * dispatch hook itself, as the preload's tables do. Full stacks come from a
 * stand-in unwinder that returns a fixed stack. The cases share the core's
 * state and run in order. */
#include "js-mainloop.h"
#include "js-posting.h"
#include "js-ring.h"

#include <pthread.h>

static JsBridge bridge = { .abi = JS_BRIDGE_ABI, .mode = JS_MODE_PRELOAD };
static guint unwinds;

/* Five frames, the last one numbering the unwind (0x2000 + n). */
static int
fake_backtrace (void **buffer, int size)
{
  unwinds++;
  for (int i = 0; i < 5 && i < size; i++)
    buffer[i] = GUINT_TO_POINTER (i < 4 ? 0x1000u + (guint) i : 0x2000u + unwinds);
  return MIN (5, size);
}

/* Callers and callbacks: only their addresses matter. */
#define CALLER(n) ((const void *) (guintptr) (0x400000 + 0x10 * (n)))
#define FUNC(n) ((const void *) (guintptr) (0x500000 + 0x10 * (n)))

static gboolean
never (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* A new idle of the main context, noted as posted from `caller`. */
static guint
post (const void *caller, const void *func)
{
  guint id = g_idle_add (never, NULL);

  js_posting_posted (JS_POST_IDLE, caller, func, id, NULL, NULL);
  return id;
}

static gboolean
read_post (guint id, JsPostSite *site)
{
  return js_posting_read (js_posting_at_dispatch (id), site);
}

/* The main thread's attaches from one place, posted from the same
 * dispatch, share one site: 2 × the ring's size of them leave a site noted
 * before in the ring. Before, each took a slot and pushed it out. */
static void
test_same_site_given_again (void)
{
  JsPostingStats before, after;
  JsPostSite site;
  guint old = post (CALLER (1), FUNC (1));
  guint first = post (CALLER (2), FUNC (2));
  guint last;

  js_posting_get_stats (&before);
  for (guint i = 0; i < 2 * JS_POSTING_RING; i++)
    {
      last = g_idle_add (never, NULL);
      js_posting_posted (JS_POST_IDLE, CALLER (2), FUNC (2), last, NULL, NULL);
      g_source_remove (last);
    }
  js_posting_get_stats (&after);
  /* Every attach is counted, shared or not. */
  g_assert_cmpuint (after.attaches - before.attaches, ==, 2 * JS_POSTING_RING);
  g_assert_true (read_post (old, &site));
  g_assert_true (site.caller == CALLER (1));
  g_assert_true (site.main_thread);
  g_assert_cmpuint (site.kind, ==, JS_POST_IDLE);
  g_assert_true (read_post (first, &site));
  g_assert_true (site.caller == CALLER (2));
  g_source_remove (old);
  g_source_remove (first);
}

/* The chain: an idle posted from the dispatch of one posted from CALLER (3)
 * has that caller as its first link; a different place is a different site
 * even from inside the same dispatch. */
typedef struct
{
  guint inner_a, inner_b, inner_c;
} Inner;

static gboolean
outer_callback (gpointer data)
{
  Inner *in = data;

  in->inner_a = post (CALLER (4), FUNC (4));
  in->inner_b = post (CALLER (4), FUNC (4));
  in->inner_c = post (CALLER (5), FUNC (4));
  return G_SOURCE_REMOVE;
}

static int
real_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  return callback (user_data);
}

static void
test_chain (void)
{
  int (*dispatch) (JsDispatchFunc, void *, void *, void *) = bridge.dispatch;
  Inner in = { 0 };
  JsPostSite a, b, c;
  guint outer = post (CALLER (3), FUNC (3));
  GSource *source = g_main_context_find_source_by_id (NULL, outer);

  dispatch ((JsDispatchFunc) real_dispatch, source, (void *) outer_callback, &in);
  g_assert_true (read_post (in.inner_a, &a));
  g_assert_true (read_post (in.inner_b, &b));
  g_assert_true (read_post (in.inner_c, &c));
  g_assert_true (a.caller == CALLER (4));
  g_assert_cmpuint (a.n_chain, ==, 1);
  g_assert_true (a.chain[0] == CALLER (3));
  g_assert_true (b.caller == CALLER (4));
  g_assert_cmpuint (b.n_chain, ==, 1);
  g_assert_true (b.chain[0] == CALLER (3));
  g_assert_true (c.caller == CALLER (5));
  g_assert_cmpuint (c.n_chain, ==, 1);
  g_assert_true (c.chain[0] == CALLER (3));
  /* Outside the dispatch, the same caller is posted from no dispatch. */
  g_assert_true (read_post (post (CALLER (4), FUNC (4)), &a));
  g_assert_cmpuint (a.n_chain, ==, 0);
  g_source_remove (outer);
  g_source_remove (in.inner_a);
  g_source_remove (in.inner_b);
  g_source_remove (in.inner_c);
}

/* Full stacks: a caller's first attach, then none while it repeats, then
 * every attach once its callback is marked slow, and every attach during a
 * stall. */
static void
test_stacks (void)
{
  JsPostSite site;
  guint n_with = 0;

  g_assert_true (read_post (post (CALLER (6), FUNC (6)), &site));
  g_assert_cmpuint (site.n_frames, >, 0); /* first seen */
  for (guint i = 0; i < 20; i++)
    {
      g_assert_true (read_post (post (CALLER (6), FUNC (6)), &site));
      n_with += site.n_frames > 0 && !site.stack_inherited; /* its own */
    }
  g_assert_cmpuint (n_with, <=, 1); /* at most the one in 64 */

  /* The collector marks it slow: its next attaches take stacks again. */
  js_posting_mark_slow (FUNC (6));
  for (guint i = 0; i < 5; i++)
    {
      g_assert_true (read_post (post (CALLER (6), FUNC (6)), &site));
      g_assert_cmpuint (site.n_frames, ==, 5);
      g_assert_true (site.frames[0] == 0x1000);
    }
  /* Marked again (every slow dispatch does): no change. */
  js_posting_mark_slow (FUNC (6));
  g_assert_true (read_post (post (CALLER (6), FUNC (6)), &site));
  g_assert_cmpuint (site.n_frames, ==, 5);

  /* Another callback from the same place is not slow. */
  g_assert_true (read_post (post (CALLER (6), FUNC (7)), &site));
  n_with = 0;
  for (guint i = 0; i < 20; i++)
    {
      g_assert_true (read_post (post (CALLER (6), FUNC (7)), &site));
      n_with += site.n_frames > 0 && !site.stack_inherited; /* its own */
    }
  g_assert_cmpuint (n_with, <=, 1);

  js_posting_set_stall (TRUE);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_true (read_post (post (CALLER (6), FUNC (7)), &site));
      g_assert_cmpuint (site.n_frames, ==, 5);
    }
  js_posting_set_stall (FALSE);
  n_with = 0;
  for (guint i = 0; i < 20; i++)
    {
      g_assert_true (read_post (post (CALLER (6), FUNC (7)), &site));
      n_with += site.n_frames > 0 && !site.stack_inherited; /* its own */
    }
  g_assert_cmpuint (n_with, <=, 2); /* the one after the stall, one in 64 */
}

/* Another thread's attaches: noted, not the main thread's. */
static gpointer
other_thread (gpointer data)
{
  guint *ids = data;

  for (guint i = 0; i < 3; i++)
    ids[i] = post (CALLER (8), FUNC (8));
  return NULL;
}

static void
test_other_thread (void)
{
  guint ids[3];
  JsPostSite site;
  GThread *t = g_thread_new ("poster", other_thread, ids);

  g_thread_join (t);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (read_post (ids[i], &site));
      g_assert_true (site.caller == CALLER (8));
      g_assert_false (site.main_thread);
      g_source_remove (ids[i]);
    }
  /* The main thread's next attach from its last place still finds its own. */
  g_assert_true (read_post (post (CALLER (6), FUNC (7)), &site));
  g_assert_true (site.main_thread);
  g_assert_true (site.caller == CALLER (6));
}

/* A library's caller re-adding its idle: the attaches between two of its
 * stacks (at most one per 100 ms per caller and callback) carry the last
 * one, said to be inherited; another callback from the same caller has a
 * limit of its own; an inherited stack whose slot was taken since is
 * dropped, never another's given. Before, those attaches had no stack, and
 * the second callback none either (the limit was per caller). */
static void
test_library_inherits (void)
{
  JsPostSite site;
  guint64 first_unwind;
  guint n_inherited = 0;

  g_assert_true (read_post (post (CALLER (20), FUNC (20)), &site));
  g_assert_cmpuint (site.n_frames, ==, 5); /* first seen */
  g_assert_false (site.stack_inherited);
  first_unwind = site.frames[4];
  for (guint i = 0; i < 10; i++)
    {
      g_assert_true (read_post (post (CALLER (20), FUNC (20)), &site));
      /* Its own (one in 64, or 100 ms passed on a slow machine) or inherited. */
      g_assert_cmpuint (site.n_frames, ==, 5);
      if (site.stack_inherited)
        {
          g_assert_cmpuint (site.frames[4], ==, first_unwind);
          n_inherited++;
        }
      else
        first_unwind = site.frames[4];
    }
  g_assert_cmpuint (n_inherited, >, 0);

  g_assert_true (read_post (post (CALLER (20), FUNC (21)), &site));
  g_assert_cmpuint (site.n_frames, ==, 5);
  g_assert_false (site.stack_inherited);

  /* More full stacks than the ring holds (first-seen callers): the last
   * stack of CALLER (20) and FUNC (20) is gone from it. */
  for (guint i = 0; i < JS_POSTING_STACKS + 10; i++)
    g_source_remove (post (CALLER (100 + i), FUNC (20)));
  g_assert_true (read_post (post (CALLER (20), FUNC (20)), &site));
  g_assert_false (site.stack_inherited);
}

/* A library's caller re-posting from the dispatch of a site of its own
 * (GTK's timeout that re-adds itself): the re-post carries the first post's
 * stack, inherited, down the generations, even once its callback was slow
 * (its own stack would show only the dispatch). Before, it took a stack of
 * its own or none. */
static guint repost_id;

static gboolean
repost_callback (gpointer data)
{
  repost_id = post (CALLER (40), FUNC (40));
  return G_SOURCE_REMOVE;
}

static void
test_repost_inherits (void)
{
  int (*dispatch) (JsDispatchFunc, void *, void *, void *) = bridge.dispatch;
  JsPostSite first, site;
  guint id = post (CALLER (40), FUNC (40));

  g_assert_true (read_post (id, &first));
  g_assert_cmpuint (first.n_frames, ==, 5); /* first seen */
  g_assert_false (first.stack_inherited);
  js_posting_mark_slow (FUNC (40));
  for (guint generation = 0; generation < 3; generation++)
    {
      dispatch ((JsDispatchFunc) real_dispatch, g_main_context_find_source_by_id (NULL, id),
                (void *) repost_callback, NULL);
      g_source_remove (id);
      id = repost_id;
      g_assert_true (read_post (id, &site));
      g_assert_true (site.caller == CALLER (40));
      g_assert_cmpuint (site.n_chain, ==, MIN (generation + 1, JS_POSTING_CHAIN));
      g_assert_cmpuint (site.n_frames, ==, 5);
      g_assert_true (site.stack_inherited);
      g_assert_cmpuint (site.frames[4], ==, first.frames[4]);
    }
  g_source_remove (id);
}

/* A hang stuck in a GTask's completion: its dispatch's data is the task,
 * which the watchdog looks up (js_mainloop_hang_post, js_posting_task_post)
 * to name the site where the task was created, not that of GIO's attach. */
static int fake_task, not_a_task;
static gboolean task_checked;

static gboolean
task_completion (gpointer data)
{
  const void *hang_data = NULL;
  guint32 hang_post = js_mainloop_hang_post (&hang_data);
  JsPostSite site;

  g_assert_true (hang_data == &fake_task);
  g_assert_true (js_posting_read (hang_post, &site));
  g_assert_true (site.caller == CALLER (31)); /* GIO's attach */
  g_assert_true (js_posting_read (js_posting_task_post (hang_data), &site));
  g_assert_true (site.caller == CALLER (30));
  g_assert_cmpuint (site.kind, ==, JS_POST_TASK);
  task_checked = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_task_hang (void)
{
  int (*dispatch) (JsDispatchFunc, void *, void *, void *) = bridge.dispatch;
  const void *data = &not_a_task;
  guint completion;

  js_posting_posted (JS_POST_TASK, CALLER (30), FUNC (30), 0, NULL, &fake_task);
  completion = post (CALLER (31), FUNC (31));
  g_assert_cmpuint (js_posting_task_post (NULL), ==, 0);
  g_assert_cmpuint (js_posting_task_post (&not_a_task), ==, 0);
  dispatch ((JsDispatchFunc) real_dispatch, g_main_context_find_source_by_id (NULL, completion),
            (void *) task_completion, &fake_task);
  g_assert_true (task_checked);
  /* No dispatch under way: nothing. */
  g_assert_cmpuint (js_mainloop_hang_post (&data), ==, 0);
  g_assert_null (data);
  g_source_remove (completion);
}

int
main (int argc, char **argv)
{
  JsRing *ring;
  int ret;

  g_test_init (&argc, &argv, NULL);
  ring = js_ring_new (1 << 16);
  js_mainloop_start (ring, &bridge, g_main_context_set_poll_func, g_main_context_get_poll_func);
  js_posting_init (g_main_context_default (), 100000);
  js_posting_set_unwinder (fake_backtrace);
  g_test_add_func ("/Posting/same-site-given-again", test_same_site_given_again);
  g_test_add_func ("/Posting/chain", test_chain);
  g_test_add_func ("/Posting/stacks", test_stacks);
  g_test_add_func ("/Posting/other-thread", test_other_thread);
  g_test_add_func ("/Posting/library-inherits", test_library_inherits);
  g_test_add_func ("/Posting/repost-inherits", test_repost_inherits);
  g_test_add_func ("/Posting/task-hang", test_task_hang);
  ret = g_test_run ();
  return ret;
}
