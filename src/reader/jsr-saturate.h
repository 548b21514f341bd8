/* jsr-saturate.h: arithmetic on the numbers of untrusted reports and aggregates
 *
 * The readers accept any integer from 0 to G_MAXINT64 for a count or a time
 * (jsr-json-read.c), so a sum of two of them, a count times a period or a time
 * plus an offset can leave 64 bits: signed overflow is undefined behaviour in
 * C, and in practice a wrapped sum prints as a negative count. The CLI's
 * rule (docs/exports.md, "Hostile numbers"), applied through these helpers
 * and nowhere by hand:
 *  - a sum saturates at G_MAXINT64 (at G_MININT64 going down), and so does
 *    a time plus an offset;
 *  - a span, end - start, is never negative: an end before its start gives 0;
 *  - a product that takes a share of a time (watched × count / total) is
 *    computed exactly in 128 bits (__int128) where it is taken;
 *  - a double turned back into an integer is clamped to the integer's range
 *    (NaN gives 0): a cast of an out-of-range double is undefined too.
 * Unsigned sums (the aggregate's guint64 statistics) saturate at G_MAXINT64
 * as well, so that what the CLI writes is an integer it can read back.
 *
 * The signed helpers use the compilers' overflow builtins (GCC and Clang,
 * which GLib's own g_uint64_checked_add relies on); the unsigned one is
 * GLib's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline gint64
jsr_sat_add (gint64 a, gint64 b)
{
  gint64 sum;

  if (!__builtin_add_overflow (a, b, &sum))
    return sum;
  return b > 0 ? G_MAXINT64 : G_MININT64;
}

static inline gint64
jsr_sat_sub (gint64 a, gint64 b)
{
  gint64 difference;

  if (!__builtin_sub_overflow (a, b, &difference))
    return difference;
  return b < 0 ? G_MAXINT64 : G_MININT64;
}

/* end - start, 0 when the end comes first, G_MAXINT64 at most. */
static inline gint64
jsr_span (gint64 start, gint64 end)
{
  return end > start ? jsr_sat_sub (end, start) : 0;
}

/* *sum = a + b for the guint64 statistics, which stay at or below
 * G_MAXINT64; FALSE when it saturated there. */
static inline gboolean
jsr_add_u64_checked (guint64 *sum, guint64 a, guint64 b)
{
  if (!g_uint64_checked_add (sum, a, b) || *sum > (guint64) G_MAXINT64)
    {
      *sum = G_MAXINT64;
      return FALSE;
    }
  return TRUE;
}

static inline guint64
jsr_sat_add_u64 (guint64 a, guint64 b)
{
  guint64 sum;

  jsr_add_u64_checked (&sum, a, b);
  return sum;
}

/* Clamped to [0, G_MAXUINT64]; NaN is 0. 2^64 is the first double past
 * G_MAXUINT64 (which has no double of its own). */
static inline guint64
jsr_double_to_uint64 (double value)
{
  if (!(value > 0))
    return 0;
  if (value >= 18446744073709551616.0)
    return G_MAXUINT64;
  return (guint64) value;
}

G_END_DECLS
