/* analysis.c: what `jankscope report`, `merge` and `diff` share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <malloc.h>

#include <glib/gi18n.h>

#include "analysis.h"
#include "cli-common.h"
#include "js-signature.h"
#include "jsr-input-queue.h"
#include "summary-printer.h"

gboolean
cli_fold_files (JsrAggregate *agg, char **arguments, const CliFoldOptions *options, guint *n_folded,
                guint *n_skipped)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) paths = jsr_input_expand_paths (arguments, &error);
  g_autoptr (JsrInputQueue) queue = NULL;
  guint folded = 0, skipped = 0;
  JsrInput *input;

  if (n_folded != NULL)
    *n_folded = 0;
  if (n_skipped != NULL)
    *n_skipped = 0;
  if (paths == NULL)
    {
      cli_error ("%s", error->message);
      return FALSE;
    }

  /* Each input takes a few buffers of some 100 KB (the file, its tree),
   * freed before the next ones: served from mmap (glibc's default above
   * 128 KB), every one of them costs fresh pages and their faults, a third
   * of the time of a merge. Kept in the heap, they are reused. */
  mallopt (M_MMAP_THRESHOLD, 64 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, 128 * 1024 * 1024);

  /* At the default depth the reports' own signatures are used: their
   * frames need not be loaded. */
  queue = jsr_input_queue_new ((const char *const *) paths->pdata, paths->len, options->threads,
                               agg->signature_frames == JS_SIGNATURE_DEFAULT_FRAMES
                                   ? JSR_REPORT_LOAD_FULL | JSR_REPORT_LOAD_AGGREGATE
                                   : JSR_REPORT_LOAD_FULL);
  while ((input = jsr_input_queue_next (queue)) != NULL)
    {
      g_autoptr (JsrInput) owned = input;
      g_autofree char *name = jsr_display_filename (input->path);
      g_autoptr (GError) fold_error = NULL;
      gboolean ok;

      if (input->error != NULL)
        {
          if (!options->keep_going)
            {
              cli_error ("%s: %s", name, input->error->message);
              return FALSE;
            }
          cli_warning (_ ("%s: %s: skipped"), name, input->error->message);
          skipped++;
          continue;
        }

      ok = input->report != NULL ? jsr_aggregate_add_report (agg, input->report, &fold_error)
                                 : jsr_aggregate_add_aggregate (agg, input->aggregate, &fold_error);
      if (ok)
        {
          folded++;
          continue;
        }
      /* A run seen twice (the same file given twice, a copy): skipped. */
      if (input->report != NULL
          && g_error_matches (fold_error, JSR_AGGREGATE_ERROR, JSR_AGGREGATE_ERROR_DUPLICATE))
        {
          cli_warning ("%s: %s", name, fold_error->message);
          skipped++;
          continue;
        }
      if (!options->keep_going)
        {
          cli_error ("%s: %s", name, fold_error->message);
          return FALSE;
        }
      cli_warning (_ ("%s: %s: skipped"), name, fold_error->message);
      skipped++;
    }

  if (n_folded != NULL)
    *n_folded = folded;
  if (n_skipped != NULL)
    *n_skipped = skipped;
  return TRUE;
}

gboolean
cli_parse_count (const char *text, guint min, guint max, guint *out)
{
  guint64 value;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, min, max, &value, NULL))
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

/* As the summary's, and hours from one hour on (a fleet's monitored time). */
char *
cli_format_duration (guint64 ns)
{
  if (ns >= G_GUINT64_CONSTANT (3600000000000))
    return g_strdup_printf (_ ("%.1f h"), (double) ns / 3.6e12);
  return cli_summary_format_duration ((gint64) MIN (ns, (guint64) G_MAXINT64));
}

char *
cli_format_duration_fine (guint64 ns)
{
  if (ns >= G_GUINT64_CONSTANT (1000000000) && ns < G_GUINT64_CONSTANT (3600000000000))
    return g_strdup_printf (_ ("%.3f s"), (double) ns / 1e9);
  return cli_format_duration (ns);
}

char *
cli_format_share (guint64 part, guint64 whole)
{
  if (whole == 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.0f%%", 100.0 * (double) part / (double) whole);
}

char *
cli_format_class (const JsrAggKey *key)
{
  if (key->klass == NULL)
    return g_strdup (_ ("unknown"));
  if (key->wait != NULL)
    return g_strdup_printf ("%s (%s)", key->klass, key->wait);
  return g_strdup (key->klass);
}

char *
cli_format_culprit (const char *function, const char *callback)
{
  if (function == NULL)
    return g_strdup ("-");
  if (callback == NULL)
    return g_strdup (function);
  /* Translators: the callback the main loop dispatched, then the library
   * function that took the time in it, e.g. "on_load → gtk_text_layout_validate" */
  return g_strdup_printf (_ ("%s → %s"), callback, function);
}

const char *
cli_format_signature (const char *text)
{
  if (text == NULL)
    return "-";
  if (text[0] == '\0')
    return _ ("(main loop and system frames only)");
  return text;
}
