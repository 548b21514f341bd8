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

/* A scrubbed deep copy, mutable: parts of a report can be immutable (a
 * previous run's hang comes from a JsonParser), so nothing is changed in
 * place. */
static JsonNode *
scrubbed_copy (const JsScrub *s, JsonNode *node)
{
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *from = json_node_get_object (node), *to = json_object_new ();
        g_autoptr (GList) members = json_object_get_members (from);

        for (GList *l = members; l != NULL; l = l->next)
          json_object_set_member (to, l->data,
                                  g_str_equal (l->data, "window_title")
                                      ? json_node_new (JSON_NODE_NULL)
                                      : scrubbed_copy (s, json_object_get_member (from, l->data)));
        copy = json_node_new (JSON_NODE_OBJECT);
        json_node_take_object (copy, to);
        return copy;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *from = json_node_get_array (node);
        JsonArray *to = json_array_sized_new (json_array_get_length (from));

        for (guint i = 0; i < json_array_get_length (from); i++)
          json_array_add_element (to, scrubbed_copy (s, json_array_get_element (from, i)));
        copy = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (copy, to);
        return copy;
      }
    case JSON_NODE_VALUE:
      copy = json_node_alloc ();
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          {
            g_autofree char *clean = js_scrub_string (s, json_node_get_string (node));

            return json_node_init_string (copy, clean);
          }
        case G_TYPE_INT64:
          return json_node_init_int (copy, json_node_get_int (node));
        case G_TYPE_DOUBLE:
          return json_node_init_double (copy, json_node_get_double (node));
        case G_TYPE_BOOLEAN:
          return json_node_init_boolean (copy, json_node_get_boolean (node));
        default:
          return json_node_init_null (copy);
        }
    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

void
js_scrub_json (const JsScrub *s, JsonNode *root)
{
  JsonObject *object;
  g_autoptr (GList) members = NULL;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  /* The root object is the builder's (mutable): its members are replaced. */
  object = json_node_get_object (root);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    json_object_set_member (object, l->data,
                            g_str_equal (l->data, "window_title")
                                ? json_node_new (JSON_NODE_NULL)
                                : scrubbed_copy (s, json_object_get_member (object, l->data)));
}
