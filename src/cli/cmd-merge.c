/* cmd-merge.c: "jankscope merge FILE... -o OUT", many runs into one aggregate
 *
 * Reports and aggregates of many runs and machines become one aggregate
 * document (docs/aggregate-format.md). Inputs are streamed (load, fold in,
 * free) by jsr-input-queue.c's worker threads, so 10,000 reports take the
 * memory of a few. Counts and sums are exact and merging is associative.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "analysis.h"
#include "cli-commands.h"
#include "cli-common.h"
#include "js-signature.h"
#include "jsr-aggregate-io.h"
#include "output-file.h"

int
cli_cmd_merge (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsrAggregate) agg = NULL;
  g_auto (GStrv) files = NULL;
  g_autofree char *output = NULL, *frames_text = NULL, *max_text = NULL, *jobs_text = NULL;
  g_autofree char *json = NULL;
  g_autofree char *display_output = NULL;
  CliFoldOptions options = { 0 };
  guint signature_frames = JS_SIGNATURE_DEFAULT_FRAMES;
  guint max_signatures = JSR_AGGREGATE_DEFAULT_MAX_SIGNATURES;
  guint folded, skipped;
  const GOptionEntry entries[]
      = { { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
            N_ ("Write the aggregate to FILE (- for the standard output)"), N_ ("FILE") },
          { "signature-frames", 0, 0, G_OPTION_ARG_STRING, &frames_text,
            N_ ("Frames per signature (1-64, default 5)"), "N" },
          { "max-signatures", 0, 0, G_OPTION_ARG_STRING, &max_text,
            N_ ("Signatures kept, by stall time (default 10000); the rest is counted in “other”"),
            "N" },
          { "keep-going", 'k', 0, G_OPTION_ARG_NONE, &options.keep_going,
            N_ ("Skip unreadable files with a warning instead of failing"), NULL },
          { "jobs", 'j', 0, G_OPTION_ARG_STRING, &jobs_text,
            N_ ("Threads that read files (default: one per processor, at most 8)"), "N" },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
          G_OPTION_ENTRY_NULL };

  context = cli_option_context_new ("merge", _ ("FILE… -o OUT"),
                                    _ ("Merges reports and aggregates of many runs and machines "
                                       "into one aggregate (docs/aggregate-format.md). A folder "
                                       "stands for its *.json files."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* Options may follow the files (no app arguments here to protect). */
  g_option_context_set_strict_posix (context, FALSE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (files == NULL || files[0] == NULL)
    return cli_usage_error (context, _ ("no report file given"));
  if (output == NULL)
    return cli_usage_error (context, _ ("no output file given (-o OUT)"));
  if (output[0] == '\0')
    return cli_usage_error (context, _ ("--output: empty file name"));
  if (frames_text != NULL
      && !cli_parse_count (frames_text, 1, JS_SIGNATURE_MAX_FRAMES, &signature_frames))
    {
      g_autofree char *value = jsr_display (frames_text);

      return cli_usage_error (context,
                              _ ("--signature-frames must be a number from 1 to %d, not “%s”"),
                              JS_SIGNATURE_MAX_FRAMES, value);
    }
  if (max_text != NULL && !cli_parse_count (max_text, 1, 1000000, &max_signatures))
    {
      g_autofree char *value = jsr_display (max_text);

      return cli_usage_error (
          context, _ ("--max-signatures must be a number from 1 to 1000000, not “%s”"), value);
    }
  if (jobs_text != NULL && !cli_parse_count (jobs_text, 1, 64, &options.threads))
    {
      g_autofree char *value = jsr_display (jobs_text);

      return cli_usage_error (context, _ ("--jobs must be a number from 1 to 64, not “%s”"), value);
    }

  agg = jsr_aggregate_new (signature_frames, max_signatures);
  if (!cli_fold_files (agg, files, &options, &folded, &skipped))
    return CLI_EXIT_FAILURE;
  if (folded == 0)
    {
      cli_error (_ ("no report could be read: nothing written"));
      return CLI_EXIT_FAILURE;
    }

  json = jsr_aggregate_to_json (agg);
  display_output = jsr_display_filename (output);
  if (!cli_output_write (output, json, strlen (json), FALSE, &error))
    {
      cli_error ("%s", error->message);
      return CLI_EXIT_FAILURE;
    }

  g_printerr (ngettext ("jankscope: merged %u input (%u runs, %u signatures) into %s\n",
                        "jankscope: merged %u inputs (%u runs, %u signatures) into %s\n", folded),
              folded, g_hash_table_size (agg->runs), g_hash_table_size (agg->signatures),
              display_output);
  if (skipped > 0)
    g_printerr (ngettext ("jankscope: %u input was skipped\n",
                          "jankscope: %u inputs were skipped\n", skipped),
                skipped);

  return CLI_EXIT_OK;
}
