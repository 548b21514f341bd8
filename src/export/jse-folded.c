/* jse-folded.c: "jankscope export --format=folded", the folded stacks of
 * flamegraph.pl, inferno and speedscope
 *
 * One line per distinct stack, root first: "root;caller;leaf VALUE", the
 * events' profiles (jse_profile_weights) summed over events and inputs,
 * lines sorted. VALUE is the stack's attributed time in microseconds
 * (--folded-weight=time, the default: the lines add up to the attributed
 * time `jankscope report` prints) or its samples (--folded-weight=samples:
 * the sampling interval changes during a stall, so samples are not time).
 * Frames are named as in every format (jse_frame_name); inline frames are
 * frames of their own. A ';' in a name would split it: it becomes ':'.
 * --folded-prefix puts the process name, the event's class or the stack's
 * signature in front as root frames.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "js-signature.h"
#include "jse-formats.h"
#include "jsr-display.h"

static const char *const prefix_kinds[] = { "process", "class", "signature" };

gboolean
jse_folded_check_prefix (const char *prefix, GError **error)
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
                     _ ("--folded-prefix: “%s” is not process, class, signature or none"), part);
        return FALSE;
      }

  return TRUE;
}

static void
append_frame (GString *line, const char *name)
{
  if (line->len > 0)
    g_string_append_c (line, ';');
  for (const char *c = name; *c != '\0'; c++)
    g_string_append_c (line, *c == ';' ? ':' : g_ascii_iscntrl (*c) ? ' ' : *c);
}

static void
append_prefix (GString *line, const char *kind, const JseNodeWeight *weight)
{
  const JsrReportEvent *event = weight->event;

  if (strcmp (kind, "process") == 0)
    append_frame (line, weight->process->name);
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
    {
      char id[17];
      g_autofree char *signature = jsr_profile_signature (
          weight->profile, event->detail->stacks, weight->node, JS_SIGNATURE_DEFAULT_FRAMES, id);

      append_frame (line, signature != NULL ? signature : "[no signature]");
    }
}

static int
compare_lines (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
jse_folded_parse_weight (const char *text, JseFoldedWeight *out, GError **error)
{
  if (text == NULL || strcmp (text, "time") == 0)
    *out = JSE_FOLDED_TIME;
  else if (strcmp (text, "samples") == 0)
    *out = JSE_FOLDED_SAMPLES;
  else
    {
      g_autofree char *value = jsr_display (text);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("--folded-weight: “%s” is not time or samples"), value);
      return FALSE;
    }
  return TRUE;
}

/* Nanoseconds to the nearest microsecond (no overflow near 2^63). */
static gint64
to_us (gint64 ns)
{
  return ns / 1000 + (ns % 1000 >= 500);
}

GBytes *
jse_format_folded (JseContext *ctx, GError **error)
{
  g_autoptr (GArray) weights = jse_profile_weights (ctx);
  g_autoptr (GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GPtrArray) frames = g_ptr_array_new ();
  g_auto (GStrv) prefixes = NULL;
  g_autofree gpointer *keys = NULL;
  guint n_keys;
  GString *out = g_string_new (NULL);

  if (ctx->folded_prefix != NULL && strcmp (ctx->folded_prefix, "none") != 0)
    prefixes = g_strsplit (ctx->folded_prefix, ",", -1);

  for (guint i = 0; i < weights->len; i++)
    {
      const JseNodeWeight *weight = &g_array_index (weights, JseNodeWeight, i);
      gint64 value = ctx->folded_weight == JSE_FOLDED_SAMPLES ? weight->samples : weight->time_ns;
      g_autoptr (GString) line = g_string_new (NULL);
      gint64 *sum;

      if (value <= 0)
        continue;
      for (guint k = 0; prefixes != NULL && prefixes[k] != NULL; k++)
        append_prefix (line, prefixes[k], weight);
      g_ptr_array_set_size (frames, 0);
      jse_node_frames (weight->profile, weight->node, frames);
      for (guint k = frames->len; k-- > 0;)
        append_frame (line, jse_frame_name (ctx, g_ptr_array_index (frames, k)));

      sum = g_hash_table_lookup (lines, line->str);
      if (sum == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (lines, g_strdup (line->str), sum);
        }
      *sum = jsr_sat_add (*sum, value);
    }

  keys = g_hash_table_get_keys_as_array (lines, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_lines);
  for (guint i = 0; i < n_keys; i++)
    {
      gint64 value = *(gint64 *) g_hash_table_lookup (lines, keys[i]);

      /* Summed in nanoseconds, written in microseconds: a line of less than
       * half a microsecond in all is left out. */
      if (ctx->folded_weight == JSE_FOLDED_TIME)
        value = to_us (value);
      if (value > 0)
        g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", (const char *) keys[i], value);
    }

  return g_string_free_to_bytes (out);
}
