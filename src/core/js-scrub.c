/* js-scrub.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-scrub.h"

#include <pwd.h>
#include <string.h>
#include <unistd.h>

struct _JsScrub
{
  GPtrArray *homes; /* without a trailing slash, longest first */
  GPtrArray *users;
};

static gint
longest_first (gconstpointer a, gconstpointer b)
{
  return (gint) strlen (*(const char *const *) b) - (gint) strlen (*(const char *const *) a);
}

static void
add_unique (GPtrArray *list, const char *value)
{
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (g_ptr_array_index (list, i), value))
      return;
  g_ptr_array_add (list, g_strdup (value));
}

JsScrub *
js_scrub_new (const char *const *homes, const char *const *users)
{
  JsScrub *s = g_new0 (JsScrub, 1);

  s->homes = g_ptr_array_new_with_free_func (g_free);
  s->users = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; homes != NULL && homes[i] != NULL; i++)
    {
      g_autofree char *home = g_strdup (homes[i]);
      gsize len = strlen (home);

      while (len > 1 && home[len - 1] == '/')
        home[--len] = '\0';
      if (len > 1)
        add_unique (s->homes, home);
    }
  for (guint i = 0; users != NULL && users[i] != NULL; i++)
    if (*users[i] != '\0' && strchr (users[i], '/') == NULL)
      add_unique (s->users, users[i]);
  g_ptr_array_sort (s->homes, longest_first);
  g_ptr_array_sort (s->users, longest_first);
  return s;
}

JsScrub *
js_scrub_new_for_user (void)
{
  struct passwd pw, *found = NULL;
  char buf[4096];
  const char *homes[3] = { g_get_home_dir (), NULL, NULL };
  const char *users[2] = { g_get_user_name (), NULL };

  if (getpwuid_r (getuid (), &pw, buf, sizeof buf, &found) == 0 && found != NULL)
    homes[1] = found->pw_dir;
  return js_scrub_new (homes, users);
}

void
js_scrub_free (JsScrub *s)
{
  if (s == NULL)
    return;
  g_ptr_array_unref (s->homes);
  g_ptr_array_unref (s->users);
  g_free (s);
}

/* A character that continues a file name: a match must not be part of a
 * longer name ("/home/alice2", "libalice.so"). */
static gboolean
name_char (char c)
{
  return g_ascii_isalnum (c) || c == '.' || c == '_' || c == '-' || (guchar) c >= 0x80;
}

static gboolean
ends_component (char c)
{
  return c == '\0' || c == '/' || !name_char (c);
}

char *
js_scrub_string (const JsScrub *s, const char *text)
{
  GString *out = g_string_sized_new (strlen (text));
  const char *p = text;

  while (*p != '\0')
    {
      gboolean matched = FALSE;

      for (guint i = 0; i < s->homes->len && !matched; i++)
        {
          const char *home = g_ptr_array_index (s->homes, i);
          gsize n = strlen (home);

          if ((p == text || !name_char (p[-1])) && strncmp (p, home, n) == 0
              && ends_component (p[n]))
            {
              g_string_append_c (out, '~');
              p += n;
              matched = TRUE;
            }
        }
      for (guint i = 0; i < s->users->len && !matched; i++)
        {
          const char *user = g_ptr_array_index (s->users, i);
          gsize n = strlen (user);

          if (p[0] == '/' && strncmp (p + 1, user, n) == 0 && ends_component (p[1 + n]))
            {
              g_string_append (out, "/<user>");
              p += 1 + n;
              matched = TRUE;
            }
        }
      if (!matched)
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

static char *
scrub_filter (gpointer scrub, const char *text)
{
  return js_scrub_string (scrub, text);
}

void
js_scrub_writer (const JsScrub *s, JsJsonWriter *writer)
{
  js_json_writer_set_filter (writer, scrub_filter, (gpointer) s, "window_title");
}
