/* jsr-report-journal.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsr-json-doc.h"
#include "jsr-json-writer.h"
#include "jsr-report-journal.h"
#include "jsr-report.h"

#define JOURNAL_SUFFIX ".journal"

char *
jsr_report_journal_read (const char *path, gsize *length)
{
  g_autofree char *journal_path = g_strconcat (path, JOURNAL_SUFFIX, NULL);
  g_autofree char *buffer = NULL;
  struct stat st;
  gsize done = 0;
  int fd;

  /* Not the user's name for it: never follow a link, never wait on a FIFO. */
  fd = open (journal_path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > JSR_REPORT_MAX_BYTES)
    {
      close (fd);
      return NULL;
    }
  buffer = g_malloc ((gsize) st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, buffer + done, (gsize) st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break; /* shorter than it was: keep what was read */
      done += (gsize) n;
    }
  close (fd);
  buffer[done] = '\0';
  *length = done;
  return g_steal_pointer (&buffer);
}

/* --- folding --------------------------------------------------------------- */

static gint64
int_member (const JsrJsonNode *object, const char *name, gint64 fallback)
{
  const JsrJsonNode *n = jsr_json_object_get (object, name);

  return n != NULL && n->type == JSR_JSON_INT ? n->v.integer : fallback;
}

static gboolean
is_ongoing (const JsrJsonNode *event)
{
  const JsrJsonNode *n = jsr_json_object_get (event, "ongoing");

  return n != NULL && n->type == JSR_JSON_BOOLEAN && n->v.boolean;
}

typedef struct
{
  const JsrJsonNode *root;     /* the report */
  GHashTable *events;          /* id -> const JsrJsonNode* (event object) */
  const JsrJsonNode *hang;     /* the hang under way, or NULL */
  const JsrJsonNode *progress; /* the newest hang_progress line's object for it, or NULL */
  GHashTable *members;         /* name -> const JsrJsonNode*: "set" lines, newest wins */
  GPtrArray *member_order;     /* names of members not in the report, in order */
  gboolean final;
} Fold;

static void
apply_line (Fold *f, const JsrJsonNode *line)
{
  const JsrJsonNode *n;

  if ((n = jsr_json_object_get (line, "event")) != NULL && n->type == JSR_JSON_OBJECT)
    g_hash_table_insert (f->events, GSIZE_TO_POINTER ((gsize) int_member (n, "id", 0)),
                         (gpointer) n);
  else if ((n = jsr_json_object_get (line, "hang")) != NULL)
    {
      f->hang = n->type == JSR_JSON_OBJECT ? n : NULL;
      f->progress = NULL;
    }
  else if ((n = jsr_json_object_get (line, "hang_progress")) != NULL)
    {
      /* Only for the hang it says it is about, and only forward. */
      if (n->type == JSR_JSON_OBJECT && f->hang != NULL
          && int_member (n, "start_ns", -1) == int_member (f->hang, "start_ns", -2)
          && int_member (n, "duration_ns", -1) > int_member (f->hang, "duration_ns", -1))
        f->progress = n;
    }
  else if ((n = jsr_json_object_get (line, "set")) != NULL && n->type == JSR_JSON_OBJECT)
    for (guint32 i = 0; i < n->length; i++)
      {
        const char *name = n->v.members[i].name;

        if (!g_hash_table_contains (f->members, name)
            && jsr_json_object_get (f->root, name) == NULL)
          g_ptr_array_add (f->member_order, (gpointer) name);
        g_hash_table_insert (f->members, (gpointer) name, (gpointer) &n->v.members[i].value);
      }
  else if ((n = jsr_json_object_get (line, "final")) != NULL && n->type == JSR_JSON_BOOLEAN)
    f->final = n->v.boolean;
}

/* The members of the hang a `hang_progress` line brings up to date. */
static gboolean
is_progress_member (const char *name)
{
  return strcmp (name, "end_ns") == 0 || strcmp (name, "duration_ns") == 0
         || strcmp (name, "max_part_ns") == 0 || strcmp (name, "tier") == 0;
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  gint64 x = int_member (*(const JsrJsonNode *const *) a, "start_ns", 0);
  gint64 y = int_member (*(const JsrJsonNode *const *) b, "start_ns", 0);

  return (x > y) - (x < y);
}

/* The events by start, the hang under way last, one per line. */
static void
write_events (JsJsonWriter *w, Fold *f)
{
  g_autoptr (GPtrArray) events = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, f->events);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (events, value);
  g_ptr_array_sort (events, by_start);
  js_json_writer_begin_array (w);
  for (guint i = 0; i < events->len; i++)
    {
      if (i > 0)
        js_json_writer_newline (w, 0);
      jsr_json_writer_node (w, g_ptr_array_index (events, i));
    }
  if (f->hang != NULL)
    {
      if (events->len > 0)
        js_json_writer_newline (w, 0);
      /* The journal's hang says whose it was ("process"): not a member of
       * the report's events. */
      js_json_writer_begin_object (w);
      for (guint32 i = 0; i < f->hang->length; i++)
        {
          const char *name = f->hang->v.members[i].name;
          const JsrJsonNode *member = &f->hang->v.members[i].value;

          if (strcmp (name, "process") == 0)
            continue;
          /* Its times and tier as the newest progress line has them; the
           * time that adds has no samples on disk yet: unattributed. */
          if (f->progress != NULL && strcmp (name, "unattributed_ns") == 0
              && member->type == JSR_JSON_INT)
            {
              js_json_writer_member (w, name);
              js_json_writer_int (w, member->v.integer + int_member (f->progress, "duration_ns", 0)
                                         - int_member (f->hang, "duration_ns", 0));
              continue;
            }
          if (f->progress != NULL && is_progress_member (name))
            {
              const JsrJsonNode *newer = jsr_json_object_get (f->progress, name);

              /* Of the same type; a tier may come where there was none. */
              if (newer != NULL
                  && (newer->type == member->type
                      || (member->type == JSR_JSON_NULL && newer->type == JSR_JSON_STRING)))
                member = newer;
            }
          js_json_writer_member (w, name);
          jsr_json_writer_node (w, member);
        }
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
}

char *
jsr_report_journal_fold (const char *report, gsize report_length, const char *journal,
                         gsize journal_length, gsize *folded_length)
{
  g_autoptr (JsrJsonDoc) doc = NULL;
  g_autoptr (GPtrArray) line_docs
      = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_json_doc_free);
  g_autoptr (GHashTable) events = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) members = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) member_order = g_ptr_array_new ();
  const JsrJsonNode *mark, *run, *list;
  gint64 seq;
  gboolean applied = FALSE;
  const char *p, *end;
  Fold f = { 0 };
  JsJsonWriter w;
  GString *out;

  doc = jsr_json_doc_parse (report, report_length, JSR_REPORT_MAX_JSON_DEPTH, NULL);
  if (doc == NULL)
    return NULL;
  f.root = jsr_json_doc_get_root (doc);
  mark = jsr_json_object_get (f.root, "journal");
  if (mark == NULL || mark->type != JSR_JSON_OBJECT
      || (run = jsr_json_object_get (mark, "run")) == NULL || run->type != JSR_JSON_STRING)
    return NULL;
  seq = int_member (mark, "seq", G_MAXINT64);
  f.events = events;
  f.members = members;
  f.member_order = member_order;
  f.final = FALSE;

  list = jsr_json_object_get (f.root, "events");
  for (guint32 i = 0; list != NULL && list->type == JSR_JSON_ARRAY && i < list->length; i++)
    {
      const JsrJsonNode *e = &list->v.elements[i];

      if (e->type != JSR_JSON_OBJECT)
        continue;
      if (is_ongoing (e))
        f.hang = e;
      else
        g_hash_table_insert (events, GSIZE_TO_POINTER ((gsize) int_member (e, "id", 0)),
                             (gpointer) e);
    }

  /* Complete lines only: a torn last line (the app was writing it) is
   * left out, and so is any line that is not a JSON object of this run. */
  p = journal;
  end = journal + journal_length;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      JsrJsonDoc *line_doc;
      const JsrJsonNode *line, *line_run;

      if (nl == NULL)
        break;
      line_doc = nl > p ? jsr_json_doc_parse (p, (gsize) (nl - p), JSR_REPORT_MAX_JSON_DEPTH, NULL)
                        : NULL;
      p = nl + 1;
      if (line_doc == NULL)
        continue;
      line = jsr_json_doc_get_root (line_doc);
      line_run = jsr_json_object_get (line, "run");
      if (line_run == NULL || line_run->type != JSR_JSON_STRING
          || strcmp (line_run->v.string, run->v.string) != 0 || int_member (line, "seq", 0) <= seq)
        {
          jsr_json_doc_free (line_doc);
          continue;
        }
      g_ptr_array_add (line_docs, line_doc);
      apply_line (&f, line);
      applied = TRUE;
    }
  if (!applied)
    return NULL;

  /* Compact, one top-level member and one event per line. */
  out = g_string_sized_new (report_length + journal_length);
  js_json_writer_init (&w, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_begin_object (&w);
  for (guint32 i = 0; i < f.root->length; i++)
    {
      const JsrJsonMember *m = &f.root->v.members[i];
      const JsrJsonNode *value = g_hash_table_lookup (members, m->name);

      if (i > 0)
        js_json_writer_newline (&w, 0);
      js_json_writer_member (&w, m->name);
      if (strcmp (m->name, "events") == 0)
        write_events (&w, &f);
      else if (strcmp (m->name, "final") == 0)
        js_json_writer_bool (&w, f.final);
      else
        jsr_json_writer_node (&w, value != NULL ? value : &m->value);
    }
  for (guint i = 0; i < member_order->len; i++)
    {
      const char *name = g_ptr_array_index (member_order, i);

      js_json_writer_newline (&w, 0);
      js_json_writer_member (&w, name);
      jsr_json_writer_node (&w, g_hash_table_lookup (members, name));
    }
  js_json_writer_end_object (&w);
  g_string_append_c (out, '\n');
  *folded_length = out->len;
  return g_string_free (out, FALSE);
}
