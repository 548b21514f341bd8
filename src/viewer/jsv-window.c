/* jsv-window.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsv-window.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "jsui-items.h"
#include "jsui-refresher.h"
#include "jsui-shortcuts.h"
#include "jsv-process-list.h"

struct _JsvWindow
{
  GtkApplicationWindow parent_instance;

  GtkListView *process_view;
  GtkLabel *empty_label;
  GtkLabel *connection_label;
  JsuiPanel *panel;

  JsvProcessList *processes;
  GtkSingleSelection *selection;
  JsvHangBanner *banner;
  JsvLiveClient *client;
  JsuiRefresher *refresher;
  char *client_name; /* to follow a restarted app */
  guint refresh_id;
  gboolean selecting;  /* the selection is being set from here */
  gint64 select_event; /* an ended hang's event, selected once it is listed (0: none) */
  int child_of;        /* follow a child of this pid (0: any) */
};

G_DEFINE_FINAL_TYPE (JsvWindow, jsv_window, GTK_TYPE_APPLICATION_WINDOW)

static void start_refresh (JsvWindow *self, guint interval_ms);

static void
update_connection_label (JsvWindow *self)
{
  const char *text = "";

  if (self->client != NULL)
    switch (jsv_live_client_get_state (self->client))
      {
      case JSV_LIVE_CONNECTING:
        text = _ ("Connecting…");
        break;
      case JSV_LIVE_CONNECTED:
        text = _ ("Live");
        break;
      case JSV_LIVE_GONE:
        text = _ ("The process has ended");
        break;
      }
  gtk_label_set_label (self->connection_label, text);
}

/* The hint shown while no process is listed: what the user can do about it, never advice that
 * cannot work here (without XDG_RUNTIME_DIR no app can serve; `jankscope run --view` started
 * this viewer for one app, which is not serving yet). */
static void
update_empty_label (JsvWindow *self)
{
  g_autofree char *dir = jsv_socket_dir ();

  if (dir == NULL)
    gtk_label_set_label (self->empty_label,
                         _ ("XDG_RUNTIME_DIR is not set, so no app can serve a live view here. Run "
                            "the viewer and the app in a desktop session, or set XDG_RUNTIME_DIR "
                            "to a folder of yours (mode 0700) for both."));
  else if (self->child_of > 0)
    gtk_label_set_label (self->empty_label,
                         _ ("Waiting for the app to start its main loop. A program that is not a "
                            "GLib or GTK program never shows here."));
}

const char *
jsv_window_get_hint (JsvWindow *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->empty_label))
             ? gtk_label_get_label (self->empty_label)
             : NULL;
}

static void
select_pid (JsvWindow *self, int pid)
{
  GListModel *model = jsv_process_list_get_model (self->processes);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (JsvProcess) p = g_list_model_get_item (model, i);

      if (jsv_process_get_pid (p) == pid)
        position = i;
    }
  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->selecting = FALSE;
}

static void
client_state_cb (JsvLiveClient *client, gpointer data)
{
  JsvWindow *self = data;
  const char *name = jsv_live_client_get_name (client);

  if (name != NULL && g_strcmp0 (name, self->client_name) != 0)
    {
      g_free (self->client_name);
      self->client_name = g_strdup (name);
    }
  update_connection_label (self);
}

/* The banner's stuck time is the panel's "Stalled for" too: one number. */
static void
banner_changed_cb (JsvHangBanner *banner, gpointer data)
{
  JsvWindow *self = data;

  jsui_panel_set_live_stall (self->panel, jsv_hang_banner_get_stuck_ns (banner));
}

/* Only once it is listed: selecting an id not in the list would clear the
 * user's selection at every refresh. */
static void
try_select_hang_event (JsvWindow *self)
{
  GListModel *events = jsui_panel_get_events (self->panel);

  for (guint i = 0; self->select_event != 0 && i < g_list_model_get_n_items (events); i++)
    {
      g_autoptr (JsuiEvent) item = g_list_model_get_item (events, i);

      if (jsui_event_get_id (item) == self->select_event)
        {
          jsui_panel_select_event (self->panel, self->select_event);
          self->select_event = 0;
        }
    }
}

/* When a hang ended and its final event came, that event is selected (and
 * scrolled to) in the jank list as soon as a snapshot lists it: the row of
 * the hang the banner speaks of. */
static void
client_hang_cb (JsvLiveClient *client, gpointer data)
{
  JsvWindow *self = data;
  gint64 id, duration_ns, max_part_ns, parts;

  if (jsv_live_client_get_hang_event (client, &id, &duration_ns, &max_part_ns, &parts))
    {
      self->select_event = id;
      try_select_hang_event (self);
    }
}

static void
events_changed_cb (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  try_select_hang_event (data);
}

static void
disconnect_client (JsvWindow *self)
{
  g_clear_pointer (&self->refresher, jsui_refresher_free);
  jsv_hang_banner_set_client (self->banner, NULL);
  if (self->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->client, self);
      g_clear_object (&self->client);
    }
}

void
jsv_window_connect (JsvWindow *self, int pid)
{
  g_autofree char *path = NULL;

  if (self->client != NULL && jsv_live_client_get_pid (self->client) == pid)
    return;
  disconnect_client (self);
  self->select_event = 0;
  jsui_panel_set_snapshot (self->panel, NULL);
  path = pid > 0 ? jsv_socket_path (pid) : NULL;
  if (path != NULL)
    {
      self->client = jsv_live_client_new (path, pid);
      g_signal_connect (self->client, "state-changed", G_CALLBACK (client_state_cb), self);
      g_signal_connect (self->client, "hang-changed", G_CALLBACK (client_hang_cb), self);
      jsv_hang_banner_set_client (self->banner, self->client);
      /* The very refresher of the in-process window: parsing in a worker,
       * at most every JSUI_REFRESH_MS. */
      self->refresher = jsui_refresher_new (self->panel, jsv_live_client_get_snapshot, self->client,
                                            JSUI_REFRESH_MS);
    }
  update_connection_label (self);
  select_pid (self, pid);
  if (self->child_of != 0 && self->client != NULL && self->refresh_id != 0)
    start_refresh (self, JSV_PROCESS_REFRESH_MS);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, gpointer data)
{
  JsvWindow *self = data;
  JsvProcess *p = gtk_single_selection_get_selected_item (selection);

  if (self->selecting || p == NULL)
    return;
  jsv_window_connect (self, jsv_process_get_pid (p));
}

/* The parent pid of a process (/proc/PID/stat, field 4), 0 if unknown. */
static int
parent_of (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  const char *paren;
  int ppid = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (paren = strrchr (text, ')')) == NULL
      || sscanf (paren + 1, " %*c %d", &ppid) != 1)
    return 0;
  return ppid;
}

static void
processes_refreshed_cb (JsvProcessList *list, gpointer data)
{
  JsvWindow *self = data;
  GListModel *model = jsv_process_list_get_model (list);
  guint n = g_list_model_get_n_items (model);

  g_debug ("%u monitored processes; following %d (%s)", n,
           self->client != NULL ? jsv_live_client_get_pid (self->client) : 0,
           self->client_name != NULL ? self->client_name : "-");
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), n == 0);
  if (n == 0)
    update_empty_label (self);
  if (self->client == NULL)
    {
      /* Nothing followed yet: the first one (the first child of child_of). */
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (JsvProcess) p = g_list_model_get_item (model, i);

          if (self->child_of == 0 || parent_of (jsv_process_get_pid (p)) == self->child_of)
            {
              jsv_window_connect (self, jsv_process_get_pid (p));
              return;
            }
        }
      return;
    }
  if (self->client != NULL && jsv_live_client_get_state (self->client) == JSV_LIVE_GONE
      && self->client_name != NULL)
    /* The app ended: follow the same program when it comes back. */
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (JsvProcess) p = g_list_model_get_item (model, i);

        if (g_strcmp0 (jsv_process_get_name (p), self->client_name) == 0
            && jsv_process_get_pid (p) != jsv_live_client_get_pid (self->client))
          {
            jsv_window_connect (self, jsv_process_get_pid (p));
            return;
          }
      }
  select_pid (self, self->client != NULL ? jsv_live_client_get_pid (self->client) : 0);
}

static gboolean
refresh_cb (gpointer data)
{
  JsvWindow *self = data;

  jsv_process_list_refresh (self->processes);
  return G_SOURCE_CONTINUE;
}

static void
start_refresh (JsvWindow *self, guint interval_ms)
{
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  self->refresh_id = g_timeout_add (interval_ms, refresh_cb, self);
  g_source_set_name_by_id (self->refresh_id, "[jankscope-viewer] processes");
}

void
jsv_window_follow_child_of (JsvWindow *self, int ppid)
{
  self->child_of = ppid;
  start_refresh (self, 250);
  jsv_process_list_refresh (self->processes);
}

static void
refresh_action (GtkWidget *widget, const char *action, GVariant *param)
{
  jsv_process_list_refresh (JSV_WINDOW (widget)->processes);
}

static void
jsv_window_dispose (GObject *object)
{
  JsvWindow *self = JSV_WINDOW (object);

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  disconnect_client (self);
  if (self->processes != NULL)
    g_signal_handlers_disconnect_by_data (self->processes, self);
  g_clear_object (&self->processes);
  g_clear_object (&self->selection);
  gtk_widget_dispose_template (GTK_WIDGET (self), JSV_TYPE_WINDOW);
  G_OBJECT_CLASS (jsv_window_parent_class)->dispose (object);
}

static void
jsv_window_finalize (GObject *object)
{
  g_free (JSV_WINDOW (object)->client_name);
  G_OBJECT_CLASS (jsv_window_parent_class)->finalize (object);
}

static void
jsv_window_class_init (JsvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsv_window_dispose;
  object_class->finalize = jsv_window_finalize;
  g_type_ensure (JSUI_TYPE_PANEL);
  g_type_ensure (JSV_TYPE_PROCESS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/jankscope/viewer/jsv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, JsvWindow, process_view);
  gtk_widget_class_bind_template_child (widget_class, JsvWindow, empty_label);
  gtk_widget_class_bind_template_child (widget_class, JsvWindow, connection_label);
  gtk_widget_class_bind_template_child (widget_class, JsvWindow, panel);
  gtk_widget_class_install_action (widget_class, "win.refresh", NULL, refresh_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.refresh", NULL);
  jsui_shortcuts_install (widget_class);
}

static void
jsv_window_init (JsvWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "jankscope");
  self->processes = jsv_process_list_new ();
  self->selection
      = gtk_single_selection_new (g_object_ref (jsv_process_list_get_model (self->processes)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_list_view_set_model (self->process_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->processes, "refreshed", G_CALLBACK (processes_refreshed_cb), self);

  gtk_header_bar_pack_end (GTK_HEADER_BAR (gtk_window_get_titlebar (GTK_WINDOW (self))),
                           jsui_primary_menu_button_new ());
  self->banner = jsv_hang_banner_new ();
  jsui_panel_set_banner (self->panel, GTK_WIDGET (self->banner));
  g_signal_connect (self->banner, "changed", G_CALLBACK (banner_changed_cb), self);
  g_signal_connect (jsui_panel_get_events (self->panel), "items-changed",
                    G_CALLBACK (events_changed_cb), self);
  g_object_bind_property (self->panel, "title", self, "title", G_BINDING_DEFAULT);

  jsv_process_list_refresh (self->processes);
  start_refresh (self, JSV_PROCESS_REFRESH_MS);
}

JsvWindow *
jsv_window_new (GtkApplication *app)
{
  return g_object_new (JSV_TYPE_WINDOW, "application", app, NULL);
}

JsuiPanel *
jsv_window_get_panel (JsvWindow *self)
{
  return self->panel;
}

JsvHangBanner *
jsv_window_get_banner (JsvWindow *self)
{
  return self->banner;
}

JsvLiveClient *
jsv_window_get_client (JsvWindow *self)
{
  return self->client;
}
