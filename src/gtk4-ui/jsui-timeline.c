/* jsui-timeline.c
 *
 * Only the frames inside the scrolled window's viewport are drawn (the
 * timeline is up to 4096 frames × 32 px wide); a drag redraws the range it
 * selects, and tells the others (::frames-selected) once, when it ends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "js-slow-frame.h"
#include "jsui-colors.h"
#include "jsui-timeline.h"

#define MIN_HEIGHT 96
/* Linear, 6 budgets high (100 ms at 60 Hz): a frame on time is a sixth of
 * the height; a longer frame is clipped, with a marker on top, rather than
 * flattening all the others. */
#define SCALE_BUDGETS 6
/* The time axis: marks at least this far apart, this tall. */
#define AXIS_MIN_PX 90
#define AXIS_TICK_PX 6
/* One zoom step (buttons, keys, a scroll click). */
#define ZOOM_FACTOR 1.5

struct _JsuiTimeline
{
  GtkWidget parent_instance;
  JsuiSnapshot *snapshot;
  gint64 selected_event;
  double zoom; /* pixels per frame */

  /* The selected frames (-1: none), and their end times, to find them
   * again in the next snapshot. */
  int sel_first, sel_last;
  gint64 sel_first_end, sel_last_end;
  int anchor; /* where a keyboard or drag range started */

  double drag_x;           /* where the drag began */
  double pointer_x;        /* the pointer, for Ctrl+scroll */
  double pinch_start_zoom; /* the zoom when the pinch began */
  double pending_value;    /* a scroll value to set once the new width is allocated */
  gboolean pending;
  GtkAdjustment *hadj; /* the scrolled window's, while we have one (weak) */

  /* What the accessible description says (G_MAXUINT: nothing yet): the
   * refresh updates it, and the size, only when they change. */
  guint described_n, described_slow;
  int described_first, described_last;
  guint n_slow; /* of the snapshot's frames */
  guint laid_out_n;
};

G_DEFINE_FINAL_TYPE (JsuiTimeline, jsui_timeline, GTK_TYPE_WIDGET)

enum
{
  EVENT_ACTIVATED,
  FRAMES_SELECTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static GArray *
frames_of (JsuiTimeline *self)
{
  return self->snapshot != NULL ? self->snapshot->frames : NULL;
}

static gint64
budget_of (JsuiTimeline *self)
{
  GArray *frames = frames_of (self);

  for (guint i = frames != NULL ? frames->len : 0; i > 0; i--)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i - 1);

      if (f->budget_ns > 0)
        return f->budget_ns;
    }
  return js_frame_budget (0);
}

double
jsui_timeline_zoom_anchor (double old_zoom, double new_zoom, double x, double value)
{
  /* x - value is where x is in the viewport; x / old_zoom the frame there. */
  return x / old_zoom * new_zoom - (x - value);
}

static GtkAdjustment *
hadjustment (JsuiTimeline *self)
{
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);

  return sw != NULL ? gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sw)) : NULL;
}

static void
adjustment_changed_cb (GtkAdjustment *adj, JsuiTimeline *self)
{
  if (!self->pending)
    return;
  self->pending = FALSE;
  gtk_adjustment_set_value (adj, self->pending_value);
}

static void
watch_adjustment (JsuiTimeline *self)
{
  GtkAdjustment *adj = hadjustment (self);

  if (adj == self->hadj)
    return;
  if (self->hadj != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->hadj, self);
      g_object_remove_weak_pointer (G_OBJECT (self->hadj), (gpointer *) &self->hadj);
    }
  self->hadj = adj;
  if (adj != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (adj), (gpointer *) &self->hadj);
      /* After the viewport's own handler: the new extent is known. */
      g_signal_connect_after (adj, "changed", G_CALLBACK (adjustment_changed_cb), self);
      g_signal_connect_swapped (adj, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
    }
}

/* Sets the zoom keeping what is at x where it is in the viewport. */
static void
zoom_at (JsuiTimeline *self, double zoom, double x)
{
  GtkAdjustment *adj = hadjustment (self);
  double old = self->zoom;

  zoom = CLAMP (zoom, JSUI_TIMELINE_MIN_ZOOM, JSUI_TIMELINE_MAX_ZOOM);
  if (zoom == old)
    return;
  self->zoom = zoom;
  if (adj != NULL)
    {
      self->pending_value
          = MAX (0, jsui_timeline_zoom_anchor (old, zoom, x, gtk_adjustment_get_value (adj)));
      self->pending = TRUE;
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Where to anchor a zoom without a pointer: the selection, else the end. */
static double
default_anchor (JsuiTimeline *self)
{
  if (self->sel_first >= 0)
    return jsui_timeline_x_for_frame (self, (guint) self->sel_first);
  return jsui_timeline_get_n_frames (self) * self->zoom;
}

static void
jsui_timeline_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                       int *natural, int *minimum_baseline, int *natural_baseline)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* A GtkViewport scrolls over its child's minimum width. */
      *minimum = *natural = (int) ceil (jsui_timeline_get_n_frames (self) * self->zoom);
    }
  else
    *minimum = *natural = MIN_HEIGHT;
}

GArray *
jsui_timeline_axis (const gint64 *end_ns, guint first, guint last, gint64 now_ns,
                    double px_per_frame, double min_px, gint64 *step_ns)
{
  static const gint64 steps_ms[]
      = { 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 300000 };
  GArray *ticks = g_array_new (FALSE, FALSE, sizeof (JsuiAxisTick));
  gint64 span, step = steps_ms[G_N_ELEMENTS (steps_ms) - 1] * 1000000;
  double px_per_ns;
  double last_x = -G_MAXDOUBLE;

  *step_ns = step;
  if (last <= first + 1 || px_per_frame <= 0 || end_ns[last - 1] <= end_ns[first])
    return ticks;
  span = end_ns[last - 1] - end_ns[first];
  px_per_ns = (double) (last - first) * px_per_frame / (double) span;
  for (guint i = 0; i < G_N_ELEMENTS (steps_ms); i++)
    if ((double) steps_ms[i] * 1e6 * px_per_ns >= min_px)
      {
        step = steps_ms[i] * 1000000;
        break;
      }
  *step_ns = step;
  for (guint i = first + 1; i < last; i++)
    {
      /* Multiples of the step before now: k * step lies in
       * [now - end[i], now - end[i - 1]) for the frame ending first after it. */
      gint64 newer = now_ns - end_ns[i], older = now_ns - end_ns[i - 1];
      gint64 k;
      double x = (double) i * px_per_frame;

      if (older <= newer || newer < 0)
        continue;                                     /* out of order, or after now */
      k = older / step - (older % step == 0 ? 1 : 0); /* the latest multiple below `older` */
      if (k * step < newer || k < 1 || x - last_x < min_px)
        continue;
      g_array_append_val (ticks, ((JsuiAxisTick){ i, k * step }));
      last_x = x;
    }
  return ticks;
}

static void
append_rect (GtkSnapshot *snapshot, const GdkRGBA *color, float x, float y, float w, float h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static gboolean
is_selected (JsuiTimeline *self, guint i, const JsuiFrame *f)
{
  return (self->selected_event != 0 && f->event_id == self->selected_event)
         || (self->sel_first >= 0 && (int) i >= self->sel_first && (int) i <= self->sel_last);
}

/* Marks at the top: a short line at the frame, "−2 s" beside it. */
static void
draw_axis (JsuiTimeline *self, GtkWidget *widget, GtkSnapshot *snapshot, GArray *frames,
           guint first, guint last, float step, const GdkRGBA *fg)
{
  g_autofree gint64 *ends = NULL;
  g_autoptr (GArray) ticks = NULL;
  g_autoptr (PangoLayout) layout = NULL;
  GdkRGBA dim = *fg;
  gint64 now, step_ns;

  if (self->snapshot == NULL || last <= first + 1)
    return;
  now = self->snapshot->now_ns > 0 ? self->snapshot->now_ns
                                   : g_array_index (frames, JsuiFrame, frames->len - 1).end_ns;
  ends = g_new (gint64, frames->len);
  for (guint i = 0; i < frames->len; i++)
    ends[i] = g_array_index (frames, JsuiFrame, i).end_ns;
  ticks = jsui_timeline_axis (ends, first, last, now, step, AXIS_MIN_PX, &step_ns);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  dim.alpha = 0.6f;
  for (guint t = 0; t < ticks->len; t++)
    {
      const JsuiAxisTick *tick = &g_array_index (ticks, JsuiAxisTick, t);
      float x = (float) tick->frame * step;
      g_autofree char *label = step_ns < 1000000000
                                   /* Translators: the timeline's time axis, seconds before now */
                                   ? g_strdup_printf (_ ("−%.1f s"), tick->before_ns / 1e9)
                                   : g_strdup_printf (_ ("−%.0f s"), tick->before_ns / 1e9);

      append_rect (snapshot, &dim, x, 0, 1, AXIS_TICK_PX);
      pango_layout_set_text (layout, label, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 3, 0));
      gtk_snapshot_append_layout (snapshot, layout, &dim);
      gtk_snapshot_restore (snapshot);
    }
}

static void
jsui_timeline_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);
  GArray *frames = frames_of (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gint64 budget = budget_of (self);
  gint64 scale_ns = budget * SCALE_BUDGETS;
  float step = (float) self->zoom;
  float bar = step >= 3 ? step - 1 : step;                /* a gap only when there is room */
  GdkRGBA colors[JS_N_EVENT_TIERS + 1], fg, line, select; /* by tier, then on time */
  float budget_y;
  double from = 0, to = width;
  guint first, last;

  if (frames == NULL || frames->len == 0)
    goto budget_line;
  /* The visible part only: the viewport's window onto us. */
  if (self->hadj != NULL)
    {
      graphene_point_t origin;
      GtkWidget *viewport = gtk_widget_get_parent (widget);

      if (viewport != NULL
          && gtk_widget_compute_point (viewport, widget, &GRAPHENE_POINT_INIT (0, 0), &origin))
        {
          from = MAX (0, origin.x);
          to = MIN (width, origin.x + gtk_widget_get_width (viewport));
        }
    }
  first = (guint) MAX (0, floor (from / step));
  last = (guint) MIN ((double) frames->len, ceil (to / step) + 1);

  jsui_fg_color (widget, &fg);
  for (guint t = 0; t <= JS_N_EVENT_TIERS; t++)
    jsui_tier_color (widget, t, &colors[t]);
  select = fg;
  select.alpha = 0.12f;
  for (guint i = first; i < last; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);
      float x = (float) i * step;
      float h = (float) height * (float) MIN (f->duration_ns, scale_ns) / (float) scale_ns;
      JsTier tier = JS_N_EVENT_TIERS; /* on time */

      jsui_frame_is_slow (self->snapshot->report, f->duration_ns, f->budget_ns, &tier);
      if (is_selected (self, i, f))
        append_rect (snapshot, &select, x, 0, step, height);
      append_rect (snapshot, &colors[tier], x, height - MAX (h, 1.0f), bar, MAX (h, 1.0f));
      if (f->duration_ns > scale_ns)
        append_rect (snapshot, &fg, x, 0, bar, 2); /* clipped: taller than shown */
    }

  draw_axis (self, widget, snapshot, frames, first, last, step, &fg);

budget_line:
  /* The budget line, across the whole width. */
  jsui_fg_color (widget, &line);
  line.alpha = 0.5f;
  budget_y = (float) height * (1.0f - (float) budget / (float) scale_ns);
  append_rect (snapshot, &line, 0, budget_y, width, 1);
}

/* Scrolls so that frame i is in view. */
static void
scroll_to_frame (JsuiTimeline *self, guint i)
{
  GtkAdjustment *adj = hadjustment (self);
  double x = jsui_timeline_x_for_frame (self, i), value, page;

  if (adj == NULL)
    return;
  value = gtk_adjustment_get_value (adj);
  page = gtk_adjustment_get_page_size (adj);
  /* halign=end: while we are narrower than the page, we do not scroll. */
  if (x < value)
    gtk_adjustment_set_value (adj, x);
  else if (x + self->zoom > value + page)
    gtk_adjustment_set_value (adj, x + self->zoom - page);
}

/* The accessible description: the frames, and the ones selected (the
 * keyboard and the pointer select; a screen reader hears what). Updated
 * only when one of them changed. */
static void
update_description (JsuiTimeline *self)
{
  GArray *frames = frames_of (self);
  guint n = frames != NULL ? frames->len : 0;
  g_autofree char *frames_text = NULL;
  g_autofree char *text = NULL;

  if (n == self->described_n && self->n_slow == self->described_slow
      && self->sel_first == self->described_first && self->sel_last == self->described_last)
    return;
  self->described_n = n;
  self->described_slow = self->n_slow;
  self->described_first = self->sel_first;
  self->described_last = self->sel_last;
  frames_text = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u recent frame, %u slow", "%u recent frames, %u slow", n), n,
      self->n_slow);
  if (self->sel_first < 0)
    text = g_steal_pointer (&frames_text);
  else if (self->sel_first == self->sel_last)
    /* Translators: the timeline's description: "N recent frames, M slow", the selected frame */
    text = g_strdup_printf (_ ("%s; frame %d selected"), frames_text, self->sel_first + 1);
  else
    /* Translators: the timeline's description: "N recent frames, M slow", the selected range */
    text = g_strdup_printf (_ ("%s; frames %d to %d selected"), frames_text, self->sel_first + 1,
                            self->sel_last + 1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
}

static void
set_selection (JsuiTimeline *self, int first, int last)
{
  GArray *frames = frames_of (self);
  int n = frames != NULL ? (int) frames->len : 0;

  if (first > last)
    {
      int t = first;

      first = last;
      last = t;
    }
  if (first < 0 || n == 0)
    {
      self->sel_first = self->sel_last = -1;
      self->sel_first_end = self->sel_last_end = 0;
    }
  else
    {
      self->sel_first = MIN (first, n - 1);
      self->sel_last = MIN (last, n - 1);
      self->sel_first_end = g_array_index (frames, JsuiFrame, self->sel_first).end_ns;
      self->sel_last_end = g_array_index (frames, JsuiFrame, self->sel_last).end_ns;
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
jsui_timeline_select_range (JsuiTimeline *self, int first, int last)
{
  g_return_if_fail (JSUI_IS_TIMELINE (self));

  set_selection (self, first, last);
  self->anchor = self->sel_first;
  g_signal_emit (self, signals[FRAMES_SELECTED], 0, self->sel_first, self->sel_last);
}

void
jsui_timeline_select_between (JsuiTimeline *self, double x0, double x1)
{
  int n = (int) jsui_timeline_get_n_frames (self);
  int a, b;

  g_return_if_fail (JSUI_IS_TIMELINE (self));

  if (n == 0)
    return;
  /* Past the ends: the first or the last frame. */
  a = (int) CLAMP (floor (MIN (x0, x1) / self->zoom), 0, n - 1);
  b = (int) CLAMP (floor (MAX (x0, x1) / self->zoom), 0, n - 1);
  jsui_timeline_select_range (self, a, b);
}

gboolean
jsui_timeline_get_selection (JsuiTimeline *self, guint *first, guint *last)
{
  g_return_val_if_fail (JSUI_IS_TIMELINE (self), FALSE);

  if (self->sel_first < 0)
    return FALSE;
  *first = (guint) self->sel_first;
  *last = (guint) self->sel_last;
  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, JsuiTimeline *self)
{
  self->drag_x = x;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  jsui_timeline_activate_at (self, x);
}

static void
drag_update_cb (GtkGestureDrag *gesture, double dx, double dy, JsuiTimeline *self)
{
  int a = jsui_timeline_frame_at (self, self->drag_x);
  int n = (int) jsui_timeline_get_n_frames (self);
  int b;

  if (a < 0 || n == 0)
    return;
  b = (int) CLAMP (floor ((self->drag_x + dx) / self->zoom), 0, n - 1);
  set_selection (self, a, b); /* drawn now, told at the end */
}

static void
drag_end_cb (GtkGestureDrag *gesture, double dx, double dy, JsuiTimeline *self)
{
  if (fabs (dx) >= self->zoom && jsui_timeline_frame_at (self, self->drag_x) >= 0)
    jsui_timeline_select_between (self, self->drag_x, self->drag_x + dx);
}

static void
motion_cb (GtkEventControllerMotion *motion, double x, double y, JsuiTimeline *self)
{
  self->pointer_x = x;
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll, double dx, double dy, JsuiTimeline *self)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (!(state & GDK_CONTROL_MASK) || dy == 0)
    return FALSE; /* the scrolled window's */
  zoom_at (self, dy < 0 ? self->zoom * ZOOM_FACTOR : self->zoom / ZOOM_FACTOR, self->pointer_x);
  return TRUE;
}

static void
pinch_begin_cb (GtkGesture *gesture, GdkEventSequence *sequence, JsuiTimeline *self)
{
  self->pinch_start_zoom = self->zoom;
}

static void
pinch_scale_cb (GtkGestureZoom *gesture, double scale, JsuiTimeline *self)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    x = default_anchor (self);
  zoom_at (self, self->pinch_start_zoom * scale, x);
}

/* Left/Right move the selection (Shift: extend it from where it started). */
static void
move_selection (JsuiTimeline *self, int to, gboolean extend)
{
  int n = (int) jsui_timeline_get_n_frames (self);

  if (n == 0)
    return;
  to = CLAMP (to, 0, n - 1);
  if (extend && self->sel_first >= 0)
    {
      int anchor = self->anchor >= 0 ? self->anchor : self->sel_first;

      jsui_timeline_select_range (self, anchor, to);
      self->anchor = anchor;
    }
  else
    jsui_timeline_select_range (self, to, to);
  scroll_to_frame (self, (guint) to);
}

/* The moving end of the selection: the one away from where it started. */
static int
cursor_of (JsuiTimeline *self)
{
  if (self->sel_first < 0)
    return -1;
  return self->anchor == self->sel_first ? self->sel_last : self->sel_first;
}

/* Keyboard access: widget actions, bound to keys in class_init. */
static void
action_move (GtkWidget *widget, const char *name, GVariant *parameter)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);
  int n = (int) jsui_timeline_get_n_frames (self);
  gboolean extend = g_str_has_prefix (name, "timeline.extend-");
  const char *to = strrchr (name, '-') != NULL && extend ? strrchr (name, '-') + 1 : name + 9;
  int cursor = cursor_of (self);

  if (g_str_equal (to, "previous"))
    move_selection (self, cursor < 0 ? n - 1 : cursor - 1, extend);
  else if (g_str_equal (to, "next"))
    move_selection (self, cursor < 0 ? n - 1 : cursor + 1, extend);
  else if (g_str_equal (to, "first"))
    move_selection (self, 0, extend);
  else if (g_str_equal (to, "last"))
    move_selection (self, n - 1, extend);
}

static void
action_zoom (GtkWidget *widget, const char *name, GVariant *parameter)
{
  if (g_str_equal (name, "timeline.zoom-in"))
    jsui_timeline_zoom_in (JSUI_TIMELINE (widget));
  else
    jsui_timeline_zoom_out (JSUI_TIMELINE (widget));
}

static void
action_activate (GtkWidget *widget, const char *name, GVariant *parameter)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);

  if (self->sel_first >= 0 && self->sel_first == self->sel_last)
    jsui_timeline_activate_at (self, jsui_timeline_x_for_frame (self, (guint) self->sel_first));
}

static void
jsui_timeline_dispose (GObject *object)
{
  JsuiTimeline *self = JSUI_TIMELINE (object);

  if (self->hadj != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->hadj, self);
      g_object_remove_weak_pointer (G_OBJECT (self->hadj), (gpointer *) &self->hadj);
      self->hadj = NULL;
    }
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  G_OBJECT_CLASS (jsui_timeline_parent_class)->dispose (object);
}

static void
jsui_timeline_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (jsui_timeline_parent_class)->root (widget);
  watch_adjustment (JSUI_TIMELINE (widget));
}

static void
jsui_timeline_unroot (GtkWidget *widget)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);

  if (self->hadj != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->hadj, self);
      g_object_remove_weak_pointer (G_OBJECT (self->hadj), (gpointer *) &self->hadj);
      self->hadj = NULL;
    }
  GTK_WIDGET_CLASS (jsui_timeline_parent_class)->unroot (widget);
}

static void
jsui_timeline_class_init (JsuiTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_timeline_dispose;
  widget_class->measure = jsui_timeline_measure;
  widget_class->snapshot = jsui_timeline_snapshot;
  widget_class->root = jsui_timeline_root;
  widget_class->unroot = jsui_timeline_unroot;

  /**
   * JsuiTimeline::event-activated:
   * @id: the jank event of the clicked frame
   */
  signals[EVENT_ACTIVATED]
      = g_signal_new ("event-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  /**
   * JsuiTimeline::frames-selected:
   * @first: the first selected frame (index into the snapshot's frames), -1: none
   * @last: the last one, -1: none
   */
  signals[FRAMES_SELECTED]
      = g_signal_new ("frames-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);

  {
    static const struct
    {
      const char *action;
      guint keys[3];
      GdkModifierType mods;
    } bindings[] = {
      { "timeline.previous", { GDK_KEY_Left, GDK_KEY_KP_Left }, 0 },
      { "timeline.next", { GDK_KEY_Right, GDK_KEY_KP_Right }, 0 },
      { "timeline.first", { GDK_KEY_Home, GDK_KEY_KP_Home }, 0 },
      { "timeline.last", { GDK_KEY_End, GDK_KEY_KP_End }, 0 },
      { "timeline.extend-previous", { GDK_KEY_Left, GDK_KEY_KP_Left }, GDK_SHIFT_MASK },
      { "timeline.extend-next", { GDK_KEY_Right, GDK_KEY_KP_Right }, GDK_SHIFT_MASK },
      { "timeline.extend-first", { GDK_KEY_Home, GDK_KEY_KP_Home }, GDK_SHIFT_MASK },
      { "timeline.extend-last", { GDK_KEY_End, GDK_KEY_KP_End }, GDK_SHIFT_MASK },
      { "timeline.zoom-in", { GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add }, 0 },
      { "timeline.zoom-out", { GDK_KEY_minus, GDK_KEY_KP_Subtract }, 0 },
      { "timeline.activate", { GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space }, 0 },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
      {
        GtkWidgetActionActivateFunc func
            = g_str_has_prefix (bindings[i].action, "timeline.zoom")  ? action_zoom
              : g_str_equal (bindings[i].action, "timeline.activate") ? action_activate
                                                                      : action_move;

        gtk_widget_class_install_action (widget_class, bindings[i].action, NULL, func);
        for (guint k = 0; k < G_N_ELEMENTS (bindings[i].keys) && bindings[i].keys[k] != 0; k++)
          gtk_widget_class_add_binding_action (widget_class, bindings[i].keys[k], bindings[i].mods,
                                               bindings[i].action, NULL);
      }
  }
  gtk_widget_class_set_css_name (widget_class, "jankscope-timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jsui_timeline_init (JsuiTimeline *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *pinch = gtk_gesture_zoom_new ();
  GtkEventController *scroll
      = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->zoom = JSUI_TIMELINE_STEP;
  self->sel_first = self->sel_last = self->anchor = -1;
  self->described_n = self->described_slow = G_MAXUINT;
  self->described_first = self->described_last = -2;

  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (pinch, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (pinch_scale_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (pinch));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_tooltip_text (
      GTK_WIDGET (self),
      _ ("Click a frame or drag across frames to see them in the Frames page; Ctrl+scroll or +/− "
         "zooms"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Frame timeline"), -1);
}

GtkWidget *
jsui_timeline_new (void)
{
  return g_object_new (JSUI_TYPE_TIMELINE, NULL);
}

void
jsui_timeline_set_snapshot (JsuiTimeline *self, JsuiSnapshot *snapshot)
{
  GArray *frames;
  guint slow = 0, first, last, n;

  g_return_if_fail (JSUI_IS_TIMELINE (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;

  /* The selected frames, where they are now (older frames left the ring). */
  if (self->sel_first >= 0 && snapshot != NULL
      && jsui_snapshot_frames_between (snapshot, self->sel_first_end, self->sel_last_end, &first,
                                       &last))
    {
      int shift = (int) first - self->sel_first;

      self->sel_first = (int) first;
      self->sel_last = (int) last;
      if (self->anchor >= 0)
        self->anchor += shift;
    }
  else
    self->sel_first = self->sel_last = self->anchor = -1;

  frames = frames_of (self);
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);

      slow += jsui_frame_is_slow (snapshot->report, f->duration_ns, f->budget_ns, NULL);
    }
  n = frames != NULL ? frames->len : 0;
  self->n_slow = slow;
  update_description (self);
  /* The width follows the number of frames: a relayout of the window only
   * when it changed (the ring is full after a while: most refreshes). */
  if (n != self->laid_out_n)
    {
      self->laid_out_n = n;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

JsuiSnapshot *
jsui_timeline_get_snapshot (JsuiTimeline *self)
{
  g_return_val_if_fail (JSUI_IS_TIMELINE (self), NULL);
  return self->snapshot;
}

guint
jsui_timeline_get_n_frames (JsuiTimeline *self)
{
  g_return_val_if_fail (JSUI_IS_TIMELINE (self), 0);
  return frames_of (self) != NULL ? frames_of (self)->len : 0;
}

void
jsui_timeline_set_selected_event (JsuiTimeline *self, gint64 event_id)
{
  g_return_if_fail (JSUI_IS_TIMELINE (self));

  if (self->selected_event == event_id)
    return;
  self->selected_event = event_id;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
jsui_timeline_frame_at (JsuiTimeline *self, double x)
{
  guint n = jsui_timeline_get_n_frames (self);
  double i;

  if (x < 0)
    return -1;
  i = floor (x / self->zoom);
  return i < n ? (int) i : -1;
}

double
jsui_timeline_x_for_frame (JsuiTimeline *self, guint i)
{
  g_return_val_if_fail (JSUI_IS_TIMELINE (self), 0);
  return i * self->zoom;
}

gint64
jsui_timeline_activate_at (JsuiTimeline *self, double x)
{
  int i = jsui_timeline_frame_at (self, x);
  gint64 id;

  if (i < 0)
    return 0;
  jsui_timeline_select_range (self, i, i);
  id = g_array_index (frames_of (self), JsuiFrame, i).event_id;
  if (id != 0)
    g_signal_emit (self, signals[EVENT_ACTIVATED], 0, id);
  return id;
}

double
jsui_timeline_get_zoom (JsuiTimeline *self)
{
  g_return_val_if_fail (JSUI_IS_TIMELINE (self), JSUI_TIMELINE_STEP);
  return self->zoom;
}

void
jsui_timeline_set_zoom (JsuiTimeline *self, double zoom)
{
  g_return_if_fail (JSUI_IS_TIMELINE (self));
  zoom_at (self, zoom, default_anchor (self));
}

void
jsui_timeline_zoom_in (JsuiTimeline *self)
{
  g_return_if_fail (JSUI_IS_TIMELINE (self));
  zoom_at (self, self->zoom * ZOOM_FACTOR, default_anchor (self));
}

void
jsui_timeline_zoom_out (JsuiTimeline *self)
{
  g_return_if_fail (JSUI_IS_TIMELINE (self));
  zoom_at (self, self->zoom / ZOOM_FACTOR, default_anchor (self));
}
