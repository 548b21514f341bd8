/* dispatch-overhead.c: what one GSource dispatch and one main-loop iteration
 * cost in a plain GMainLoop, each dispatch doing ~1 µs of calibrated work.
 *
 * Run it with and without the jankscope preload (run-dispatch-bench.py does
 * that, alternating) and subtract: the difference is what the hooks add.
 * It never judges the numbers, it only prints them.
 *
 * Modes:
 *   oneshot  every dispatch adds a new g_idle_add() source and removes
 *            itself: the hook sees a new source each time;
 *   repeat   one g_idle_add() source that returns G_SOURCE_CONTINUE: the
 *            hook sees the same source again;
 *   batch    --batch repeating idles at one priority: one iteration
 *            dispatches all of them, which separates per-iteration cost
 *            from per-dispatch cost;
 *   attach   one repeating idle, as in repeat, whose every dispatch also
 *            adds an idle with g_idle_add () and removes it at once: attach
 *            minus repeat is what one attach (and its removal) costs, the
 *            preload's stand-in and the posting site included.
 *
 * --gdk-threads: the idles are GDK 3's gdk_threads_add_idle () ones
 * (libgdk-3 dlopened before the loop, no display needed), whose dispatch
 * goes through GDK's wrapper: jankscope looks through it to the callback
 * (js-gdk-threads.c). Without --gdk-threads a GLib program pays the
 * look-through's compare only.
 *
 * --idle-thread: a second thread, started before the loop, that sleeps on a
 * condition variable until the end.  Once a process has a second thread,
 * glibc takes its multi-threaded paths (poll a cancellation point, malloc's
 * arena locks and atomics) and stays on them: every GTK app pays that
 * already (GDBus's and GIO's worker threads), while this benchmark alone is
 * single-threaded until jankscope starts its own threads.  With the option,
 * "without jankscope" pays it too, so the difference is jankscope's alone.
 *
 * The timing starts after --warmup dispatches (50000): jankscope starts at
 * the loop's first use, and that, like its first touch of its buffers, is
 * paid once per process, not per dispatch (in a run of 200000 dispatches it
 * read as +90 ns each, median of 8 paired runs).
 *
 * --interleave=N: both sides in one process.  The same mode runs on two
 * contexts, the default one (the one jankscope watches) and a private one
 * (whose polls and dispatches jankscope's hooks only forward), in
 * alternating blocks of N iterations (g_main_context_iteration () on each,
 * the order swapped every pair), and the output is each block pair's
 * difference: default minus private.  Machine swings of a second or more
 * (another guest on the host, a frequency change) then fall on both blocks
 * of a pair alike, which separate processes run seconds apart cannot do.
 * Without jankscope that difference is the two contexts' own (ideally 0);
 * with it, that plus what watching costs: run-dispatch-bench.py
 * --interleave subtracts one from the other.  What is not in it: the
 * forwarding both contexts pay with the preload (its stand-ins and the
 * hooks' first compare), which the separate runs measure.  Blocks must stay
 * well under jankscope's stall threshold (16 ms): a block of the private
 * context is one long busy span to the default context's poll function.
 *
 * The last line of the output is machine-readable ("RESULT key=value ...").
 */
#include <dlfcn.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

typedef enum
{
  MODE_ONESHOT,
  MODE_REPEAT,
  MODE_BATCH,
  MODE_ATTACH,
} Mode;

static const char *const mode_names[] = { "oneshot", "repeat", "batch", "attach" };

typedef struct
{
  Mode mode;
  guint64 spins; /* busy-loop rounds per dispatch */
  gint64 target; /* dispatches to run, the warm-up's included */
  gint64 dispatches;
  gint64 iterations;
  GMainLoop *loop;
  GMainContext *context; /* where its idles go: NULL (the default one) or a private one */
  gboolean interleaved;  /* --interleave: idles attached with g_source_attach, no loop to quit */
  /* Timing starts after this many dispatches (start_timing): where
   * jankscope starts (at the loop's first use) and first touches its
   * buffers, costs paid once per process and not per dispatch. */
  gint64 warmup;
  gint64 timed_from_dispatches, timed_from_iterations;
  gint64 t0, main_cpu0;
  struct rusage ru0;
} Bench;

/* A source that is never ready: GLib prepares it once per iteration, so its
 * prepare() counts iterations.  Its priority is higher than the idles' so
 * the "skip lower priorities once something is ready" rule never skips it. */
typedef struct
{
  GSource source;
  Bench *bench;
} CounterSource;

static volatile guint64 sink;

static GMutex idle_mutex;
static GCond idle_cond;
static gboolean idle_done;

static gpointer
idle_thread (gpointer data)
{
  g_mutex_lock (&idle_mutex);
  while (!idle_done)
    g_cond_wait (&idle_cond, &idle_mutex);
  g_mutex_unlock (&idle_mutex);
  return NULL;
}

static void
stop_idle_thread (GThread *idler)
{
  if (idler == NULL)
    return;
  g_mutex_lock (&idle_mutex);
  idle_done = TRUE;
  g_cond_signal (&idle_cond);
  g_mutex_unlock (&idle_mutex);
  g_thread_join (idler);
}

static void
spin (guint64 rounds)
{
  guint64 x = sink;

  /* A chain of dependent multiply-adds: its speed depends on the core only,
   * not on store forwarding or memory renaming (a loop of volatile
   * read-modify-writes ran twice as slow in one mode as in another).  The
   * empty asm keeps the compiler from folding the loop. */
  for (guint64 i = 0; i < rounds; i++)
    {
      x = x * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
      __asm__ volatile("" : "+r"(x));
    }
  sink = x;
}

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* The calling thread's CPU time: the main thread's alone, which is what the
 * app's latency pays (getrusage's RUSAGE_SELF adds jankscope's threads). */
static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static double
cpu_seconds (const struct rusage *ru, gboolean user)
{
  const struct timeval *tv = user ? &ru->ru_utime : &ru->ru_stime;

  return tv->tv_sec + tv->tv_usec / 1e6;
}

/* Busy-loop rounds that take about @work_ns; the best of several tries, so
 * a preemption during calibration does not shrink the work. */
static guint64
calibrate (guint64 work_ns)
{
  const guint64 rounds = 2000000;
  gint64 best = G_MAXINT64;

  spin (rounds); /* warm up */
  for (int i = 0; i < 7; i++)
    {
      gint64 t0 = now_ns ();

      spin (rounds);
      best = MIN (best, now_ns () - t0);
    }
  return MAX (1, (guint64) ((double) work_ns * rounds / MAX (best, 1)));
}

/* What the work alone costs per dispatch now: measured around the main loop
 * in the same process, it lets the report subtract the work and cancels part
 * of the machine's speed drift between runs. */
static double
measure_work_ns (guint64 spins)
{
  const int reps = 20000;
  gint64 t0 = now_ns ();

  for (int i = 0; i < reps; i++)
    spin (spins);
  return (double) (now_ns () - t0) / reps;
}

static gboolean
counter_prepare (GSource *source, gint *timeout)
{
  ((CounterSource *) source)->bench->iterations++;
  *timeout = -1;
  return FALSE;
}

static gboolean
counter_check (GSource *source)
{
  return FALSE;
}

static gboolean
counter_dispatch (GSource *source, GSourceFunc callback, gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs counter_funcs = {
  counter_prepare, counter_check, counter_dispatch, NULL, NULL, NULL,
};

/* g_idle_add, or GDK 3's gdk_threads_add_idle (--gdk-threads). */
static guint (*add_idle) (GSourceFunc function, gpointer data) = g_idle_add;

/* --interleave: the same attach on both contexts (g_idle_add's own steps),
 * so that the two differ by the context only. */
static guint
bench_add_idle (Bench *b, GSourceFunc function)
{
  GSource *source;
  guint id;

  if (!b->interleaved)
    return add_idle (function, b);
  source = g_idle_source_new ();
  g_source_set_callback (source, function, b, NULL);
  id = g_source_attach (source, b->context);
  g_source_unref (source);
  return id;
}

static void
start_timing (Bench *b)
{
  b->timed_from_dispatches = b->dispatches;
  b->timed_from_iterations = b->iterations;
  getrusage (RUSAGE_SELF, &b->ru0);
  b->main_cpu0 = thread_cpu_ns ();
  b->t0 = now_ns ();
}

/* Returns TRUE when the target is reached (and quits the loop). */
static gboolean
do_work (Bench *b)
{
  spin (b->spins);
  b->dispatches++;
  if (b->interleaved)
    return FALSE; /* the caller counts and stops */
  if (b->dispatches == b->warmup)
    start_timing (b);
  if (b->dispatches < b->target)
    return FALSE;
  g_main_loop_quit (b->loop);
  return TRUE;
}

static gboolean
on_oneshot (gpointer data)
{
  Bench *b = data;

  if (!do_work (b))
    bench_add_idle (b, on_oneshot);
  return G_SOURCE_REMOVE;
}

static gboolean
on_repeat (gpointer data)
{
  return do_work (data) ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static gboolean
on_never (gpointer data)
{
  return G_SOURCE_REMOVE;
}

static gboolean
on_attach (gpointer data)
{
  Bench *b = data;

  if (b->interleaved)
    g_source_destroy (g_main_context_find_source_by_id (b->context, bench_add_idle (b, on_never)));
  else
    g_source_remove (add_idle (on_never, data));
  return do_work (data) ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static gboolean
on_batch (gpointer data)
{
  Bench *b = data;

  /* Once the target is reached every batch member removes itself; the
   * members left in the last iteration still run once (counted). */
  if (!b->interleaved && b->dispatches >= b->target)
    return G_SOURCE_REMOVE;
  return do_work (b) ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

/* The mode's first idles, on the bench's context. */
static void
add_first_idles (Bench *b, int batch)
{
  switch (b->mode)
    {
    case MODE_ONESHOT:
      bench_add_idle (b, on_oneshot);
      break;
    case MODE_REPEAT:
      bench_add_idle (b, on_repeat);
      break;
    case MODE_BATCH:
      for (int i = 0; i < batch; i++)
        bench_add_idle (b, on_batch);
      break;
    case MODE_ATTACH:
      bench_add_idle (b, on_attach);
      break;
    }
}

/* One block: `n` iterations of `b`'s context; its wall time per iteration. */
static double
run_block (Bench *b, gint64 n)
{
  gint64 t0 = now_ns ();

  for (gint64 i = 0; i < n; i++)
    g_main_context_iteration (b->context, TRUE);
  return (double) (now_ns () - t0) / n;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The value below which a fraction q of the sorted `v` lies (linear). */
static double
quantile (const double *v, gsize n, double q)
{
  double pos = q * (double) (n - 1);
  gsize i = (gsize) pos;

  return i + 1 < n ? v[i] + (pos - (double) i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* --interleave: blocks of `block` iterations on the default context and on
 * a private one, alternating, `pairs` pairs after `warmup_pairs` untimed
 * ones; prints both sides and their paired difference. */
static void
run_interleaved (Mode mode, guint64 spins, int batch, gint64 block, gint64 pairs,
                 gint64 warmup_pairs, gboolean idle_thread)
{
  Bench watched = { mode }, other = { mode };
  double *on = g_new (double, pairs), *off = g_new (double, pairs), *diff = g_new (double, pairs);
  double sum = 0, sq = 0, mean, se, on_median, off_median, q1, median, q3;
  gint64 dispatches;

  watched.spins = other.spins = spins;
  watched.interleaved = other.interleaved = TRUE;
  watched.context = NULL;
  other.context = g_main_context_new ();
  add_first_idles (&watched, batch);
  add_first_idles (&other, batch);

  for (gint64 i = -warmup_pairs; i < pairs; i++)
    {
      double a, b;

      /* Swapped every pair: neither side always runs just after the other. */
      if (i % 2 == 0)
        {
          a = run_block (&watched, block);
          b = run_block (&other, block);
        }
      else
        {
          b = run_block (&other, block);
          a = run_block (&watched, block);
        }
      if (i < 0)
        continue;
      on[i] = a;
      off[i] = b;
      diff[i] = a - b;
      sum += diff[i];
      sq += diff[i] * diff[i];
    }
  mean = sum / pairs;
  se = pairs > 1 ? sqrt (MAX (0, (sq - sum * mean) / (pairs - 1)) / pairs) : 0;
  qsort (on, pairs, sizeof (double), compare_doubles);
  qsort (off, pairs, sizeof (double), compare_doubles);
  qsort (diff, pairs, sizeof (double), compare_doubles);
  on_median = quantile (on, pairs, 0.5);
  off_median = quantile (off, pairs, 0.5);
  q1 = quantile (diff, pairs, 0.25);
  median = quantile (diff, pairs, 0.5);
  q3 = quantile (diff, pairs, 0.75);
  dispatches = watched.dispatches;

  printf ("mode              %s, interleaved: %" G_GINT64_FORMAT
          " pairs of blocks of %" G_GINT64_FORMAT " iterations\n",
          mode_names[mode], pairs, block);
  printf ("default context   %.1f ns per iteration (median of blocks)\n", on_median);
  printf ("private context   %.1f ns per iteration\n", off_median);
  printf (
      "paired            %+.1f ns (middle half %+.1f .. %+.1f; mean %+.1f, standard error %.1f)\n",
      median, q1, q3, mean, se);
  printf ("RESULT interleave=%" G_GINT64_FORMAT " pairs=%" G_GINT64_FORMAT
          " idle_thread=%d mode=%s dispatches=%" G_GINT64_FORMAT " spins=%" G_GUINT64_FORMAT
          " default_ns=%.2f private_ns=%.2f paired_ns=%.2f paired_q1=%.2f paired_q3=%.2f"
          " paired_mean=%.2f paired_se=%.2f\n",
          block, pairs, idle_thread, mode_names[mode], dispatches, spins, on_median, off_median,
          median, q1, q3, mean, se);

  g_main_context_unref (other.context);
  g_free (on);
  g_free (off);
  g_free (diff);
}

static gboolean
parse_mode (const char *s, Mode *mode)
{
  for (guint i = 0; i < G_N_ELEMENTS (mode_names); i++)
    if (g_strcmp0 (s, mode_names[i]) == 0)
      {
        *mode = (Mode) i;
        return TRUE;
      }
  return FALSE;
}

int
main (int argc, char **argv)
{
  char *mode_arg = NULL;
  gint64 count = 1000000;
  gint64 warmup = 50000;
  gint64 spins_arg = 0;
  gint work_ns = 1000;
  gint batch = 10;
  gboolean calibrate_only = FALSE;
  gboolean gdk_threads = FALSE;
  gboolean with_idle_thread = FALSE;
  gint64 interleave = 0;
  GThread *idler = NULL;
  GOptionEntry entries[] = {
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode_arg, "oneshot, repeat, batch or attach", "MODE" },
    { "count", 'n', 0, G_OPTION_ARG_INT64, &count, "Dispatches to time (1000000)", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT64, &warmup,
      "Dispatches run before the timing starts (50000)", "N" },
    { "work-ns", 'w', 0, G_OPTION_ARG_INT, &work_ns, "Work per dispatch in ns (1000)", "NS" },
    { "spins", 's', 0, G_OPTION_ARG_INT64, &spins_arg,
      "Busy-loop rounds per dispatch (default: calibrate for --work-ns)", "N" },
    { "batch", 'b', 0, G_OPTION_ARG_INT, &batch, "Idles per iteration in batch mode (10)", "N" },
    { "calibrate", 0, 0, G_OPTION_ARG_NONE, &calibrate_only,
      "Print the rounds for --work-ns and exit", NULL },
    { "gdk-threads", 0, 0, G_OPTION_ARG_NONE, &gdk_threads,
      "Idles added with GDK 3's gdk_threads_add_idle ()", NULL },
    { "idle-thread", 0, 0, G_OPTION_ARG_NONE, &with_idle_thread,
      "A second thread that sleeps until the end, as GTK apps have", NULL },
    { "interleave", 0, 0, G_OPTION_ARG_INT64, &interleave,
      "Both contexts in one process, in alternating blocks of N iterations", "N" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- GSource dispatch overhead");
  g_autoptr (GError) error = NULL;
  Bench b = { MODE_REPEAT };
  struct rusage ru0, ru1;
  gint64 t0, t1, wall_ns, main_cpu_ns;
  GSource *counter;
  double user_s, sys_s, work_ns_measured, per_dispatch;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "dispatch-overhead: %s\n", error->message);
      return 2;
    }
  if (mode_arg && !parse_mode (mode_arg, &b.mode))
    {
      fprintf (stderr, "dispatch-overhead: unknown mode \"%s\"\n", mode_arg);
      return 2;
    }
  if (count < 1 || warmup < 0 || warmup > G_MAXINT64 / 2 || count > G_MAXINT64 / 2 || work_ns < 0
      || spins_arg < 0 || batch < 1 || batch > 10000 || interleave < 0
      || (interleave > 0 && (count / interleave < 2 || count / interleave > 10000000)))
    {
      fprintf (
          stderr,
          "dispatch-overhead: --count, --warmup, --work-ns, --spins, --batch or --interleave out "
          "of range\n");
      return 2;
    }

  b.spins = spins_arg > 0 ? (guint64) spins_arg : calibrate ((guint64) work_ns);
  if (calibrate_only)
    {
      printf ("%" G_GUINT64_FORMAT "\n", b.spins);
      return 0;
    }
  if (gdk_threads)
    {
      /* Before the first main-loop use, where jankscope starts and learns
       * GDK's wrapper. */
      void *gdk = dlopen ("libgdk-3.so.0", RTLD_NOW | RTLD_GLOBAL);

      add_idle
          = gdk ? (guint (*) (GSourceFunc, gpointer)) dlsym (gdk, "gdk_threads_add_idle") : NULL;
      if (add_idle == NULL)
        {
          fprintf (stderr, "dispatch-overhead: --gdk-threads needs libgdk-3.so.0\n");
          return 2;
        }
    }
  if (with_idle_thread)
    idler = g_thread_new ("bench-idle", idle_thread, NULL);
  if (interleave > 0)
    {
      run_interleaved (b.mode, b.spins, batch, interleave, count / interleave,
                       (warmup + interleave - 1) / interleave, with_idle_thread);
      stop_idle_thread (idler);
      g_free (mode_arg);
      return 0;
    }
  b.warmup = warmup;
  b.target = warmup + count;
  b.loop = g_main_loop_new (NULL, FALSE);

  counter = g_source_new (&counter_funcs, sizeof (CounterSource));
  ((CounterSource *) counter)->bench = &b;
  g_source_set_priority (counter, G_PRIORITY_HIGH);
  g_source_set_name (counter, "[bench] iteration counter");
  g_source_attach (counter, NULL);

  add_first_idles (&b, batch);

  work_ns_measured = measure_work_ns (b.spins);
  if (warmup == 0)
    start_timing (&b);
  g_main_loop_run (b.loop);
  t1 = now_ns ();
  main_cpu_ns = thread_cpu_ns () - b.main_cpu0;
  getrusage (RUSAGE_SELF, &ru1);
  t0 = b.t0;
  ru0 = b.ru0;
  b.dispatches -= b.timed_from_dispatches;
  b.iterations -= b.timed_from_iterations;
  work_ns_measured = (work_ns_measured + measure_work_ns (b.spins)) / 2;

  g_source_destroy (counter);
  g_source_unref (counter);
  /* Leftover batch members remove themselves on their next dispatch. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_main_loop_unref (b.loop);
  stop_idle_thread (idler);

  wall_ns = t1 - t0;
  user_s = cpu_seconds (&ru1, TRUE) - cpu_seconds (&ru0, TRUE);
  sys_s = cpu_seconds (&ru1, FALSE) - cpu_seconds (&ru0, FALSE);

  per_dispatch = (double) wall_ns / MAX (b.dispatches, 1);
  printf ("mode              %s\n", mode_names[b.mode]);
  printf ("dispatches        %" G_GINT64_FORMAT "\n", b.dispatches);
  printf ("iterations        %" G_GINT64_FORMAT "\n", b.iterations);
  printf ("work rounds       %" G_GUINT64_FORMAT " per dispatch (%.1f ns measured)\n", b.spins,
          work_ns_measured);
  printf ("wall              %.3f s\n", wall_ns / 1e9);
  printf ("per dispatch      %.1f ns (%.1f ns without the work)\n", per_dispatch,
          per_dispatch - work_ns_measured);
  printf ("per iteration     %.1f ns\n", (double) wall_ns / MAX (b.iterations, 1));
  printf ("cpu user+sys      %.3f s (user %.3f, sys %.3f)\n", user_s + sys_s, user_s, sys_s);
  printf ("main thread cpu   %.3f s\n", main_cpu_ns / 1e9);
  printf ("RESULT gdk_threads=%d idle_thread=%d mode=%s dispatches=%" G_GINT64_FORMAT
          " iterations=%" G_GINT64_FORMAT " spins=%" G_GUINT64_FORMAT
          " work_ns=%.2f wall_ns=%" G_GINT64_FORMAT
          " ns_per_dispatch=%.2f ns_per_iteration=%.2f cpu_user_s=%.4f cpu_sys_s=%.4f"
          " main_cpu_ns=%" G_GINT64_FORMAT "\n",
          gdk_threads, with_idle_thread, mode_names[b.mode], b.dispatches, b.iterations, b.spins,
          work_ns_measured, wall_ns, per_dispatch, (double) wall_ns / MAX (b.iterations, 1), user_s,
          sys_s, main_cpu_ns);

  g_free (mode_arg);
  return 0;
}
