/* jsui-panel-actions.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>

#include "jsui-panel-actions.h"

static void
clear_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  JsuiPanel *panel = JSUI_PANEL (widget);
  JsuiSnapshot *snap = jsui_panel_get_snapshot (panel);
  gint64 at = 0;

  if (snap == NULL)
    return;
  /* The snapshot's own clock: its time, else its newest frame's end. */
  at = snap->now_ns;
  if (at <= 0 && snap->frames->len > 0)
    at = g_array_index (snap->frames, JsuiFrame, snap->frames->len - 1).end_ns;
  if (at > 0)
    jsui_panel_set_baseline (panel, at);
}

static void
show_all_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  jsui_panel_set_baseline (JSUI_PANEL (widget), 0);
}

typedef struct
{
  GWeakRef panel;
  char *name; /* for the message */
} WriteJob;

static void
write_job_free (WriteJob *job)
{
  g_weak_ref_clear (&job->panel);
  g_free (job->name);
  g_free (job);
}

static void
written_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  WriteJob *job = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsuiPanel) panel = g_weak_ref_get (&job->panel);
  g_autofree char *message = NULL;

  if (jsui_export_finish (result, &error))
    /* Translators: %s is a file name */
    message = g_strdup_printf (_ ("Saved %s"), job->name);
  else
    /* Translators: %s is a file name, then the reason */
    message = g_strdup_printf (_ ("Could not save %s: %s"), job->name, error->message);
  if (panel != NULL)
    jsui_panel_show_message (panel, message);
  write_job_free (job);
}

void
jsui_panel_actions_write (JsuiPanel *panel, JsuiExportFormat format, GFile *dest)
{
  GBytes *document = jsui_panel_get_document (panel);
  WriteJob *job;

  if (document == NULL)
    {
      jsui_panel_show_message (panel, _ ("Nothing to save yet"));
      return;
    }
  job = g_new0 (WriteJob, 1);
  g_weak_ref_init (&job->panel, panel);
  job->name = g_file_get_basename (dest);
  jsui_panel_show_message (panel, NULL);
  jsui_export_async (document, format, dest, NULL, written_cb, job);
}

typedef struct
{
  GWeakRef panel;
  JsuiExportFormat format;
} DialogData;

static void
dialog_data_free (gpointer user_data, GClosure *closure)
{
  DialogData *data = user_data;

  g_weak_ref_clear (&data->panel);
  g_free (data);
}

static void
response_cb (GtkNativeDialog *dialog, int response, DialogData *data)
{
  g_autoptr (JsuiPanel) panel = g_weak_ref_get (&data->panel);

  if (response == GTK_RESPONSE_ACCEPT && panel != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        jsui_panel_actions_write (panel, data->format, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog); /* the reference choose () kept */
}

static void
choose (JsuiPanel *panel, JsuiExportFormat format)
{
  static const char *const titles[] = {
    N_ ("Save Report"),
    N_ ("Export Chrome Trace"),
    N_ ("Export Folded Stacks"),
  };
  JsuiSnapshot *snap = jsui_panel_get_snapshot (panel);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (panel));
  GtkFileChooserNative *dialog;
  DialogData *data;
  g_autofree char *name = NULL;

  if (jsui_panel_get_document (panel) == NULL)
    {
      jsui_panel_show_message (panel, _ ("Nothing to save yet"));
      return;
    }
  dialog = gtk_file_chooser_native_new (_ (titles[format]),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Save"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  name = jsui_export_suggested_name (format, snap != NULL ? snap->report->name : NULL,
                                     snap != NULL ? snap->report->pid : 0);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  data = g_new0 (DialogData, 1);
  g_weak_ref_init (&data->panel, panel);
  data->format = format;
  g_signal_connect_data (dialog, "response", G_CALLBACK (response_cb), data, dialog_data_free, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_report_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  choose (JSUI_PANEL (widget), JSUI_EXPORT_REPORT);
}

static void
export_cb (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  JsuiExportFormat format;

  if (!jsui_export_format_from_name (g_variant_get_string (parameter, NULL), &format)
      || format == JSUI_EXPORT_REPORT)
    return;
  choose (JSUI_PANEL (widget), format);
}

void
jsui_panel_actions_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_property_action (widget_class, "panel.pause", "paused");
  gtk_widget_class_install_action (widget_class, "panel.clear", NULL, clear_cb);
  gtk_widget_class_install_action (widget_class, "panel.show-all", NULL, show_all_cb);
  gtk_widget_class_install_action (widget_class, "panel.save-report", NULL, save_report_cb);
  gtk_widget_class_install_action (widget_class, "panel.export", "s", export_cb);
  /* The shortcuts window lists them (data/gtk4-ui/jsui-shortcuts.ui). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "panel.save-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "panel.clear",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK, "panel.pause",
                                       NULL);
}
