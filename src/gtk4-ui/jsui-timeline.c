/* jsui-timeline.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-colors.h"
#include "jsui-timeline.h"

#define MIN_HEIGHT 96
/* Linear, 6 budgets high (100 ms at 60 Hz): a frame on time is a sixth of
 * the height; a longer frame is clipped, with a marker on top, rather than
 * flattening all the others. */
#define SCALE_BUDGETS 6

struct _JsuiTimeline
{
  GtkWidget parent_instance;
  JsuiSnapshot *snapshot;
  gint64 selected_event;
  int selected_frame;
};

G_DEFINE_FINAL_TYPE (JsuiTimeline, jsui_timeline, GTK_TYPE_WIDGET)

enum
{
  EVENT_ACTIVATED,
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
  return 16667000;
}

static void
jsui_timeline_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                       int *natural, int *minimum_baseline, int *natural_baseline)
{
  JsuiTimeline *self = JSUI_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* A GtkViewport scrolls over its child's minimum width. */
      *minimum = *natural = (int)jsui_timeline_get_n_frames (self) * JSUI_TIMELINE_STEP;
    }
  else
    *minimum = *natural = MIN_HEIGHT;
}

static void
append_rect (GtkSnapshot *snapshot, const GdkRGBA *color, float x, float y, float w, float h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
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
  GdkRGBA colors[JSUI_N_TIERS], fg, line, select;
  float budget_y;

  jsui_fg_color (widget, &fg);
  for (guint t = 0; t < JSUI_N_TIERS; t++)
    jsui_tier_color (widget, t, &colors[t]);

  select = fg;
  select.alpha = 0.12f;
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);
      float x = (float)i * JSUI_TIMELINE_STEP;
      float h = (float)height * (float)MIN (f->duration_ns, scale_ns) / (float)scale_ns;
      JsuiTier tier = jsui_frame_tier (f->duration_ns, f->budget_ns);

      if (x > width)
        break;
      if ((self->selected_event != 0 && f->event_id == self->selected_event)
          || (int)i == self->selected_frame)
        append_rect (snapshot, &select, x - 0.5f, 0, JSUI_TIMELINE_STEP, height);
      append_rect (snapshot, &colors[tier], x, height - MAX (h, 1.0f), JSUI_TIMELINE_BAR,
                   MAX (h, 1.0f));
      if (f->duration_ns > scale_ns)
        append_rect (snapshot, &fg, x, 0, JSUI_TIMELINE_BAR, 2); /* clipped: taller than shown */
    }

  /* The budget line, across the whole width. */
  line = fg;
  line.alpha = 0.5f;
  budget_y = (float)height * (1.0f - (float)budget / (float)scale_ns);
  append_rect (snapshot, &line, 0, budget_y, width, 1);
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, JsuiTimeline *self)
{
  jsui_timeline_activate_at (self, x);
}

static void
jsui_timeline_dispose (GObject *object)
{
  JsuiTimeline *self = JSUI_TIMELINE (object);

  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  G_OBJECT_CLASS (jsui_timeline_parent_class)->dispose (object);
}

static void
jsui_timeline_class_init (JsuiTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_timeline_dispose;
  widget_class->measure = jsui_timeline_measure;
  widget_class->snapshot = jsui_timeline_snapshot;

  /**
   * JsuiTimeline::event-activated:
   * @id: the jank event of the clicked frame
   */
  signals[EVENT_ACTIVATED]
      = g_signal_new ("event-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  gtk_widget_class_set_css_name (widget_class, "jankscope-timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jsui_timeline_init (JsuiTimeline *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->selected_frame = -1;
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
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
  guint slow = 0;
  g_autofree char *description = NULL;

  g_return_if_fail (JSUI_IS_TIMELINE (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;
  self->selected_frame = -1;

  frames = frames_of (self);
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    {
      const JsuiFrame *f = &g_array_index (frames, JsuiFrame, i);

      slow += jsui_frame_tier (f->duration_ns, f->budget_ns) != JSUI_TIER_OK;
    }
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u recent frame, %u slow",
                                              "%u recent frames, %u slow",
                                              frames != NULL ? frames->len : 0),
                                 frames != NULL ? frames->len : 0, slow);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description, -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
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
  int i;

  if (x < 0)
    return -1;
  i = (int)(x / JSUI_TIMELINE_STEP);
  return (guint)i < n ? i : -1;
}

gint64
jsui_timeline_activate_at (JsuiTimeline *self, double x)
{
  int i = jsui_timeline_frame_at (self, x);
  gint64 id;

  if (i < 0)
    return 0;
  self->selected_frame = i;
  id = g_array_index (frames_of (self), JsuiFrame, i).event_id;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (id != 0)
    g_signal_emit (self, signals[EVENT_ACTIVATED], 0, id);
  return id;
}
