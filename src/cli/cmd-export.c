/* cmd-export.c: "jankscope export --format=FORMAT FILE... -o OUT": reports
 * in the formats of other tools (docs/exports.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cli-commands.h"
#include "cli-common.h"
#include "jse-common.h"
#include "jse-formats.h"
#include "output-file.h"

typedef struct
{
  const char *name;
  const char *description; /* N_() */
  gboolean binary;         /* never to a terminal */
  GBytes *(*export) (JseContext *ctx, GError **error);
  const char *missing; /* N_(): why this build has no such format; NULL when it has */
} ExportFormat;

static const ExportFormat formats[] = {
  { "chrome", N_ ("Trace Event Format JSON for Perfetto UI and chrome://tracing"), FALSE,
    jse_format_chrome, NULL },
  { "folded", N_ ("folded stacks for flamegraph.pl and speedscope"), FALSE, jse_format_folded,
    NULL },
#ifdef JANKSCOPE_HAVE_PPROF
  { "pprof", N_ ("gzipped profile.proto for pprof and continuous-profiling services"), TRUE,
    jse_format_pprof, NULL },
#else
  { "pprof", N_ ("gzipped profile.proto for pprof and continuous-profiling services"), TRUE, NULL,
    N_ ("this jankscope was built without the pprof format: it needs protobuf-c "
        "(libprotobuf-c-dev and protobuf-c-compiler) when it is built (meson option -Dpprof)") },
#endif
  { "json", N_ ("the reports as one JSON array"), FALSE, jse_format_json, NULL },
#ifdef JANKSCOPE_HAVE_SYSPROF
  { "sysprof", N_ ("a Sysprof capture"), TRUE, jse_format_sysprof, NULL },
#else
  { "sysprof", N_ ("a Sysprof capture"), TRUE, NULL,
    N_ ("this jankscope was built without the sysprof format: it needs libsysprof-capture "
        "(libsysprof-4-dev) when it is built (meson option -Dsysprof)") },
#endif
};

static const ExportFormat *
find_format (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    if (strcmp (formats[i].name, name) == 0)
      return &formats[i];
  return NULL;
}

static char *
describe_formats (void)
{
  GString *text = g_string_new (_ ("Formats:"));

  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    g_string_append_printf (text, "\n  %-8s %s%s", formats[i].name, _ (formats[i].description),
                            formats[i].missing != NULL ? _ (" (not in this build)") : "");
  g_string_append (text, "\n\n");
  g_string_append (text, _ ("Several reports (runs, processes) go into one output. Times are "
                            "CLOCK_MONOTONIC: reports of one machine line up; --align=start "
                            "starts every process at the same time. See docs/exports.md."));

  return g_string_free (text, FALSE);
}

int
cli_cmd_export (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *align = NULL;
  g_autofree char *folded_prefix = NULL;
  g_autofree char *folded_weight = NULL;
  g_autofree char *description = NULL;
  g_auto (GStrv) files = NULL;
  g_autoptr (GBytes) bytes = NULL;
  gboolean scrub = FALSE;
  JseFoldedWeight weight;
  const ExportFormat *format;
  JseContext *ctx;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_ ("Output format: chrome, folded, pprof, json or sysprof"), N_ ("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("Write to FILE, replaced atomically (default: “-”, the standard output)"), N_ ("FILE") },
    { "scrub", 0, 0, G_OPTION_ARG_NONE, &scrub,
      N_ ("Replace home folders (“~”) and user names (“<user>”) in paths"), NULL },
    { "align", 0, 0, G_OPTION_ARG_STRING, &align,
      N_ ("clock: the reports' own clock (default); start: every process starts at the same "
          "time"),
      N_ ("clock|start") },
    { "folded-prefix", 0, 0, G_OPTION_ARG_STRING, &folded_prefix,
      N_ ("folded: root frames before each stack, a comma-separated list of process, class, "
          "signature; or none (default)"),
      N_ ("LIST") },
    { "folded-weight", 0, 0, G_OPTION_ARG_STRING, &folded_weight,
      N_ ("folded: what each line counts: time (attributed time in microseconds, the default) "
          "or samples"),
      N_ ("time|samples") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };

  context = cli_option_context_new ("export", _ ("FILE…"),
                                    _ ("Writes reports in the format of another tool: a trace "
                                       "for Perfetto, a flame graph, a pprof profile, one JSON "
                                       "document or a Sysprof capture."));
  /* "export FILE... -o OUT": options may follow the files (no app argv here). */
  g_option_context_set_strict_posix (context, FALSE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  description = describe_formats ();
  g_option_context_set_description (context, description);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cli_usage_error (context, "%s", error->message);
  if (format_name == NULL)
    return cli_usage_error (context, _ ("no format given (--format)"));
  format = find_format (format_name);
  if (format == NULL)
    {
      g_autofree char *name = jsr_display (format_name);

      return cli_usage_error (context, _ ("unknown format “%s”"), name);
    }
  if (files == NULL || files[0] == NULL)
    return cli_usage_error (context, _ ("no report file given"));
  if (output != NULL && output[0] == '\0')
    return cli_usage_error (context, _ ("--output: empty file name"));
  if (align != NULL && strcmp (align, "clock") != 0 && strcmp (align, "start") != 0)
    {
      g_autofree char *value = jsr_display (align);

      return cli_usage_error (context, _ ("--align: “%s” is not clock or start"), value);
    }
  if (!jse_folded_check_prefix (folded_prefix, &error))
    return cli_usage_error (context, "%s", error->message);
  if (folded_prefix != NULL && strcmp (format->name, "folded") != 0)
    return cli_usage_error (context, _ ("--folded-prefix is for --format=folded"));
  if (!jse_folded_parse_weight (folded_weight, &weight, &error))
    return cli_usage_error (context, "%s", error->message);
  if (folded_weight != NULL && strcmp (format->name, "folded") != 0)
    return cli_usage_error (context, _ ("--folded-weight is for --format=folded"));
  if (format->missing != NULL)
    {
      cli_error ("%s", _ (format->missing));
      return CLI_EXIT_USAGE;
    }

  ctx = jse_context_new (scrub, align != NULL && strcmp (align, "start") == 0 ? JSE_ALIGN_START
                                                                              : JSE_ALIGN_CLOCK);
  ctx->folded_prefix = g_steal_pointer (&folded_prefix);
  ctx->folded_weight = weight;

  /* Every input is loaded and checked before anything is written: a bad one
   * leaves no output behind. */
  if (!jse_context_load (ctx, files, &error) || (bytes = format->export(ctx, &error)) == NULL
      || !cli_output_write (output != NULL ? output : "-", g_bytes_get_data (bytes, NULL),
                            g_bytes_get_size (bytes), format->binary, &error))
    {
      cli_error ("%s", error->message);
      jse_context_free (ctx);
      return CLI_EXIT_FAILURE;
    }

  jse_context_free (ctx);
  return CLI_EXIT_OK;
}
