/* report-reader.c: loads and validates a jankscope report (docs/report-format.md)
 *
 * The file is untrusted: it may be truncated, hand-written, of another
 * version or not a report at all. Every member that the CLI uses is checked
 * for presence, type and range; a problem gives a GError that names the
 * member ("summary.sources[3].count must be an integer, not a string").
 * Unknown members are ignored, as the format asks of readers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "json-guard.h"
#include "report-reader.h"

#define REPORT_FORMAT    "jankscope-report"
#define REPORT_VERSION   1
/* A report holds at most JANKSCOPE_MAX_EVENTS events and 200 sources: a few
 * MB at most. Refuse to load a huge file into memory. */
#define MAX_REPORT_BYTES (256 * 1024 * 1024)
/* The format nests 5 levels; json-glib 1.6 crashes at some 100000. */
#define MAX_JSON_DEPTH   64

GQuark
cli_report_error_quark (void)
{
  return g_quark_from_static_string ("jankscope-cli-report-error");
}

static const char *const tier_names[CLI_N_EVENT_TIERS] = {
  [CLI_TIER_NOTICEABLE] = "noticeable",
  [CLI_TIER_SEVERE] = "severe",
  [CLI_TIER_FROZEN] = "frozen",
  [CLI_TIER_HANG] = "hang",
  [CLI_TIER_LIGHT] = "light",
};

const char *
cli_tier_to_string (CliTier tier)
{
  g_return_val_if_fail (tier < CLI_N_EVENT_TIERS, NULL);

  return tier_names[tier];
}

static void
source_free (CliReportSource *source)
{
  g_free (source->source);
  g_free (source->callback);
  g_free (source);
}

static void
frame_free (CliReportFrame *frame)
{
  g_free (frame->function);
  g_free (frame->module);
  g_free (frame->file);
  g_free (frame->offset);
  g_free (frame);
}

static void
culprit_free (CliReportCulprit *culprit)
{
  g_free (culprit->function);
  g_free (culprit->module);
  g_free (culprit->file);
  g_free (culprit->reason);
  g_free (culprit);
}

static void
event_free (CliReportEvent *event)
{
  g_free (event->type);
  g_free (event->source);
  g_free (event->callback);
  g_free (event->klass);
  g_free (event->wait);
  g_clear_pointer (&event->culprit, culprit_free);
  g_clear_pointer (&event->top_stack, g_ptr_array_unref);
  g_free (event);
}

static void
previous_run_free (CliReportPreviousRun *previous)
{
  g_free (previous->exe);
  g_clear_pointer (&previous->hang, event_free);
  g_free (previous);
}

void
cli_report_free (CliReport *report)
{
  if (report == NULL)
    return;

  g_free (report->generator);
  g_free (report->name);
  g_free (report->toolkit);
  g_free (report->gtk_version);
  g_free (report->mode);
  g_clear_pointer (&report->sources, g_ptr_array_unref);
  g_clear_pointer (&report->events, g_ptr_array_unref);
  g_clear_pointer (&report->sampler, g_free);
  g_clear_pointer (&report->previous_run, previous_run_free);
  g_free (report);
}

/* The first event of the stall under way, if the report has one. */
const CliReportEvent *
cli_report_get_ongoing_hang (const CliReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  for (guint i = 0; i < report->events->len; i++)
    {
      const CliReportEvent *event = g_ptr_array_index (report->events, i);

      if (event->ongoing)
        return event;
    }

  return NULL;
}

/* ---- typed member access ------------------------------------------------ */

static char *
member_path (const char *path,
             const char *member)
{
  return path[0] != '\0' ? g_strdup_printf ("%s.%s", path, member) : g_strdup (member);
}

static const char *
describe_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return _("an object");
    case JSON_NODE_ARRAY:
      return _("an array");
    case JSON_NODE_NULL:
      return _("null");
    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      return _("an integer");
    case G_TYPE_DOUBLE:
      return _("a number with a fraction or an exponent");
    case G_TYPE_BOOLEAN:
      return _("a boolean");
    case G_TYPE_STRING:
      return _("a string");
    default:
      return _("a value of unknown type");
    }
}

static gboolean
invalid_member (GError    **error,
                const char *path,
                const char *member,
                const char *expected,
                JsonNode   *found)
{
  g_autofree char *full = member_path (path, member);

  if (found == NULL)
    g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID, _("%s is missing"), full);
  else
    g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID, _("%s must be %s, not %s"),
                 full, expected, describe_node (found));

  return FALSE;
}

static gboolean
holds (JsonNode *node,
       GType     value_type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == value_type;
}

/* Reads a member that must be an integer >= 0. */
static gboolean
read_count (JsonObject *object,
            const char *path,
            const char *member,
            gint64     *out,
            GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);
  gint64 value;

  if (!holds (node, G_TYPE_INT64))
    return invalid_member (error, path, member, _("an integer"), node);

  value = json_node_get_int (node);
  if (value < 0)
    {
      g_autofree char *full = member_path (path, member);

      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID,
                   _("%s must not be negative (it is %lld)"), full, (long long) value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* A copy of at most CLI_REPORT_MAX_STRING bytes, not cut inside a UTF-8
 * sequence: nothing the CLI prints needs more, and a hostile report must
 * not make it hold (or print) megabytes per string. */
static char *
copy_capped (const char *text)
{
  gsize length = strlen (text);

  if (length <= CLI_REPORT_MAX_STRING)
    return g_strdup (text);

  length = CLI_REPORT_MAX_STRING;
  /* Back off continuation bytes (10xxxxxx) to the start of a character. */
  for (guint i = 0; i < 4 && length > 0 && ((guchar) text[length] & 0xC0) == 0x80; i++)
    length--;

  return g_strndup (text, length);
}

/* Reads a string member; a nullable one may also be null or missing. */
static gboolean
read_string (JsonObject *object,
             const char *path,
             const char *member,
             gboolean    nullable,
             char      **out)
{
  JsonNode *node = json_object_get_member (object, member);

  g_clear_pointer (out, g_free);

  if (nullable && (node == NULL || JSON_NODE_HOLDS_NULL (node)))
    return TRUE;

  if (!holds (node, G_TYPE_STRING))
    return FALSE;

  *out = copy_capped (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_string_checked (JsonObject *object,
                     const char *path,
                     const char *member,
                     gboolean    nullable,
                     char      **out,
                     GError    **error)
{
  if (read_string (object, path, member, nullable, out))
    return TRUE;

  return invalid_member (error, path, member, nullable ? _("a string or null") : _("a string"),
                         json_object_get_member (object, member));
}

static gboolean
read_bool (JsonObject *object,
           const char *path,
           const char *member,
           gboolean   *out,
           GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (!holds (node, G_TYPE_BOOLEAN))
    return invalid_member (error, path, member, _("a boolean"), node);

  *out = json_node_get_boolean (node);
  return TRUE;
}

static JsonObject *
read_object (JsonObject *object,
             const char *path,
             const char *member,
             GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid_member (error, path, member, _("an object"), node);
      return NULL;
    }

  return json_node_get_object (node);
}

static JsonArray *
read_array (JsonObject *object,
            const char *path,
            const char *member,
            GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      invalid_member (error, path, member, _("an array"), node);
      return NULL;
    }

  return json_node_get_array (node);
}

/* ---- optional members (the stacks and classification of newer reports) -- */

static gboolean
is_absent (JsonNode *node)
{
  return node == NULL || JSON_NODE_HOLDS_NULL (node);
}

/* An integer >= 0, or CLI_UNKNOWN when null or missing. */
static gboolean
read_optional_count (JsonObject *object,
                     const char *path,
                     const char *member,
                     gint64     *out,
                     GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = CLI_UNKNOWN;
  if (is_absent (node))
    return TRUE;
  if (!holds (node, G_TYPE_INT64))
    return invalid_member (error, path, member, _("an integer or null"), node);

  return read_count (object, path, member, out, error);
}

/* A boolean, FALSE when null or missing. */
static gboolean
read_optional_bool (JsonObject *object,
                    const char *path,
                    const char *member,
                    gboolean   *out,
                    GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = FALSE;
  if (is_absent (node))
    return TRUE;

  return read_bool (object, path, member, out, error);
}

/* An object, or NULL without an error when null or missing. */
static JsonObject *
read_optional_object (JsonObject *object,
                      const char *path,
                      const char *member,
                      GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (is_absent (node))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid_member (error, path, member, _("an object or null"), node);
      return NULL;
    }

  return json_node_get_object (node);
}

/* An array, or NULL without an error when null or missing. */
static JsonArray *
read_optional_array (JsonObject *object,
                     const char *path,
                     const char *member,
                     GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (is_absent (node))
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      invalid_member (error, path, member, _("an array or null"), node);
      return NULL;
    }

  return json_node_get_array (node);
}

/* A number from 0 to 1 (an integer 0 or 1 too), < 0 when null or missing. */
static gboolean
read_fraction (JsonObject *object,
               const char *path,
               const char *member,
               double     *out,
               GError    **error)
{
  JsonNode *node = json_object_get_member (object, member);
  double value;

  *out = -1;
  if (is_absent (node))
    return TRUE;
  if (holds (node, G_TYPE_DOUBLE))
    value = json_node_get_double (node);
  else if (holds (node, G_TYPE_INT64))
    value = (double) json_node_get_int (node);
  else
    return invalid_member (error, path, member, _("a number or null"), node);

  if (!(value >= 0.0 && value <= 1.0))
    {
      g_autofree char *full = member_path (path, member);

      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID,
                   _("%s must be from 0 to 1 (it is %g)"), full, value);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* Element i of an array of objects; path is e.g. "events[3]". */
static JsonObject *
read_element (JsonArray  *array,
              guint       i,
              const char *path,
              GError    **error)
{
  JsonNode *node = json_array_get_element (array, i);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID, _("%s must be %s, not %s"),
                   path, _("an object"), describe_node (node));
      return NULL;
    }

  return json_node_get_object (node);
}

static gboolean
read_tier (JsonObject *object,
           const char *path,
           CliTier    *out,
           GError    **error)
{
  g_autofree char *name = NULL;

  if (!read_string_checked (object, path, "tier", FALSE, &name, error))
    return FALSE;

  for (CliTier tier = 0; tier < CLI_N_EVENT_TIERS; tier++)
    if (strcmp (name, tier_names[tier]) == 0)
      {
        *out = tier;
        return TRUE;
      }

  g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID,
               _("%s.tier must be light, noticeable, severe, frozen or hang, not “%s”"), path, name);
  return FALSE;
}

/* ---- the sections of a report ------------------------------------------- */

static gboolean
parse_process (JsonObject *root,
               CliReport  *report,
               GError    **error)
{
  JsonObject *process = read_object (root, "", "process", error);

  return process != NULL &&
         read_string_checked (process, "process", "name", TRUE, &report->name, error) &&
         read_count (process, "process", "pid", &report->pid, error) &&
         read_string_checked (process, "process", "toolkit", TRUE, &report->toolkit, error) &&
         read_string_checked (process, "process", "gtk_version", TRUE, &report->gtk_version,
                              error) &&
         read_string_checked (process, "process", "mode", TRUE, &report->mode, error) &&
         read_count (process, "process", "start_ns", &report->start_ns, error);
}

static gboolean
parse_config (JsonObject *root,
              CliReport  *report,
              GError    **error)
{
  JsonObject *config = read_object (root, "", "config", error);

  return config != NULL && read_count (config, "config", "threshold_ns", &report->threshold_ns,
                                       error);
}

static CliReportSource *
parse_source (JsonObject *object,
              const char *path,
              GError    **error)
{
  CliReportSource *source = g_new0 (CliReportSource, 1);

  if (read_string_checked (object, path, "source", TRUE, &source->source, error) &&
      read_string_checked (object, path, "callback", TRUE, &source->callback, error) &&
      read_count (object, path, "count", &source->count, error) &&
      read_count (object, path, "total_ns", &source->total_ns, error) &&
      read_count (object, path, "max_ns", &source->max_ns, error) &&
      read_count (object, path, "p95_ns", &source->p95_ns, error))
    return source;

  source_free (source);
  return NULL;
}

static gboolean
parse_sources (JsonObject *summary,
               CliReport  *report,
               GError    **error)
{
  JsonArray *sources = read_array (summary, "summary", "sources", error);

  if (sources == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      g_autofree char *path = g_strdup_printf ("summary.sources[%u]", i);
      JsonObject *object = read_element (sources, i, path, error);
      CliReportSource *source;

      if (object == NULL || (source = parse_source (object, path, error)) == NULL)
        return FALSE;
      g_ptr_array_add (report->sources, source);
    }

  return TRUE;
}

/* summary.frames is optional: reports of plain GLib programs have no frames. */
static gboolean
parse_frames (JsonObject *summary,
              CliReport  *report,
              GError    **error)
{
  JsonObject *frames;
  JsonNode *fps;

  report->frames_fps = -1;
  if (!json_object_has_member (summary, "frames"))
    return TRUE;
  frames = read_object (summary, "summary", "frames", error);
  if (frames == NULL ||
      !read_count (frames, "summary.frames", "frames", &report->frames, error) ||
      !read_count (frames, "summary.frames", "slow", &report->frames_slow, error) ||
      !read_count (frames, "summary.frames", "frozen", &report->frames_frozen, error) ||
      !read_count (frames, "summary.frames", "p50_ns", &report->frame_p50_ns, error) ||
      !read_count (frames, "summary.frames", "p95_ns", &report->frame_p95_ns, error) ||
      !read_count (frames, "summary.frames", "p99_ns", &report->frame_p99_ns, error))
    return FALSE;
  fps = json_object_get_member (frames, "fps_animating");
  if (fps != NULL && JSON_NODE_HOLDS_VALUE (fps)
      && json_node_get_value_type (fps) == G_TYPE_DOUBLE)
    report->frames_fps = json_node_get_double (fps);
  return TRUE;
}

static gboolean
parse_summary (JsonObject *root,
               CliReport  *report,
               GError    **error)
{
  JsonObject *summary = read_object (root, "", "summary", error);
  JsonObject *tiers;

  if (summary == NULL ||
      !read_count (summary, "summary", "iterations", &report->iterations, error) ||
      !read_count (summary, "summary", "dispatches", &report->dispatches, error) ||
      !read_count (summary, "summary", "busy_ns", &report->busy_ns, error) ||
      !read_count (summary, "summary", "monitored_ns", &report->monitored_ns, error) ||
      !read_count (summary, "summary", "events_total", &report->events_total, error) ||
      !read_count (summary, "summary", "events_dropped", &report->events_dropped, error) ||
      !read_count (summary, "summary", "records_dropped", &report->records_dropped, error) ||
      !read_count (summary, "summary", "sources_truncated", &report->sources_truncated, error))
    return FALSE;

  tiers = read_object (summary, "summary", "events_by_tier", error);
  if (tiers == NULL)
    return FALSE;
  for (CliTier tier = 0; tier < CLI_N_TIERS; tier++)
    if (!read_count (tiers, "summary.events_by_tier", tier_names[tier],
                     &report->events_by_tier[tier], error))
      return FALSE;

  return parse_frames (summary, report, error) && parse_sources (summary, report, error);
}

static CliReportFrame *
parse_frame (JsonObject *object,
             const char *path,
             GError    **error)
{
  CliReportFrame *frame = g_new0 (CliReportFrame, 1);

  if (read_string_checked (object, path, "function", TRUE, &frame->function, error) &&
      read_string_checked (object, path, "module", TRUE, &frame->module, error) &&
      read_string_checked (object, path, "file", TRUE, &frame->file, error) &&
      read_optional_count (object, path, "line", &frame->line, error) &&
      read_string_checked (object, path, "offset", TRUE, &frame->offset, error) &&
      read_optional_bool (object, path, "inlined", &frame->inlined, error))
    return frame;

  frame_free (frame);
  return NULL;
}

/* Only the top stack (the first: "most samples first") is read, and only its
 * first CLI_REPORT_MAX_FRAMES frames: the rest is counted, not validated. */
static gboolean
parse_top_stack (JsonObject     *object,
                 const char     *path,
                 CliReportEvent *event,
                 GError        **error)
{
  g_autofree char *stacks_path = member_path (path, "stacks");
  g_autofree char *stack_path = g_strdup_printf ("%s[0]", stacks_path);
  JsonArray *stacks;
  JsonObject *stack;
  JsonArray *frames;
  g_autoptr (GError) local_error = NULL;

  event->top_stack_count = CLI_UNKNOWN;
  stacks = read_optional_array (object, path, "stacks", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (stacks == NULL || json_array_get_length (stacks) == 0)
    return TRUE;
  event->n_stacks = json_array_get_length (stacks);

  stack = read_element (stacks, 0, stack_path, error);
  if (stack == NULL ||
      !read_optional_count (stack, stack_path, "count", &event->top_stack_count, error) ||
      !read_optional_bool (stack, stack_path, "truncated", &event->top_stack_truncated, error))
    return FALSE;

  frames = read_optional_array (stack, stack_path, "frames", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (frames == NULL)
    return TRUE;

  event->top_stack_frames_total = json_array_get_length (frames);
  for (guint i = 0; i < MIN (event->top_stack_frames_total, CLI_REPORT_MAX_FRAMES); i++)
    {
      g_autofree char *frame_path = g_strdup_printf ("%s.frames[%u]", stack_path, i);
      JsonObject *element = read_element (frames, i, frame_path, error);
      CliReportFrame *frame;

      if (element == NULL || (frame = parse_frame (element, frame_path, error)) == NULL)
        return FALSE;
      g_ptr_array_add (event->top_stack, frame);
    }

  return TRUE;
}

static gboolean
parse_culprit (JsonObject     *object,
               const char     *path,
               CliReportEvent *event,
               GError        **error)
{
  g_autofree char *culprit_path = member_path (path, "culprit");
  g_autoptr (GError) local_error = NULL;
  JsonObject *member = read_optional_object (object, path, "culprit", &local_error);
  CliReportCulprit *culprit;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (member == NULL)
    return TRUE;

  culprit = event->culprit = g_new0 (CliReportCulprit, 1);
  if (!read_string_checked (member, culprit_path, "function", TRUE, &culprit->function, error) ||
      !read_string_checked (member, culprit_path, "module", TRUE, &culprit->module, error) ||
      !read_string_checked (member, culprit_path, "file", TRUE, &culprit->file, error) ||
      !read_optional_count (member, culprit_path, "line", &culprit->line, error) ||
      !read_fraction (member, culprit_path, "confidence", &culprit->confidence, error) ||
      !read_optional_count (member, culprit_path, "samples", &culprit->samples, error) ||
      !read_optional_count (member, culprit_path, "of_samples", &culprit->of_samples, error) ||
      !read_string_checked (member, culprit_path, "reason", TRUE, &culprit->reason, error))
    return FALSE;

  if (culprit->samples != CLI_UNKNOWN && culprit->of_samples != CLI_UNKNOWN &&
      culprit->samples > culprit->of_samples)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_INVALID,
                   _("%s.samples (%lld) must not be more than its of_samples (%lld)"),
                   culprit_path, (long long) culprit->samples, (long long) culprit->of_samples);
      return FALSE;
    }

  return TRUE;
}

/* The members of "Stacks and classification": all optional. */
static gboolean
parse_event_analysis (JsonObject     *object,
                      const char     *path,
                      CliReportEvent *event,
                      GError        **error)
{
  return read_optional_bool (object, path, "ongoing", &event->ongoing, error) &&
         read_optional_count (object, path, "watched_ns", &event->watched_ns, error) &&
         read_optional_count (object, path, "cpu_ns", &event->cpu_ns, error) &&
         read_optional_count (object, path, "off_cpu_ns", &event->off_cpu_ns, error) &&
         read_string_checked (object, path, "class", TRUE, &event->klass, error) &&
         read_string_checked (object, path, "wait", TRUE, &event->wait, error) &&
         read_optional_count (object, path, "samples_total", &event->samples_total, error) &&
         parse_culprit (object, path, event, error) &&
         parse_top_stack (object, path, event, error);
}

static CliReportEvent *
parse_event (JsonObject *object,
             const char *path,
             GError    **error)
{
  CliReportEvent *event = g_new0 (CliReportEvent, 1);

  event->top_stack = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
  if (read_count (object, path, "id", &event->id, error) &&
      read_string_checked (object, path, "type", FALSE, &event->type, error) &&
      read_tier (object, path, &event->tier, error) &&
      read_count (object, path, "start_ns", &event->start_ns, error) &&
      read_count (object, path, "duration_ns", &event->duration_ns, error) &&
      read_string_checked (object, path, "source", TRUE, &event->source, error) &&
      read_string_checked (object, path, "callback", TRUE, &event->callback, error) &&
      parse_event_analysis (object, path, event, error))
    return event;

  event_free (event);
  return NULL;
}

static gboolean
parse_events (JsonObject *root,
              CliReport  *report,
              GError    **error)
{
  JsonArray *events = read_array (root, "", "events", error);

  if (events == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      g_autofree char *path = g_strdup_printf ("events[%u]", i);
      JsonObject *object = read_element (events, i, path, error);
      CliReportEvent *event;

      if (object == NULL || (event = parse_event (object, path, error)) == NULL)
        return FALSE;
      g_ptr_array_add (report->events, event);
    }

  return TRUE;
}

/* previous_run: optional; its hang is an event like those of "events". */
static gboolean
parse_previous_run (JsonObject *root,
                    CliReport  *report,
                    GError    **error)
{
  g_autoptr (GError) local_error = NULL;
  JsonObject *previous = read_optional_object (root, "", "previous_run", &local_error);
  JsonObject *hang;
  CliReportPreviousRun *run;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (previous == NULL)
    return TRUE;

  run = report->previous_run = g_new0 (CliReportPreviousRun, 1);
  if (!read_optional_count (previous, "previous_run", "pid", &run->pid, error) ||
      !read_string_checked (previous, "previous_run", "exe", TRUE, &run->exe, error))
    return FALSE;

  hang = read_object (previous, "previous_run", "hang", error);
  if (hang == NULL)
    return FALSE;
  run->hang = parse_event (hang, "previous_run.hang", error);

  return run->hang != NULL;
}

/* summary.sampler: null or absent without a watchdog. */
static gboolean
parse_sampler (JsonObject *root,
               CliReport  *report,
               GError    **error)
{
  JsonObject *summary = json_object_get_object_member (root, "summary");
  g_autoptr (GError) local_error = NULL;
  JsonObject *object = read_optional_object (summary, "summary", "sampler", &local_error);
  const char *path = "summary.sampler";
  CliReportSampler *sampler;
  JsonNode *signal;

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (object == NULL)
    return TRUE;

  sampler = report->sampler = g_new0 (CliReportSampler, 1);
  signal = json_object_get_member (object, "signal");
  if (signal != NULL && !JSON_NODE_HOLDS_NULL (signal) && !holds (signal, G_TYPE_INT64))
    return invalid_member (error, path, "signal", _("an integer or null"), signal);
  sampler->sampling_off = signal != NULL && JSON_NODE_HOLDS_NULL (signal);

  return read_optional_bool (object, path, "signal_lost", &sampler->signal_lost, error) &&
         read_optional_count (object, path, "stalls", &sampler->stalls, error) &&
         read_optional_count (object, path, "samples", &sampler->samples, error) &&
         read_optional_count (object, path, "signals_sent", &sampler->signals_sent, error) &&
         read_optional_count (object, path, "signal_timeouts", &sampler->signal_timeouts,
                              error) &&
         read_optional_count (object, path, "syscalls_interrupted",
                              &sampler->syscalls_interrupted, error);
}

/* Is this a report at all, and one of a version we read? Checked before
 * anything else so that a wrong file gets a plain "not a report" error. */
static gboolean
check_format (JsonNode *root,
              GError  **error)
{
  JsonObject *object;
  JsonNode *format;
  JsonNode *version;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_FORMAT,
                   _("not a jankscope report: the document is %s, not an object"),
                   describe_node (root));
      return FALSE;
    }

  object = json_node_get_object (root);
  format = json_object_get_member (object, "format");
  if (!holds (format, G_TYPE_STRING) || strcmp (json_node_get_string (format), REPORT_FORMAT) != 0)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_FORMAT,
                   _("not a jankscope report: its “format” is not “%s”"), REPORT_FORMAT);
      return FALSE;
    }

  version = json_object_get_member (object, "version");
  if (!holds (version, G_TYPE_INT64))
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_VERSION,
                   _("the report has no valid “version”"));
      return FALSE;
    }
  if (json_node_get_int (version) != REPORT_VERSION)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_VERSION,
                   _("report format version %lld is not supported (this jankscope reads "
                     "version %d)"),
                   (long long) json_node_get_int (version), REPORT_VERSION);
      return FALSE;
    }

  return TRUE;
}

CliReport *
cli_report_load_from_data (const char *data,
                           gsize       length,
                           GError    **error)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (CliReport) report = NULL;
  g_autoptr (GError) parse_error = NULL;
  JsonObject *root;

  if (length == 0)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_EMPTY, _("the file is empty"));
      return NULL;
    }

  if (!cli_json_guard_check (data, length, MAX_JSON_DEPTH, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &parse_error))
    {
      const char *message = parse_error->message;

      /* json-glib names in-memory input "<data>": keep just "line:column: ...". */
      if (g_str_has_prefix (message, "<data>:"))
        message += strlen ("<data>:");
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_SYNTAX, _("not valid JSON: %s"),
                   message);
      return NULL;
    }

  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_SYNTAX,
                   _("not valid JSON: the file holds no value"));
      return NULL;
    }

  if (!check_format (json_parser_get_root (parser), error))
    return NULL;

  root = json_node_get_object (json_parser_get_root (parser));
  report = g_new0 (CliReport, 1);
  report->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  report->events = g_ptr_array_new_with_free_func ((GDestroyNotify) event_free);

  if (!read_string_checked (root, "", "generator", FALSE, &report->generator, error) ||
      !read_bool (root, "", "final", &report->final, error) ||
      !parse_process (root, report, error) ||
      !parse_config (root, report, error) ||
      !parse_summary (root, report, error) ||
      !parse_sampler (root, report, error) ||
      !parse_events (root, report, error) ||
      !parse_previous_run (root, report, error))
    return NULL;

  return g_steal_pointer (&report);
}

CliReport *
cli_report_load (const char *path,
                 GError    **error)
{
  g_autofree char *data = NULL;
  GStatBuf st;
  gsize length;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s",
                   g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_NOT_REGULAR, "%s",
                   S_ISDIR (st.st_mode) ? _("is a directory") : _("not a regular file"));
      return NULL;
    }

  if (st.st_size > MAX_REPORT_BYTES)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_TOO_LARGE,
                   _("the file is too large for a report (%lld bytes, at most %d)"),
                   (long long) st.st_size, MAX_REPORT_BYTES);
      return NULL;
    }

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;

  /* The file may have grown since the stat. */
  if (length > MAX_REPORT_BYTES)
    {
      g_set_error (error, CLI_REPORT_ERROR, CLI_REPORT_ERROR_TOO_LARGE,
                   _("the file is too large for a report"));
      return NULL;
    }

  return cli_report_load_from_data (data, length, error);
}
