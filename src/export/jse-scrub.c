/* jse-scrub.c: "jankscope export --scrub": home folders and user names out
 * of paths
 *
 * Reports hold no message contents (the core never reads a GSource's data),
 * but paths name people: /home/alice/src/app/main.c, /tmp/alice-build/app.
 * In any text with a '/', a home folder at the start of a path becomes "~"
 * and a known user name, as a whole word, "<user>". Known names are the
 * current user's and every NAME of a /home/NAME seen in the inputs, so that
 * a name learned from one path is scrubbed from all the others too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jse-scrub.h"

struct _JseScrubber
{
  GPtrArray *homes; /* exact home folders: "/home/alice", "/root", $HOME */
  GPtrArray *names; /* user names */
};

/* Home folder parents whose children are named after their user. */
static const char *const home_parents[] = { "/home/", "/var/home/" };

static gboolean
contains (GPtrArray *array, const char *text)
{
  for (guint i = 0; i < array->len; i++)
    if (strcmp (g_ptr_array_index (array, i), text) == 0)
      return TRUE;
  return FALSE;
}

static void
add_name (JseScrubber *scrubber, const char *name)
{
  /* "root" names a folder of every system: nothing personal. */
  if (name == NULL || name[0] == '\0' || strcmp (name, "root") == 0
      || contains (scrubber->names, name))
    return;
  g_ptr_array_add (scrubber->names, g_strdup (name));
}

static void
add_home (JseScrubber *scrubber, const char *home)
{
  /* "/" or "/home" as a home would scrub everything. */
  if (home == NULL || strlen (home) < 2 || strcmp (home, "/home") == 0 || !g_path_is_absolute (home)
      || contains (scrubber->homes, home))
    return;
  g_ptr_array_add (scrubber->homes, g_strdup (home));
}

JseScrubber *
jse_scrubber_new (void)
{
  JseScrubber *scrubber = g_new0 (JseScrubber, 1);
  g_autofree char *home = g_canonicalize_filename (g_get_home_dir (), "/");

  scrubber->homes = g_ptr_array_new_with_free_func (g_free);
  scrubber->names = g_ptr_array_new_with_free_func (g_free);
  add_home (scrubber, home);
  add_home (scrubber, "/root");
  add_name (scrubber, g_get_user_name ());
  jse_scrubber_learn (scrubber, home);

  return scrubber;
}

void
jse_scrubber_free (JseScrubber *scrubber)
{
  if (scrubber == NULL)
    return;
  g_ptr_array_unref (scrubber->homes);
  g_ptr_array_unref (scrubber->names);
  g_free (scrubber);
}

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c);
}

/* A path starts at the beginning of the text or after a separator: not
 * inside a longer path ("/usr/root/..." holds no home folder). */
static gboolean
is_path_start (const char *text, const char *at)
{
  char before;

  if (at == text)
    return TRUE;
  before = at[-1];
  return !g_ascii_isalnum (before) && strchr ("._-~/+@", before) == NULL;
}

/* A home folder ends at the end of its path component. */
static gboolean
ends_component (char c)
{
  return c == '\0' || c == '/' || g_ascii_isspace (c) || strchr ("\"':;,)]}>", c) != NULL;
}

/* The length of the user-named home folder at @at ("/home/NAME"), 0 if
 * none; @name_out gets NAME. */
static gsize
user_home_at (const char *at, const char **name_out, gsize *name_length)
{
  for (gsize i = 0; i < G_N_ELEMENTS (home_parents); i++)
    {
      gsize parent = strlen (home_parents[i]);
      gsize length = 0;

      if (strncmp (at, home_parents[i], parent) != 0)
        continue;
      while (!ends_component (at[parent + length]))
        length++;
      if (length == 0)
        continue;
      *name_out = at + parent;
      *name_length = length;
      return parent + length;
    }

  return 0;
}

void
jse_scrubber_learn (JseScrubber *scrubber, const char *text)
{
  if (text == NULL || strchr (text, '/') == NULL)
    return;

  for (const char *at = strchr (text, '/'); at != NULL; at = strchr (at + 1, '/'))
    {
      const char *name;
      gsize name_length;
      gsize length;

      if (!is_path_start (text, at) || (length = user_home_at (at, &name, &name_length)) == 0)
        continue;
      {
        g_autofree char *home = g_strndup (at, length);
        g_autofree char *user = g_strndup (name, name_length);

        add_home (scrubber, home);
        add_name (scrubber, user);
      }
    }
}

static gsize
known_home_at (const JseScrubber *scrubber, const char *at)
{
  gsize best = 0;

  for (guint i = 0; i < scrubber->homes->len; i++)
    {
      const char *home = g_ptr_array_index (scrubber->homes, i);
      gsize length = strlen (home);

      if (length > best && strncmp (at, home, length) == 0 && ends_component (at[length]))
        best = length;
    }

  return best;
}

static char *
scrub_homes (const JseScrubber *scrubber, const char *text)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *at = text; *at != '\0';)
    {
      gsize length = 0;

      if (*at == '/' && is_path_start (text, at))
        {
          const char *name;
          gsize name_length;

          length = known_home_at (scrubber, at);
          if (length == 0)
            length = user_home_at (at, &name, &name_length);
        }
      if (length > 0)
        {
          g_string_append (out, JSE_SCRUB_HOME);
          at += length;
        }
      else
        g_string_append_c (out, *at++);
    }

  return g_string_free (out, FALSE);
}

static char *
scrub_names (const JseScrubber *scrubber, char *text)
{
  for (guint i = 0; i < scrubber->names->len; i++)
    {
      const char *name = g_ptr_array_index (scrubber->names, i);
      gsize length = strlen (name);
      GString *out;
      const char *at;
      const char *copied = text;

      if (strstr (text, name) == NULL)
        continue;
      out = g_string_new (NULL);
      for (at = strstr (text, name); at != NULL; at = strstr (at + 1, name))
        {
          if (at < copied || (at > text && is_word_char (at[-1])) || is_word_char (at[length]))
            continue;
          g_string_append_len (out, copied, at - copied);
          g_string_append (out, JSE_SCRUB_USER);
          copied = at + length;
        }
      g_string_append (out, copied);
      g_free (text);
      text = g_string_free (out, FALSE);
    }

  return text;
}

char *
jse_scrubber_apply (const JseScrubber *scrubber, const char *text)
{
  if (text == NULL)
    return NULL;
  if (strchr (text, '/') == NULL)
    return g_strdup (text);

  return scrub_names (scrubber, scrub_homes (scrubber, text));
}
