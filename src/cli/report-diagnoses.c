/* report-diagnoses.c: the "Diagnoses" section of "jankscope report"
 * (report-diagnoses.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"
#include "report-diagnoses.h"

#include <glib/gi18n.h>

#include "analysis.h"
#include "jsr-diagnosis.h"
#include "jsr-display.h"

#define INDENT "  "

/* The n of ngettext, which takes an unsigned long. */
static gulong
plural_n (guint64 n)
{
  return (gulong) MIN (n, (guint64) G_MAXULONG);
}

/* ", file PATH" or ", call BUS OBJECT INTERFACE.METHOD" (and how many
 * others): what a developer acts on, after the place. */
static void
append_detail (const JsrAggDiagnosis *e, GString *out)
{
  const JsrAggPlace *first = e->details->len > 0 ? g_ptr_array_index (e->details, 0) : NULL;
  g_autofree char *text = first != NULL ? jsr_display (first->function) : NULL;
  guint others = e->details->len > 0 ? e->details->len - 1 : 0;

  if (g_strcmp0 (e->id, "file-io") == 0)
    {
      if (text == NULL)
        {
          /* Translators: after "File I/O on the main thread: 3 events, 1.2 s":
           * no sample found the thread blocked on a file (reads from the page
           * cache run on the CPU). */
          g_string_append (out, _ (", no file seen"));
          return;
        }
      /* Translators: the file read or written, after the place. */
      g_string_append_printf (out, _ (", file %s"), text);
      if (others > 0)
        g_string_append_printf (out, ngettext (" and %u other file", " and %u other files", others),
                                others);
    }
  else if (text != NULL && g_strcmp0 (e->id, "dbus-sync") == 0)
    {
      /* Translators: the D-Bus call (destination, object path,
       * interface.method), after the place. */
      g_string_append_printf (out, _ (", call %s"), text);
      if (others > 0)
        g_string_append_printf (out, ngettext (" and %u other call", " and %u other calls", others),
                                others);
    }
}

void
cli_report_format_diagnoses (const JsrAggregate *agg, guint top, GString *out)
{
  g_autoptr (GPtrArray) sorted = jsr_agg_diagnoses_sorted (&agg->diagnoses);
  guint shown = MIN (sorted->len, top);

  if (sorted->len == 0)
    return;
  if (shown < sorted->len)
    g_string_append_printf (out, _ ("\nDiagnoses (%u of %u)\n"), shown, sorted->len);
  else
    g_string_append (out, _ ("\nDiagnoses\n"));
  for (guint i = 0; i < shown; i++)
    {
      const JsrAggDiagnosis *e = g_ptr_array_index (sorted, i);
      g_autofree char *title = jsr_display (jsr_diagnosis_title (e->id, e->title));
      g_autofree char *blocked = cli_format_duration (e->total_ns);
      g_autofree char *events
          = g_strdup_printf (ngettext ("%llu event", "%llu events", plural_n (e->events)),
                             (unsigned long long) e->events);
      const char *fix = jsr_diagnosis_fix (e->id, NULL);
      const JsrAggPlace *place = e->places->len > 0 ? g_ptr_array_index (e->places, 0) : NULL;

      if (place != NULL && place->function != NULL)
        {
          g_autofree char *where = jsr_display (place->function);

          /* Translators: "File I/O on the main thread: 3 events, 1.2 s, in `load_settings`". */
          g_string_append_printf (out, _ ("%s%s: %s, %s, in `%s`"), INDENT, title, events, blocked,
                                  where);
          if (e->places->len > 1)
            g_string_append_printf (
                out, ngettext (" and %u other place", " and %u other places", e->places->len - 1),
                e->places->len - 1);
        }
      else
        /* Translators: "File I/O on the main thread: 3 events, 1.2 s". */
        g_string_append_printf (out, _ ("%s%s: %s, %s"), INDENT, title, events, blocked);
      append_detail (e, out);
      g_string_append_c (out, '\n');
      if (fix != NULL)
        /* Translators: the way to avoid the mistake, under its title. */
        g_string_append_printf (out, _ ("%s%sFix: %s\n"), INDENT, INDENT, fix);
    }
  if (agg->diagnoses.other_parts > 0)
    {
      g_autofree char *blocked = cli_format_duration (agg->diagnoses.other_ns);

      g_string_append_printf (out, _ ("%s(other kinds: %llu parts, %s)\n"), INDENT,
                              (unsigned long long) agg->diagnoses.other_parts, blocked);
    }
}

void
cli_report_write_diagnoses_json (const JsrAggregate *agg, guint top, JsJsonWriter *w)
{
  g_autoptr (GPtrArray) sorted = jsr_agg_diagnoses_sorted (&agg->diagnoses);

  js_json_writer_member (w, "diagnoses");
  js_json_writer_begin_object (w);
  js_json_writer_member (w, "of");
  js_json_writer_uint (w, sorted->len);
  js_json_writer_member (w, "rows");
  js_json_writer_begin_array (w);
  for (guint i = 0; i < MIN (sorted->len, top); i++)
    {
      const JsrAggDiagnosis *e = g_ptr_array_index (sorted, i);

      js_json_writer_begin_object (w);
      js_json_writer_member (w, "id");
      js_json_writer_string (w, e->id);
      js_json_writer_member (w, "title");
      js_json_writer_string (w, jsr_diagnosis_title (e->id, e->title));
      js_json_writer_member (w, "events");
      js_json_writer_uint (w, e->events);
      js_json_writer_member (w, "parts");
      js_json_writer_uint (w, e->parts);
      js_json_writer_member (w, "runs");
      js_json_writer_uint (w, e->runs);
      js_json_writer_member (w, "blocked_ns");
      js_json_writer_uint (w, e->total_ns);
      js_json_writer_member (w, "fix");
      js_json_writer_string (w, jsr_diagnosis_fix (e->id, NULL));
      js_json_writer_member (w, "places");
      js_json_writer_begin_array (w);
      for (guint j = 0; j < e->places->len; j++)
        {
          const JsrAggPlace *place = g_ptr_array_index (e->places, j);

          js_json_writer_begin_object (w);
          js_json_writer_member (w, "function");
          js_json_writer_string (w, place->function);
          js_json_writer_member (w, "blocked_ns");
          js_json_writer_uint (w, place->total_ns);
          js_json_writer_end_object (w);
        }
      js_json_writer_end_array (w);
      js_json_writer_member (w, "details");
      js_json_writer_begin_array (w);
      for (guint j = 0; j < e->details->len; j++)
        {
          const JsrAggPlace *detail = g_ptr_array_index (e->details, j);

          js_json_writer_begin_object (w);
          js_json_writer_member (w, "detail");
          js_json_writer_string (w, detail->function);
          js_json_writer_member (w, "blocked_ns");
          js_json_writer_uint (w, detail->total_ns);
          js_json_writer_end_object (w);
        }
      js_json_writer_end_array (w);
      js_json_writer_end_object (w);
    }
  js_json_writer_end_array (w);
  js_json_writer_member (w, "other_parts");
  js_json_writer_uint (w, agg->diagnoses.other_parts);
  js_json_writer_member (w, "other_ns");
  js_json_writer_uint (w, agg->diagnoses.other_ns);
  js_json_writer_end_object (w);
}
