/* frame-probe.c: a minimal, independent frame-interval probe for GTK apps,
 * loaded with LD_PRELOAD.  gtk-frames.sh loads it on both sides (without and
 * with jankscope), so its own small cost cancels out.
 *
 *   FRAME_PROBE_OUT=/tmp/f.txt LD_PRELOAD=build/bench/libframe-probe.so gtk4-widget-factory
 *
 * It links GLib/GObject only and never touches the app's main context: a
 * thread of its own checks every 100 ms whether GTK has initialized the
 * GdkFrameClock class (g_type_class_peek, never initializing it itself) and
 * then adds an emission hook on "after-paint".  The hook (main thread) stores
 * g_get_monotonic_time () per clock and appends the interval since that
 * clock's previous after-paint to a preallocated array.  The thread writes
 * the statistics to $FRAME_PROBE_OUT (a temporary file, then rename) every
 * second once hooked (a process without frame clocks, such as a helper the
 * app spawns, never writes), because the benchmark stops the apps with
 * SIGTERM, and once more at exit() if the app exits normally.
 *
 * Settings:
 *   FRAME_PROBE_OUT        file to write (unset: the probe does nothing)
 *   FRAME_PROBE_WARMUP_MS  ignore frames that end earlier than this after
 *                          the probe was loaded (default 0)
 *   FRAME_PROBE_FISHBOWL_COUNT
 *                          in gtk4-demo's fishbowl: a fixed number of icons.
 *                          Left alone, the fishbowl adds icons while it
 *                          holds its frame rate and removes them when it
 *                          drops, so a slower side draws fewer icons and its
 *                          CPU time says nothing about the cost of what
 *                          watches it. At the first after-paint of a window
 *                          holding a GtkFishbowl, the hook (main thread)
 *                          sets the bowl's "benchmark" property FALSE (no
 *                          more changes: the demo's own toggle) and "count"
 *                          to this; `fishbowl_count` in the output is the
 *                          count read back then and every 64th frame since
 *                          (absent: no bowl found). The probe also seeds
 *                          GLib's global random numbers (g_random_set_seed)
 *                          as it loads, before the app's main: the demo
 *                          picks each icon (among the theme's, some far
 *                          dearer to draw than others) and its speeds from
 *                          them, so every run draws the same icons.
 *
 * Output, one "key value" per line: pid (the process that wrote it: the
 * driver checks it is the app's), frames (after-paint emissions seen),
 * intervals (counted, after the warm-up), p50_us p95_us p99_us max_us
 * mean_us, fps (intervals / time they cover), clocks, hooked_after_s,
 * fishbowl_count (above).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib-object.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_INTERVALS (1 << 18) /* ~73 min at 60 fps */
#define MAX_CLOCKS 16
#define FISHBOWL_SEED 20261206

static char *out_path;
static gint64 t_load_us;
static gint64 warmup_end_us;
static gint64 hooked_at_us;
static pid_t hooked_pid; /* the process that added the hook */

/* Written by the main thread (the hook) only; n_intervals is published with
 * release semantics after the slot is written. */
static gint32 intervals[MAX_INTERVALS];
static guint n_intervals;
static guint64 n_frames;
static gint64 first_counted_us, last_counted_us;
static gconstpointer clock_ptr[MAX_CLOCKS];
static gint64 clock_last_us[MAX_CLOCKS];
static guint n_clocks;
/* FRAME_PROBE_FISHBOWL_COUNT; the bowl (a weak pointer), its count read
 * back once set and every 64th frame since (-1: not yet). */
static guint fishbowl_count;
static gint fishbowl_fixed = -1;
static gboolean fishbowl_looked;
static gpointer fishbowl;

/* The writer's copy, under write_lock (thread and atexit may both write). */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static gint32 sorted[MAX_INTERVALS];

/* A GtkFishbowl in `widget`'s tree, depth first; GTK's functions found at
 * run time (the probe links GLib and GObject only). */
static GObject *
find_bowl (gpointer widget, GType bowl_type, gpointer (*first_child) (gpointer),
           gpointer (*next_sibling) (gpointer))
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, bowl_type))
    return widget;
  for (gpointer c = first_child (widget); c != NULL; c = next_sibling (c))
    {
      GObject *found = find_bowl (c, bowl_type, first_child, next_sibling);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Main thread (the hook): fix the fishbowl's count once it is there. */
static void
fix_fishbowl (void)
{
  GList *(*list_toplevels) (void)
      = (GList * (*) (void) ) dlsym (RTLD_DEFAULT, "gtk_window_list_toplevels");
  gpointer (*first_child) (gpointer)
      = (gpointer (*) (gpointer)) dlsym (RTLD_DEFAULT, "gtk_widget_get_first_child");
  gpointer (*next_sibling) (gpointer)
      = (gpointer (*) (gpointer)) dlsym (RTLD_DEFAULT, "gtk_widget_get_next_sibling");
  GType bowl_type = g_type_from_name ("GtkFishbowl");
  GObject *bowl = NULL;
  GList *toplevels;
  guint count = 0;

  if (bowl_type == 0 || list_toplevels == NULL || first_child == NULL || next_sibling == NULL)
    return;
  toplevels = list_toplevels ();
  for (GList *l = toplevels; l != NULL && bowl == NULL; l = l->next)
    bowl = find_bowl (l->data, bowl_type, first_child, next_sibling);
  g_list_free (toplevels);
  if (bowl == NULL)
    return;
  fishbowl_looked = TRUE;
  fishbowl = bowl;
  g_object_add_weak_pointer (bowl, &fishbowl);
  g_object_set (bowl, "benchmark", FALSE, "count", fishbowl_count, NULL);
  g_object_get (bowl, "count", &count, NULL);
  __atomic_store_n (&fishbowl_fixed, (gint) count, __ATOMIC_RELAXED);
}

/* Main thread: the count now (the demo's toggle could turn changes back on). */
static void
read_fishbowl (void)
{
  guint count = 0;

  g_object_get (fishbowl, "count", &count, NULL);
  __atomic_store_n (&fishbowl_fixed, (gint) count, __ATOMIC_RELAXED);
}

static gboolean
after_paint_hook (GSignalInvocationHint *hint, guint n_params, const GValue *params, gpointer data)
{
  gconstpointer clock;
  gint64 now = g_get_monotonic_time ();
  guint i, n;

  if (n_params < 1)
    return TRUE;
  clock = g_value_peek_pointer (&params[0]);
  __atomic_store_n (&n_frames, n_frames + 1, __ATOMIC_RELAXED);
  if (G_UNLIKELY (fishbowl_count != 0 && !fishbowl_looked))
    fix_fishbowl ();
  else if (G_UNLIKELY (fishbowl != NULL && n_frames % 64 == 0))
    read_fishbowl ();
  for (i = 0; i < n_clocks && clock_ptr[i] != clock; i++)
    ;
  if (i == n_clocks)
    {
      if (n_clocks == MAX_CLOCKS)
        return TRUE;
      clock_ptr[i] = clock;
      __atomic_store_n (&n_clocks, n_clocks + 1, __ATOMIC_RELAXED);
    }
  else if (now >= warmup_end_us && clock_last_us[i] != 0)
    {
      n = n_intervals;
      if (n < MAX_INTERVALS)
        {
          intervals[n] = (gint32) MIN (now - clock_last_us[i], G_MAXINT32);
          if (n == 0)
            first_counted_us = clock_last_us[i];
          last_counted_us = now;
          __atomic_store_n (&n_intervals, n + 1, __ATOMIC_RELEASE);
        }
    }
  clock_last_us[i] = now;
  return TRUE; /* stay installed */
}

static int
cmp_int32 (const void *a, const void *b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted[0..n-1]. */
static gint32
percentile (guint n, double p)
{
  guint rank = (guint) (p / 100.0 * n + 0.999999);

  if (n == 0)
    return 0;
  rank = CLAMP (rank, 1, n);
  return sorted[rank - 1];
}

static void
write_stats (void)
{
  guint n;
  double sum = 0, span_s;
  char *tmp;
  FILE *f;

  /* Only a process that has frame clocks writes: helpers the app spawns
   * inherit LD_PRELOAD and FRAME_PROBE_OUT but never get here, and a child
   * forked after the hook (it inherits the hook's state, and its exit () runs
   * at_exit) would replace the app's numbers with a stale copy. */
  if (__atomic_load_n (&hooked_at_us, __ATOMIC_RELAXED) == 0 || getpid () != hooked_pid)
    return;
  pthread_mutex_lock (&write_lock);
  n = __atomic_load_n (&n_intervals, __ATOMIC_ACQUIRE);
  memcpy (sorted, intervals, n * sizeof sorted[0]);
  span_s = n ? (last_counted_us - first_counted_us) / 1e6 : 0;
  qsort (sorted, n, sizeof sorted[0], cmp_int32);
  for (guint i = 0; i < n; i++)
    sum += sorted[i];

  tmp = g_strdup_printf ("%s.tmp.%d", out_path, (int) getpid ());
  f = fopen (tmp, "w");
  if (f != NULL)
    {
      fprintf (f, "pid %d\n", (int) hooked_pid);
      fprintf (f, "frames %" G_GUINT64_FORMAT "\n", __atomic_load_n (&n_frames, __ATOMIC_RELAXED));
      fprintf (f, "intervals %u\n", n);
      fprintf (f, "p50_us %d\np95_us %d\np99_us %d\nmax_us %d\n", percentile (n, 50),
               percentile (n, 95), percentile (n, 99), n ? sorted[n - 1] : 0);
      fprintf (f, "mean_us %.0f\n", n ? sum / n : 0.0);
      fprintf (f, "fps %.2f\n", span_s > 0 ? n / span_s : 0.0);
      fprintf (f, "clocks %u\n", __atomic_load_n (&n_clocks, __ATOMIC_RELAXED));
      fprintf (f, "hooked_after_s %.2f\n", hooked_at_us ? (hooked_at_us - t_load_us) / 1e6 : -1.0);
      if (__atomic_load_n (&fishbowl_fixed, __ATOMIC_RELAXED) >= 0)
        fprintf (f, "fishbowl_count %d\n", __atomic_load_n (&fishbowl_fixed, __ATOMIC_RELAXED));
      if (fclose (f) == 0)
        rename (tmp, out_path);
    }
  g_free (tmp);
  pthread_mutex_unlock (&write_lock);
}

static gpointer
probe_thread (gpointer unused)
{
  const struct timespec period = { 0, 100 * 1000 * 1000 };
  guint ticks = 0;

  for (;;)
    {
      nanosleep (&period, NULL);
      if (hooked_at_us == 0)
        {
          GType type = g_type_from_name ("GdkFrameClock");
          guint id;

          /* Hook only once GTK has initialized the class itself. */
          if (type != 0 && g_type_class_peek (type) != NULL
              && (id = g_signal_lookup ("after-paint", type)) != 0)
            {
              g_signal_add_emission_hook (id, 0, after_paint_hook, NULL, NULL);
              hooked_pid = getpid ();
              __atomic_store_n (&hooked_at_us, g_get_monotonic_time (), __ATOMIC_RELAXED);
            }
        }
      if (++ticks % 10 == 0)
        write_stats ();
    }
  return NULL;
}

static void
at_exit (void)
{
  write_stats ();
}

__attribute__ ((constructor)) static void
frame_probe_init (void)
{
  const char *out = getenv ("FRAME_PROBE_OUT");
  const char *warmup = getenv ("FRAME_PROBE_WARMUP_MS");
  const char *bowl = getenv ("FRAME_PROBE_FISHBOWL_COUNT");
  pthread_t thread;
  pthread_attr_t attr;

  if (out == NULL || *out == '\0')
    return;
  out_path = g_strdup (out);
  t_load_us = g_get_monotonic_time ();
  warmup_end_us = t_load_us + (warmup ? g_ascii_strtoll (warmup, NULL, 10) : 0) * 1000;
  if (bowl != NULL)
    fishbowl_count = (guint) CLAMP (g_ascii_strtoll (bowl, NULL, 10), 0, 100000);
  if (fishbowl_count != 0)
    g_random_set_seed (FISHBOWL_SEED);
  atexit (at_exit);
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  pthread_create (&thread, &attr, (void *(*) (void *) ) probe_thread, NULL);
  pthread_attr_destroy (&attr);
}
