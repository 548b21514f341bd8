/* js-labels.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-labels.h"

#include <string.h>

void
js_labels_init (JsLabels *labels, guint capacity, guint bytes)
{
  g_assert (capacity >= 4 && (capacity & (capacity - 1)) == 0 && bytes >= 8);
  memset (labels, 0, sizeof *labels);
  labels->capacity = capacity;
  labels->bytes = bytes;
  labels->strings = g_malloc0 ((gsize) capacity * bytes);
  labels->slots = g_new0 (guint32, 2 * capacity);
  strcpy (labels->strings + JS_LABEL_OVERFLOW * bytes, "(other)");
  labels->count = JS_LABEL_OVERFLOW + 1;
}

/* The length kept of `label`: at most bytes - 1, cut at a character boundary. */
static gsize
kept_length (const JsLabels *labels, const char *label)
{
  gsize len = strnlen (label, labels->bytes - 1);
  const char *valid_end;

  g_utf8_validate (label, (gssize) len, &valid_end);
  return (gsize) (valid_end - label);
}

static gboolean
same (const JsLabels *labels, guint32 id, const char *label, gsize len)
{
  const char *s = labels->strings + (gsize) id * labels->bytes;

  return memcmp (s, label, len) == 0 && s[len] == '\0';
}

static guint32
intern_slow (JsLabels *labels, const char *label)
{
  gsize len = kept_length (labels, label);
  guint32 hash = 5381;
  guint mask = 2 * labels->capacity - 1;

  for (gsize i = 0; i < len; i++)
    hash = hash * 33 + (guchar) label[i];
  for (guint i = 0; i <= mask; i++)
    {
      guint32 *slot = &labels->slots[(hash + i) & mask];
      guint32 id;

      if (*slot != 0)
        {
          if (same (labels, *slot, label, len))
            return *slot;
          continue;
        }
      id = labels->count;
      if (id >= labels->capacity)
        break;
      memcpy (labels->strings + (gsize) id * labels->bytes, label, len);
      labels->strings[(gsize) id * labels->bytes + len] = '\0';
      *slot = id;
      /* Publishes the string written above to readers on other threads. */
      __atomic_store_n (&labels->count, id + 1, __ATOMIC_RELEASE);
      return id;
    }
  __atomic_store_n (&labels->overflows, labels->overflows + 1, __ATOMIC_RELAXED);
  return JS_LABEL_OVERFLOW;
}

guint32
js_labels_intern (JsLabels *labels, const char *label)
{
  guint c;
  guint32 id;

  if (label == NULL)
    label = "(null)";
  c = (guint) (GPOINTER_TO_SIZE (label) >> 3) & (JS_LABELS_CACHE_SLOTS - 1);
  /* The pointer alone is not enough: an app may reuse a buffer. The string
   * compare is short (labels are short) and stops at the first difference. */
  if (labels->cache[c].pointer == label && labels->cache[c].id != JS_LABEL_OVERFLOW)
    {
      id = labels->cache[c].id;
      if (strncmp (labels->strings + (gsize) id * labels->bytes, label, labels->bytes - 1) == 0)
        return id;
    }
  id = intern_slow (labels, label);
  labels->cache[c].pointer = label;
  labels->cache[c].id = id;
  return id;
}

const char *
js_labels_get (const JsLabels *labels, guint32 id)
{
  if (id == JS_LABEL_NONE || id >= __atomic_load_n (&labels->count, __ATOMIC_ACQUIRE))
    return NULL;
  return labels->strings + (gsize) id * labels->bytes;
}

guint64
js_labels_overflows (const JsLabels *labels)
{
  return __atomic_load_n (&labels->overflows, __ATOMIC_RELAXED);
}
