/* js-json.h: the two JsonBuilder members every report writer adds
 *
 * Shared by the report (js-report*.c) and the live stream (js-live-*.c), so
 * that a missing string is written the same way everywhere: as null.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

static inline void
js_json_member_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* NULL is written as null. */
static inline void
js_json_member_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

G_END_DECLS
