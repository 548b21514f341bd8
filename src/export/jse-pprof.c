/* jse-pprof.c: "jankscope export --format=pprof", a gzipped profile.proto
 * (src/export/pprof/profile.proto, encoded by protobuf-c) for pprof and
 * continuous-profiling services
 *
 * One Sample per node of each event's profile (jse_profile_weights), with
 * two values: samples/count, and stall/nanoseconds (the node's attributed
 * time; the default): the stall values add up to the attributed time
 * `jankscope report` prints. Labels say which event, process, tier,
 * class and wait kind. A Location is a (module, offset) with the functions
 * inlined there; a Mapping is a module: its file (its path from the
 * report's module table; in older reports the executable's path,
 * `process.exe`, and a library's file name) and its build-id, at a range of
 * its own (1 TiB per module from `base`; addresses are base + the report's
 * offset, the ELF virtual address). With the module table's executable
 * segment (text_vaddr, text_offset) the mapping starts at base + text_vaddr
 * with file offset text_offset, as the process's mapping of its code did:
 * pprof's rule for a shared object or PIE (base = memory_start -
 * file_offset + the segment's p_offset - p_vaddr) and `go tool pprof`'s own
 * (base = memory_start - the segment's p_vaddr) both give address - base =
 * the offset, so `pprof -symbolize=local` finds the code in the file the
 * mapping names, or by build-id (PPROF_BINARY_PATH), or a debuginfod-aware
 * symbolizer does. (`go tool pprof` reads no build-ids: it refuses every
 * file found through PPROF_BINARY_PATH for a mapping with one, "build-id
 * mismatch (ID != )", and opens the mapping's own path.) Without the table
 * the mapping starts at base, file offset 0, which pprof's rule reads the
 * same way where GNU ld makes p_offset = p_vaddr. A module all of whose
 * frames are named says so (has_functions) and pprof leaves it as it is;
 * one with an unnamed frame (`module+0xOFFSET`) is left to pprof's
 * symbolizer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <gio/gio.h>

#include "jse-formats.h"
#include "profile.pb-c.h"

#define MAPPING_SPAN (G_GUINT64_CONSTANT (1) << 40)

typedef struct
{
  Perftools__Profiles__Mapping message;
  guint64 base; /* address - base = the report's offset */
  guint64 max_offset;
  gboolean unnamed; /* a frame without a name: pprof may symbolize it */
} Mapping;

typedef struct
{
  JseContext *ctx;
  GPtrArray *garbage;       /* everything allocated for the message */
  GHashTable *string_index; /* string -> index + 1 */
  GPtrArray *strings;       /* the string table */
  GHashTable *mappings;     /* "module\x1fbuild_id" -> Mapping */
  GPtrArray *mapping_list;
  GHashTable *functions; /* "name\x1ffile" -> Function */
  GPtrArray *function_list;
  GHashTable *locations; /* key -> Location */
  GPtrArray *location_list;
  GPtrArray *samples;
} Pprof;

static gpointer
keep (Pprof *p, gpointer memory)
{
  g_ptr_array_add (p->garbage, memory);
  return memory;
}

static gint64
string_id (Pprof *p, const char *text)
{
  gpointer index;

  if (text == NULL)
    return 0;
  if (g_hash_table_lookup_extended (p->string_index, text, NULL, &index))
    return GPOINTER_TO_SIZE (index) - 1;

  index = GSIZE_TO_POINTER (p->strings->len + 1);
  text = keep (p, g_strdup (text));
  g_ptr_array_add (p->strings, (gpointer) text);
  g_hash_table_insert (p->string_index, (gpointer) text, index);
  return p->strings->len - 1;
}

/* The module's entry in a report's module table (`modules`), or NULL
 * (older reports). */
static const JsrReportModule *
find_module (Pprof *p, const char *module, const char *build_id)
{
  for (guint i = 0; i < p->ctx->processes->len; i++)
    {
      const JseProcess *process = g_ptr_array_index (p->ctx->processes, i);
      const JsrReportModule *m = process->report != NULL
                                     ? jsr_report_find_module (process->report, module, build_id)
                                     : NULL;

      if (m != NULL)
        return m;
    }
  return NULL;
}

/* The module's file: its path in the module table; in older reports, which
 * name modules by file name only, the executable's path (`process.exe`) or
 * the file name. */
static const char *
module_file (Pprof *p, const char *module, const JsrReportModule *entry)
{
  if (entry != NULL && entry->path != NULL)
    return entry->path;
  for (guint i = 0; i < p->ctx->processes->len; i++)
    {
      const JseProcess *process = g_ptr_array_index (p->ctx->processes, i);
      const char *exe = process->report != NULL ? process->report->exe : NULL;
      const char *base = exe != NULL && exe[0] == '/' ? strrchr (exe, '/') + 1 : NULL;

      if (base != NULL && strcmp (base, module) == 0)
        return exe;
    }
  return module;
}

static Mapping *
get_mapping (Pprof *p, const JsrReportFrame *frame)
{
  g_autofree char *key = NULL;
  g_autofree char *build_id = NULL;
  const JsrReportModule *entry;
  const char *frame_build_id = frame->build_id;
  Mapping *mapping;

  if (frame->module == NULL)
    return NULL;
  entry = find_module (p, frame->module, frame_build_id);
  /* A frame without a build-id (a profile's, which names only function
   * and module) is in its module's one mapping, not a second one without
   * the build-id, which could even come first as the main binary. */
  if (frame_build_id == NULL && entry != NULL)
    frame_build_id = entry->build_id;
  key = g_strdup_printf ("%s\x1f%s", frame->module, frame_build_id ? frame_build_id : "");
  mapping = g_hash_table_lookup (p->mappings, key);
  if (mapping == NULL)
    {
      Perftools__Profiles__Mapping init = PERFTOOLS__PROFILES__MAPPING__INIT;

      mapping = keep (p, g_new0 (Mapping, 1));
      mapping->message = init;
      mapping->message.id = p->mapping_list->len + 1;
      mapping->base = MAPPING_SPAN * mapping->message.id;
      mapping->message.memory_start = mapping->base;
      /* The mapping of the module's code, as the process had it: its start
       * the executable segment's address, its offset that segment's in the
       * file. A symbolizer that takes the start for the segment's p_vaddr
       * (`go tool pprof`'s own) and one that works the base out of the
       * segment's p_offset and p_vaddr (pprof's) both get base = `base`. */
      if (entry != NULL && entry->text_vaddr >= 0 && (guint64) entry->text_vaddr < MAPPING_SPAN)
        {
          mapping->message.memory_start += entry->text_vaddr;
          mapping->message.file_offset = entry->text_offset;
        }
      mapping->message.filename
          = string_id (p, jse_text (p->ctx, module_file (p, frame->module, entry)));
      /* pprof compares build-ids as lower-case hex strings. */
      build_id = frame_build_id != NULL ? g_ascii_strdown (frame_build_id, -1) : NULL;
      mapping->message.build_id = string_id (p, build_id);
      g_ptr_array_add (p->mapping_list, mapping);
      g_hash_table_insert (p->mappings, g_steal_pointer (&key), mapping);
    }

  return mapping;
}

static guint64
get_function (Pprof *p, const char *name, const JsrReportFrame *frame)
{
  const char *file = frame != NULL ? jse_text (p->ctx, frame->file) : NULL;
  g_autofree char *key = g_strdup_printf ("%s\x1f%s", name, file ? file : "");
  Perftools__Profiles__Function *function = g_hash_table_lookup (p->functions, key);

  if (function == NULL)
    {
      Perftools__Profiles__Function init = PERFTOOLS__PROFILES__FUNCTION__INIT;

      function = keep (p, g_new0 (Perftools__Profiles__Function, 1));
      *function = init;
      function->id = p->function_list->len + 1;
      function->name = string_id (p, name);
      function->system_name = function->name;
      function->filename = string_id (p, file);
      g_ptr_array_add (p->function_list, function);
      g_hash_table_insert (p->functions, g_steal_pointer (&key), function);
    }

  return function->id;
}

static guint64
parse_offset (const char *offset)
{
  if (offset == NULL || !g_str_has_prefix (offset, "0x"))
    return 0;
  return g_ascii_strtoull (offset + 2, NULL, 16);
}

/* The location of frames[first..last]: frames first..last-1 were inlined
 * into frames[last], all at one address. */
static guint64
get_location (Pprof *p, GPtrArray *frames, guint first, guint last)
{
  const JsrReportFrame *physical = g_ptr_array_index (frames, last);
  Mapping *mapping = get_mapping (p, physical);
  guint64 offset = parse_offset (physical->offset);
  g_autoptr (GString) key = g_string_new (NULL);
  Perftools__Profiles__Location *location;
  Perftools__Profiles__Location init = PERFTOOLS__PROFILES__LOCATION__INIT;

  offset = MIN (offset, MAPPING_SPAN - 1);
  g_string_append_printf (key, "%" G_GUINT64_FORMAT "\x1f%" G_GUINT64_FORMAT,
                          mapping != NULL ? mapping->message.id : 0, offset);
  for (guint i = first; i <= last; i++)
    {
      const JsrReportFrame *frame = g_ptr_array_index (frames, i);

      g_string_append_printf (key, "\x1f%s:%" G_GINT64_FORMAT, jse_frame_name (p->ctx, frame),
                              frame->line);
    }

  location = g_hash_table_lookup (p->locations, key->str);
  if (location != NULL)
    return location->id;

  location = keep (p, g_new0 (Perftools__Profiles__Location, 1));
  *location = init;
  location->id = p->location_list->len + 1;
  if (mapping != NULL)
    {
      location->mapping_id = mapping->message.id;
      location->address = mapping->base + offset;
      mapping->max_offset = MAX (mapping->max_offset, offset);
    }
  for (guint i = first; mapping != NULL && i <= last; i++)
    {
      const JsrReportFrame *frame = g_ptr_array_index (frames, i);

      mapping->message.has_functions |= frame->function != NULL;
      mapping->unnamed |= frame->function == NULL;
      mapping->message.has_filenames |= frame->file != NULL;
      mapping->message.has_line_numbers |= frame->line != JSR_UNKNOWN;
      mapping->message.has_inline_frames |= frame->inlined;
    }
  location->n_line = last - first + 1;
  location->line = keep (p, g_new0 (Perftools__Profiles__Line *, location->n_line));
  for (guint i = 0; i < location->n_line; i++)
    {
      Perftools__Profiles__Line line_init = PERFTOOLS__PROFILES__LINE__INIT;
      Perftools__Profiles__Line *line = keep (p, g_new0 (Perftools__Profiles__Line, 1));
      const JsrReportFrame *frame = g_ptr_array_index (frames, first + i);

      *line = line_init;
      line->function_id = get_function (p, jse_frame_name (p->ctx, frame), frame);
      line->line = frame->line != JSR_UNKNOWN ? frame->line : 0;
      location->line[i] = line;
    }
  g_ptr_array_add (p->location_list, location);
  g_hash_table_insert (p->locations, g_strdup (key->str), location);

  return location->id;
}

static void
add_label (Pprof *p, GPtrArray *labels, const char *key, const char *str, gint64 num)
{
  Perftools__Profiles__Label init = PERFTOOLS__PROFILES__LABEL__INIT;
  Perftools__Profiles__Label *label;

  if (str == NULL && num == JSR_UNKNOWN)
    return;
  label = keep (p, g_new0 (Perftools__Profiles__Label, 1));
  *label = init;
  label->key = string_id (p, key);
  if (str != NULL)
    label->str = string_id (p, str);
  else
    label->num = num;
  g_ptr_array_add (labels, label);
}

static void
add_sample (Pprof *p, const JseNodeWeight *weight)
{
  Perftools__Profiles__Sample init = PERFTOOLS__PROFILES__SAMPLE__INIT;
  Perftools__Profiles__Sample *sample = keep (p, g_new0 (Perftools__Profiles__Sample, 1));
  const JsrReportEvent *event = weight->event;
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  g_autoptr (GPtrArray) frames = g_ptr_array_new ();

  *sample = init;
  jse_node_frames (weight->profile, weight->node, frames);
  for (guint first = 0; first < frames->len;)
    {
      guint last = first;
      guint64 id;

      while (last + 1 < frames->len
             && ((JsrReportFrame *) g_ptr_array_index (frames, last))->inlined)
        last++;
      id = get_location (p, frames, first, last);
      g_array_append_val (ids, id);
      first = last + 1;
    }
  sample->n_location_id = ids->len;
  sample->location_id = keep (p, g_array_steal (ids, NULL));

  sample->n_value = 2;
  sample->value = keep (p, g_new (int64_t, 2));
  sample->value[0] = weight->samples;
  sample->value[1] = weight->time_ns;

  add_label (p, labels, "process", weight->process->name, JSR_UNKNOWN);
  add_label (p, labels, "pid", NULL, weight->process->real_pid);
  add_label (p, labels, "event", NULL, event->id);
  add_label (p, labels, "event_type", event->type, JSR_UNKNOWN);
  add_label (p, labels, "tier", js_tier_name (event->tier), JSR_UNKNOWN);
  add_label (p, labels, "class", event->klass, JSR_UNKNOWN);
  add_label (p, labels, "wait", event->wait, JSR_UNKNOWN);
  if (event->ongoing)
    add_label (p, labels, "ongoing", "true", JSR_UNKNOWN);
  if (weight->process->previous_run)
    add_label (p, labels, "previous_run", "true", JSR_UNKNOWN);
  sample->n_label = labels->len;
  sample->label = keep (p, g_ptr_array_steal (labels, NULL));

  g_ptr_array_add (p->samples, sample);
}

static Perftools__Profiles__ValueType *
value_type (Pprof *p, const char *type, const char *unit)
{
  Perftools__Profiles__ValueType init = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
  Perftools__Profiles__ValueType *value = keep (p, g_new0 (Perftools__Profiles__ValueType, 1));

  *value = init;
  value->type = string_id (p, type);
  value->unit = string_id (p, unit);
  return value;
}

static GBytes *
gzip (const guint8 *data, gsize length, GError **error)
{
  g_autoptr (GZlibCompressor) compressor
      = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) stream
      = g_converter_output_stream_new (memory, G_CONVERTER (compressor));

  if (!g_output_stream_write_all (stream, data, length, NULL, NULL, error)
      || !g_output_stream_close (stream, NULL, error))
    return NULL;

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/* mapping[0] is the main binary: the module named like the first process. */
static void
main_binary_first (Pprof *p)
{
  const JseProcess *first
      = p->ctx->processes->len > 0 ? g_ptr_array_index (p->ctx->processes, 0) : NULL;

  for (guint i = 1; first != NULL && i < p->mapping_list->len; i++)
    {
      Mapping *mapping = g_ptr_array_index (p->mapping_list, i);

      const char *file = g_ptr_array_index (p->strings, mapping->message.filename);
      const char *slash = strrchr (file, '/');

      if (strcmp (slash != NULL ? slash + 1 : file, first->name) == 0)
        {
          p->mapping_list->pdata[i] = p->mapping_list->pdata[0];
          p->mapping_list->pdata[0] = mapping;
          return;
        }
    }
}

GBytes *
jse_format_pprof (JseContext *ctx, GError **error)
{
  Pprof p = { 0 };
  Perftools__Profiles__Profile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
  g_autoptr (GArray) weights = jse_profile_weights (ctx);
  g_autoptr (GArray) comments = g_array_new (FALSE, FALSE, sizeof (int64_t));
  g_autofree guint8 *packed = NULL;
  g_autofree char *summary = NULL;
  gsize length;
  GBytes *bytes;
  gint64 duration = 0;

  p.ctx = ctx;
  p.garbage = g_ptr_array_new_with_free_func (g_free);
  p.string_index = g_hash_table_new (g_str_hash, g_str_equal);
  p.strings = g_ptr_array_new ();
  p.mappings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.mapping_list = g_ptr_array_new ();
  p.functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.function_list = g_ptr_array_new ();
  p.locations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.location_list = g_ptr_array_new ();
  p.samples = g_ptr_array_new ();

  string_id (&p, ""); /* string_table[0] */
  profile.n_sample_type = 2;
  profile.sample_type = keep (&p, g_new (Perftools__Profiles__ValueType *, 2));
  profile.sample_type[0] = value_type (&p, "samples", "count");
  profile.sample_type[1] = value_type (&p, "stall", "nanoseconds");
  profile.default_sample_type = string_id (&p, "stall");

  for (guint i = 0; i < weights->len; i++)
    add_sample (&p, &g_array_index (weights, JseNodeWeight, i));

  for (guint i = 0; i < p.mapping_list->len; i++)
    {
      Mapping *mapping = g_ptr_array_index (p.mapping_list, i);

      mapping->message.memory_limit
          = MAX (mapping->base + mapping->max_offset, mapping->message.memory_start) + 1;
      /* pprof symbolizes only mappings without functions: all or nothing. */
      if (mapping->unnamed)
        mapping->message.has_functions = FALSE;
    }
  main_binary_first (&p);

  /* The time monitored, over all processes: pprof shows the stall time as
   * a share of it. */
  for (guint i = 0; i < ctx->processes->len; i++)
    {
      const JseProcess *process = g_ptr_array_index (ctx->processes, i);

      if (!process->previous_run)
        duration = jsr_sat_add (duration, MAX (process->report->monitored_ns, 0));
    }
  profile.duration_nanos = duration;
  summary = g_strdup_printf ("jankscope " JANKSCOPE_VERSION ": %u reports; stall = the "
                             "attributed time of each stack of a jank event's profile",
                             ctx->inputs->len);
  {
    int64_t id = string_id (&p, summary);

    g_array_append_val (comments, id);
  }
  for (guint i = 0; i < ctx->processes->len; i++)
    {
      const JseProcess *process = g_ptr_array_index (ctx->processes, i);
      const JseInput *input = g_ptr_array_index (ctx->inputs, process->input);
      g_autofree char *text = g_strdup_printf ("%s: %s", input->display_name, process->label);
      int64_t id = string_id (&p, text);

      g_array_append_val (comments, id);
    }
  profile.n_comment = comments->len;
  profile.comment = (int64_t *) comments->data;

  /* Built after every string is known: the table may grow until here. */
  profile.n_sample = p.samples->len;
  profile.sample = (Perftools__Profiles__Sample **) p.samples->pdata;
  profile.n_mapping = p.mapping_list->len;
  profile.mapping = keep (&p, g_new (Perftools__Profiles__Mapping *, MAX (p.mapping_list->len, 1)));
  for (guint i = 0; i < p.mapping_list->len; i++)
    profile.mapping[i] = &((Mapping *) g_ptr_array_index (p.mapping_list, i))->message;
  profile.n_location = p.location_list->len;
  profile.location = (Perftools__Profiles__Location **) p.location_list->pdata;
  profile.n_function = p.function_list->len;
  profile.function = (Perftools__Profiles__Function **) p.function_list->pdata;
  profile.n_string_table = p.strings->len;
  profile.string_table = (char **) p.strings->pdata;

  length = perftools__profiles__profile__get_packed_size (&profile);
  packed = g_malloc (MAX (length, 1));
  perftools__profiles__profile__pack (&profile, packed);
  bytes = gzip (packed, length, error);

  g_ptr_array_unref (p.samples);
  g_ptr_array_unref (p.location_list);
  g_hash_table_unref (p.locations);
  g_ptr_array_unref (p.function_list);
  g_hash_table_unref (p.functions);
  g_ptr_array_unref (p.mapping_list);
  g_hash_table_unref (p.mappings);
  g_ptr_array_unref (p.strings);
  g_hash_table_unref (p.string_index);
  g_ptr_array_unref (p.garbage);

  return bytes;
}
