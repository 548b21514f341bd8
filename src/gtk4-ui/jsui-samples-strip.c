/* jsui-samples-strip.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsr-profile.h"
#include "jsui-colors.h"
#include "jsui-format.h"
#include "jsui-samples-strip.h"
#include "jsui-stack-tree.h"

static gint64
event_end (const JsrReportEvent *ev)
{
  return ev->detail != NULL && ev->detail->end_ns > ev->start_ns ? ev->detail->end_ns
                                                                 : ev->start_ns + ev->duration_ns;
}

GArray *
jsui_samples_layout (const JsrReportEvent *event)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (JsuiSampleSpan));
  GArray *samples = event != NULL && event->detail != NULL ? event->detail->samples : NULL;
  gint64 start, end, n, prev_end = G_MININT64;
  g_autofree gint64 *from = NULL;
  g_autofree gint64 *to = NULL;

  if (samples == NULL || samples->len == 0)
    return spans;
  start = event->start_ns;
  end = event_end (event);
  if (end <= start)
    return spans;
  n = samples->len;
  from = g_new (gint64, n);
  to = g_new (gint64, n);

  /* Between two samples, the midpoint of the gap. */
  for (gint64 i = 0; i < n; i++)
    {
      const JsrReportSample *s = &g_array_index (samples, JsrReportSample, i);
      gint64 last = MAX (s->last_ns, s->t_ns);

      from[i] = s->t_ns;
      to[i] = last;
      if (i > 0)
        {
          const JsrReportSample *p = &g_array_index (samples, JsrReportSample, i - 1);
          gint64 prev_last = MAX (p->last_ns, p->t_ns);

          if (s->t_ns > prev_last)
            from[i] = to[i - 1] = prev_last + (s->t_ns - prev_last) / 2;
        }
    }
  /* The outer ends reach out as far as their inner side did. */
  if (n > 1)
    {
      const JsrReportSample *first = &g_array_index (samples, JsrReportSample, 0);
      const JsrReportSample *last = &g_array_index (samples, JsrReportSample, n - 1);

      from[0] -= to[0] - MAX (first->last_ns, first->t_ns);
      to[n - 1] += last->t_ns - from[n - 1];
    }

  for (gint64 i = 0; i < n; i++)
    {
      const JsrReportSample *s = &g_array_index (samples, JsrReportSample, i);
      gint64 a = CLAMP (from[i], start, end), b = CLAMP (to[i], start, end);
      JsuiSampleSpan span = {
        .x = (double) (a - start) / (double) (end - start),
        .width = (double) (b - a) / (double) (end - start),
        .stack = s->stack,
        .node = s->node,
        .waiting = g_strcmp0 (s->state, "waiting") == 0,
        .sample = (guint) i,
      };

      /* Out of order in the file (untrusted): never overlap. */
      if (a < prev_end)
        continue;
      prev_end = b;
      g_array_append_val (spans, span);
    }
  return spans;
}

const JsuiSampleSpan *
jsui_samples_hit (GArray *spans, double x)
{
  const JsuiSampleSpan *best = NULL;
  double best_distance = G_MAXDOUBLE;

  /* A zero-width span (a lone sample) is hit when it is the nearest. */
  for (guint i = 0; i < spans->len; i++)
    {
      const JsuiSampleSpan *s = &g_array_index (spans, JsuiSampleSpan, i);
      double d = x < s->x ? s->x - x : x > s->x + s->width ? x - s->x - s->width : 0;

      if (d < best_distance)
        {
          best = s;
          best_distance = d;
        }
    }
  return best_distance <= 0.01 ? best : NULL;
}

struct _JsuiSamplesStrip
{
  GtkWidget parent_instance;
  JsuiSnapshot *snapshot;
  const JsrReportEvent *event; /* owned by snapshot */
  GArray *spans;
  GArray *colors; /* GdkRGBA per node of the event's profile (alpha 0: unnamed), made in
                   * set_event: every sampled stack has one, listed in `stacks` or not */
};

G_DEFINE_FINAL_TYPE (JsuiSamplesStrip, jsui_samples_strip, GTK_TYPE_WIDGET)

enum
{
  STACK_ACTIVATED,
  NODE_ACTIVATED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static const JsrProfile *
profile_of (JsuiSamplesStrip *self)
{
  return self->event != NULL && self->event->detail != NULL ? self->event->detail->profile : NULL;
}

/* The innermost frame of the node's stack that is not jankscope's own:
 * what names a stack. */
static char *
node_name (const JsrProfile *profile, int node)
{
  g_autoptr (GPtrArray) path = NULL;

  if (profile == NULL || node < 0 || (guint) node >= profile->nodes->len)
    return NULL;
  path = g_ptr_array_new ();
  jsr_profile_path (profile, (guint) node, path);
  for (guint i = 0; i < path->len; i++)
    {
      const JsrProfileNode *n = g_ptr_array_index (path, i);
      const JsrReportFrame *f
          = n->frame >= 0 ? g_ptr_array_index (profile->frames, n->frame) : NULL;

      if (f == NULL)
        return g_strdup (n->frame == JSR_PROFILE_TRUNCATED ? JSR_PROFILE_TRUNCATED_NAME
                                                           : JSR_PROFILE_OTHER_NAME);
      if (!jsui_frame_is_own (f))
        return jsui_frame_name (f);
    }
  return NULL;
}

/* The flame graph's colour of the function (jsui-flame-graph.c). */
static void
color_for (const char *name, GdkRGBA *color)
{
  guint h = g_str_hash (name);
  float r = 0.85f + (h % 16) / 100.0f;
  float g = 0.35f + ((h >> 4) % 40) / 100.0f;
  float b = 0.15f + ((h >> 10) % 15) / 100.0f;

  *color = (GdkRGBA){ MIN (r, 1.0f), g, b, 1.0f };
}

static void
jsui_samples_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                            int *minimum, int *natural, int *minimum_baseline,
                            int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 60;
      *natural = 400;
    }
  else
    *minimum = *natural = JSUI_SAMPLES_STRIP_HEIGHT;
}

static void
jsui_samples_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JsuiSamplesStrip *self = JSUI_SAMPLES_STRIP (widget);
  float width = (float) gtk_widget_get_width (widget);
  float height = (float) gtk_widget_get_height (widget);
  GdkRGBA track, none;
  /* the run of spans being drawn: adjacent ones of the same stack and
   * state are one rectangle (thousands of samples over a few hundred px) */
  const JsuiSampleSpan *run = NULL;
  float run_x0 = 0, run_x1 = 0;

  jsui_fg_color (widget, &track);
  none = track;
  track.alpha = 0.08f;
  none.alpha = 0.3f;
  gtk_snapshot_append_color (snapshot, &track, &GRAPHENE_RECT_INIT (0, 0, width, height));
  for (guint i = 0; i <= self->spans->len; i++)
    {
      const JsuiSampleSpan *s
          = i < self->spans->len ? &g_array_index (self->spans, JsuiSampleSpan, i) : NULL;
      float x0 = s != NULL ? (float) s->x * width : 0;
      float x1 = s != NULL ? x0 + MAX ((float) s->width * width, 1) : 0;

      if (s != NULL && run != NULL && s->node == run->node && s->waiting == run->waiting
          && x0 <= run_x1 + 1)
        {
          run_x1 = MAX (run_x1, x1);
          continue;
        }
      /* narrower than a pixel, inside the run's last pixel: covered already */
      if (s != NULL && run != NULL && x1 <= run_x1 + 0.5f)
        continue;
      if (run != NULL)
        {
          GdkRGBA color = none;
          float h = run->waiting ? height * 0.6f : height;

          if (run->node >= 0 && (guint) run->node < self->colors->len
              && g_array_index (self->colors, GdkRGBA, run->node).alpha > 0)
            color = g_array_index (self->colors, GdkRGBA, run->node);
          if (run->waiting)
            color.alpha *= 0.6f; /* off-CPU: paler and lower */
          gtk_snapshot_append_color (snapshot, &color,
                                     &GRAPHENE_RECT_INIT (run_x0, height - h, run_x1 - run_x0, h));
        }
      run = s;
      run_x0 = x0;
      run_x1 = x1;
    }
}

/* A sample's state and wait kind, as the report names them, translated. */
static const char *
state_label (const char *state)
{
  if (state == NULL)
    return "?";
  if (g_str_equal (state, "running"))
    return C_ ("sample state", "running");
  if (g_str_equal (state, "waiting"))
    return C_ ("sample state", "waiting");
  if (g_str_equal (state, "runnable"))
    return C_ ("sample state", "runnable");
  return state;
}

char *
jsui_samples_strip_describe_at (JsuiSamplesStrip *self, double x)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  const JsuiSampleSpan *s;
  const JsrReportSample *sample;
  g_autofree char *name = NULL;
  g_autofree char *at = NULL;

  g_return_val_if_fail (JSUI_IS_SAMPLES_STRIP (self), NULL);

  if (width <= 0 || (s = jsui_samples_hit (self->spans, x / width)) == NULL)
    return NULL;
  sample = &g_array_index (self->event->detail->samples, JsrReportSample, s->sample);
  name = node_name (profile_of (self), s->node);
  at = jsui_format_duration (MAX (0, sample->t_ns - self->event->start_ns));
  if (sample->wait != NULL)
    /* Translators: a sample of the strip: time into the event, state, wait kind, function */
    return g_strdup_printf (_ ("%s: %s (%s) in %s"), at, state_label (sample->state),
                            jsui_wait_kind_label (sample->wait),
                            name != NULL ? name : _ ("no stack"));
  /* Translators: a sample of the strip: time into the event, state, function */
  return g_strdup_printf (_ ("%s: %s in %s"), at, state_label (sample->state),
                          name != NULL ? name : _ ("no stack"));
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  g_autofree char *text = jsui_samples_strip_describe_at (JSUI_SAMPLES_STRIP (widget), x);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

int
jsui_samples_strip_activate_at (JsuiSamplesStrip *self, double x)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  const JsuiSampleSpan *s;

  g_return_val_if_fail (JSUI_IS_SAMPLES_STRIP (self), -1);

  if (width <= 0 || (s = jsui_samples_hit (self->spans, x / width)) == NULL)
    return -1;
  if (s->node >= 0)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, s->node);
  if (s->stack < 0)
    return -1;
  g_signal_emit (self, signals[STACK_ACTIVATED], 0, s->stack);
  return s->stack;
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, JsuiSamplesStrip *self)
{
  jsui_samples_strip_activate_at (self, x);
}

static void
jsui_samples_strip_dispose (GObject *object)
{
  JsuiSamplesStrip *self = JSUI_SAMPLES_STRIP (object);

  self->event = NULL;
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->colors, g_array_unref);
  G_OBJECT_CLASS (jsui_samples_strip_parent_class)->dispose (object);
}

static void
jsui_samples_strip_class_init (JsuiSamplesStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsui_samples_strip_dispose;
  widget_class->measure = jsui_samples_strip_measure;
  widget_class->snapshot = jsui_samples_strip_snapshot;

  /**
   * JsuiSamplesStrip::stack-activated:
   * @stack: index into the event's stacks
   */
  signals[STACK_ACTIVATED]
      = g_signal_new ("stack-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  /**
   * JsuiSamplesStrip::node-activated:
   * @node: the sample's node in the event's profile (any stack, listed or not)
   */
  signals[NODE_ACTIVATED]
      = g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-samples");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jsui_samples_strip_init (JsuiSamplesStrip *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->spans = g_array_new (FALSE, FALSE, sizeof (JsuiSampleSpan));
  self->colors = g_array_new (FALSE, TRUE, sizeof (GdkRGBA));
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Samples over time"), -1);
}

GtkWidget *
jsui_samples_strip_new (void)
{
  return g_object_new (JSUI_TYPE_SAMPLES_STRIP, NULL);
}

void
jsui_samples_strip_set_event (JsuiSamplesStrip *self, JsuiSnapshot *snapshot,
                              const JsrReportEvent *event)
{
  g_autofree char *description = NULL;
  guint n;

  g_return_if_fail (JSUI_IS_SAMPLES_STRIP (self));

  if (snapshot != NULL)
    jsui_snapshot_ref (snapshot);
  g_clear_pointer (&self->snapshot, jsui_snapshot_unref);
  self->snapshot = snapshot;
  self->event = snapshot != NULL ? event : NULL;
  g_clear_pointer (&self->spans, g_array_unref);
  self->spans = jsui_samples_layout (self->event);
  /* one colour per node a sample ended in, named once here rather than per
   * span and draw */
  n = profile_of (self) != NULL ? profile_of (self)->nodes->len : 0;
  g_array_set_size (self->colors, n);
  for (guint i = 0; i < n; i++)
    g_array_index (self->colors, GdkRGBA, i) = (GdkRGBA){ 0, 0, 0, 0 };
  for (guint i = 0; i < self->spans->len; i++)
    {
      int node = g_array_index (self->spans, JsuiSampleSpan, i).node;
      GdkRGBA *color;
      g_autofree char *name = NULL;

      if (node < 0 || (guint) node >= n)
        continue;
      color = &g_array_index (self->colors, GdkRGBA, node);
      if (color->alpha > 0 || (name = node_name (profile_of (self), node)) == NULL)
        continue;
      color_for (name, color);
    }

  n = self->event != NULL && self->event->detail != NULL ? self->event->detail->samples->len : 0;
  description = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u sample over the event", "%u samples over the event", n), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GArray *
jsui_samples_strip_get_spans (JsuiSamplesStrip *self)
{
  g_return_val_if_fail (JSUI_IS_SAMPLES_STRIP (self), NULL);
  return self->spans;
}
