/* jse-folded.c: "jankscope export --format=folded", the folded stacks of
 * flamegraph.pl, inferno and speedscope
 *
 * One line per distinct stack, root first: "root;caller;leaf COUNT", counts
 * summed over events and inputs, lines sorted. Frames are named as in every
 * format (jse_frame_name); inline frames are frames of their own. A ';'
 * in a name would split it: it becomes ':'. --folded-prefix puts the
 * process name, the event's class or the stack's signature in front as
 * root frames.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "jse-formats.h"
#include "jsr-display.h"

static const char *const prefix_kinds[] = { "process", "class", "signature" };

gboolean
jse_folded_check_prefix (const char *prefix,
                         GError    **error)
{
  g_auto (GStrv) parts = NULL;

  if (prefix == NULL || strcmp (prefix, "none") == 0)
    return TRUE;
  parts = g_strsplit (prefix, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (!g_strv_contains (prefix_kinds, parts[i]))
      {
        g_autofree char *part = jsr_display (parts[i]);

        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("--folded-prefix: “%s” is not process, class, signature or none"), part);
        return FALSE;
      }

  return TRUE;
}

static void
append_frame (GString    *line,
              const char *name)
{
  if (line->len > 0)
    g_string_append_c (line, ';');
  for (const char *c = name; *c != '\0'; c++)
    g_string_append_c (line, *c == ';' ? ':' : g_ascii_iscntrl (*c) ? ' ' : *c);
}

static void
append_prefix (JseContext          *ctx,
               GString             *line,
               const char          *kind,
               const JseStackCount *count)
{
  const JsrReportEvent *event = count->event;

  if (strcmp (kind, "process") == 0)
    append_frame (line, count->process->name);
  else if (strcmp (kind, "class") == 0)
    {
      g_autofree char *klass = NULL;

      if (event->klass == NULL)
        klass = g_strdup ("[unknown class]");
      else if (event->wait != NULL)
        klass = g_strdup_printf ("%s (%s)", event->klass, event->wait);
      else
        klass = g_strdup (event->klass);
      append_frame (line, klass);
    }
  else if (strcmp (kind, "signature") == 0)
    append_frame (line, count->stack != NULL && count->stack->signature != NULL
                          ? count->stack->signature
                          : "[no signature]");
}

static int
compare_lines (const void *a,
               const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GBytes *
jse_format_folded (JseContext *ctx,
                   GError    **error)
{
  g_autoptr (GArray) counts = jse_stack_counts (ctx);
  g_autoptr (GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto (GStrv) prefixes = NULL;
  g_autofree gpointer *keys = NULL;
  guint n_keys;
  GString *out = g_string_new (NULL);

  if (ctx->folded_prefix != NULL && strcmp (ctx->folded_prefix, "none") != 0)
    prefixes = g_strsplit (ctx->folded_prefix, ",", -1);

  for (guint i = 0; i < counts->len; i++)
    {
      const JseStackCount *count = &g_array_index (counts, JseStackCount, i);
      g_autoptr (GString) line = g_string_new (NULL);
      gint64 *sum;

      for (guint k = 0; prefixes != NULL && prefixes[k] != NULL; k++)
        append_prefix (ctx, line, prefixes[k], count);
      if (count->stack == NULL || count->stack->frames->len == 0)
        append_frame (line, JSE_NO_STACK);
      else
        for (guint k = count->stack->frames->len; k-- > 0;)
          append_frame (line, jse_frame_name (ctx, g_ptr_array_index (count->stack->frames, k)));

      sum = g_hash_table_lookup (lines, line->str);
      if (sum == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (lines, g_strdup (line->str), sum);
        }
      *sum = jsr_sat_add (*sum, count->count);
    }

  keys = g_hash_table_get_keys_as_array (lines, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_lines);
  for (guint i = 0; i < n_keys; i++)
    g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", (const char *) keys[i],
                            *(gint64 *) g_hash_table_lookup (lines, keys[i]));

  return g_string_free_to_bytes (out);
}
