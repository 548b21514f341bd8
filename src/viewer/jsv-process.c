/* jsv-process.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include "jsv-process.h"

#include <glib/gi18n-lib.h>

struct _JsvProcess
{
  GObject parent_instance;

  int pid;
  char *name;
  char *exe;
  char *toolkit;
  char *socket_path;
  char *label;
};

G_DEFINE_FINAL_TYPE (JsvProcess, jsv_process, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_PID,
  PROP_LABEL,
  N_PROPS
};
static GParamSpec *props[N_PROPS];

static void
jsv_process_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  JsvProcess *self = JSV_PROCESS (object);

  switch (id)
    {
    case PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
jsv_process_finalize (GObject *object)
{
  JsvProcess *self = JSV_PROCESS (object);

  g_free (self->name);
  g_free (self->exe);
  g_free (self->toolkit);
  g_free (self->socket_path);
  g_free (self->label);
  G_OBJECT_CLASS (jsv_process_parent_class)->finalize (object);
}

static void
jsv_process_class_init (JsvProcessClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = jsv_process_get_property;
  object_class->finalize = jsv_process_finalize;
  props[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, 0, G_MAXINT, 0,
                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_LABEL]
      = g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
jsv_process_init (JsvProcess *self)
{
}

JsvProcess *
jsv_process_new (int pid, const char *name, const char *exe, const char *toolkit,
                 const char *socket_path)
{
  JsvProcess *self = g_object_new (JSV_TYPE_PROCESS, NULL);

  self->pid = pid;
  self->name = g_strdup (name != NULL ? name : "?");
  self->exe = g_strdup (exe);
  self->toolkit = g_strdup (toolkit);
  self->socket_path = g_strdup (socket_path);
  /* Translators: a monitored process: its name, pid and toolkit (gtk4, gtk3, glib). */
  self->label
      = g_strdup_printf (_ ("%s (pid %d, %s)"), self->name, pid, toolkit != NULL ? toolkit : "?");
  return self;
}

int
jsv_process_get_pid (JsvProcess *self)
{
  return self->pid;
}

const char *
jsv_process_get_name (JsvProcess *self)
{
  return self->name;
}

const char *
jsv_process_get_exe (JsvProcess *self)
{
  return self->exe;
}

const char *
jsv_process_get_socket_path (JsvProcess *self)
{
  return self->socket_path;
}

const char *
jsv_process_get_label (JsvProcess *self)
{
  return self->label;
}
