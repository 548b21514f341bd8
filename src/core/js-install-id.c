/* js-install-id.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-install-id.h"

#include <unistd.h>

char *
js_install_id_compute (const char *machine_id, guint uid)
{
  g_autoptr (GChecksum) sha = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *text = g_strdup_printf (JS_INSTALL_ID_SALT "\n%s\n%u", machine_id, uid);

  g_checksum_update (sha, (const guchar *) text, -1);
  return g_strndup (g_checksum_get_string (sha), 16);
}

static char *
read_machine_id (void)
{
  static const char *const paths[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (paths[i], &text, NULL, NULL) && *g_strstrip (text) != '\0')
        return g_steal_pointer (&text);
    }
  return NULL;
}

const char *
js_install_id (void)
{
  static char *id;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      g_autofree char *machine = read_machine_id ();

      if (machine != NULL)
        id = js_install_id_compute (machine, (guint) getuid ());
      g_once_init_leave (&once, 1);
    }
  return id;
}

gboolean
js_install_id_in_share (const char *id, double share)
{
  guint64 value;

  if (share >= 1.0)
    return TRUE;
  if (id == NULL)
    return FALSE;
  value = g_ascii_strtoull (id, NULL, 16);
  /* value / 2^64 < share, in double precision (53 bits are plenty here). */
  return (double) value < share * 18446744073709551616.0;
}
