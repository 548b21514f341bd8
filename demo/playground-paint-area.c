/* playground-paint-area.c: a widget whose next paint can be made slow
 *
 * playground_paint_area_arm() makes the next snapshot() stall, inside GTK's frame clock paint
 * phase. When it is done, the widget emits "painted" (start and end of the stall, monotonic µs)
 * from an idle, because signals that change other widgets must not run during a snapshot.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "playground-paint-area.h"
#include "playground-stalls.h"

struct _PlaygroundPaintArea
{
  GtkWidget parent_instance;

  guint stall_ms; /* 0: the next paint is a normal one */
  guint slow_paints;
  gint64 stall_start;
  gint64 stall_end;
  guint report_id;
};

G_DEFINE_FINAL_TYPE (PlaygroundPaintArea, playground_paint_area, GTK_TYPE_WIDGET)

enum
{
  PAINTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const GdkRGBA palette[] = {
  { 0.21f, 0.52f, 0.89f, 1.f }, { 0.20f, 0.82f, 0.48f, 1.f }, { 0.96f, 0.76f, 0.07f, 1.f },
  { 0.90f, 0.38f, 0.00f, 1.f }, { 0.75f, 0.11f, 0.16f, 1.f }, { 0.57f, 0.25f, 0.67f, 1.f },
};

static gboolean
report_painted (gpointer data)
{
  PlaygroundPaintArea *self = data;

  self->report_id = 0;
  g_signal_emit (self, signals[PAINTED], 0, self->stall_start, self->stall_end);
  /* Paint once more, at normal speed, so the new colour shows what happened. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

static void
playground_paint_area_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  PlaygroundPaintArea *self = PLAYGROUND_PAINT_AREA (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr (PangoLayout) layout = NULL;
  g_autofree char *text = NULL;
  GdkRGBA white = { 1.f, 1.f, 1.f, 1.f };
  int text_width, text_height;

  if (self->stall_ms > 0)
    {
      self->stall_start = g_get_monotonic_time ();
      playground_stall_cpu (self->stall_ms);
      self->stall_end = g_get_monotonic_time ();
      self->stall_ms = 0;
      self->slow_paints++;
      if (self->report_id == 0)
        {
          self->report_id = g_idle_add_full (G_PRIORITY_DEFAULT, report_painted, self, NULL);
          g_source_set_name_by_id (self->report_id, "playground-paint-report");
        }
    }

  gtk_snapshot_append_color (snapshot, &palette[self->slow_paints % G_N_ELEMENTS (palette)],
                             &GRAPHENE_RECT_INIT (0, 0, width, height));

  text = g_strdup_printf (ngettext ("%u slow paint", "%u slow paints", self->slow_paints),
                          self->slow_paints);
  layout = gtk_widget_create_pango_layout (widget, text);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (
      snapshot, &GRAPHENE_POINT_INIT ((width - text_width) / 2.f, (height - text_height) / 2.f));
  gtk_snapshot_append_layout (snapshot, layout, &white);
  gtk_snapshot_restore (snapshot);
}

static void
playground_paint_area_dispose (GObject *object)
{
  PlaygroundPaintArea *self = PLAYGROUND_PAINT_AREA (object);

  g_clear_handle_id (&self->report_id, g_source_remove);

  G_OBJECT_CLASS (playground_paint_area_parent_class)->dispose (object);
}

static void
playground_paint_area_class_init (PlaygroundPaintAreaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = playground_paint_area_dispose;
  widget_class->snapshot = playground_paint_area_snapshot;

  /**
   * PlaygroundPaintArea::painted:
   * @start: when the slow paint started (monotonic µs)
   * @end: when it ended
   */
  signals[PAINTED] = g_signal_new ("painted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  gtk_widget_class_set_css_name (widget_class, "paintarea");
}

static void
playground_paint_area_init (PlaygroundPaintArea *self)
{
}

/* Makes the next paint stall for @stall_ms, and asks for that paint. */
void
playground_paint_area_arm (PlaygroundPaintArea *self, guint stall_ms)
{
  g_return_if_fail (PLAYGROUND_IS_PAINT_AREA (self));
  g_return_if_fail (stall_ms > 0);

  self->stall_ms = stall_ms;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
