/* js-focus.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-focus.h"
#include "js-clock.h"
#include "js-log.h"
#include "js-mainloop.h"

#include <dlfcn.h>
#include <glib-object.h>
#include <pthread.h>

#define SCAN_PERIOD_NS (250 * JS_NS_PER_MS)
#define TITLE_UNKNOWN G_MAXUINT32

static JsRing *ring;
static pthread_t main_thread;
static gboolean enabled;
static JsLabels titles;

/* Main thread only. */
static gboolean gtk_ready;
static GQuark seen_quark;
static gpointer focused;                /* compared, never dereferenced */
static guint32 current = TITLE_UNKNOWN; /* the last title recorded */

static GList *(*list_toplevels) (void);
static gboolean (*is_active) (gpointer window);
static const char *(*get_title) (gpointer window);

static void
record (gpointer window)
{
  const char *title = window != NULL ? get_title (window) : NULL;
  guint32 id = title != NULL && *title != '\0' ? js_labels_intern (&titles, title) : JS_LABEL_NONE;
  JsRecord r = { .kind = JS_RECORD_TITLE };

  focused = window;
  if (id == current)
    return;
  current = id;
  r.start_ns = js_now_ns ();
  r.name_id = id;
  js_ring_push (ring, &r);
}

static void
window_notify (GObject *window, GParamSpec *pspec, gpointer data)
{
  if (!enabled || !pthread_equal (pthread_self (), main_thread))
    return;
  if (is_active (window))
    record (window);
  else if (window == focused)
    record (NULL);
}

static gboolean
gtk_is_ready (void)
{
  GType type = g_type_from_name ("GtkWindow");

  /* GTK's classes exist once the app made a window: never initialize them
   * ourselves (that would run GTK code before gtk_init ()). */
  if (type == 0 || g_type_class_peek (type) == NULL)
    return FALSE;
  list_toplevels = (GList * (*) (void) ) dlsym (RTLD_DEFAULT, "gtk_window_list_toplevels");
  is_active = (gboolean (*) (gpointer)) dlsym (RTLD_DEFAULT, "gtk_window_is_active");
  get_title = (const char *(*) (gpointer)) dlsym (RTLD_DEFAULT, "gtk_window_get_title");
  if (list_toplevels == NULL || is_active == NULL || get_title == NULL)
    {
      enabled = FALSE;
      return FALSE;
    }
  seen_quark = g_quark_from_static_string ("jankscope-focus-seen");
  js_log_debug ("focused window titles are tracked");
  return TRUE;
}

gint64
js_focus_poll (gint64 now_ns)
{
  gpointer active = NULL;
  GList *windows;

  if (!enabled)
    return JS_POLL_OBSERVER_DONE;
  if (!gtk_ready && !(gtk_ready = gtk_is_ready ()))
    return enabled ? now_ns + SCAN_PERIOD_NS : JS_POLL_OBSERVER_DONE;
  /* The list does not reference its entries: only read them. */
  windows = list_toplevels ();
  for (GList *l = windows; l != NULL; l = l->next)
    {
      if (g_object_get_qdata (l->data, seen_quark) == NULL)
        {
          g_object_set_qdata (l->data, seen_quark, GINT_TO_POINTER (1));
          g_signal_connect (l->data, "notify::is-active", G_CALLBACK (window_notify), NULL);
          g_signal_connect (l->data, "notify::title", G_CALLBACK (window_notify), NULL);
        }
      if (active == NULL && is_active (l->data))
        active = l->data;
    }
  g_list_free (windows);
  record (active);
  return now_ns + SCAN_PERIOD_NS;
}

void
js_focus_init (JsRing *the_ring, gboolean enable)
{
  ring = the_ring;
  main_thread = pthread_self ();
  if (!enable)
    return;
  js_labels_init (&titles, JS_FOCUS_TITLES, JS_FOCUS_TITLE_BYTES);
  enabled = TRUE;
}

void
js_focus_disable (void)
{
  enabled = FALSE;
}

const JsLabels *
js_focus_titles (void)
{
  return &titles;
}
