/* playground-window.c: the jank playground's window, one button per kind of stall
 *
 * Every button activates "playground.stall" with the action's name, so a click and a scripted
 * step (playground_window_run_action()) take the same path. When a stall is over, the window
 * shows how long the main thread was blocked and emits "stall-finished".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n.h>

#include "playground-paint-area.h"
#include "playground-stalls.h"
#include "playground-window.h"

#define SLOW_IDLE_MS 150
#define SMALL_STALL_MS 30
#define N_SMALL_STALLS 20
#define SLOW_PAINT_MS 200

struct _PlaygroundWindow
{
  GtkApplicationWindow parent_instance;

  GtkLabel *status_label;
  PlaygroundPaintArea *paint_area;
};

G_DEFINE_FINAL_TYPE (PlaygroundWindow, playground_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  STALL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_slow_idle (PlaygroundWindow *self);
static void start_small_stalls (PlaygroundWindow *self);
static void start_slow_paint (PlaygroundWindow *self);

typedef struct
{
  const char *name;
  const char *title;         /* translatable, as on the button */
  PlaygroundStallFunc stall; /* blocks right away for ms ... */
  guint ms;
  void (*start) (PlaygroundWindow *self); /* ... or starts something that blocks later */
} PlaygroundAction;

static const PlaygroundAction actions[] = {
  { "cpu", N_ ("CPU-bound work"), playground_stall_cpu, 300, NULL },
  { "sleep", N_ ("Sleep wait"), playground_stall_sleep, 300, NULL },
  { "io", N_ ("IO wait"), playground_stall_io, 300, NULL },
  { "lock", N_ ("Lock wait"), playground_stall_lock, 400, NULL },
  { "slow-idle", N_ ("Slow idle handler"), NULL, 0, start_slow_idle },
  { "small-stalls", N_ ("Many small stalls"), NULL, 0, start_small_stalls },
  { "slow-paint", N_ ("Slow paint"), NULL, 0, start_slow_paint },
  { "hang", N_ ("Multi-second hang"), playground_stall_cpu, 3000, NULL },
};

static const PlaygroundAction *
find_action (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    if (g_strcmp0 (actions[i].name, name) == 0)
      return &actions[i];
  return NULL;
}

/* @start and @end span the stall (monotonic µs); @blocked is the part of that span during which
 * the main thread was blocked (less than the span when the stall came in pieces). */
static void
finish (PlaygroundWindow *self, const char *name, gint64 start, gint64 end, gint64 blocked)
{
  const PlaygroundAction *action = find_action (name);
  g_autofree char *text = NULL;

  if (blocked == end - start)
    text = g_strdup_printf (_ ("%s: blocked the main thread for %.0f ms"), _ (action->title),
                            blocked / 1000.);
  else
    text = g_strdup_printf (_ ("%s: blocked the main thread for %.0f ms within %.0f ms"),
                            _ (action->title), blocked / 1000., (end - start) / 1000.);
  gtk_label_set_text (self->status_label, text);

  g_signal_emit (self, signals[STALL_FINISHED], 0, name, start, end, blocked);
}

static void
add_idle (const char *name, GSourceFunc func, gpointer data, GDestroyNotify notify)
{
  GSource *source = g_idle_source_new ();

  g_source_set_name (source, name);
  g_source_set_callback (source, func, data, notify);
  g_source_attach (source, NULL);
  g_source_unref (source);
}

static gboolean
slow_idle_cb (gpointer data)
{
  PlaygroundWindow *self = data;
  gint64 start = g_get_monotonic_time ();
  gint64 end;

  playground_stall_cpu (SLOW_IDLE_MS);
  end = g_get_monotonic_time ();
  finish (self, "slow-idle", start, end, end - start);
  return G_SOURCE_REMOVE;
}

static void
start_slow_idle (PlaygroundWindow *self)
{
  add_idle ("playground-slow-idle", slow_idle_cb, g_object_ref (self), g_object_unref);
}

typedef struct
{
  PlaygroundWindow *window;
  guint refs;
  guint left;
  gint64 first_start;
  gint64 blocked;
} SmallStalls;

static void
small_stalls_unref (gpointer data)
{
  SmallStalls *stalls = data;

  if (--stalls->refs > 0)
    return;
  g_object_unref (stalls->window);
  g_free (stalls);
}

/* One short stall per idle: each stays under the jank threshold, but all of
 * them are ready at once, so GLib runs them in a single main-loop iteration
 * that, as a whole, blocks the loop for N_SMALL_STALLS * SMALL_STALL_MS. */
static gboolean
small_stall_cb (gpointer data)
{
  SmallStalls *stalls = data;
  gint64 start = g_get_monotonic_time ();
  gint64 end;

  if (stalls->first_start == 0)
    stalls->first_start = start;
  playground_stall_cpu (SMALL_STALL_MS);
  end = g_get_monotonic_time ();
  stalls->blocked += end - start;

  if (--stalls->left == 0)
    finish (stalls->window, "small-stalls", stalls->first_start, end, stalls->blocked);
  return G_SOURCE_REMOVE;
}

static void
start_small_stalls (PlaygroundWindow *self)
{
  SmallStalls *stalls = g_new0 (SmallStalls, 1);

  stalls->window = g_object_ref (self);
  stalls->left = N_SMALL_STALLS;
  stalls->refs = N_SMALL_STALLS;
  for (guint i = 0; i < N_SMALL_STALLS; i++)
    add_idle ("playground-small-stalls", small_stall_cb, stalls, small_stalls_unref);
}

static void
start_slow_paint (PlaygroundWindow *self)
{
  playground_paint_area_arm (self->paint_area, SLOW_PAINT_MS);
}

static void
painted_cb (PlaygroundWindow *self, gint64 start, gint64 end)
{
  finish (self, "slow-paint", start, end, end - start);
}

void
playground_window_run_action (PlaygroundWindow *self, const char *name)
{
  const PlaygroundAction *action;
  gint64 start, end;

  g_return_if_fail (PLAYGROUND_IS_WINDOW (self));

  action = find_action (name);
  g_return_if_fail (action != NULL);

  if (action->start != NULL)
    {
      action->start (self);
      return;
    }

  start = g_get_monotonic_time ();
  action->stall (action->ms);
  end = g_get_monotonic_time ();
  finish (self, action->name, start, end, end - start);
}

static void
stall_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  playground_window_run_action (PLAYGROUND_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
playground_window_dispose (GObject *object)
{
#if GTK_CHECK_VERSION(4, 8, 0)
  gtk_widget_dispose_template (GTK_WIDGET (object), PLAYGROUND_TYPE_WINDOW);
#endif

  G_OBJECT_CLASS (playground_window_parent_class)->dispose (object);
}

static void
playground_window_class_init (PlaygroundWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = playground_window_dispose;

  /**
   * PlaygroundWindow::stall-finished:
   * @name: the action's name
   * @start: when the stall started (monotonic µs)
   * @end: when it ended
   * @blocked: how long the main thread was blocked between @start and @end (µs)
   */
  signals[STALL_FINISHED] = g_signal_new ("stall-finished", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                                          G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_INT64);

  gtk_widget_class_install_action (widget_class, "playground.stall", "s", stall_activated);

  g_type_ensure (PLAYGROUND_TYPE_PAINT_AREA);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/Playground/playground-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlaygroundWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, PlaygroundWindow, paint_area);
  gtk_widget_class_bind_template_callback (widget_class, painted_cb);
}

static void
playground_window_init (PlaygroundWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlaygroundWindow *
playground_window_new (GtkApplication *application)
{
  return g_object_new (PLAYGROUND_TYPE_WINDOW, "application", application, NULL);
}

/* The names of the actions in button order, for --list-actions: NULL past the last one. */
const char *
playground_window_get_action_name (guint index)
{
  return index < G_N_ELEMENTS (actions) ? actions[index].name : NULL;
}

gboolean
playground_window_has_action (const char *name)
{
  return find_action (name) != NULL;
}
