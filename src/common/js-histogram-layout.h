/* js-histogram-layout.h: the bucket layout of jankscope's log-linear histograms
 *
 * One layout for the core (which fills histograms inside the app,
 * js-histogram.c) and for the readers (the CLI and the window, which merge and
 * query them, src/reader/jsr-histogram.c): bucket 0 holds values below 2^MIN_EXP ns;
 * then each power of two up to 2^MAX_EXP ns (about 2.4 hours) is cut into
 * 2^SUB_BITS equal buckets (a relative error of at most 1/16); the last bucket
 * holds everything above. Reports carry sub_bits and min_exp so that a reader
 * can refuse a layout it does not know (docs/report-format.md).
 *
 * Header-only: bucket_of is on the core's hot path.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_HISTOGRAM_SUB_BITS 4
#define JS_HISTOGRAM_MIN_EXP 6 /* values below 64 ns share bucket 0 */
#define JS_HISTOGRAM_MAX_EXP 43
#define JS_HISTOGRAM_SUB (1 << JS_HISTOGRAM_SUB_BITS)
#define JS_HISTOGRAM_BUCKETS (1 + (JS_HISTOGRAM_MAX_EXP - JS_HISTOGRAM_MIN_EXP) * JS_HISTOGRAM_SUB)

/* The bucket of a value in ns (negative values go to bucket 0). With e the
 * value's highest set bit, its bucket is 1 + (e - MIN_EXP) * SUB plus the SUB_BITS
 * bits below that bit; those bits with the highest one still on,
 * ns >> (e - SUB_BITS), are SUB + sub, so the bucket is one expression, and
 * every e past MAX_EXP lands past the last bucket and is clamped there (no
 * branch, no mask: it runs twice per main-loop iteration). */
static inline guint
js_histogram_bucket_of (gint64 ns)
{
  int e;
  guint b;

  if (ns < ((gint64) 1 << JS_HISTOGRAM_MIN_EXP))
    return 0;
  e = __builtin_clzll ((guint64) ns) ^ 63; /* 63 - clz for clz in [0, 63]: one bsr */
  b = (guint) (ns >> (e - JS_HISTOGRAM_SUB_BITS)) + (guint) e * JS_HISTOGRAM_SUB
      - (JS_HISTOGRAM_MIN_EXP * JS_HISTOGRAM_SUB + JS_HISTOGRAM_SUB - 1);
  return MIN (b, JS_HISTOGRAM_BUCKETS - 1);
}

/* The smallest value of a bucket (0 for bucket 0). */
static inline gint64
js_histogram_bucket_low (guint bucket)
{
  int e;
  gint64 width;

  if (bucket == 0)
    return 0;
  bucket = MIN (bucket, JS_HISTOGRAM_BUCKETS - 1);
  e = (int) ((bucket - 1) / JS_HISTOGRAM_SUB) + JS_HISTOGRAM_MIN_EXP;
  width = (gint64) 1 << (e - JS_HISTOGRAM_SUB_BITS);
  return ((gint64) JS_HISTOGRAM_SUB + (gint64) ((bucket - 1) % JS_HISTOGRAM_SUB)) * width;
}

/* The first value past a bucket (G_MAXINT64 for the last one). */
static inline gint64
js_histogram_bucket_high (guint bucket)
{
  if (bucket >= JS_HISTOGRAM_BUCKETS - 1)
    return G_MAXINT64;
  return js_histogram_bucket_low (bucket + 1);
}

/* The value a bucket stands for in percentiles: its middle. */
static inline gint64
js_histogram_bucket_mid (guint bucket)
{
  int e;
  gint64 width;

  if (bucket == 0)
    return ((gint64) 1 << JS_HISTOGRAM_MIN_EXP) / 2;
  bucket = MIN (bucket, JS_HISTOGRAM_BUCKETS - 1);
  e = (int) ((bucket - 1) / JS_HISTOGRAM_SUB) + JS_HISTOGRAM_MIN_EXP;
  width = (gint64) 1 << (e - JS_HISTOGRAM_SUB_BITS);
  return js_histogram_bucket_low (bucket) + width / 2;
}

G_END_DECLS
