/* Unit tests of what the watchdog's stalls say about an event (the stall
 * analysis): on-CPU/off-CPU time from the CPU clock or from the samples'
 * states, class and wait kind, the time each sample speaks for (clipped to
 * the event, samples outside it skipped), stacks ranked by that time, the
 * culprit frame (app code, else a library, else the leaf; a tie goes to the
 * one sampled last), its confidence, and the longest stall's watchdog
 * members. Synthetic stalls with stacks of real code (this program, GLib,
 * json-glib, libc), so the culprit's module rules run for real. Every
 * expected value is worked out in the comments. */
#include "js-clock.h"
#include "js-stall-analysis.h"

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
  JsStallAnalysis a;
} Fixture;

/* Stacks, leaf first: [0] is a pc, the others return addresses (the
 * symbolizer looks up address - 1, so +1 lands on the function's start). */
typedef struct
{
  guint n;
  guint64 frames[4];
} Stack;

static guint64 addr_app_leaf, addr_app_caller, addr_glib, addr_json, addr_libc;

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
  addr_app_leaf = (guint64) (guintptr) app_leaf;
  addr_app_caller = (guint64) (guintptr) app_caller;
  addr_glib = address_in ((void (*) (void)) g_main_context_iteration, "libglib-2.0", f->modules);
  addr_json = address_in ((void (*) (void)) json_node_get_type, "libjson-glib", f->modules);
  addr_libc = address_in (libc_poll (), "libc", f->modules);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  js_stall_analysis_clear (&f->a);
  js_stall_store_clear (&f->store);
  js_modules_free (f->modules);
  g_array_unref (f->headers);
  g_ptr_array_unref (f->samples);
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

static void
sample (Fixture *f, guint32 stall_id, gint64 time_ms, gint64 last_ms, guint32 count,
        JsThreadState state, JsWaitKind wait, const Stack *stack)
{
  JsStallSample *s = g_new0 (JsStallSample, 1);

  s->stall_id = stall_id;
  s->sample.time_ns = time_ms * MS;
  s->sample.last_ns = last_ms * MS;
  s->sample.cpu_ns = -1;
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

/* Feeds what was queued, then analyses [start_ms, end_ms] over the stalls
 * `ids` (0-terminated). */
static void
analyze (Fixture *f, gint64 start_ms, gint64 end_ms, gint64 duration_ms, const guint32 *ids)
{
  g_autoptr (GPtrArray) stalls = g_ptr_array_new ();

  js_stall_store_feed (&f->store, f->headers, f->samples);
  g_array_set_size (f->headers, 0);
  for (guint i = 0; ids[i] != 0; i++)
    {
      JsStall *st = g_hash_table_lookup (f->store.live, GUINT_TO_POINTER (ids[i]));

      g_assert_nonnull (st);
      g_ptr_array_add (stalls, st);
    }
  js_stall_analysis_compute (&f->store, stalls, start_ms * MS, end_ms * MS, duration_ms * MS, &f->a);
}

static const JsStackCount *
stack_count (Fixture *f, guint i)
{
  g_assert_cmpuint (i, <, f->a.stacks->len);
  return &g_array_index (f->a.stacks, JsStackCount, i);
}

static const char *
stack_leaf (Fixture *f, guint i)
{
  const JsStack *s = js_stack_table_get (f->store.stacks, stack_count (f, i)->stack);

  g_assert_nonnull (s);
  return g_array_index (s->frames, JsFrame, 0).function;
}

static void
test_no_stalls (Fixture *f, gconstpointer data)
{
  js_stall_analysis_compute (&f->store, NULL, 0, 100 * MS, 100 * MS, &f->a);
  g_assert_cmpuint (f->a.n_stalls, ==, 0);
  g_assert_cmpint (f->a.cpu_ns, ==, -1);
  g_assert_cmpint (f->a.runnable_ns, ==, -1);
  g_assert_cmpint (f->a.ping_latency_ns, ==, -1);
  g_assert_null (f->a.klass);
  g_assert_null (f->a.culprit);
  g_assert_cmpuint (f->a.stacks->len, ==, 0);
  g_assert_cmpuint (f->a.timeline->len, ==, 0);
}

/* One stall [0, 100] ms, event [0, 100], 100 ms blocked.
 *
 * CPU clock: 72 ms of CPU over 80 ms between the first and last readings
 * (0.9), 4 ms runnable (0.05): cpu 90 ms, runnable 5 ms, (90 + 5) / 100 =
 * 0.95 >= 0.7: compute.
 *
 * Samples (time each speaks for: halfway to its neighbours, the first back
 * to the stall's start, the last up to its end):
 *   20 ms      running, stack A  [0, 30]   30 ms
 *   40..60 ms  running, stack A  [30, 70]  40 ms, 3 folded
 *   80 ms      running, stack B  [70, 100] 30 ms
 * A = app_leaf <- app_caller <- GLib: 4 samples, 70 ms, blamed on app_leaf
 * (app code). B = json-glib <- GLib: 1 sample, 30 ms, blamed on json-glib
 * (a library). Culprit app_leaf, 70 ms; confidence 70/100 * 5/6. */
static void
test_compute_from_cpu_clock (Fixture *f, gconstpointer data)
{
  const Stack a = { 3, { addr_app_leaf, addr_app_caller, addr_glib } };
  const Stack b = { 2, { addr_json, addr_glib } };
  JsStallHeader *h = stall (f, 1, 0, 100);

  h->cpu_first_ns = 0;
  h->cpu_first_at_ns = 16 * MS;
  h->cpu_last_ns = 72 * MS;
  h->cpu_last_at_ns = 96 * MS;
  h->runnable_first_ns = 10 * MS;
  h->runnable_last_ns = 14 * MS;
  h->tier_at_ns[0] = 50 * MS;
  h->ping_latency_ns = 3 * MS;
  h->ping_caught = TRUE;
  sample (f, 1, 20, 20, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a);
  sample (f, 1, 40, 60, 3, JS_THREAD_RUNNING, JS_WAIT_NONE, &a);
  sample (f, 1, 80, 80, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &b);
  analyze (f, 0, 100, 100, (const guint32[]) { 1, 0 });

  g_assert_cmpuint (f->a.n_stalls, ==, 1);
  g_assert_cmpint (f->a.watched_ns, ==, 100 * MS);
  g_assert_cmpint (f->a.sampled_ns, ==, 84 * MS);
  g_assert_cmpint (f->a.cpu_ns, ==, 90 * MS);
  g_assert_cmpint (f->a.runnable_ns, ==, 5 * MS);
  g_assert_cmpstr (f->a.klass, ==, "compute");
  g_assert_cmpint (f->a.wait, ==, JS_WAIT_NONE);
  g_assert_cmpuint (f->a.samples, ==, 5);
  g_assert_cmpuint (f->a.samples_with_stack, ==, 5);
  g_assert_cmpuint (f->a.samples_running, ==, 5);
  g_assert_cmpuint (f->a.samples_waiting, ==, 0);
  g_assert_cmpint (f->a.attributed_ns, ==, 100 * MS);
  g_assert_cmpuint (f->a.timeline->len, ==, 3);

  g_assert_cmpuint (f->a.stacks->len, ==, 2);
  g_assert_cmpstr (stack_leaf (f, 0), ==, "app_leaf");
  g_assert_cmpuint (stack_count (f, 0)->count, ==, 4);
  g_assert_cmpint (stack_count (f, 0)->time_ns, ==, 70 * MS);
  g_assert_cmpint (stack_count (f, 0)->last_ns, ==, 60 * MS);
  g_assert_cmpstr (stack_leaf (f, 1), ==, "json_node_get_type");
  g_assert_cmpuint (stack_count (f, 1)->count, ==, 1);
  g_assert_cmpint (stack_count (f, 1)->time_ns, ==, 30 * MS);

  g_assert_nonnull (f->a.culprit);
  g_assert_cmpstr (f->a.culprit->function, ==, "app_leaf");
  g_assert_cmpstr (f->a.culprit_reason, ==, "app-code");
  g_assert_cmpuint (f->a.culprit_samples, ==, 4);
  g_assert_cmpint (f->a.culprit_ns, ==, 70 * MS);
  g_assert_cmpfloat_with_epsilon (f->a.confidence, 0.7 * 5.0 / 6.0, 1e-9);

  g_assert_cmpint (f->a.tier_at_ns[0], ==, 50 * MS);
  g_assert_cmpint (f->a.ping_latency_ns, ==, 3 * MS);
  g_assert_true (f->a.ping_caught);
  g_assert_cmpint (f->a.detected_ns, ==, 16 * MS);
}

/* Event [100, 300] ms, 150 ms blocked, two stalls.
 *
 * X [50, 200] (longest, 150 ms), no CPU clock: clipped to [100, 200], 100 ms.
 *   60 ms       waiting (poll), stack C   outside the event: skipped, but
 *                                          still the next one's neighbour
 *   120 ms      waiting (lock), stack D   [90, 140] -> [100, 140]  40 ms
 *   160..180 ms waiting (lock), stack D   [140, 185]               45 ms, 2 folded
 *   190 ms      running, no stack         [185, 200]               not attributed
 *   1 running of 4: cpu 25 ms.
 * Y [250, ongoing, last seen 350] (100 ms): clipped to [250, 300], 50 ms; its
 * CPU readings span under 2 ms, so the samples decide: none running, cpu 0.
 *   270 ms      waiting (io), stack E     [250, 295]               45 ms
 *   320 ms      waiting (io), stack E     outside the event: skipped
 * cpu 25 / 150 <= 0.3: wait; lock (3 samples) beats io (1). Sampled: X from
 * 100 (detected at 66), Y from its detection at 266: 100 + 34 ms.
 * D = libc poll <- app_caller: blamed on app_caller (the innermost app
 * frame), 85 ms; E = GLib alone: blamed on its leaf, 45 ms. Confidence
 * 85/150 * 4/5. */
static void
test_wait_two_stalls_clipped (Fixture *f, gconstpointer data)
{
  const Stack c = { 2, { addr_libc, addr_glib } };
  const Stack d = { 2, { addr_libc, addr_app_caller } };
  const Stack e = { 1, { addr_glib } };
  JsStallHeader *x = stall (f, 1, 50, 200);
  JsStallHeader *y;

  x->tier_at_ns[1] = 150 * MS;
  x->ping_latency_ns = 1 * MS;
  y = stall (f, 2, 250, 0);
  y->last_seen_ns = 350 * MS;
  y->cpu_first_ns = 0;
  y->cpu_first_at_ns = 260 * MS;
  y->cpu_last_ns = 1 * MS;
  y->cpu_last_at_ns = 261 * MS;
  y->ping_latency_ns = 9 * MS;
  sample (f, 1, 60, 60, 1, JS_THREAD_WAITING, JS_WAIT_POLL, &c);
  sample (f, 1, 120, 120, 1, JS_THREAD_WAITING, JS_WAIT_LOCK, &d);
  sample (f, 1, 160, 180, 2, JS_THREAD_WAITING, JS_WAIT_LOCK, &d);
  sample (f, 1, 190, 190, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, NULL);
  sample (f, 2, 270, 270, 1, JS_THREAD_WAITING, JS_WAIT_IO, &e);
  sample (f, 2, 320, 320, 1, JS_THREAD_WAITING, JS_WAIT_IO, &e);
  analyze (f, 100, 300, 150, (const guint32[]) { 1, 2, 0 });

  g_assert_cmpuint (f->a.n_stalls, ==, 2);
  g_assert_cmpint (f->a.watched_ns, ==, 150 * MS);
  g_assert_cmpint (f->a.sampled_ns, ==, 134 * MS);
  g_assert_cmpint (f->a.cpu_ns, ==, 25 * MS);
  g_assert_cmpint (f->a.runnable_ns, ==, -1);
  g_assert_cmpstr (f->a.klass, ==, "wait");
  g_assert_cmpint (f->a.wait, ==, JS_WAIT_LOCK);
  g_assert_cmpuint (f->a.samples, ==, 5);
  g_assert_cmpuint (f->a.samples_with_stack, ==, 4);
  g_assert_cmpuint (f->a.samples_running, ==, 1);
  g_assert_cmpuint (f->a.samples_waiting, ==, 4);
  g_assert_cmpint (f->a.attributed_ns, ==, 130 * MS);
  g_assert_cmpuint (f->a.timeline->len, ==, 4);
  g_assert_cmpint (g_array_index (f->a.timeline, JsStallSampleInfo, 0).time_ns, ==, 120 * MS);
  g_assert_cmpint (g_array_index (f->a.timeline, JsStallSampleInfo, 3).time_ns, ==, 270 * MS);

  g_assert_cmpuint (f->a.stacks->len, ==, 2);
  g_assert_true (g_str_has_suffix (stack_leaf (f, 0), "poll")); /* glibc: __poll */
  g_assert_cmpuint (stack_count (f, 0)->count, ==, 3);
  g_assert_cmpint (stack_count (f, 0)->time_ns, ==, 85 * MS);
  g_assert_cmpint (stack_count (f, 0)->last_ns, ==, 180 * MS);
  g_assert_cmpstr (stack_leaf (f, 1), ==, "g_main_context_iteration");
  g_assert_cmpint (stack_count (f, 1)->time_ns, ==, 45 * MS);

  g_assert_cmpstr (f->a.culprit->function, ==, "app_caller");
  g_assert_cmpstr (f->a.culprit_reason, ==, "app-code");
  g_assert_cmpuint (f->a.culprit_samples, ==, 3);
  g_assert_cmpint (f->a.culprit_ns, ==, 85 * MS);
  g_assert_cmpfloat_with_epsilon (f->a.confidence, 85.0 / 150.0 * 4.0 / 5.0, 1e-9);

  /* The longest stall's (X's) watchdog members. */
  g_assert_cmpint (f->a.tier_at_ns[1], ==, 150 * MS);
  g_assert_cmpint (f->a.ping_latency_ns, ==, 1 * MS);
  g_assert_false (f->a.ping_caught);
  g_assert_cmpint (f->a.detected_ns, ==, 66 * MS);
}

/* One stall [0, 100]: 25 ms running on stack A, 75 ms sleeping on stack B,
 * each 50 ms: mixed (0.5), sleep. A tie between the two blamed frames goes
 * to the one sampled last (B's json-glib frame: a library); equal stacks are
 * ranked by their id (A first). Confidence 50/100 * 2/3. */
static void
test_mixed_tie_goes_to_last (Fixture *f, gconstpointer data)
{
  const Stack a = { 2, { addr_app_leaf, addr_glib } };
  const Stack b = { 2, { addr_json, addr_libc } };

  stall (f, 1, 0, 100);
  sample (f, 1, 25, 25, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a);
  sample (f, 1, 75, 75, 1, JS_THREAD_WAITING, JS_WAIT_SLEEP, &b);
  analyze (f, 0, 100, 100, (const guint32[]) { 1, 0 });

  g_assert_cmpint (f->a.cpu_ns, ==, 50 * MS);
  g_assert_cmpstr (f->a.klass, ==, "mixed");
  g_assert_cmpint (f->a.wait, ==, JS_WAIT_SLEEP);
  g_assert_cmpuint (f->a.stacks->len, ==, 2);
  g_assert_cmpstr (stack_leaf (f, 0), ==, "app_leaf");
  g_assert_cmpstr (stack_leaf (f, 1), ==, "json_node_get_type");
  g_assert_cmpstr (f->a.culprit->function, ==, "json_node_get_type");
  g_assert_cmpstr (f->a.culprit_reason, ==, "library");
  g_assert_cmpint (f->a.culprit_ns, ==, 50 * MS);
  g_assert_cmpfloat_with_epsilon (f->a.confidence, 0.5 * 2.0 / 3.0, 1e-9);
}

/* Two different stacks blamed on the same frame add up: app_leaf <- GLib
 * (1 sample, 30 ms) and app_leaf <- app_caller (3, 40 ms) make one culprit
 * of 4 samples and 70 ms; the stacks stay apart. Nothing of the app or a
 * library on the stack: the leaf. */
static void
test_blame_adds_up (Fixture *f, gconstpointer data)
{
  const Stack a1 = { 2, { addr_app_leaf, addr_glib } };
  const Stack a2 = { 2, { addr_app_leaf, addr_app_caller } };
  const Stack b = { 1, { addr_json } };
  const Stack leaf = { 2, { addr_libc, addr_glib } };

  stall (f, 1, 0, 100);
  sample (f, 1, 20, 20, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &a1);
  sample (f, 1, 40, 60, 3, JS_THREAD_RUNNING, JS_WAIT_NONE, &a2);
  sample (f, 1, 80, 80, 1, JS_THREAD_RUNNING, JS_WAIT_NONE, &b);
  stall (f, 2, 200, 300);
  sample (f, 2, 250, 250, 1, JS_THREAD_WAITING, JS_WAIT_POLL, &leaf);
  analyze (f, 0, 100, 100, (const guint32[]) { 1, 0 });

  g_assert_cmpuint (f->a.stacks->len, ==, 3);
  g_assert_cmpint (stack_count (f, 0)->time_ns, ==, 40 * MS);
  g_assert_cmpstr (f->a.culprit->function, ==, "app_leaf");
  g_assert_cmpuint (f->a.culprit_samples, ==, 4);
  g_assert_cmpint (f->a.culprit_ns, ==, 70 * MS);

  js_stall_analysis_clear (&f->a);
  analyze (f, 200, 300, 100, (const guint32[]) { 2, 0 });
  g_assert_true (g_str_has_suffix (f->a.culprit->function, "poll"));
  g_assert_cmpstr (f->a.culprit_reason, ==, "leaf");
  g_assert_cmpstr (f->a.klass, ==, "wait");
  g_assert_cmpint (f->a.wait, ==, JS_WAIT_POLL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/StallAnalysis/no-stalls", test_no_stalls);
  ADD ("/StallAnalysis/compute-from-cpu-clock", test_compute_from_cpu_clock);
  ADD ("/StallAnalysis/wait-two-stalls-clipped", test_wait_two_stalls_clipped);
  ADD ("/StallAnalysis/mixed-tie-goes-to-last", test_mixed_tie_goes_to_last);
  ADD ("/StallAnalysis/blame-adds-up", test_blame_adds_up);
#undef ADD
  return g_test_run ();
}
