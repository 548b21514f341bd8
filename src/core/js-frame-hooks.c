/* js-frame-hooks.c
 *
 * A frame runs inside one dispatch of the frame clock's paint idle:
 * before-paint, then update (only while something animates), layout (only
 * after a resize), paint, after-paint. flush-events/resume-events mostly run
 * on their own, for input, without a frame: flush-events counts as a phase of
 * a frame only when a frame follows it in the same dispatch (resume-events,
 * which comes after the frame's end, never does).
 *
 * Clocks of another GdkDisplay than the default one (the GTK Inspector opens
 * its own) are left out. A clock's state is dropped when it is finalized
 * (weak reference), and the collector is told with JS_RECORD_CLOCK_GONE.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-frame-hooks.h"
#include "js-clock.h"
#include "js-log.h"
#include "js-mainloop.h"

#include <dlfcn.h>
#include <glib-object.h>
#include <pthread.h>
#include <string.h>

#define MAX_CLOCKS 32
#define CHECK_PERIOD_NS (100 * JS_NS_PER_MS)

typedef struct
{
  GObject *clock;
  guint32 id;
  gboolean excluded;
  gboolean in_frame;
  JsPhase phase; /* the phase under way */
  gint64 phase_start_ns;
  gint64 frame_start_ns;
  gint64 flush_start_ns; /* flush-events seen, no frame yet: 0 if none */
  gint64 budget_ns;
  gint64 late_ns;   /* how late the frame's dispatch started */
  const void *code; /* the frame's dispatch */
  guint32 name_id;
  guint32 mask;
  gint64 phase_ns[JS_N_PHASES];
} ClockState;

typedef void (*RefreshInfoFunc) (gpointer clock, gint64 base, gint64 *interval,
                                 gint64 *presentation);

static JsRing *ring;
static pthread_t main_thread;
static gboolean hooked;
static gboolean enabled;
static ClockState clocks[MAX_CLOCKS];
static guint32 next_id = 1;
static RefreshInfoFunc refresh_info;

/* Signal names, by JsPhase; "resume-events" is last. */
static const char *const phase_signals[] = {
  "flush-events", "before-paint", "update", "layout", "paint", "after-paint", "resume-events",
};
#define RESUME_EVENTS JS_N_PHASES

const char *
js_phase_name (JsPhase phase)
{
  return phase < JS_N_PHASES ? phase_signals[phase] : "unknown";
}

void
js_frame_hooks_init (JsRing *the_ring)
{
  ring = the_ring;
  main_thread = pthread_self ();
  enabled = TRUE;
}

void
js_frame_hooks_disable (void)
{
  enabled = FALSE;
}

static gpointer
gtk_symbol (const char *name)
{
  return dlsym (RTLD_DEFAULT, name);
}

/* The display of the toplevel whose surface (GTK4) or window (GTK3) runs this
 * clock, or NULL when no mapped toplevel does. */
static gpointer
display_of_clock (gpointer clock)
{
  GList *(*list_toplevels) (void) = gtk_symbol ("gtk_window_list_toplevels");
  gpointer (*native_surface) (gpointer) = gtk_symbol ("gtk_native_get_surface"); /* GTK4 */
  gpointer (*surface_clock) (gpointer) = gtk_symbol ("gdk_surface_get_frame_clock");
  gpointer (*surface_display) (gpointer) = gtk_symbol ("gdk_surface_get_display");
  gpointer (*widget_window) (gpointer) = gtk_symbol ("gtk_widget_get_window"); /* GTK3 */
  gpointer (*window_clock) (gpointer) = gtk_symbol ("gdk_window_get_frame_clock");
  gpointer (*window_display) (gpointer) = gtk_symbol ("gdk_window_get_display");
  gpointer display = NULL;
  GList *toplevels;

  if (list_toplevels == NULL)
    return NULL;
  /* The list does not reference its entries: only read them, destroy nothing. */
  toplevels = list_toplevels ();
  for (GList *l = toplevels; l != NULL && display == NULL; l = l->next)
    {
      if (native_surface != NULL && surface_clock != NULL && surface_display != NULL)
        {
          gpointer surface = native_surface (l->data);

          if (surface != NULL && surface_clock (surface) == clock)
            display = surface_display (surface);
        }
      else if (widget_window != NULL && window_clock != NULL && window_display != NULL)
        {
          gpointer window = widget_window (l->data);

          if (window != NULL && window_clock (window) == clock)
            display = window_display (window);
        }
    }
  g_list_free (toplevels);
  return display;
}

static void
clock_finalized (gpointer data, GObject *where_the_clock_was)
{
  ClockState *st = data;
  JsRecord r = { .kind = JS_RECORD_CLOCK_GONE, .count = st->id, .start_ns = js_now_ns () };

  if (enabled)
    js_ring_push (ring, &r);
  memset (st, 0, sizeof *st);
}

static void
end_phase (ClockState *st, gint64 now)
{
  st->phase_ns[st->phase] += now - st->phase_start_ns;
}

static void
after_paint_done (GObject *clock, gpointer data)
{
  ClockState *st = data;
  gint64 now;
  JsRecord r = { .kind = JS_RECORD_FRAME };

  if (!st->in_frame || st->clock != clock || !enabled)
    return;
  now = js_now_ns ();
  end_phase (st, now);
  st->in_frame = FALSE;
  st->flush_start_ns = 0;

  r.start_ns = st->frame_start_ns;
  r.end_ns = now;
  r.inner_ns = st->budget_ns;
  r.count = st->id;
  r.flags = st->mask;
  for (guint p = 0; p < JS_N_PHASES; p++)
    r.phase_us[p] = (guint32) MIN ((st->phase_ns[p] + 500) / 1000, G_MAXUINT32);
  r.delay_us = (guint32) MIN (st->late_ns / 1000, G_MAXUINT32);
  r.code = st->code;
  r.name_id = st->name_id;
  js_ring_push (ring, &r);
}

static ClockState *
state_for (GObject *clock)
{
  ClockState *free_slot = NULL;
  gpointer display, default_display;
  gpointer (*get_default) (void);

  for (guint i = 0; i < MAX_CLOCKS; i++)
    {
      if (clocks[i].clock == clock)
        return &clocks[i];
      if (clocks[i].clock == NULL && free_slot == NULL)
        free_slot = &clocks[i];
    }
  if (free_slot == NULL)
    return NULL; /* more than MAX_CLOCKS windows: the rest are not timed */

  free_slot->clock = clock;
  free_slot->id = next_id++;
  g_object_weak_ref (clock, clock_finalized, free_slot);
  g_signal_connect_after (clock, "after-paint", G_CALLBACK (after_paint_done), free_slot);
  get_default = gtk_symbol ("gdk_display_get_default");
  display = display_of_clock (clock);
  default_display = get_default ? get_default () : NULL;
  /* The GTK Inspector runs on a display of its own (same name, other object). */
  free_slot->excluded = (display != NULL && default_display != NULL && display != default_display)
                        /* jankscope's own window marks its clock */
                        || g_object_get_data (clock, "jankscope-exclude") != NULL;
  js_log_debug ("frame clock %p is window %u%s", (void *) clock, free_slot->id,
                free_slot->excluded ? " (another display: left out)" : "");
  return free_slot;
}

static void
begin_frame (ClockState *st, gint64 now)
{
  st->in_frame = TRUE;
  st->mask = 0;
  memset (st->phase_ns, 0, sizeof st->phase_ns);
  st->frame_start_ns = now;
  if (st->flush_start_ns != 0)
    {
      /* Input was flushed in the same dispatch, right before this frame. */
      st->frame_start_ns = st->flush_start_ns;
      st->phase_ns[JS_PHASE_FLUSH_EVENTS] = now - st->flush_start_ns;
      st->mask |= 1u << JS_PHASE_FLUSH_EVENTS;
    }
  st->late_ns = 0;
  st->code = NULL;
  st->name_id = 0;
  js_mainloop_current_dispatch (&st->code, &st->name_id, &st->late_ns);
  st->budget_ns = 0;
  if (refresh_info != NULL)
    {
      gint64 interval = 0, presentation = 0;

      refresh_info (st->clock, 0, &interval, &presentation);
      st->budget_ns = interval * 1000;
    }
}

static gboolean
phase_hook (GSignalInvocationHint *hint, guint n_params, const GValue *params, gpointer data)
{
  guint phase = GPOINTER_TO_UINT (data);
  GObject *clock;
  ClockState *st;
  gint64 now;

  if (!enabled || n_params < 1 || !pthread_equal (pthread_self (), main_thread))
    return TRUE;
  clock = g_value_peek_pointer (&params[0]);
  if (clock == NULL || (st = state_for (clock)) == NULL || st->excluded)
    return TRUE;
  now = js_now_ns ();

  switch (phase)
    {
    case JS_PHASE_FLUSH_EVENTS:
      if (!st->in_frame)
        st->flush_start_ns = now;
      break;
    case RESUME_EVENTS:
      st->flush_start_ns = 0;
      break;
    case JS_PHASE_BEFORE_PAINT:
      if (st->in_frame)
        end_phase (st, now); /* a frame that never reached after-paint: restart */
      begin_frame (st, now);
      /* fall through */
    default:
      if (!st->in_frame)
        break;
      if (phase != JS_PHASE_BEFORE_PAINT)
        end_phase (st, now);
      st->phase = (JsPhase) phase;
      st->phase_start_ns = now;
      st->mask |= 1u << phase;
      break;
    }
  return TRUE; /* stay installed */
}

static void
install_hooks (GType type)
{
  for (guint p = 0; p < G_N_ELEMENTS (phase_signals); p++)
    {
      guint id = g_signal_lookup (phase_signals[p], type);

      if (id != 0)
        g_signal_add_emission_hook (id, 0, phase_hook, GUINT_TO_POINTER (p), NULL);
    }
  refresh_info = (RefreshInfoFunc) gtk_symbol ("gdk_frame_clock_get_refresh_info");
  hooked = TRUE;
  js_log_debug ("frame clock hooks installed");
}

gint64
js_frame_hooks_poll (gint64 now_ns)
{
  GType type;

  if (hooked)
    return JS_POLL_OBSERVER_DONE;
  type = g_type_from_name ("GdkFrameClock");
  /* The signals exist once the class is initialized (GTK does it when it
   * makes its first clock, before the first frame). Never initialize GTK's
   * classes ourselves. */
  if (type != 0 && g_type_class_peek (type) != NULL)
    install_hooks (type);
  return hooked ? JS_POLL_OBSERVER_DONE : now_ns + CHECK_PERIOD_NS;
}
