/* fuzz-reader.c: a libFuzzer target for the CLI's readers of untrusted files
 *
 * One input is tried as everything the CLI reads: a report (summary and
 * full loading, and the lazy loading of `jankscope merge`), an aggregate;
 * what loads is folded into an aggregate, written and read back. A crash,
 * a sanitizer report or a leak is a bug; an error is fine. Built and run by
 * fuzz-reader.sh (clang -fsanitize=fuzzer,address,undefined).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include "jsr-aggregate-io.h"
#include "jsr-aggregate.h"
#include "jsr-json-doc.h"
#include "jsr-report.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
round_trip (JsrAggregate *agg)
{
  g_autofree char *json = jsr_aggregate_to_json (agg);
  g_autoptr (JsrJsonDoc) doc = jsr_json_doc_parse (json, strlen (json), 64, NULL);
  JsrAggregate *again;

  /* What the CLI writes, it must read back, saturated sums included. */
  g_assert_nonnull (doc);
  again = jsr_aggregate_load_from_json (jsr_json_doc_get_root (doc), NULL);
  g_assert_nonnull (again);
  jsr_aggregate_free (again);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const char *text = (const char *) data;
  JsrReportLoadFlags lazy_flags = JSR_REPORT_LOAD_FULL | JSR_REPORT_LOAD_AGGREGATE;
  g_autoptr (JsrAggregate) agg = jsr_aggregate_new (5, 10);
  g_autoptr (JsrAggregate) deep = jsr_aggregate_new (2, 10);
  g_autoptr (JsrJsonDoc) doc = NULL;
  JsrReport *report;

  if (size > 1 << 20)
    return 0;

  report = jsr_report_load_from_data (text, size, NULL);
  jsr_report_free (report);

  report = jsr_report_load_full_from_data (text, size, NULL);
  if (report != NULL)
    {
      jsr_aggregate_add_report (deep, report, NULL);
      round_trip (deep);
    }
  jsr_report_free (report);

  doc = jsr_json_doc_parse_lazy (text, size, 64, jsr_report_lazy_members (lazy_flags), NULL);
  if (doc == NULL)
    return 0;
  if (jsr_aggregate_json_is_aggregate (jsr_json_doc_get_root (doc)))
    {
      JsrAggregate *loaded = jsr_aggregate_load_from_json (jsr_json_doc_get_root (doc), NULL);

      if (loaded != NULL)
        {
          jsr_aggregate_add_aggregate (agg, loaded, NULL);
          jsr_aggregate_free (loaded);
        }
    }
  else
    {
      report = jsr_report_load_from_json (jsr_json_doc_get_root (doc), lazy_flags, NULL);
      if (report != NULL)
        jsr_aggregate_add_report (agg, report, NULL);
      jsr_report_free (report);
    }
  round_trip (agg);
  return 0;
}
