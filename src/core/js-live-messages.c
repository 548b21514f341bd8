/* js-live-messages.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-live-messages.h"
#include "js-clock.h"
#include "js-live-hang.h"
#include "js-process-info.h"
#include "js-json-node.h"

#include <json-glib/json-glib.h>

/* A message: one object of JSON, compact, on a line of its own. */
static void
begin_message (JsJsonWriter *b, GString *out, const char *type, gint64 now_ns)
{
  js_json_writer_init (b, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "type", type);
  js_json_writer_member_int (b, "v", JS_LIVE_PROTOCOL_VERSION);
  js_json_writer_member_int (b, "t_ns", now_ns);
}

static GBytes *
end_message (JsJsonWriter *b, GString *out)
{
  js_json_writer_end_object (b);
  g_string_append_c (out, '\n');
  return g_string_free_to_bytes (out);
}

static void
add_server_stats (JsJsonWriter *b, const JsLiveServerStats *st)
{
  js_json_writer_member (b, "server");
  js_json_writer_begin_object (b);
  js_json_writer_member_int (b, "clients", st->clients);
  js_json_writer_member_int (b, "accepted", st->accepted);
  js_json_writer_member_int (b, "refused_uid", st->refused_uid);
  js_json_writer_member_int (b, "refused_full", st->refused_full);
  js_json_writer_member_int (b, "messages_sent", st->messages_sent);
  js_json_writer_member_int (b, "messages_dropped", st->messages_dropped);
  js_json_writer_member_int (b, "bytes_sent", st->bytes_sent);
  js_json_writer_end_object (b);
}

GBytes *
js_live_message_hello (const JsLiveHelloInfo *hello, const JsLiveServerStats *stats, gint64 now_ns)
{
  GString *out = g_string_sized_new (256);
  JsJsonWriter w, *b = &w;
  JsProcessInfo info = { 0 };

  js_process_info_read (&info);
  begin_message (b, out, "hello", now_ns);
  js_json_writer_member_int (b, "protocol", JS_LIVE_PROTOCOL_VERSION);
  js_json_writer_member_int (b, "pid", hello->pid);
  js_json_writer_member_string (b, "exe", info.exe);
  js_json_writer_member_string (b, "name", info.name);
  js_json_writer_member_string (b, "toolkit", info.toolkit);
  js_json_writer_member_string (b, "gtk_version", info.gtk_version);
  js_json_writer_member_string (b, "glib_version", info.glib_version);
  js_json_writer_member_int (b, "start_ns", hello->start_ns);
  /* The same moment on the wall clock, for people (µs since the epoch). */
  js_json_writer_member_int (b, "start_unix_us",
                             g_get_real_time () - (now_ns - hello->start_ns) / 1000);
  js_json_writer_member_int (b, "hang_min_ns", hello->hang_min_ns);
  js_json_writer_member_int (b, "tick_ms", JS_LIVE_SERVER_TICK_MS);
  add_server_stats (b, stats);
  js_process_info_clear (&info);
  return end_message (b, out);
}

GBytes *
js_live_message_server (const JsLiveServerStats *stats, gint64 now_ns)
{
  GString *out = g_string_sized_new (256);
  JsJsonWriter w, *b = &w;

  begin_message (b, out, "server", now_ns);
  add_server_stats (b, stats);
  return end_message (b, out);
}

/* {"type":"snapshot","v":1,"t_ns":T,"generation":G,"snapshot":SNAPSHOT}: the
 * snapshot's bytes as the collector made them, last, so a client may cut
 * them out without parsing the whole line (docs/live-protocol.md). */
GBytes *
js_live_message_snapshot (GBytes *snapshot, guint64 generation, gint64 now_ns)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (snapshot, &size);
  GString *line = g_string_sized_new (size + 128);

  g_string_append_printf (line,
                          "{\"type\":\"snapshot\",\"v\":%d,\"t_ns\":%" G_GINT64_FORMAT
                          ",\"generation\":%" G_GUINT64_FORMAT ",\"snapshot\":",
                          JS_LIVE_PROTOCOL_VERSION, now_ns, generation);
  g_string_append_len (line, data, size);
  g_string_append (line, "}\n");
  return g_string_free_to_bytes (line);
}

/* {"type":"hang", ..., "since_ns", "stuck_ns", "info": digest or null}. */
GBytes *
js_live_message_hang (gint64 since_ns, gint64 now_ns)
{
  gint64 digest_start = 0;
  g_autoptr (GBytes) digest = js_live_hang_get (&digest_start);
  GString *line = g_string_sized_new (1024);

  g_string_append_printf (line,
                          "{\"type\":\"hang\",\"v\":%d,\"t_ns\":%" G_GINT64_FORMAT
                          ",\"since_ns\":%" G_GINT64_FORMAT ",\"stuck_ns\":%" G_GINT64_FORMAT
                          ",\"info\":",
                          JS_LIVE_PROTOCOL_VERSION, now_ns, since_ns, now_ns - since_ns);
  /* The digest speaks of this stall only if it started when the loop left
   * poll (the watchdog's stall start is that same heartbeat value). */
  if (digest != NULL && digest_start == since_ns)
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (digest, &size);

      g_string_append_len (line, data, size);
    }
  else
    g_string_append (line, "null");
  g_string_append (line, "}\n");
  return g_string_free_to_bytes (line);
}

GBytes *
js_live_message_hang_end (gint64 since_ns, gint64 end_ns, gint64 now_ns)
{
  GString *out = g_string_sized_new (256);
  JsJsonWriter w, *b = &w;

  begin_message (b, out, "hang-end", now_ns);
  js_json_writer_member_int (b, "since_ns", since_ns);
  js_json_writer_member_int (b, "end_ns", end_ns);
  js_json_writer_member_int (b, "duration_ns", end_ns - since_ns);
  return end_message (b, out);
}

static gint64
event_int (JsonObject *e, const char *name)
{
  return json_object_get_int_member_with_default (e, name, 0);
}

/* The ended hang's event in a snapshot: the dispatch or iteration event
 * (else frame event) that overlaps it most, once it can no longer change
 * (the collector froze it: merge gap passed, stalls attached, CPU readings
 * in). NULL: not yet. */
static JsonNode *
find_hang_event (GBytes *snapshot, gint64 since_ns, gint64 end_ns, gint64 merge_gap_ns)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  gsize size = 0;
  const char *data = g_bytes_get_data (snapshot, &size);
  JsonObject *root, *best = NULL;
  JsonArray *events;
  gint64 now, best_overlap = 0;
  gboolean best_is_frame = TRUE;

  if (!json_parser_load_from_data (parser, data, (gssize) size, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (root, "live") || !json_object_has_member (root, "events"))
    return NULL;
  now = json_object_get_int_member_with_default (json_object_get_object_member (root, "live"),
                                                 "now_ns", 0);
  if (now - end_ns < merge_gap_ns + 1000 * JS_NS_PER_MS)
    return NULL;
  events = json_object_get_array_member (root, "events");
  for (guint i = 0; events != NULL && i < json_array_get_length (events); i++)
    {
      JsonNode *n = json_array_get_element (events, i);
      JsonObject *e;
      gint64 overlap;
      gboolean is_frame;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        continue;
      e = json_node_get_object (n);
      if (json_object_get_boolean_member_with_default (e, "ongoing", FALSE))
        continue;
      overlap = MIN (event_int (e, "end_ns"), end_ns) - MAX (event_int (e, "start_ns"), since_ns);
      is_frame
          = g_strcmp0 (json_object_get_string_member_with_default (e, "type", ""), "frame") == 0;
      if (overlap <= 0)
        continue;
      if (best == NULL || (best_is_frame && !is_frame)
          || (best_is_frame == is_frame && overlap > best_overlap))
        {
          best = e;
          best_overlap = overlap;
          best_is_frame = is_frame;
        }
    }
  if (best == NULL || best_overlap * 2 < end_ns - since_ns
      || json_object_get_boolean_member_with_default (best, "settling", FALSE))
    return NULL;
  return json_node_init_object (json_node_alloc (), best);
}

GBytes *
js_live_message_hang_event (GBytes *snapshot, gint64 since_ns, gint64 end_ns, gint64 merge_gap_ns,
                            gint64 now_ns)
{
  g_autoptr (JsonNode) event = find_hang_event (snapshot, since_ns, end_ns, merge_gap_ns);
  GString *out;
  JsJsonWriter w, *b = &w;

  if (event == NULL)
    return NULL;
  out = g_string_sized_new (4096);
  begin_message (b, out, "event", now_ns);
  js_json_writer_member_int (b, "since_ns", since_ns);
  js_json_writer_member_int (b, "end_ns", end_ns);
  js_json_writer_member (b, "event");
  js_json_write_node (b, event);
  return end_message (b, out);
}

GBytes *
js_live_message_bye (gint64 now_ns)
{
  GString *out = g_string_sized_new (256);
  JsJsonWriter w, *b = &w;

  begin_message (b, out, "bye", now_ns);
  return end_message (b, out);
}

GBytes *
js_live_message_error (const char *reason)
{
  GString *out = g_string_sized_new (256);
  JsJsonWriter w, *b = &w;

  js_json_writer_init (b, out, JS_JSON_WRITER_COMPACT);
  js_json_writer_begin_object (b);
  js_json_writer_member_string (b, "type", "error");
  js_json_writer_member_int (b, "v", JS_LIVE_PROTOCOL_VERSION);
  js_json_writer_member_string (b, "reason", reason);
  return end_message (b, out);
}
