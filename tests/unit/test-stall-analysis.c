/* Unit tests of what the watchdog's stalls say about an event: samples
 * folded into an event's attribution (js-attribution.h) over its parts'
 * regions, on-CPU time from the CPU clock read with each sample, class and
 * wait kind per part and per event, the calling-context profile, the
 * culprit on the heaviest path below the dispatch (js-stall-analysis.h),
 * a long stall's samples aggregated (compaction) without changing a count
 * or a nanosecond, the bounded profile and the merged timeline. Synthetic
 * stalls with stacks of real code (this program, GLib, json-glib, libc), so
 * the module rules run for real. Every expected value is worked out in the
 * comments. */
#include "js-clock.h"
#include "js-attribution.h"
#include "js-stall-analysis.h"
#include "js-stall-store.h"

#include <dlfcn.h>
#include <json-glib/json-glib.h>
#include <string.h>

#define MS JS_NS_PER_MS

/* Keeps GCC from inlining, cloning or merging the functions whose names the
 * tests look for. */
#if defined(__GNUC__) && !defined(__clang__)
#define TEST_NOIPA __attribute__ ((noipa, used))
#else
#define TEST_NOIPA __attribute__ ((noinline, used))
#endif

static volatile int sink;

TEST_NOIPA static void
app_leaf (void)
{
  for (int i = 0; i < 3; i++)
    sink += i;
}

TEST_NOIPA static void
app_caller (void)
{
  app_leaf ();
  sink *= 7;
}

typedef struct
{
  JsModules *modules;
  JsStallStore store;
  GArray *headers;
  GPtrArray *samples;
  GArray *windows;
  JsAttribution *a;
} Fixture;

/* Stacks, leaf first: [0] is a pc, the others return addresses (the
 * symbolizer looks up address - 1, so +1 lands on the function's start). */
typedef struct
{
  guint n;
  guint64 frames[6];
} Stack;

static guint64 addr_app_leaf, addr_app_caller, addr_loop, addr_dispatch, addr_libc;
static guint64 addr_json_node, addr_json_object, addr_json_array;

/* The function's address, checked to be in the module expected (not a PLT
 * stub of this program). */
static guint64
address_in (void (*func) (void), const char *module_prefix, JsModules *modules)
{
  guint64 p = (guint64) (guintptr) func;
  const JsModule *m = js_modules_get (modules, js_modules_resolve (modules, p));

  g_assert_nonnull (m);
  g_assert_true (g_str_has_prefix (m->name, module_prefix));
  return p;
}

/* libc's own poll: under ASan, `poll` here is the sanitizer's interceptor. */
static void (*libc_poll (void)) (void)
{
  void *libc = dlopen ("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  void *p;

  g_assert_nonnull (libc);
  p = dlsym (libc, "poll");
  dlclose (libc);
  g_assert_nonnull (p);
  return (void (*) (void)) p;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  memset (f, 0, sizeof *f);
  f->modules = js_modules_new ();
  js_stall_store_init (&f->store, f->modules, FALSE);
  f->headers = g_array_new (FALSE, TRUE, sizeof (JsStallHeader));
  f->samples = g_ptr_array_new ();
  f->windows = g_array_new (FALSE, FALSE, sizeof (JsPartWindow));
  f->a = js_attribution_new ();
  addr_app_leaf = (guint64) (guintptr) app_leaf;
  addr_app_caller = (guint64) (guintptr) app_caller;
  /* g_main_context_iteration calls into the loop (never blamed);
   * g_main_context_dispatch is the loop's dispatch. */
  addr_loop = address_in ((void (*) (void)) g_main_context_iteration, "libglib-2.0", f->modules);
  addr_dispatch = address_in ((void (*) (void)) g_main_context_dispatch, "libglib-2.0", f->modules);
  addr_libc = address_in (libc_poll (), "libc", f->modules);
  addr_json_node = address_in ((void (*) (void)) json_node_get_type, "libjson-glib", f->modules);
  addr_json_object
      = address_in ((void (*) (void)) json_object_get_type, "libjson-glib", f->modules);
  addr_json_array = address_in ((void (*) (void)) json_array_get_type, "libjson-glib", f->modules);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  js_attribution_free (f->a);
  js_stall_store_clear (&f->store);
  js_modules_free (f->modules);
  g_array_unref (f->headers);
  g_ptr_array_unref (f->samples);
  g_array_unref (f->windows);
}

static JsStallHeader *
stall (Fixture *f, guint32 id, gint64 start_ms, gint64 end_ms)
{
  JsStallHeader h = {
    .id = id,
    .start_ns = start_ms * MS,
    .detected_ns = (start_ms + 16) * MS,
    .end_ns = end_ms * MS,
    .last_seen_ns = end_ms * MS,
    .ping_latency_ns = -1,
    .cpu_first_ns = -1,
    .cpu_first_at_ns = -1,
    .cpu_last_ns = -1,
    .cpu_last_at_ns = -1,
    .runnable_first_ns = -1,
    .runnable_last_ns = -1,
  };

  g_array_append_val (f->headers, h);
  return &g_array_index (f->headers, JsStallHeader, f->headers->len - 1);
}

/* A sample; `cpu_ms` is the CPU clock when taken (-1: unknown). */
static void
sample (Fixture *f, guint32 stall_id, gint64 time_ms, gint64 last_ms, guint32 count,
        JsThreadState state, JsWaitKind wait, const Stack *stack, gint64 cpu_ms)
{
  JsStallSample *s = g_new0 (JsStallSample, 1);

  s->stall_id = stall_id;
  s->sample.time_ns = time_ms * MS;
  s->sample.last_ns = last_ms * MS;
  s->sample.cpu_ns = cpu_ms >= 0 ? cpu_ms * MS : -1;
  s->sample.count = count;
  s->sample.state = state;
  s->sample.wait = wait;
  s->sample.syscall = state == JS_THREAD_WAITING ? 7 : -1;
  if (stack == NULL)
    s->sample.flags = JS_STACK_SAMPLE_NO_STACK;
  else
    {
      s->sample.n_frames = stack->n;
      for (guint i = 0; i < stack->n; i++)
        {
          s->sample.frames[i] = stack->frames[i] + (i > 0 ? 1 : 0);
          s->sample.modules[i] = (guint16) js_modules_resolve (f->modules, stack->frames[i]);
        }
    }
  g_ptr_array_add (f->samples, s);
}

static void
part (Fixture *f, gint64 start_ms, gint64 end_ms, gint32 index)
{
  JsPartWindow w = { start_ms * MS, end_ms * MS, index };

  g_array_append_val (f->windows, w);
}

static void
feed (Fixture *f)
{
  js_stall_store_feed (&f->store, f->headers, f->samples);
  g_array_set_size (f->headers, 0);
}

static JsStall *
live (Fixture *f, guint32 id)
{
  JsStall *st = g_hash_table_lookup (f->store.live, GUINT_TO_POINTER (id));

  g_assert_nonnull (st);
  return st;
}

/* Folds stall `id` into the fixture's attribution over its windows. */
static void
fold (Fixture *f, JsAttribution *a, guint32 id)
{
  JsStall *st = live (f, id);
  g_autoptr (GArray) regions = g_array_new (FALSE, FALSE, sizeof (JsRegion));

  js_attribution_regions (f->windows, st->h.start_ns, st->h.end_ns, regions);
  js_attribution_fold_stall (a, f->modules, f->store.stacks, st, regions);
}

/* The cause of part `index` (-1: the event). */
static void
cause (Fixture *f, gint index, gint64 duration_ms, JsCause *c)
{
  JsAttribution *a = f->a;
  guint n = a->profile->nodes->len;
  g_autofree guint64 *samples = g_new0 (guint64, MAX (n, 1));
  g_autofree gint64 *ns = g_new0 (gint64, MAX (n, 1));
  JsPartAttribution *p;

  if (index < 0)
    {
      js_stall_analysis_cause (a->profile, NULL, NULL, &a->stats, duration_ms * MS, c);
      return;
    }
  p = js_attribution_part (a, (guint) index);
  for (guint i = 0; i < p->weights->len; i++)
    {
      const JsNodeWeight *w = &g_array_index (p->weights, JsNodeWeight, i);

      samples[w->node] += w->samples;
      ns[w->node] += w->ns;
    }
  js_stall_analysis_cause (a->profile, samples, ns, &p->stats, duration_ms * MS, c);
}

static const char *
function_of (Fixture *f, guint32 node)
{
  g_assert_cmpuint (node, !=, JS_PROFILE_NONE);
  return js_profile_node (f->a->profile, node)->frame.function;
}

/* Σ self over the profile equals its totals. */
static void
assert_profile_adds_up (const JsProfile *p)
{
  guint64 samples = 0;
  gint64 ns = 0;

  for (guint i = 0; i < p->nodes->len; i++)
    {
      samples += js_profile_node (p, i)->self_samples;
      ns += js_profile_node (p, i)->self_ns;
    }
  g_assert_cmpuint (samples, ==, p->samples);
  g_assert_cmpint (ns, ==, p->time_ns);
}

static void
test_nothing (Fixture *f, gconstpointer data)
{
  JsCause c;

  cause (f, -1, 100, &c);
  g_assert_null (c.klass);
  g_assert_cmpint (c.cpu_ns, ==, -1);
  g_assert_cmpint (c.runnable_ns, ==, -1);
  g_assert_cmpuint (c.culprit, ==, JS_PROFILE_NONE);
  g_assert_cmpint (f->a->longest.length_ns, ==, -1);
  g_assert_cmpuint (f->a->timeline->len, ==, 0);
}

/* One stall [0, 100] ms, one part [0, 100].
 *
 * CPU clock read with the samples: 0 at 20 ms, 18 at 40, 54 at 80: 0.9 of
 * each ms in between, and so before the first and after the last: 90 ms.
 * Runnable: 6 ms over the 60 ms between the first and last readings
 * (0.1): min (0.1 × 100, 100 − 90) = 10 ms. (90 + 10) / 100 >= 0.7: compute.
 *
 * Samples (time each speaks for: halfway to its neighbours, the first back
 * to the stall's start, the last up to its end):
 *   20 ms      running, stack A  [0, 30]   30 ms
 *   40..60 ms  running, stack A  [30, 70]  40 ms, 3 folded
 *   80 ms      running, stack B  [70, 100] 30 ms
 * A = app_leaf <- app_caller <- g_main_context_iteration (the loop: never
 * blamed, and where the search stops); B = json-glib <- the same.
 * The profile: iteration -> app_caller -> app_leaf (4 samples, 70 ms),
 * iteration -> json_node_get_type (1, 30 ms). The heaviest path: app_caller
 * (70 of 100 under the loop), into app_leaf (70 >= 35): culprit app_leaf,
 * the app's own code, 70 ms, 4 samples; confidence 70/100 × 5/6. No
 * dispatch above it: no callback. */
static void
test_compute_from_cpu_clock (Fixture *f, gconstpointer data)
{
  const Stack a = { 3, { addr_app_leaf, addr_app_caller, addr_loop } };
  const Stack b = { 2, { addr_json_node, addr_loop } };
  JsStallHeader *h = stall (f, 1, 0, 100);
  JsCause c;

  h->cpu_first_ns = 0;
  h->cpu_first_at_ns = 20 * MS;
  h->cpu_last_ns = 54 * MS;
  h->cpu_last_at_ns = 80 * MS;
  h->runnable_first_ns = 10 * MS;
  h->runnable_last_ns = 16 * MS;
  h->tier_at_ns[0] = 50 * MS;
  h->ping_latency_ns = 3 * MS;
  h->ping_caught = TRUE;
  sample (f, 1, 20, 20, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, 0);
  sample (f, 1, 40, 60, 3, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, 18);
  sample (f, 1, 80, 80, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &b, 54);
  part (f, 0, 100, 0);
  feed (f);
  fold (f, f->a, 1);

  g_assert_cmpuint (f->a->stats.stalls, ==, 1);
  g_assert_cmpint (f->a->stats.watched_ns, ==, 100 * MS);
  g_assert_cmpint (f->a->stats.sampled_ns, ==, 84 * MS);
  g_assert_cmpuint (f->a->stats.samples, ==, 5);
  g_assert_cmpuint (f->a->stats.samples_with_stack, ==, 5);
  g_assert_cmpuint (f->a->stats.samples_running, ==, 5);
  g_assert_cmpuint (f->a->stats.samples_waiting, ==, 0);
  g_assert_cmpuint (f->a->profile->samples, ==, 5);
  g_assert_cmpint (f->a->profile->time_ns, ==, 100 * MS);
  g_assert_cmpuint (f->a->profile->nodes->len, ==, 4);
  assert_profile_adds_up (f->a->profile);
  g_assert_cmpuint (f->a->timeline->len, ==, 3);
  /* The part got it all. */
  g_assert_cmpint (js_attribution_part (f->a, 0)->time_ns, ==, 100 * MS);
  g_assert_cmpuint (js_attribution_part (f->a, 0)->stats.samples, ==, 5);

  cause (f, -1, 100, &c);
  g_assert_cmpint (c.cpu_ns, ==, 90 * MS);
  g_assert_cmpint (c.runnable_ns, ==, 10 * MS);
  g_assert_cmpstr (c.klass, ==, "compute");
  g_assert_cmpint (c.wait, ==, JS_WAIT_NONE);
  g_assert_cmpstr (function_of (f, c.culprit), ==, "app_leaf");
  g_assert_cmpstr (c.culprit_reason, ==, "app-code");
  g_assert_cmpuint (c.culprit_samples, ==, 4);
  g_assert_cmpint (c.culprit_ns, ==, 70 * MS);
  g_assert_cmpint (c.app_code_ns, ==, 70 * MS);
  g_assert_cmpuint (c.callback, ==, JS_PROFILE_NONE);
  g_assert_cmpfloat_with_epsilon (c.confidence, 0.7 * 5.0 / 6.0, 1e-9);

  g_assert_cmpint (f->a->longest.tier_at_ns[0], ==, 50 * MS);
  g_assert_cmpint (f->a->longest.ping_latency_ns, ==, 3 * MS);
  g_assert_true (f->a->longest.ping_caught);
  g_assert_cmpint (f->a->longest.detected_ns, ==, 16 * MS);
}

/* One stall [0, 260] over two dispatches: P0 [0, 100] computes in
 * app_leaf, P1 [100, 260] sleeps in poll called by app_caller. One event,
 * two causes.
 *
 * CPU clock: 0 at 25, 50 at 75, 75 at 125, 75 at 175, 75 at 225: rate 1
 * up to 75, 0.5 to 125, then 0; before 25 the first pair's (1), after 225
 * the last pair's (0). P0 [0, 100]: 62.5 − (−25) = 87.5 ms: compute. P1
 * [100, 260]: 75 − 62.5 = 12.5 of 160 ms: wait (sleep).
 * Samples: 25 A [0, 50], 75 A [50, 100] (P0: 2 samples, 100 ms); 125 D
 * [100, 150], 175 D [150, 200], 225 D [200, 260] (P1: 3, 160 ms).
 * A = app_leaf <- app_caller <- dispatch <- loop; D = poll (libc) <-
 * app_caller <- dispatch <- loop.
 * P0's culprit: app_leaf, 100 ms; P1's: app_caller (the heaviest path goes
 * into libc's poll, but the app's own frame on it is app_caller). The
 * event: app_caller 260 ms; app_leaf 100 < 130, poll 160 >= 130: the path
 * goes into poll, app_caller is its innermost app frame: 260 ms, 5 samples.
 * The event: 87.5 + 12.5 = 100 of 260 ms: mixed, sleep. Both parts were
 * dispatched by g_main_context_dispatch: callback app_caller. */
static void
test_two_parts_two_causes (Fixture *f, gconstpointer data)
{
  const Stack a = { 4, { addr_app_leaf, addr_app_caller, addr_dispatch, addr_loop } };
  const Stack d = { 4, { addr_libc, addr_app_caller, addr_dispatch, addr_loop } };
  JsStallHeader *h = stall (f, 1, 0, 260);
  JsCause c;

  h->cpu_first_ns = 0;
  h->cpu_first_at_ns = 25 * MS;
  h->cpu_last_ns = 75 * MS;
  h->cpu_last_at_ns = 225 * MS;
  sample (f, 1, 25, 25, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, 0);
  sample (f, 1, 75, 75, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, 50);
  sample (f, 1, 125, 125, 1, JS_THREAD_WAITING, JS_WAIT_SLEEP, &d, 75);
  sample (f, 1, 175, 175, 1, JS_THREAD_WAITING, JS_WAIT_SLEEP, &d, 75);
  sample (f, 1, 225, 225, 1, JS_THREAD_WAITING, JS_WAIT_SLEEP, &d, 75);
  part (f, 0, 100, 0);
  part (f, 100, 260, 1);
  feed (f);
  fold (f, f->a, 1);

  cause (f, 0, 100, &c);
  g_assert_cmpint (c.cpu_ns, ==, 87500 * G_GINT64_CONSTANT (1000));
  g_assert_cmpstr (c.klass, ==, "compute");
  g_assert_cmpstr (function_of (f, c.culprit), ==, "app_leaf");
  g_assert_cmpstr (c.culprit_reason, ==, "app-code");
  g_assert_cmpint (c.culprit_ns, ==, 100 * MS);
  g_assert_cmpstr (function_of (f, c.callback), ==, "app_caller");
  g_assert_cmpint (js_attribution_part (f->a, 0)->time_ns, ==, 100 * MS);
  g_assert_cmpuint (js_attribution_part (f->a, 0)->stats.samples, ==, 2);
  g_assert_cmpint (js_attribution_part (f->a, 0)->stats.watched_ns, ==, 100 * MS);

  cause (f, 1, 160, &c);
  g_assert_cmpint (c.cpu_ns, ==, 12500 * G_GINT64_CONSTANT (1000));
  g_assert_cmpstr (c.klass, ==, "wait");
  g_assert_cmpint (c.wait, ==, JS_WAIT_SLEEP);
  g_assert_cmpstr (function_of (f, c.culprit), ==, "app_caller");
  g_assert_cmpstr (c.culprit_reason, ==, "app-code");
  g_assert_cmpint (c.culprit_ns, ==, 160 * MS);
  g_assert_cmpuint (c.culprit_samples, ==, 3);
  g_assert_cmpint (js_attribution_part (f->a, 1)->time_ns, ==, 160 * MS);

  cause (f, -1, 260, &c);
  g_assert_cmpint (c.cpu_ns, ==, 100 * MS);
  g_assert_cmpstr (c.klass, ==, "mixed");
  g_assert_cmpint (c.wait, ==, JS_WAIT_SLEEP);
  g_assert_cmpstr (function_of (f, c.culprit), ==, "app_caller");
  g_assert_cmpint (c.culprit_ns, ==, 260 * MS);
  g_assert_cmpuint (c.culprit_samples, ==, 5);
  g_assert_cmpint (f->a->profile->time_ns, ==, 260 * MS);
  assert_profile_adds_up (f->a->profile);
}

/* Jank entirely inside a library, with no app code above it but what
 * runs the loop (app_caller stands for main here: main is found by name):
 *   J = json_node <- json_object <- dispatch <- loop <- app_caller
 * The app's only frame is rootward of the loop: no app code inside the
 * dispatch (app_code_ns 0), and never the culprit. The heaviest path from
 * the dispatch: json_object (100%) -> json_node (100%): the innermost
 * library function, json_node_get_type; the callback (the dispatched
 * function outside GLib) json_object_get_type. */
static void
test_library_only (Fixture *f, gconstpointer data)
{
  const Stack j
      = { 5, { addr_json_node, addr_json_object, addr_dispatch, addr_loop, addr_app_caller } };
  JsCause c;

  stall (f, 1, 0, 100);
  sample (f, 1, 50, 50, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &j, -1);
  part (f, 0, 100, 0);
  feed (f);
  fold (f, f->a, 1);

  cause (f, -1, 100, &c);
  g_assert_cmpstr (function_of (f, c.culprit), ==, "json_node_get_type");
  g_assert_cmpstr (c.culprit_reason, ==, "library");
  g_assert_cmpstr (function_of (f, c.callback), ==, "json_object_get_type");
  g_assert_cmpint (c.app_code_ns, ==, 0);
  g_assert_cmpint (c.culprit_ns, ==, 100 * MS);
  /* No CPU clock: the samples' states (1 running of 1). */
  g_assert_cmpint (c.cpu_ns, ==, 100 * MS);
}

/* The heaviest path stops where the time fans out, and never blames libc:
 *   dispatch -> json_array (100 ms) -> json_object (40 ms)
 *                                   -> json_node (60 ms) -> poll (libc, 60 ms)
 * From json_array, json_node holds 60 >= 50: the path goes on, into poll
 * (60 >= 50). On it: json_array, json_node, poll: the innermost library
 * function outside libc is json_node_get_type, 60 ms. */
static void
test_heaviest_path (Fixture *f, gconstpointer data)
{
  const Stack x = { 4, { addr_json_object, addr_json_array, addr_dispatch, addr_loop } };
  const Stack y = { 5, { addr_libc, addr_json_node, addr_json_array, addr_dispatch, addr_loop } };
  JsCause c;

  stall (f, 1, 0, 100);
  sample (f, 1, 20, 20, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &x, -1);
  sample (f, 1, 60, 60, 1, JS_THREAD_WAITING, JS_WAIT_POLL, &y, -1);
  sample (f, 1, 80, 80, 1, JS_THREAD_WAITING, JS_WAIT_POLL, &y, -1);
  part (f, 0, 100, 0);
  feed (f);
  fold (f, f->a, 1);

  /* Cells: [0, 40] x, [40, 70] y, [70, 100] y. */
  cause (f, -1, 100, &c);
  g_assert_cmpstr (function_of (f, c.culprit), ==, "json_node_get_type");
  g_assert_cmpstr (c.culprit_reason, ==, "library");
  g_assert_cmpint (c.culprit_ns, ==, 60 * MS);
  g_assert_cmpuint (c.culprit_samples, ==, 2);
  g_assert_cmpstr (function_of (f, c.callback), ==, "json_array_get_type");
  /* 1 running of 3: a third of 100 ms; 0.33 is mixed, poll. */
  g_assert_cmpstr (c.klass, ==, "mixed");
  g_assert_cmpint (c.wait, ==, JS_WAIT_POLL);
}

/* Only libc inside the dispatch: the innermost named frame, "leaf". */
static void
test_leaf (Fixture *f, gconstpointer data)
{
  const Stack p = { 3, { addr_libc, addr_dispatch, addr_loop } };
  JsCause c;

  stall (f, 1, 0, 100);
  sample (f, 1, 50, 50, 1, JS_THREAD_WAITING, JS_WAIT_POLL, &p, -1);
  part (f, 0, 100, 0);
  feed (f);
  fold (f, f->a, 1);
  cause (f, -1, 100, &c);
  g_assert_true (g_str_has_suffix (function_of (f, c.culprit), "poll"));
  g_assert_cmpstr (c.culprit_reason, ==, "leaf");
  g_assert_cmpstr (c.klass, ==, "wait");
}

/* Samples between parts and outside the event count for nothing; a
 * sample's time is cut at the parts' edges.
 *   stall [0, 300]; parts: P0 [0, 100], (gap), P1 [200, 300]
 *   50 A: [0, 100]      -> P0 100 ms, 1 sample
 *   150 B: [100, 175]   -> its count in the gap: nothing
 *   200 A: [175, 250]   -> count in P1; time: 25 in the gap, 50 in P1
 *   300 B: [250, 300]   -> the stall's very end: P1, 50 ms
 * The event: 3 samples, 200 ms watched, 200 ms attributed; the timeline
 * has the 3 samples inside parts. */
static void
test_regions (Fixture *f, gconstpointer data)
{
  const Stack a = { 2, { addr_app_leaf, addr_loop } };
  const Stack b = { 2, { addr_json_node, addr_loop } };

  stall (f, 1, 0, 300);
  sample (f, 1, 50, 50, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1);
  sample (f, 1, 150, 150, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &b, -1);
  sample (f, 1, 200, 200, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1);
  sample (f, 1, 300, 300, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &b, -1);
  part (f, 0, 100, 0);
  part (f, 200, 300, 1);
  feed (f);
  fold (f, f->a, 1);

  g_assert_cmpuint (f->a->stats.samples, ==, 3);
  g_assert_cmpint (f->a->stats.watched_ns, ==, 200 * MS);
  g_assert_cmpint (f->a->profile->time_ns, ==, 200 * MS);
  g_assert_cmpuint (f->a->profile->samples, ==, 3);
  g_assert_cmpint (js_attribution_part (f->a, 0)->time_ns, ==, 100 * MS);
  g_assert_cmpint (js_attribution_part (f->a, 1)->time_ns, ==, 100 * MS);
  g_assert_cmpuint (js_attribution_part (f->a, 1)->stats.samples, ==, 2);
  g_assert_cmpuint (f->a->timeline->len, ==, 3);
  assert_profile_adds_up (f->a->profile);
}

/* The innermost part holds a sample: a nested dispatch [40, 60] inside its
 * dispatch [0, 100] inside its iteration [0, 120]; the part left out of
 * `parts` (JS_PART_UNLISTED) counts for the event only. */
static void
test_innermost_part (Fixture *f, gconstpointer data)
{
  const Stack a = { 2, { addr_app_leaf, addr_loop } };

  stall (f, 1, 0, 120);
  sample (f, 1, 20, 20, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1);   /* [0, 35] */
  sample (f, 1, 50, 50, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1);   /* [35, 80] */
  sample (f, 1, 110, 110, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1); /* [80, 120] */
  part (f, 0, 120, 0);                                                 /* the iteration */
  part (f, 0, 100, 1);                                                 /* the dispatch */
  part (f, 40, 60, JS_PART_UNLISTED); /* the nested dispatch, not listed */
  feed (f);
  fold (f, f->a, 1);

  /* Dispatch: [0, 40] and [60, 100]: 35 + 5 + 20 + 20 = 80 ms, 1 sample
   * (at 20); nested: [40, 60] 20 ms, 1 sample (at 50); iteration:
   * [100, 120] 20 ms, 1 sample (at 110). */
  g_assert_cmpint (js_attribution_part (f->a, 1)->time_ns, ==, 80 * MS);
  g_assert_cmpuint (js_attribution_part (f->a, 1)->stats.samples, ==, 1);
  g_assert_cmpint (f->a->unlisted_ns, ==, 20 * MS);
  g_assert_cmpuint (f->a->unlisted.samples, ==, 1);
  g_assert_cmpint (js_attribution_part (f->a, 0)->time_ns, ==, 20 * MS);
  g_assert_cmpuint (js_attribution_part (f->a, 0)->stats.samples, ==, 1);
  g_assert_cmpint (f->a->profile->time_ns, ==, 120 * MS);
}

/* A long stall's older samples aggregated into chunks, cut at the parts'
 * edges, fold into the event exactly as the samples themselves would:
 * 600 samples every 10 ms over [0, 6000], alternating two stacks; parts
 * [0, 2500] and [2500, 6000]; compacted up to 1000 ms while no edge is
 * known yet (a dispatch's record comes at its end), then up to 4000 ms
 * with the edge at 2500: a second chunk starts there. */
static void
test_compaction_is_exact (Fixture *f, gconstpointer data)
{
  const Stack a = { 3, { addr_app_leaf, addr_dispatch, addr_loop } };
  const Stack b = { 3, { addr_json_node, addr_dispatch, addr_loop } };
  JsAttribution *whole = js_attribution_new ();
  g_autoptr (GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 edge = 2500 * MS;
  JsStallHeader *h;
  JsStall *st;

  /* The thread's CPU clock (1 s before the stall) goes at half speed. */
  h = stall (f, 1, 0, 6000);
  h->cpu_first_ns = 1000 * MS;
  h->cpu_first_at_ns = 5 * MS;
  h->cpu_last_ns = 1000 * MS + 5990 * MS / 2;
  h->cpu_last_at_ns = 5995 * MS;
  for (gint64 t = 5; t < 6000; t += 10)
    sample (f, 1, t, t, 1, (t / 10) % 3 ? JS_THREAD_RUNNING : JS_THREAD_WAITING,
            (t / 10) % 3 ? JS_WAIT_NONE : JS_WAIT_LOCK, (t / 10) % 2 ? &a : &b, 1000 + (t - 5) / 2);
  part (f, 0, 2500, 0);
  part (f, 2500, 6000, 1);
  feed (f);
  fold (f, whole, 1);

  st = live (f, 1);
  js_attribution_compact (st, f->modules, f->store.stacks, edges, 1000 * MS);
  g_assert_cmpuint (st->chunks->len, ==, 1);
  g_array_append_val (edges, edge);
  js_attribution_compact (st, f->modules, f->store.stacks, edges, 4000 * MS);
  g_assert_cmpuint (st->chunks->len, ==, 2);
  g_assert_cmpuint (st->samples->len, ==, 200);
  fold (f, f->a, 1);

  g_assert_cmpuint (f->a->profile->samples, ==, whole->profile->samples);
  g_assert_cmpint (f->a->profile->time_ns, ==, whole->profile->time_ns);
  g_assert_cmpint (f->a->profile->time_ns, ==, 6000 * MS);
  for (guint i = 0; i < 2; i++)
    {
      JsPartAttribution *p = js_attribution_part (f->a, i), *q = js_attribution_part (whole, i);

      g_assert_cmpint (p->time_ns, ==, q->time_ns);
      g_assert_cmpuint (p->samples, ==, q->samples);
      g_assert_cmpuint (p->stats.samples, ==, q->stats.samples);
      g_assert_cmpuint (p->stats.samples_running, ==, q->stats.samples_running);
      g_assert_cmpuint (p->stats.wait_counts[JS_WAIT_LOCK], ==, q->stats.wait_counts[JS_WAIT_LOCK]);
      g_assert_cmpint (p->stats.watched_ns, ==, q->stats.watched_ns);
      /* The clock's rate is 0.5 throughout: the same CPU time either way. */
      g_assert_cmpfloat_with_epsilon (p->stats.cpu_ns, q->stats.cpu_ns, 1e3);
      g_assert_cmpfloat_with_epsilon (p->stats.cpu_ns, p->stats.watched_ns * 0.5, 1e3);
    }
  g_assert_cmpint (js_attribution_part (f->a, 0)->time_ns, ==, 2500 * MS);
  g_assert_cmpuint (f->a->stats.samples, ==, 600);
  assert_profile_adds_up (f->a->profile);
  js_attribution_free (whole);
}

/* The CPU clock is read a moment after each sample's time, by a delay that
 * varies: a thread on the CPU the whole time, sampled every 1 ms, whose
 * readings lag by 0 or 0.4 ms in turn. Between two readings the clock then
 * seems to run at 0.6 or 1.4: capping each interval at 1 would give 80% on
 * CPU (a "mixed" computation); the whole stall is 100 ms on CPU. */
static void
test_cpu_clock_jitter (Fixture *f, gconstpointer data)
{
  const Stack a = { 2, { addr_app_leaf, addr_loop } };
  JsStallHeader *h = stall (f, 1, 0, 100);
  JsCause c;

  h->cpu_first_ns = 5000 * MS;
  h->cpu_first_at_ns = 1 * MS;
  h->cpu_last_ns = 5000 * MS + 99 * MS;
  h->cpu_last_at_ns = 100 * MS;
  for (gint64 t = 1; t < 100; t++)
    {
      JsStallSample *s;

      sample (f, 1, t, t, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a, -1);
      s = g_ptr_array_index (f->samples, f->samples->len - 1);
      /* Read 0.4 ms late every other time: the clock's value then. */
      s->sample.cpu_ns = 5000 * MS + (t - 1) * MS + (t % 2 ? 400 * 1000 : 0);
    }
  part (f, 0, 100, 0);
  feed (f);
  fold (f, f->a, 1);
  cause (f, -1, 100, &c);
  g_assert_cmpint (c.cpu_ns, >=, 99 * MS);
  g_assert_cmpint (c.cpu_ns, <=, 100 * MS);
  g_assert_cmpstr (c.klass, ==, "compute");
}

/* A full profile keeps every count: 40 distinct paths into a tree of at
 * most 8 function nodes. */
static void
test_profile_bound (Fixture *f, gconstpointer data)
{
  JsProfile *p = js_profile_new (8);
  JsFrame frames[41];
  JsPathFrame path[3];
  guint64 samples = 0;
  gint64 ns = 0;

  memset (frames, 0, sizeof frames);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    frames[i].offset = i;
  for (guint i = 1; i <= 40; i++)
    {
      path[0] = (JsPathFrame){ &frames[0], 0 };
      path[1] = (JsPathFrame){ &frames[i], 0 };
      path[2] = (JsPathFrame){ &frames[(i * 7) % 41], 0 };
      js_profile_add (p, js_profile_intern (p, path, 3), 1, i);
    }
  g_assert_cmpuint (p->n_function_nodes, <=, 8);
  g_assert_cmpuint (p->samples, ==, 40);
  g_assert_cmpint (p->time_ns, ==, 40 * 41 / 2);
  for (guint i = 0; i < p->nodes->len; i++)
    {
      samples += js_profile_node (p, i)->self_samples;
      ns += js_profile_node (p, i)->self_ns;
      if (js_profile_node (p, i)->flags & JS_NODE_OTHER)
        g_assert_cmpuint (js_profile_node (p, i)->parent, !=, JS_PROFILE_NONE);
    }
  g_assert_cmpuint (samples, ==, 40);
  g_assert_cmpint (ns, ==, 40 * 41 / 2);
  js_profile_free (p);
}

/* The timeline merges neighbours two by two, of the same part first, and
 * keeps every count: 600 entries, parts 0 and 1 in runs of 100. */
static void
test_timeline_shrink (Fixture *f, gconstpointer data)
{
  g_autoptr (GArray) tl = g_array_new (FALSE, FALSE, sizeof (JsSampleEntry));
  guint64 count = 0, running = 0, count_in = 0, running_in = 0;

  for (guint i = 0; i < 600; i++)
    {
      JsSampleEntry e = {
        .t_ns = i * MS,
        .last_ns = i * MS,
        .count = 1 + i % 3,
        .state = i % 2 ? JS_THREAD_RUNNING : JS_THREAD_WAITING,
        .node = JS_PROFILE_NONE,
        .part = (i / 100) % 2,
      };

      e.running = e.state == JS_THREAD_RUNNING ? e.count : 0;
      count_in += e.count;
      running_in += e.running;
      g_array_append_val (tl, e);
    }
  js_timeline_shrink (tl, 256);
  g_assert_cmpuint (tl->len, <=, 256);
  for (guint i = 0; i < tl->len; i++)
    {
      const JsSampleEntry *e = &g_array_index (tl, JsSampleEntry, i);

      count += e->count;
      running += e->running;
      if (i > 0)
        g_assert_cmpint (e->t_ns, >, g_array_index (tl, JsSampleEntry, i - 1).t_ns);
      /* Runs of 100 of one part, halved twice: no entry spans two parts. */
      g_assert_cmpint (e->part, ==, (e->t_ns / MS / 100) % 2);
      g_assert_cmpint (e->part, ==, (e->last_ns / MS / 100) % 2);
    }
  g_assert_cmpuint (count, ==, count_in);
  g_assert_cmpuint (running, ==, running_in);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/StallAnalysis/nothing", test_nothing);
  ADD ("/StallAnalysis/compute-from-cpu-clock", test_compute_from_cpu_clock);
  ADD ("/StallAnalysis/two-parts-two-causes", test_two_parts_two_causes);
  ADD ("/StallAnalysis/library-only", test_library_only);
  ADD ("/StallAnalysis/heaviest-path", test_heaviest_path);
  ADD ("/StallAnalysis/leaf", test_leaf);
  ADD ("/StallAnalysis/regions", test_regions);
  ADD ("/StallAnalysis/innermost-part", test_innermost_part);
  ADD ("/StallAnalysis/compaction-is-exact", test_compaction_is_exact);
  ADD ("/StallAnalysis/cpu-clock-jitter", test_cpu_clock_jitter);
  ADD ("/StallAnalysis/profile-bound", test_profile_bound);
  ADD ("/StallAnalysis/timeline-shrink", test_timeline_shrink);
#undef ADD
  return g_test_run ();
}
