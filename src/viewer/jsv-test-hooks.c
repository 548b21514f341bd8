/* jsv-test-hooks.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jsv-test-hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "jsr-report.h"
#include "jsui-items.h"

#define SCREENSHOT_STUCK_NS (2500 * G_GINT64_CONSTANT (1000000))
#define SCREENSHOT_TRIES 120

typedef struct
{
  JsvWindow *window;
  char *screenshot;
  guint min_events;
  guint frames_waited;
  gboolean taken;
  gboolean pending;
  char *hint;      /* the last one printed */
  gint64 selected; /* the last selected event printed */
} Hooks;

/* "selected=ID" when the jank list's selection moved. */
static void
print_selected (Hooks *h)
{
  gint64 id = jsui_panel_get_selected_event (jsv_window_get_panel (h->window));

  if (id == h->selected)
    return;
  h->selected = id;
  printf ("selected=%" G_GINT64_FORMAT "\n", id);
  fflush (stdout);
}

static const char *
state_name (JsvLiveState state)
{
  return state == JSV_LIVE_CONNECTED ? "connected" : state == JSV_LIVE_GONE ? "gone" : "connecting";
}

/* FALSE (and why in @why) when there is no picture yet: nothing drawn. */
static gboolean
take_screenshot (Hooks *h, const char **why)
{
  GtkWidget *w = GTK_WIDGET (h->window);
  int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (w);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (w));

  if (width <= 0 || height <= 0 || renderer == NULL)
    {
      *why = "the window has no size or renderer";
      return FALSE;
    }
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    {
      *why = "nothing drawn";
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, h->screenshot))
    {
      *why = "the PNG could not be saved";
      return FALSE;
    }
  printf ("screenshot=%s\n", h->screenshot);
  fflush (stdout);
  h->taken = TRUE;
  return TRUE;
}

/* Six frames after the condition: the new banner text is laid out. Tried
 * on each later frame until there is a picture (a loaded machine may not
 * have drawn yet), for at most SCREENSHOT_TRIES frames; then why not. */
static gboolean
tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  Hooks *h = data;
  const char *why = NULL;

  if (++h->frames_waited < 6)
    return G_SOURCE_CONTINUE;
  if (take_screenshot (h, &why))
    {
      h->pending = FALSE;
      return G_SOURCE_REMOVE;
    }
  if (h->frames_waited < SCREENSHOT_TRIES)
    return G_SOURCE_CONTINUE;
  printf ("screenshot-error=%s\n", why);
  fflush (stdout);
  h->pending = FALSE;
  return G_SOURCE_REMOVE;
}

static void
maybe_screenshot (Hooks *h)
{
  JsvLiveClient *client = jsv_window_get_client (h->window);
  GListModel *events = jsui_panel_get_events (jsv_window_get_panel (h->window));
  gint64 stuck = 0, received = 0;
  const char *culprit = NULL;

  if (h->screenshot == NULL || h->taken || h->pending || client == NULL
      || !jsv_live_client_get_hang (client, &stuck, &received, &culprit)
      || stuck < SCREENSHOT_STUCK_NS || culprit == NULL
      || g_list_model_get_n_items (events) < h->min_events)
    return;
  /* The newest dispatch event selected: its stacks in the picture too. */
  for (guint i = g_list_model_get_n_items (events); i-- > 0;)
    {
      g_autoptr (JsuiEvent) e = g_list_model_get_item (events, i);
      const JsrReportEvent *ev = jsui_event_get_event (e);

      if (ev->id > 0 && g_strcmp0 (ev->type, "dispatch") == 0)
        {
          jsui_panel_select_event (jsv_window_get_panel (h->window), ev->id);
          break;
        }
    }
  h->pending = TRUE;
  h->frames_waited = 0;
  gtk_widget_add_tick_callback (GTK_WIDGET (h->window), tick_cb, h, NULL);
}

static void
banner_changed_cb (JsvHangBanner *banner, gpointer data)
{
  Hooks *h = data;

  printf ("banner=%" G_GINT64_FORMAT " %d %s\n", g_get_monotonic_time (),
          jsv_hang_banner_is_hung (banner), jsv_hang_banner_get_text (banner));
  fflush (stdout);
  /* What the banner and the panel's status say at the same moment. */
  printf ("stall-status=%" G_GINT64_FORMAT " %s\n", jsv_hang_banner_get_stuck_ns (banner),
          jsui_panel_get_metric (jsv_window_get_panel (h->window), "status"));
  fflush (stdout);
  print_selected (h);
  maybe_screenshot (h);
}

static void
events_changed_cb (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  Hooks *h = data;
  g_autoptr (GString) names = g_string_new (NULL);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (JsuiEvent) e = g_list_model_get_item (model, i);
      const JsrReportEvent *ev = jsui_event_get_event (e);
      const char *name = ev->culprit != NULL && ev->culprit->function != NULL
                             ? ev->culprit->function
                         : ev->callback != NULL ? ev->callback
                                                : "?";

      g_string_append_printf (names, "%s%s", i > 0 ? "," : "", name);
    }
  printf ("events=%u %s\n", n, names->str);
  g_string_truncate (names, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (JsuiEvent) e = g_list_model_get_item (model, i);

      g_string_append_printf (names, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "",
                              jsui_event_get_id (e));
    }
  printf ("event-ids=%s\n", names->str);
  fflush (stdout);
  print_selected (h);
  maybe_screenshot (h);
}

static void
window_client_state_cb (JsvLiveClient *client, gpointer data)
{
  printf ("state=%s pid=%d\n", state_name (jsv_live_client_get_state (client)),
          jsv_live_client_get_pid (client));
  fflush (stdout);
}

/* The client is made when the window connects: poll for it cheaply (a
 * mark on each client hooked: a new one may reuse a freed one's address). */
static gboolean
watch_client_cb (gpointer data)
{
  Hooks *h = data;
  JsvLiveClient *client = jsv_window_get_client (h->window);
  const char *hint = jsv_window_get_hint (h->window);

  if (g_strcmp0 (hint, h->hint) != 0)
    {
      g_free (h->hint);
      h->hint = g_strdup (hint);
      printf ("hint=%s\n", hint != NULL ? hint : "");
      fflush (stdout);
    }
  if (client != NULL && g_object_get_data (G_OBJECT (client), "jsv-test-hooked") == NULL)
    {
      g_object_set_data (G_OBJECT (client), "jsv-test-hooked", GINT_TO_POINTER (1));
      g_signal_connect (client, "state-changed", G_CALLBACK (window_client_state_cb), h);
      window_client_state_cb (client, h);
    }
  return G_SOURCE_CONTINUE;
}

void
jsv_test_hooks_attach (JsvWindow *window)
{
  const char *test = g_getenv ("JANKSCOPE_VIEWER_TEST");
  const char *min = g_getenv ("JANKSCOPE_VIEWER_TEST_MIN_EVENTS");
  Hooks *h;

  if (test == NULL || g_strcmp0 (test, "1") != 0)
    return;
  h = g_new0 (Hooks, 1);
  h->window = window;
  h->screenshot = g_strdup (g_getenv ("JANKSCOPE_VIEWER_TEST_SCREENSHOT"));
  h->min_events = min != NULL ? (guint) atoi (min) : 1;
  g_signal_connect (jsv_window_get_banner (window), "changed", G_CALLBACK (banner_changed_cb), h);
  g_signal_connect (jsui_panel_get_events (jsv_window_get_panel (window)), "items-changed",
                    G_CALLBACK (events_changed_cb), h);
  g_timeout_add (50, watch_client_cb, h);
  printf ("viewer-pid=%d\n", (int) getpid ());
  fflush (stdout);
}
