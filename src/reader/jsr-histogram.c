/* jsr-histogram.c: the core's log-linear histogram, on the CLI side
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "js-percentile.h"
#include "jsr-histogram.h"
#include "jsr-json-read.h"
#include "jsr-saturate.h"

/* Counts saturate at G_MAXINT64, like every sum of the CLI: an aggregate's
 * histogram is written as JSON integers that must read back. */
#define add_saturated jsr_sat_add_u64

static void
note_range (JsrHistogram *h, gint64 min_ns, gint64 max_ns)
{
  if (h->count == 0)
    {
      h->min_ns = min_ns;
      h->max_ns = max_ns;
    }
  else
    {
      h->min_ns = MIN (h->min_ns, min_ns);
      h->max_ns = MAX (h->max_ns, max_ns);
    }
}

void
jsr_histogram_add_values (JsrHistogram *h, gint64 ns, guint64 count)
{
  guint b;

  if (count == 0)
    return;
  ns = MAX (ns, 0);
  b = js_histogram_bucket_of (ns);
  note_range (h, ns, ns);
  h->buckets[b] = add_saturated (h->buckets[b], count);
  h->count = add_saturated (h->count, count);
}

void
jsr_histogram_add_report (JsrHistogram *h, const JsrReportHistogram *report)
{
  if (report == NULL || report->count == 0)
    return;
  note_range (h, report->min_ns, report->max_ns);
  for (guint i = 0; i < report->buckets->len; i++)
    {
      const JsrReportBucket *b = &g_array_index (report->buckets, JsrReportBucket, i);

      h->buckets[b->index] = add_saturated (h->buckets[b->index], b->count);
    }
  h->count = add_saturated (h->count, report->count);
}

void
jsr_histogram_add_percentiles (JsrHistogram *h, guint64 count, const double *qs,
                               const gint64 *values, guint n, gint64 max_ns)
{
  guint64 placed = 0;
  gint64 last = JSR_UNKNOWN;
  gint64 min_ns = G_MAXINT64;

  if (count == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      guint64 upto;

      if (values[i] == JSR_UNKNOWN)
        continue;
      /* Values up to the rank that reads this percentile (the core reads
       * rank ceil (q * count)) sit at the percentile's own value. */
      upto = jsr_double_to_uint64 (ceil (qs[i] * (double) count));
      upto = CLAMP (upto, placed, count);
      if (upto > placed)
        {
          gint64 v = MAX (values[i], last);

          h->buckets[js_histogram_bucket_of (v)]
              = add_saturated (h->buckets[js_histogram_bucket_of (v)], upto - placed);
          min_ns = MIN (min_ns, v);
          last = v;
          placed = upto;
        }
    }
  if (max_ns == JSR_UNKNOWN)
    max_ns = last != JSR_UNKNOWN ? last : 0;
  max_ns = MAX (max_ns, MAX (last, 0));
  if (placed < count)
    h->buckets[js_histogram_bucket_of (max_ns)]
        = add_saturated (h->buckets[js_histogram_bucket_of (max_ns)], count - placed);
  note_range (h, MIN (min_ns, max_ns), max_ns);
  h->count = add_saturated (h->count, count);
  h->approximate = add_saturated (h->approximate, count);
}

void
jsr_histogram_merge (JsrHistogram *h, const JsrHistogram *other)
{
  if (other->count == 0)
    return;
  note_range (h, other->min_ns, other->max_ns);
  for (guint b = 0; b < JSR_HISTOGRAM_BUCKETS; b++)
    if (other->buckets[b] != 0)
      h->buckets[b] = add_saturated (h->buckets[b], other->buckets[b]);
  h->count = add_saturated (h->count, other->count);
  h->approximate = add_saturated (h->approximate, other->approximate);
}

guint
jsr_histogram_bucket_of_rank (const JsrHistogram *h, guint64 rank)
{
  return MIN (js_percentile_bucket_of_rank64 (h->buckets, rank), JSR_HISTOGRAM_BUCKETS - 1);
}

gint64
jsr_histogram_percentile (const JsrHistogram *h, double q)
{
  return js_percentile_of_buckets64 (h->buckets, h->count, h->min_ns, h->max_ns, q);
}

double
jsr_histogram_value_at_rank (const JsrHistogram *h, double rank)
{
  guint64 seen = 0;

  if (h->count == 0)
    return 0;
  rank = CLAMP (rank, 1.0, (double) h->count);
  if (rank >= (double) h->count)
    return (double) h->max_ns;
  if (rank <= 1.0)
    return (double) h->min_ns;
  for (guint b = 0; b < JSR_HISTOGRAM_BUCKETS; b++)
    {
      guint64 k = h->buckets[b];

      if (k == 0)
        continue;
      if ((double) seen + (double) k >= rank)
        {
          /* The k values of the bucket are taken as spread evenly over it:
           * the i-th (1..k) at low + (i - 0.5) / k of its width. */
          double low = (double) js_histogram_bucket_low (b);
          double high = b == JSR_HISTOGRAM_BUCKETS - 1 ? (double) h->max_ns
                                                       : (double) js_histogram_bucket_high (b);
          double position = (rank - (double) seen - 0.5) / (double) k;
          double value = low + CLAMP (position, 0.0, 1.0) * (high - low);

          return CLAMP (value, (double) h->min_ns, (double) h->max_ns);
        }
      seen = add_saturated (seen, k);
    }
  return (double) h->max_ns;
}

void
jsr_report_histogram_free (JsrReportHistogram *histogram)
{
  g_array_unref (histogram->buckets);
  g_free (histogram);
}

/* A "histogram" member (report-format.md, "Histograms"): optional; one of
 * another layout is left out (NULL): the percentiles are still there. */
gboolean
jsr_histogram_read_member (const JsrJsonNode *parent, const JsrJsonPath *parent_path,
                           JsrReportHistogram **out, GError **error)
{
  JsrJsonPath path = JSR_JSON_MEMBER (parent_path, "histogram");
  JsrJsonPath buckets_path = JSR_JSON_MEMBER (&path, "buckets");
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GArray) buckets = NULL;
  const JsrJsonNode *object, *array, *layout;
  gint64 min_ns, max_ns, declared;
  /* "count" is informative: the buckets are the truth (the core's 32-bit
   * buckets could saturate while its count went on). */
  guint64 total = 0;
  gint64 previous = -1;

  object = jsr_json_read_optional_object (parent, parent_path, "histogram", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (object == NULL)
    return TRUE;

  /* The layout: "sub_bits": 4 (or "sub_buckets": 16) and "min_exp": 6. */
  layout = jsr_json_object_get (object, "sub_bits");
  if (layout != NULL
      && !(layout->type == JSR_JSON_INT && layout->v.integer == JSR_HISTOGRAM_SUB_BITS))
    return TRUE;
  layout = jsr_json_object_get (object, "sub_buckets");
  if (layout != NULL
      && !(layout->type == JSR_JSON_INT && layout->v.integer == 1 << JSR_HISTOGRAM_SUB_BITS))
    return TRUE;
  layout = jsr_json_object_get (object, "min_exp");
  if (layout != NULL
      && !(layout->type == JSR_JSON_INT && layout->v.integer == JSR_HISTOGRAM_MIN_EXP))
    return TRUE;

  if (!jsr_json_read_optional_count (object, &path, "count", &declared, error)
      || !jsr_json_read_optional_count (object, &path, "min_ns", &min_ns, error)
      || !jsr_json_read_optional_count (object, &path, "max_ns", &max_ns, error)
      || (array = jsr_json_read_array (object, &path, "buckets", error)) == NULL)
    return FALSE;
  if (array->length > JSR_HISTOGRAM_BUCKETS)
    {
      g_autofree char *full = jsr_json_path_to_string (&path, "buckets");

      g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                   _ ("%s has %u entries: a histogram has %d buckets"), full, array->length,
                   JSR_HISTOGRAM_BUCKETS);
      return FALSE;
    }

  buckets = g_array_sized_new (FALSE, FALSE, sizeof (JsrReportBucket), array->length);
  for (guint i = 0; i < array->length; i++)
    {
      JsrJsonPath element_path = JSR_JSON_ELEMENT (&buckets_path, i);
      const JsrJsonNode *pair = &array->v.elements[i];
      JsrReportBucket bucket;

      if (pair->type != JSR_JSON_ARRAY || pair->length != 2
          || pair->v.elements[0].type != JSR_JSON_INT || pair->v.elements[1].type != JSR_JSON_INT
          || pair->v.elements[0].v.integer <= previous
          || pair->v.elements[0].v.integer >= JSR_HISTOGRAM_BUCKETS
          || pair->v.elements[1].v.integer < 0)
        {
          g_autofree char *full = jsr_json_path_to_string (&element_path, NULL);

          g_set_error (error, JSR_REPORT_ERROR, JSR_REPORT_ERROR_INVALID,
                       _ ("%s must be [index, count] with increasing indexes below %d and a "
                          "count of at least 0"),
                       full, JSR_HISTOGRAM_BUCKETS);
          return FALSE;
        }
      bucket.index = (guint32) pair->v.elements[0].v.integer;
      bucket.count = (guint64) pair->v.elements[1].v.integer;
      previous = bucket.index;
      if (bucket.count == 0)
        continue;
      /* Saturated, as the histograms of a merge are. */
      total = jsr_sat_add_u64 (total, bucket.count);
      g_array_append_val (buckets, bucket);
    }

  *out = g_new0 (JsrReportHistogram, 1);
  (*out)->count = total;
  (*out)->buckets = g_steal_pointer (&buckets);
  /* Without min and max, the first and last buckets' bounds. */
  if (total > 0)
    {
      JsrReportBucket *first = &g_array_index ((*out)->buckets, JsrReportBucket, 0);
      JsrReportBucket *last
          = &g_array_index ((*out)->buckets, JsrReportBucket, (*out)->buckets->len - 1);
      gint64 low = js_histogram_bucket_low (first->index);
      gint64 high = js_histogram_bucket_high (last->index);

      gint64 last_low = js_histogram_bucket_low (last->index);
      gint64 first_high = js_histogram_bucket_high (first->index);

      /* A hostile min or max outside its bucket is brought back into it. */
      (*out)->min_ns = min_ns != JSR_UNKNOWN ? CLAMP (min_ns, low, first_high - 1) : low;
      (*out)->max_ns
          = max_ns != JSR_UNKNOWN ? CLAMP (max_ns, last_low, MAX (last_low, high - 1)) : last_low;
      (*out)->max_ns = MAX ((*out)->max_ns, (*out)->min_ns);
    }
  return TRUE;
}
