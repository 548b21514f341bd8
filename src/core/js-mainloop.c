/* js-mainloop.c: time every iteration and every dispatch of the main loop.
 *
 * Iterations come from a poll function: GLib calls it on the main thread, with
 * the context unlocked, once per iteration of both g_main_context_iteration
 * and g_main_loop_run. An iteration's busy span runs from one poll's return to
 * the next poll's call, so it includes prepare, check and every dispatch
 * (idle handlers too). A poll with timeout 0 never waits: it counts as busy,
 * the next iteration starting where the last one ended.
 *
 * Dispatches come from the dispatch hook (preload tables for GLib's own
 * source types, js-source-swap.c for the others).
 *
 * Nested loops: a poll made while a dispatch is running is a nested main loop
 * (a dialog's g_main_loop_run, a synchronous call that spins the context).
 * Each open dispatch keeps the time spent in such polls and in dispatches
 * nested in it ("inner" time); its own time is its wall time minus that, so
 * nothing is counted twice.
 *
 * Everything here that runs per dispatch is lock-free and allocation-free:
 * two clock reads, a few loads and stores, one ring push. The clock reads
 * of an iteration (poll enter, and leave unless its timeout is 0; dispatch
 * start and end) are js_tsc_clock_now (): CLOCK_MONOTONIC's scale from a
 * bare rdtsc where the kernel's clock is the TSC anyway (js-tsc-clock.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-mainloop.h"
#include "js-builtin-patch.h"
#include "js-clock.h"
#include "js-futex.h"
#include "js-gdk-threads.h"
#include "js-hot.h"
#include "js-log.h"
#include "js-names.h"
#include "js-posting.h"
#include "js-sampler.h"
#include "js-source-swap.h"
#include "js-tsc-clock.h"
#include "js-wake-timer.h"

#include <pthread.h>

#define MAX_DEPTH 64

/* An open dispatch: its record, filled in as it goes. start_ns, inner_ns
 * (nested polls and nested dispatches) and flags are updated while it runs. */
typedef struct
{
  JsRecord r;
  GSource *source;
} OpenDispatch;

/* Read-only after start. */
static JsRing *ring JS_HOT_DATA;
static GMainContext *context JS_HOT_DATA;
static pthread_t main_thread JS_HOT_DATA;
static void (*real_set_poll) (GMainContext *, GPollFunc);
static GPollFunc (*real_get_poll) (GMainContext *);
static gboolean active JS_HOT_DATA; /* cleared (only) by js_mainloop_disable */
#ifdef JS_MAINLOOP_THREAD_POINTER
void *js_mainloop_thread_pointer JS_HOT_DATA;
#endif

/* The poll function the app wants; ours calls it. */
static GPollFunc app_poll JS_HOT_DATA;
/* g_poll when the preload's poll wrapper guards it (guarded_poll), else NULL. */
static GPollFunc guarded_below JS_HOT_DATA;
static guint reinstalls JS_HOT_DATA; /* bumped (release) before each re-installation */

/* Start of the outermost iteration under way; 0 while the outermost loop
 * waits in poll. Written by the main thread, read by the collector (and
 * later the watchdog): the heartbeat of the loop. */
static gint64 busy_since JS_HOT_DATA;

/* The watchdog's heartbeat: since when the main thread has been out of poll,
 * at any nesting depth (a nested loop that polls is alive), 0 while it is in
 * a poll; and when it last entered one. */
static gint64 stuck_since JS_HOT_DATA;
static gint64 last_poll_enter JS_HOT_DATA;
/* jankscope's threads that sleep while the app does (js-wake-timer.h): each
 * parks by storing a new non-zero number in its park word, and the poll
 * function, when it leaves a poll and finds it parked under a number it has
 * not armed for yet, arms its timer to fire delay_ns later. A sleeper that
 * must only wake for a long busy span (the watchdog) must not be woken by
 * the wait that ends the span: when the main thread enters a poll that may
 * sleep, its timer is disarmed, or, for a poll with a timeout, re-armed to
 * fire delay_ns after that timeout. A poll that ends by its timeout (a
 * frame clock's, every frame of an animation) then leaves the timer right
 * for the busy span that follows, and the return makes no system call: one
 * call per busy span instead of two. A return that finds the timer off by
 * more than a little (the poll woken early by a file descriptor, or late)
 * arms it again. Added at start-up, before the threads start; then
 * read-only but armed_for and due_ns (main thread only). */
typedef struct
{
  int *park;
  JsWakeTimer *timer;
  gint64 delay_ns;
  gboolean disarm_in_wait;
  int armed_for; /* the park number the timer was armed for, 0: none */
  gint64 due_ns; /* re-armed at a poll's entry: when it fires; else 0 */
} Sleeper;

/* How far from (return + delay_ns) a timer re-armed at a poll's entry may
 * fire and be kept: late, it delays the watchdog's pre-trigger that much;
 * early, it may wake the watchdog once more before a stall (only in a busy
 * span nearly as long as the pre-trigger). */
#define SLEEPER_LATE_NS (500 * G_GINT64_CONSTANT (1000))
#define SLEEPER_EARLY_NS (2000 * G_GINT64_CONSTANT (1000))

static Sleeper sleepers[JS_MAINLOOP_MAX_SLEEPERS] JS_HOT_DATA;
static guint n_sleepers JS_HOT_DATA;
/* Bumped by every park (js_mainloop_park): a poll return that finds it
 * unchanged has nobody new to arm for, at the cost of one load. */
static guint parks JS_HOT_DATA;
/* Main thread only: `parks` when last looked at, how many timers that must
 * not fire in a wait are armed, and how many were re-armed at the entry of
 * the poll under way. */
static guint parks_seen JS_HOT_DATA;
static guint armed_for_wait JS_HOT_DATA;
static guint rearmed_in_wait JS_HOT_DATA;
static guint64 timer_calls JS_HOT_DATA;
static int poll_may_block JS_HOT_DATA; /* the poll under way has a timeout other than 0 */

/* Main thread only, but `depth` and `open_post`: written by the main thread
 * (relaxed atomic stores), read by the watchdog during a stall. */
static OpenDispatch open[MAX_DEPTH];
static guint depth JS_HOT_DATA;
/* The same words under the names js-mainloop.h reads inline
 * (js_mainloop_current_post: the posting sites' attach, on the main thread). */
extern __typeof (depth) js_mainloop_depth __attribute__ ((alias ("depth")));
/* The posting site and the data of each open dispatch, by depth: one store
 * each at dispatch start (its record carries them too, but is pushed only at
 * the end), so that a hang under way can say where its dispatch was posted
 * from (for a GTask's completion, its data is the task: js-posting.h). */
static guint32 open_post[MAX_DEPTH] JS_HOT_DATA;
extern __typeof (open_post) js_mainloop_open_post __attribute__ ((alias ("open_post")));
static const void *open_data[MAX_DEPTH] JS_HOT_DATA;
static guint too_deep JS_HOT_DATA; /* dispatches past MAX_DEPTH: forwarded untimed */
static gint64 last_poll_return JS_HOT_DATA;
static guint32 iteration_dispatches JS_HOT_DATA;
/* open[0].r is the record of the last dispatch of the outermost loop, not
 * pushed yet: the next outermost dispatch pushes it before it starts, or the
 * next poll, with the iteration it ended (JS_RECORD_ENDS_ITERATION), so that
 * an iteration of one dispatch (a repeating idle, a new g_idle_add each
 * time, a frame) writes one 80-byte record to the ring, not two: each
 * record's write costs the main thread ~25-40 ns on these VMs, as much as
 * all the rest of the hooks (bench/README.md, "A floor, and one record an
 * iteration"). Main thread only. */
static gboolean pending JS_HOT_DATA;

/* The pending record to the ring, as it is or carrying its iteration. */
static inline void
push_pending (void)
{
  pending = FALSE;
  js_ring_push (ring, &open[0].r);
}
static guint seen_reinstalls JS_HOT_DATA;

/* The poll observers (js_mainloop_add_poll_observer). Added and called on
 * the main thread only: plain loads and stores, no lock, no atomics; a fixed
 * array: no allocation. Each one's throttle lives here, as the time it asked
 * to be called next, and the earliest of those is kept apart: a poll that
 * finds none due pays one compare. */
typedef struct
{
  JsPollObserver func;
  gint64 due_ns; /* JS_POLL_OBSERVER_DONE: never again */
} PollObserver;

static PollObserver poll_observers[JS_MAINLOOP_MAX_POLL_OBSERVERS] JS_HOT_DATA;
static guint n_poll_observers JS_HOT_DATA;
static gint64 poll_observers_due_ns JS_HOT_DATA = JS_POLL_OBSERVER_DONE; /* the earliest due_ns */

static inline gboolean
on_watched_thread (void)
{
  return G_LIKELY (__atomic_load_n (&active, __ATOMIC_RELAXED)) && js_mainloop_on_thread ();
}

/* The context's poll, guarded against the sampling signal (js-call-guard.h)
 * whatever poll function the app set. In GTK module mode this is the only
 * guarded call: there is no preload to wrap the others.
 *
 * But not twice: GLib's own g_poll (the poll function unless the app set
 * one) is a tail call of poll through the PLT (gpoll.c; `jmp poll@plt` in
 * Debian 12's GLib 2.74), and with the preload that is its guarded wrapper
 * (JsBridge.poll_wrapped says so), which makes the same handshake on the
 * same guard a few instructions later. Guarding here as well cost a second
 * locked add and subtract per iteration, for nothing: the code between the
 * two guards makes no blocking call. A poll function of the app's own is
 * still guarded here, with or without the preload: it may reach the kernel
 * by a way no wrapper sees (syscall (), a libc-internal call). The pointer
 * compared is the one loaded for the call, so a poll function the app sets
 * meanwhile is never called unguarded. */
static JS_HOT gint
guarded_poll (GPollFunc next, GPollFD *fds, guint n_fds, gint timeout)
{
  JsCallGuard *g = &js_sampler_guard;
  JsCallHold hold;
  gint ret;

  if (next == guarded_below)
    return next (fds, n_fds, timeout);
  if (__atomic_load_n (&g->signal, __ATOMIC_ACQUIRE) == 0)
    return next (fds, n_fds, timeout);
  if (!js_call_guard_enter (g))
    ret = next (fds, n_fds, timeout);
  else
    {
      js_call_guard_hold (g, &hold);
      ret = next (fds, n_fds, timeout);
      js_call_guard_release (g, &hold);
    }
  /* Its EINTRs are not counted: GLib retries them, and with the preload the
   * poll wrapper below this one counts them already. */
  js_call_guard_leave (g, FALSE);
  return ret;
}

/* Every call the poll function makes on a sleeper's timer, counted. */
static void
set_timer (Sleeper *s, gint64 delay_ns)
{
  timer_calls++;
  js_wake_timer_arm (s->timer, delay_ns);
}

/* Leaving a poll whose entry re-armed timers: keep each one that fires about
 * delay_ns after this return, arm the others again; disarm the timer of a
 * sleeper that woke meanwhile (parked again under a new number, it was armed
 * above for that one). */
static JS_HOT __attribute__ ((noinline)) void
check_rearmed_sleepers (gint64 leave)
{
  for (guint i = 0; i < n_sleepers; i++)
    {
      Sleeper *s = &sleepers[i];
      gint64 due = s->due_ns, want = leave + s->delay_ns;

      if (due == 0)
        continue;
      s->due_ns = 0;
      if (__atomic_load_n (s->park, __ATOMIC_SEQ_CST) != s->armed_for)
        {
          set_timer (s, 0);
          s->armed_for = 0;
          armed_for_wait--;
        }
      else if (due > want + SLEEPER_LATE_NS || due < want - SLEEPER_EARLY_NS)
        set_timer (s, s->delay_ns);
    }
  rearmed_in_wait = 0;
}

/* Arms the timer of each sleeper that parked under a number it was not
 * armed for. Out of line and out of the hot page: a sleeper parks a few
 * times a second at most. */
static G_GNUC_NO_INLINE void
arm_parked_sleepers (guint now_parks)
{
  parks_seen = now_parks;
  for (guint i = 0; i < n_sleepers; i++)
    {
      Sleeper *s = &sleepers[i];
      int parked = __atomic_load_n (s->park, __ATOMIC_SEQ_CST);

      if (G_UNLIKELY (parked != 0 && parked != s->armed_for))
        {
          set_timer (s, s->delay_ns);
          if (s->armed_for == 0 && s->disarm_in_wait)
            armed_for_wait++;
          s->armed_for = parked;
          s->due_ns = 0;
        }
    }
}

/* Leaving a poll: a few loads, a system call only for a sleeper that parked
 * since the last time, or whose timer re-armed at the poll's entry is off. */
static inline void
sleepers_leave_wait (gint64 leave)
{
  guint now_parks = __atomic_load_n (&parks, __ATOMIC_SEQ_CST);

  if (G_UNLIKELY (now_parks != parks_seen))
    arm_parked_sleepers (now_parks);
  if (G_UNLIKELY (rearmed_in_wait != 0))
    check_rearmed_sleepers (leave);
}

/* Entering a poll that may sleep: the busy span ended before the timers of
 * those who wait for a long one fired; nobody to wake. With a timeout, the
 * timer of a sleeper still parked is moved past it (above); else it is
 * disarmed. */
static inline void
sleepers_enter_wait (gint timeout, gint64 enter)
{
  gboolean disarmed = FALSE;

  if (G_LIKELY (armed_for_wait == 0))
    return;
  for (guint i = 0; i < n_sleepers; i++)
    {
      Sleeper *s = &sleepers[i];

      if (s->armed_for == 0 || !s->disarm_in_wait)
        continue;
      if (timeout > 0 && __atomic_load_n (s->park, __ATOMIC_SEQ_CST) == s->armed_for)
        {
          gint64 delay = timeout * G_GINT64_CONSTANT (1000000) + s->delay_ns;

          set_timer (s, delay);
          s->due_ns = enter + delay;
          rearmed_in_wait++;
          continue;
        }
      set_timer (s, 0);
      s->armed_for = 0;
      s->due_ns = 0;
      armed_for_wait--;
      disarmed = TRUE;
    }
  /* Still parked under the same number: armed again at the next return. */
  if (disarmed)
    parks_seen--;
}

/* Out of line: the poll function only compares the earliest due time. */
static G_GNUC_NO_INLINE void
notify_poll_observers (gint64 now_ns)
{
  gint64 earliest = JS_POLL_OBSERVER_DONE;

  for (guint i = 0; i < n_poll_observers; i++)
    {
      PollObserver *o = &poll_observers[i];

      if (o->due_ns <= now_ns)
        {
          /* Not due while it runs: were it to run a nested loop, the poll
           * function would not call it again from there. */
          o->due_ns = JS_POLL_OBSERVER_DONE;
          o->due_ns = o->func (now_ns);
        }
      earliest = MIN (earliest, o->due_ns);
    }
  poll_observers_due_ns = earliest;
}

static JS_HOT gint
js_poll (GPollFD *fds, guint n_fds, gint timeout)
{
  GPollFunc next = __atomic_load_n (&app_poll, __ATOMIC_ACQUIRE);
  gint64 enter, leave;
  gboolean observed = FALSE, told = FALSE;
  gint ret;

  if (!on_watched_thread ())
    return next (fds, n_fds, timeout);

  enter = js_tsc_clock_now ();
  if (timeout != 0)
    sleepers_enter_wait (timeout, enter);
  __atomic_store_n (&last_poll_enter, enter, __ATOMIC_RELAXED);
  if (G_UNLIKELY (__atomic_load_n (&reinstalls, __ATOMIC_ACQUIRE) != seen_reinstalls))
    {
      /* Our poll function was away (replaced behind our back) and is back:
       * the time since our last poll held waits we did not see. */
      seen_reinstalls = __atomic_load_n (&reinstalls, __ATOMIC_ACQUIRE);
      last_poll_return = 0;
    }
  if (pending)
    {
      /* depth is 0: an outermost dispatch is over, none has started since. */
      OpenDispatch *last = &open[0];
      guint64 lead = (guint64) (last->r.start_ns - last_poll_return);
      guint64 tail = (guint64) (enter - last->r.end_ns);

      if (last_poll_return != 0 && lead <= G_MAXUINT32 && tail <= G_MAXUINT32)
        {
          last->r.flags |= JS_RECORD_ENDS_ITERATION;
          last->r.count = iteration_dispatches;
          last->r.iter_lead_ns = (guint32) lead;
          last->r.iter_tail_ns = (guint32) tail;
          told = TRUE;
        }
      push_pending ();
    }
  if (last_poll_return != 0 && !told)
    {
      JsRecord r = {
        .kind = JS_RECORD_ITERATION,
        .start_ns = last_poll_return,
        .end_ns = enter,
        .count = iteration_dispatches,
        .depth = (guint8) MIN (depth, G_MAXUINT8),
      };

      /* The dispatch running this nested loop is attributed its part of the
       * iteration; the collector leaves that part out of the iteration. */
      if (depth > 0)
        {
          OpenDispatch *inner = &open[MIN (depth, MAX_DEPTH) - 1];

          inner->r.flags |= JS_RECORD_NESTED_LOOP;
          r.inner_ns = enter - MAX (inner->r.start_ns, last_poll_return);
        }
      js_ring_push (ring, &r);
    }
  /* After the records of the iteration: an observer's own (a frame clock
   * gone, the focus) come after the dispatches that ran before them. */
  if (G_UNLIKELY (enter >= poll_observers_due_ns))
    {
      notify_poll_observers (enter);
      observed = TRUE;
    }

  /* In poll from here: after the iteration's record, so that a collector
   * that sees the loop waiting and the ring empty may park without leaving
   * it behind. */
  __atomic_store_n (&poll_may_block, timeout != 0, __ATOMIC_RELAXED);
  if (depth == 0)
    __atomic_store_n (&busy_since, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&stuck_since, 0, __ATOMIC_RELEASE);

  ret = guarded_poll (next, fds, n_fds, timeout);

  /* A poll with timeout 0 never waits: it is the loop's own work (a busy
   * loop of ready sources polls that way every iteration), so the next
   * iteration starts where this one ended, and the clock is read once, not
   * twice. Unless poll observers ran in it: their time is jankscope's, kept
   * out of the app's busy span as in any other poll. */
  leave = timeout != 0 || observed ? js_tsc_clock_now () : enter;
  if (depth > 0 && depth <= MAX_DEPTH)
    open[depth - 1].r.inner_ns += leave - enter;
  last_poll_return = leave;
  iteration_dispatches = 0;
  if (depth == 0)
    __atomic_store_n (&busy_since, leave, __ATOMIC_RELAXED);
  /* Sequentially consistent, and so is a sleeper's store of its park word
   * before it looks at stuck_since: either it sees this return and does not
   * sleep, or this sees it asleep and arms its timer. */
  __atomic_store_n (&stuck_since, leave, __ATOMIC_SEQ_CST);
  sleepers_leave_wait (leave);
  return ret;
}

static JS_HOT int
js_dispatch (JsDispatchFunc real, void *source_ptr, void *callback, void *user_data)
{
  GSource *source = source_ptr;
  OpenDispatch *frame;
  guint32 post;
  guint d;
  gint64 end;
  int ret;

  if (!on_watched_thread () || source->context != context)
    return real (source, callback, user_data);
  if (G_UNLIKELY (depth >= MAX_DEPTH))
    {
      too_deep++;
      return real (source, callback, user_data);
    }

  d = depth;
  frame = &open[d];
  if (pending)
    push_pending (); /* the outermost dispatch before this one, in this iteration */
  /* Where it was posted from: one load (js-posting.h), published for the
   * watchdog with its data (a store each) before the depth that makes them
   * visible. */
  post = js_posting_at_dispatch (source->source_id);
  __atomic_store_n (&open_post[d], post, __ATOMIC_RELAXED);
  __atomic_store_n (&open_data[d], user_data, __ATOMIC_RELAXED);
  __atomic_store_n (&depth, d + 1, __ATOMIC_RELEASE);
  frame->source = source;
  frame->r = (JsRecord){
    .kind = JS_RECORD_DISPATCH,
    /* GDK 3's gdk_threads_add_* wrapper: the app's function it runs. */
    .code = callback ? js_gdk_threads_callback (callback, user_data) : (const void *) real,
    .name_id = js_names_for_source (source),
    .priority = (gint16) CLAMP (source->priority, G_MININT16, G_MAXINT16),
    .depth = (guint8) depth,
    .flags = callback ? 0 : JS_RECORD_CODE_IS_DISPATCH,
    .post = post,
    .source_id = source->source_id,
    .user_data = user_data,
  };
  frame->r.start_ns = js_tsc_clock_now ();

  ret = real (source, callback, user_data);

  end = js_tsc_clock_now ();
  __atomic_store_n (&depth, depth - 1, __ATOMIC_RELAXED);
  if (depth > 0)
    open[depth - 1].r.inner_ns += end - frame->r.start_ns;
  iteration_dispatches++;
  frame->r.end_ns = end;
  if (d == 0)
    pending = TRUE; /* pushed by the next outermost dispatch or poll */
  else
    js_ring_push (ring, &frame->r);
  return ret;
}

void
js_mainloop_close_open_dispatches (void)
{
  gint64 now;

  if (!on_watched_thread ())
    return;
  /* The last outermost dispatch, over but not pushed yet (an exit () from
   * another thread leaves it out: only this thread pushes). */
  if (pending)
    push_pending ();
  /* exit () called from inside a dispatch: those dispatches never return,
   * so end them now, innermost first, as they would have ended. */
  now = js_tsc_clock_now ();
  while (depth > 0)
    {
      OpenDispatch *frame = &open[depth - 1];

      __atomic_store_n (&depth, depth - 1, __ATOMIC_RELAXED);

      if (depth > 0)
        open[depth - 1].r.inner_ns += now - frame->r.start_ns;
      frame->r.end_ns = now;
      js_ring_push (ring, &frame->r);
    }
}

static int
hook_set_poll_func (void *ctx, void *func)
{
  if ((ctx ? ctx : g_main_context_default ()) != context)
    return 0;
  /* Keep ours installed and chain to the app's: NULL means g_poll, as in GLib. */
  __atomic_store_n (&app_poll, func ? (GPollFunc) func : g_poll, __ATOMIC_RELEASE);
  return 1;
}

static int
hook_get_poll_func (void *ctx, void **func)
{
  if ((ctx ? ctx : g_main_context_default ()) != context)
    return 0;
  *func = (void *) __atomic_load_n (&app_poll, __ATOMIC_ACQUIRE);
  return 1;
}

gboolean
js_mainloop_ensure_poll_func (void)
{
  GPollFunc current = real_get_poll (context);

  if (current == js_poll)
    return FALSE;
  __atomic_store_n (&app_poll, current, __ATOMIC_RELEASE);
  __atomic_add_fetch (&reinstalls, 1, __ATOMIC_RELEASE);
  real_set_poll (context, js_poll);
  js_log_debug ("the poll function was replaced behind our back; re-installed, chaining to %p",
                (void *) current);
  return TRUE;
}

void
js_mainloop_start (JsRing *the_ring, JsBridge *bridge, void (*set) (GMainContext *, GPollFunc),
                   GPollFunc (*get) (GMainContext *))
{
  GPollFunc current;

  ring = the_ring;
  context = g_main_context_default ();
  main_thread = pthread_self ();
#ifdef JS_MAINLOOP_THREAD_POINTER
  js_mainloop_thread_pointer = __builtin_thread_pointer ();
#endif
  real_set_poll = set;
  real_get_poll = get;
  __atomic_store_n (&active, TRUE, __ATOMIC_RELEASE);

  current = real_get_poll (context);
  app_poll = current ? current : g_poll;
  if (bridge->mode == JS_MODE_PRELOAD && bridge->poll_wrapped)
    guarded_below = g_poll;
  real_set_poll (context, js_poll);

  js_source_swap_init (js_dispatch, context);
  /* Release stores: the preload starts calling a hook only once it sees it. */
  __atomic_store_n (&bridge->set_poll_func, hook_set_poll_func, __ATOMIC_RELEASE);
  __atomic_store_n (&bridge->get_poll_func, hook_get_poll_func, __ATOMIC_RELEASE);
  /* Off (signal 0) until the sampler has its signal. */
  __atomic_store_n (&bridge->call_guard, &js_sampler_guard, __ATOMIC_RELEASE);
  if (bridge->mode == JS_MODE_PRELOAD)
    {
      __atomic_store_n (&bridge->swapped_funcs, js_source_swap_lookup, __ATOMIC_RELEASE);
      __atomic_store_n (&bridge->before_attach, js_source_swap_before_attach, __ATOMIC_RELEASE);
      __atomic_store_n (&bridge->dispatch, js_dispatch, __ATOMIC_RELEASE);
    }
  else
    js_log_debug ("GTK module mode: %u of GLib's 6 built-in source types timed in place",
                  js_builtin_patch_install (js_dispatch));
}

void
js_mainloop_disable (void)
{
  __atomic_store_n (&active, FALSE, __ATOMIC_RELEASE);
}

void
js_mainloop_current_dispatch (const void **code, guint32 *name_id, gint64 *late_ns)
{
  OpenDispatch *d;
  gint64 ready_us;

  if (depth == 0 || depth > MAX_DEPTH)
    return;
  d = &open[depth - 1];
  *code = d->r.code;
  *name_id = d->r.name_id;
  /* A timeout's ready time is when it was due (for a frame clock's paint
   * idle: when the frame was due); -1 for sources that have none. */
  ready_us = g_source_get_ready_time (d->source);
  if (ready_us >= 0)
    *late_ns = MAX (0, d->r.start_ns - ready_us * 1000);
}

guint32
js_mainloop_hang_post (const void **data)
{
  guint d = __atomic_load_n (&depth, __ATOMIC_ACQUIRE);

  *data = NULL;
  if (d == 0 || d > MAX_DEPTH)
    return 0;
  /* Only the address: never followed. */
  *data = __atomic_load_n (&open_data[d - 1], __ATOMIC_RELAXED);
  return __atomic_load_n (&open_post[d - 1], __ATOMIC_RELAXED);
}

gint64
js_mainloop_stuck_since (void)
{
  return __atomic_load_n (&stuck_since, __ATOMIC_RELAXED);
}

gint64
js_mainloop_last_poll_enter (void)
{
  return __atomic_load_n (&last_poll_enter, __ATOMIC_RELAXED);
}

void
js_mainloop_park (int *park, int number)
{
  __atomic_store_n (park, number, __ATOMIC_SEQ_CST);
  __atomic_add_fetch (&parks, 1, __ATOMIC_SEQ_CST);
}

gboolean
js_mainloop_add_sleeper (int *park, JsWakeTimer *timer, gint64 delay_ns, gboolean disarm_in_wait)
{
  if (n_sleepers == JS_MAINLOOP_MAX_SLEEPERS || timer->timer_fd < 0)
    return FALSE;
  sleepers[n_sleepers] = (Sleeper){ park, timer, delay_ns, disarm_in_wait, 0 };
  /* Published to the main thread by the thread start that follows. */
  n_sleepers++;
  return TRUE;
}

guint64
js_mainloop_sleeper_timer_calls (void)
{
  return timer_calls;
}

gboolean
js_mainloop_poll_may_block (void)
{
  return __atomic_load_n (&poll_may_block, __ATOMIC_RELAXED);
}

pthread_t
js_mainloop_thread (void)
{
  return main_thread;
}

gboolean
js_mainloop_add_poll_observer (JsPollObserver observer)
{
  if (!js_mainloop_on_thread ())
    {
      js_log_warning ("internal: a poll observer added off the main thread was ignored");
      return FALSE;
    }
  if (n_poll_observers == JS_MAINLOOP_MAX_POLL_OBSERVERS)
    {
      js_log_warning ("internal: more than %u poll observers; one was ignored",
                      JS_MAINLOOP_MAX_POLL_OBSERVERS);
      return FALSE;
    }
  /* Due at once: called at the next poll. */
  poll_observers[n_poll_observers++] = (PollObserver){ observer, G_MININT64 };
  poll_observers_due_ns = G_MININT64;
  return TRUE;
}

gint64
js_mainloop_busy_since (void)
{
  return __atomic_load_n (&busy_since, __ATOMIC_RELAXED);
}

guint
js_mainloop_poll_reinstalls (void)
{
  return __atomic_load_n (&reinstalls, __ATOMIC_RELAXED);
}
