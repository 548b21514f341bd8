/* playground-script.c: runs the playground's actions from the command line (--script)
 *
 * A script is a comma-separated list of steps: an action of the window (activated exactly as
 * its button would be), "wait-MS" (an idle pause of MS milliseconds) or "quit". Each step starts
 * gap_ms after the previous one finished; the first one gap_ms after the window is mapped.
 * Every finished stall is printed on stdout, one line each, for tests to compare with a report:
 *
 *   playground: action=cpu start_ns=... end_ns=... blocked_ns=...
 *
 * (CLOCK_MONOTONIC, the clock of the jankscope report, with microsecond precision.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "playground-script.h"

typedef enum
{
  STEP_ACTION,
  STEP_WAIT,
  STEP_QUIT,
} StepKind;

typedef struct
{
  StepKind kind;
  char *name;
  guint ms;
} Step;

struct _PlaygroundScript
{
  GArray *steps;
  guint gap_ms;
  guint next;              /* index of the next step to run */
  const char *waiting_for; /* the action in progress, or NULL */
  PlaygroundWindow *window;
  gulong map_id;
  gulong finished_id;
  guint timeout_id;
};

static void
step_clear (gpointer data)
{
  Step *step = data;

  g_free (step->name);
}

static gboolean
parse_step (const char *name, Step *step, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  guint64 ms;

  step->name = g_strdup (name);
  step->ms = 0;

  if (playground_window_has_action (name))
    step->kind = STEP_ACTION;
  else if (g_str_equal (name, "quit"))
    step->kind = STEP_QUIT;
  else if (g_str_has_prefix (name, "wait-"))
    {
      step->kind = STEP_WAIT;
      if (!g_ascii_string_to_unsigned (name + 5, 10, 0, PLAYGROUND_SCRIPT_MAX_MS, &ms,
                                       &local_error))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _ ("Bad wait “%s”: %s"),
                       name, local_error->message);
          return FALSE;
        }
      step->ms = (guint) ms;
    }
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("Unknown action “%s” (see --list-actions)"), name);
      return FALSE;
    }

  return TRUE;
}

PlaygroundScript *
playground_script_new (const char *list, guint gap_ms, GError **error)
{
  g_autoptr (PlaygroundScript) self = g_new0 (PlaygroundScript, 1);
  g_auto (GStrv) names = NULL;

  g_return_val_if_fail (list != NULL, NULL);

  self->gap_ms = gap_ms;
  self->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  g_array_set_clear_func (self->steps, step_clear);

  names = g_strsplit (list, ",", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      Step step;

      if (!parse_step (g_strstrip (names[i]), &step, error))
        {
          step_clear (&step);
          return NULL;
        }
      g_array_append_val (self->steps, step);
    }

  if (self->steps->len == 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _ ("The script is empty"));
      return NULL;
    }

  return g_steal_pointer (&self);
}

void
playground_script_free (PlaygroundScript *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->window != NULL)
    {
      g_clear_signal_handler (&self->map_id, self->window);
      g_clear_signal_handler (&self->finished_id, self->window);
      g_object_unref (self->window);
    }
  g_array_unref (self->steps);
  g_free (self);
}

static gboolean run_step (gpointer data);

/* Schedules the next step, if any, @extra_ms + gap_ms from now. */
static void
step_done (PlaygroundScript *self, guint extra_ms)
{
  g_autofree char *source_name = NULL;
  GSource *source;

  if (self->next >= self->steps->len)
    return;

  /* Named after the step it runs, so a report shows which step a stall came from. */
  source_name = g_strdup_printf ("playground-script:%s",
                                 g_array_index (self->steps, Step, self->next).name);
  source = g_timeout_source_new (extra_ms + self->gap_ms);
  g_source_set_name (source, source_name);
  g_source_set_callback (source, run_step, self, NULL);
  self->timeout_id = g_source_attach (source, NULL);
  g_source_unref (source);
}

static gboolean
run_step (gpointer data)
{
  PlaygroundScript *self = data;
  const Step *step = &g_array_index (self->steps, Step, self->next++);

  self->timeout_id = 0;

  switch (step->kind)
    {
    case STEP_ACTION:
      self->waiting_for = step->name;
      gtk_widget_activate_action (GTK_WIDGET (self->window), "playground.stall", "s", step->name);
      break;

    case STEP_WAIT:
      step_done (self, step->ms);
      break;

    case STEP_QUIT:
      g_application_quit (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self->window))));
      break;

    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

static void
stall_finished_cb (PlaygroundWindow *window, const char *name, gint64 start, gint64 end,
                   gint64 blocked, PlaygroundScript *self)
{
  g_print ("playground: action=%s start_ns=%" G_GINT64_FORMAT " end_ns=%" G_GINT64_FORMAT
           " blocked_ns=%" G_GINT64_FORMAT "\n",
           name, start * 1000, end * 1000, blocked * 1000);
  fflush (stdout);

  if (self->waiting_for != NULL && g_str_equal (name, self->waiting_for))
    {
      self->waiting_for = NULL;
      step_done (self, 0);
    }
}

static void
map_cb (PlaygroundWindow *window, PlaygroundScript *self)
{
  g_clear_signal_handler (&self->map_id, window);
  step_done (self, 0);
}

/* Runs the script in @window, starting once it is mapped. */
void
playground_script_start (PlaygroundScript *self, PlaygroundWindow *window)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->window == NULL);
  g_return_if_fail (PLAYGROUND_IS_WINDOW (window));

  self->window = g_object_ref (window);
  self->finished_id
      = g_signal_connect (window, "stall-finished", G_CALLBACK (stall_finished_cb), self);
  if (gtk_widget_get_mapped (GTK_WIDGET (window)))
    step_done (self, 0);
  else
    self->map_id = g_signal_connect (window, "map", G_CALLBACK (map_cb), self);
}
