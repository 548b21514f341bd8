/* jsv-hang-banner.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsv-hang-banner.h"

#include <glib/gi18n-lib.h>

/* Counting on past the last message: at most this much. */
#define EXTRAPOLATE_MAX_US 500000

struct _JsvHangBanner
{
  GtkWidget parent_instance;

  GtkLabel *label;
  JsvLiveClient *client;
  gulong hang_handler;
  guint tick_id;
  gboolean hung;
  gint64 stuck_ns; /* what the text says, while hung; else -1 */
};

G_DEFINE_FINAL_TYPE (JsvHangBanner, jsv_hang_banner, GTK_TYPE_WIDGET)

enum
{
  CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
set_text (JsvHangBanner *self, const char *text, gboolean hung)
{
  if (hung != self->hung)
    {
      if (hung)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self), "hung");
          gtk_widget_remove_css_class (GTK_WIDGET (self), "was-hung");
        }
      else
        {
          gtk_widget_remove_css_class (GTK_WIDGET (self), "hung");
          gtk_widget_add_css_class (GTK_WIDGET (self), "was-hung");
        }
      self->hung = hung;
    }
  gtk_widget_set_visible (GTK_WIDGET (self), text != NULL);
  if (g_strcmp0 (gtk_label_get_label (self->label), text != NULL ? text : "") == 0)
    return;
  gtk_label_set_label (self->label, text != NULL ? text : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
update (JsvHangBanner *self)
{
  gint64 stuck_ns = 0, received_us = 0, last;
  gint64 id = 0, duration_ns = 0, max_part_ns = 0, parts = 0;
  const char *culprit = NULL, *posted_from;
  g_autofree char *text = NULL;

  if (self->client != NULL
      && jsv_live_client_get_hang (self->client, &stuck_ns, &received_us, &culprit))
    {
      gint64 extra_us = MIN (g_get_monotonic_time () - received_us, EXTRAPOLATE_MAX_US);
      double seconds;

      self->stuck_ns = stuck_ns + MAX (0, extra_us) * 1000;
      seconds = self->stuck_ns / 1e9;

      if (culprit != NULL)
        /* Translators: %.1f is seconds, %s a function and its module. */
        text = g_strdup_printf (_ ("Main thread stuck for %.1f s in %s"), seconds, culprit);
      else
        /* Translators: %.1f is seconds. */
        text = g_strdup_printf (_ ("Main thread stuck for %.1f s"), seconds);
      posted_from = jsv_live_client_get_hang_posted_from (self->client);
      if (posted_from != NULL)
        {
          /* Translators: the banner's text, then where the work it is stuck
           * in was scheduled (g_idle_add...): a function and its module. */
          g_autofree char *with = g_strdup_printf (_ ("%s, posted from %s"), text, posted_from);

          g_free (text);
          text = g_steal_pointer (&with);
        }
      set_text (self, text, TRUE);
      return;
    }
  self->stuck_ns = -1;
  last = self->client != NULL ? jsv_live_client_get_last_hang_ns (self->client) : 0;
  if (last > 0 && self->client != NULL
      && jsv_live_client_get_hang_event (self->client, &id, &duration_ns, &max_part_ns, &parts))
    {
      /* The final event has come: its numbers, the report's. */
      if (parts > 1)
        /* Translators: blocked in all (seconds), parts, the longest (seconds), the event's id. */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Main thread was blocked for %.1f s in %lld slow "
                                             "part, the longest %.1f s (event %lld); it responds "
                                             "again",
                                             "Main thread was blocked for %.1f s in %lld slow "
                                             "parts, the longest %.1f s (event %lld); it responds "
                                             "again",
                                             (gulong) MIN ((guint64) parts, G_MAXULONG)),
                                duration_ns / 1e9, (long long) parts, max_part_ns / 1e9,
                                (long long) id);
      else
        /* Translators: seconds, then the event's id. */
        text = g_strdup_printf (_ ("Main thread was stuck for %.1f s (event %lld); it responds "
                                   "again"),
                                duration_ns / 1e9, (long long) id);
      set_text (self, text, FALSE);
    }
  else if (last > 0)
    {
      /* Translators: %.1f is seconds. */
      text
          = g_strdup_printf (_ ("Main thread was stuck for %.1f s; it responds again"), last / 1e9);
      set_text (self, text, FALSE);
    }
  else
    set_text (self, NULL, FALSE);
}

static gboolean
tick_cb (gpointer data)
{
  JsvHangBanner *self = data;

  update (self);
  if (self->hung)
    return G_SOURCE_CONTINUE;
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
hang_changed_cb (JsvLiveClient *client, gpointer data)
{
  JsvHangBanner *self = data;

  update (self);
  if (self->hung && self->tick_id == 0)
    {
      self->tick_id = g_timeout_add (JSV_BANNER_TICK_MS, tick_cb, self);
      g_source_set_name_by_id (self->tick_id, "[jankscope-viewer] banner");
    }
}

void
jsv_hang_banner_set_client (JsvHangBanner *self, JsvLiveClient *client)
{
  if (self->client != NULL)
    {
      g_clear_signal_handler (&self->hang_handler, self->client);
      g_clear_object (&self->client);
    }
  if (client != NULL)
    {
      self->client = g_object_ref (client);
      self->hang_handler
          = g_signal_connect (client, "hang-changed", G_CALLBACK (hang_changed_cb), self);
    }
  hang_changed_cb (client, self);
}

const char *
jsv_hang_banner_get_text (JsvHangBanner *self)
{
  return gtk_label_get_label (self->label);
}

gboolean
jsv_hang_banner_is_hung (JsvHangBanner *self)
{
  return self->hung;
}

gint64
jsv_hang_banner_get_stuck_ns (JsvHangBanner *self)
{
  return self->hung ? self->stuck_ns : -1;
}

static void
jsv_hang_banner_dispose (GObject *object)
{
  JsvHangBanner *self = JSV_HANG_BANNER (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->client != NULL)
    {
      g_clear_signal_handler (&self->hang_handler, self->client);
      g_clear_object (&self->client);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), JSV_TYPE_HANG_BANNER);
  G_OBJECT_CLASS (jsv_hang_banner_parent_class)->dispose (object);
}

static void
jsv_hang_banner_class_init (JsvHangBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jsv_hang_banner_dispose;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/jankscope/viewer/jsv-hang-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, JsvHangBanner, label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jankscope-hang-banner");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
jsv_hang_banner_init (JsvHangBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->stuck_ns = -1;
}

JsvHangBanner *
jsv_hang_banner_new (void)
{
  return g_object_new (JSV_TYPE_HANG_BANNER, NULL);
}
