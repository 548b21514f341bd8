/* Unit tests of the context of events: label tables, timelines, marks,
 * resource windows, the install id, scrubbing. */
#include "js-context.h"
#include "js-install-id.h"
#include "js-json-node.h"
#include "js-labels.h"
#include "js-process-info.h"
#include "js-resources.h"
#include "js-scrub.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define MS G_GINT64_CONSTANT (1000000)

/* --- labels ------------------------------------------------------------------ */

/* The core's tables live as long as the process; a test's are freed (so that
 * LeakSanitizer, scripts/run-sanitized-tests.sh, sees no leak). */
static void
labels_free (JsLabels *l)
{
  g_free (l->strings);
  g_free (l->slots);
}

static void
test_labels_intern (void)
{
  JsLabels l;
  char buf[16];
  guint32 a, b;

  js_labels_init (&l, 8, 16);
  a = js_labels_intern (&l, "chat");
  g_assert_cmpuint (a, >=, 2);
  g_assert_cmpuint (js_labels_intern (&l, "chat"), ==, a);
  /* The same buffer with another content is another label. */
  strcpy (buf, "one");
  b = js_labels_intern (&l, buf);
  strcpy (buf, "two");
  g_assert_cmpuint (js_labels_intern (&l, buf), !=, b);
  g_assert_cmpstr (js_labels_get (&l, b), ==, "one");
  g_assert_cmpstr (js_labels_get (&l, a), ==, "chat");
  g_assert_null (js_labels_get (&l, JS_LABEL_NONE));
  g_assert_null (js_labels_get (&l, 7)); /* not used yet */
  g_assert_cmpstr (js_labels_get (&l, js_labels_intern (&l, NULL)), ==, "(null)");
  labels_free (&l);
}

static void
test_labels_bounds (void)
{
  JsLabels l;
  char buf[16];
  guint32 id;

  js_labels_init (&l, 8, 16);
  /* 15 bytes kept, cut at a character boundary. */
  id = js_labels_intern (&l, "0123456789abcdefghij");
  g_assert_cmpstr (js_labels_get (&l, id), ==, "0123456789abcde");
  g_assert_cmpuint (js_labels_intern (&l, "0123456789abcdeXYZ"), ==, id);
  id = js_labels_intern (&l, "0123456789abcd\xc3\xa9"); /* é would end at byte 16 */
  g_assert_cmpstr (js_labels_get (&l, id), ==, "0123456789abcd");
  g_assert_cmpuint (js_labels_intern (&l, "0123456789abcd\xc3\xa9"), ==, id);
  /* 8 ids, 0 and 1 taken: 6 labels, then "(other)". */
  for (int i = 0; i < 10; i++)
    {
      g_snprintf (buf, sizeof buf, "l%d", i);
      id = js_labels_intern (&l, buf);
    }
  g_assert_cmpuint (id, ==, JS_LABEL_OVERFLOW);
  g_assert_cmpstr (js_labels_get (&l, JS_LABEL_OVERFLOW), ==, "(other)");
  g_assert_cmpuint (js_labels_overflows (&l), ==, 6);
  labels_free (&l);
}

/* --- timelines --------------------------------------------------------------- */

static void
test_timeline (void)
{
  static JsTimeline t;
  guint32 id = 99;

  memset (&t, 0, sizeof t);
  g_assert_false (js_timeline_at (&t, 10, &id));
  js_timeline_add (&t, 100, 0);
  js_timeline_add (&t, 200, 5);
  js_timeline_add (&t, 250, 5); /* no change: not stored */
  js_timeline_add (&t, 300, 6);
  g_assert_cmpuint (t.len, ==, 3);
  g_assert_false (js_timeline_at (&t, 99, &id));
  g_assert_true (js_timeline_at (&t, 100, &id) && id == 0);
  g_assert_true (js_timeline_at (&t, 299, &id) && id == 5);
  g_assert_true (js_timeline_at (&t, 300, &id) && id == 6);
  g_assert_true (js_timeline_at (&t, 9999, &id) && id == 6);
  g_assert_true (js_timeline_first_set (&t, 100, 400, &id) && id == 5);
  g_assert_false (js_timeline_first_set (&t, 100, 150, &id));
  g_assert_false (js_timeline_first_set (&t, 300, 400, &id));

  /* Bounded: the oldest entries fall out; the last one that did still tells
   * the value after it. */
  memset (&t, 0, sizeof t);
  for (gint64 i = 0; i < JS_CONTEXT_TIMELINE + 10; i++)
    js_timeline_add (&t, 1000 + i * 10, (guint32) (i % 2 + 1));
  g_assert_cmpuint (t.len, ==, JS_CONTEXT_TIMELINE);
  g_assert_false (js_timeline_at (&t, 1000 + 8 * 10, &id));
  g_assert_true (js_timeline_at (&t, 1000 + 9 * 10 + 5, &id) && id == 2);
  g_assert_true (js_timeline_at (&t, 1000 + 10 * 10, &id) && id == 1);
}

/* --- events ------------------------------------------------------------------- */

static JsConfig config;

static JsEvent *
event (gint64 start_ns, gint64 end_ns)
{
  JsEvent *e = g_new0 (JsEvent, 1);

  e->start_ns = start_ns;
  e->end_ns = end_ns;
  e->longest.start_ns = start_ns;
  e->longest.end_ns = end_ns;
  return e;
}

static void
feed (JsContext *c, JsRecordKind kind, gint64 start_ns, gint64 end_ns, guint32 name_id, guint32 seq,
      guint8 depth)
{
  JsRecord r = {
    .kind = kind,
    .start_ns = start_ns,
    .end_ns = end_ns,
    .name_id = name_id,
    .count = seq,
    .depth = depth,
  };

  js_context_feed (c, &r);
}

static void
test_event_scene_and_marks (void)
{
  JsContext *c = g_new0 (JsContext, 1);
  g_autofree JsEvent *e1 = NULL, *e2 = NULL, *e3 = NULL;
  JsEventContext x;
  const JsEventContext *got;

  js_context_init (c, &config, 0);
  feed (c, JS_RECORD_SCENE, 100 * MS, 0, 7, 0, 1);      /* scene 7 at 100 ms */
  feed (c, JS_RECORD_MARK_BEGIN, 150 * MS, 0, 3, 1, 1); /* mark 1: 150 - 400 ms */
  feed (c, JS_RECORD_MARK_BEGIN, 160 * MS, 0, 4, 2, 2); /* mark 2: 160 - 170 ms */
  feed (c, JS_RECORD_MARK_END, 160 * MS, 170 * MS, 4, 2, 2);
  feed (c, JS_RECORD_SCENE, 210 * MS, 0, 8, 0, 2); /* scene 8 at 210 ms */

  /* 200 - 300 ms: scene 7 at its start; mark 1 open (end unknown yet). */
  e1 = event (200 * MS, 300 * MS);
  got = js_context_of (c, e1, &x);
  g_assert_cmpuint (got->scene, ==, 7);
  g_assert_cmpuint (got->n_marks, ==, 1);
  g_assert_cmpuint (got->marks[0].seq, ==, 1);
  g_assert_cmpint (got->marks[0].end_ns, ==, 0);
  g_assert_cmpint (js_context_mark_end (c, 1), ==, 0);
  feed (c, JS_RECORD_MARK_END, 150 * MS, 400 * MS, 3, 1, 1);
  g_assert_cmpint (js_context_mark_end (c, 1), ==, 400 * MS);

  /* 50 - 155 ms: no scene when it started, scene 7 entered during it. */
  e2 = event (50 * MS, 155 * MS);
  got = js_context_of (c, e2, &x);
  g_assert_cmpuint (got->scene, ==, 7);
  g_assert_cmpuint (got->n_marks, ==, 1);

  /* 165 - 168 ms: both marks, by start. */
  e3 = event (165 * MS, 168 * MS);
  got = js_context_of (c, e3, &x);
  g_assert_cmpuint (got->n_marks, ==, 2);
  g_assert_cmpuint (got->marks[0].seq, ==, 1);
  g_assert_cmpuint (got->marks[1].seq, ==, 2);
  g_assert_cmpint (got->marks[1].end_ns, ==, 170 * MS);
  g_assert_cmpuint (c->marks_ended, ==, 2);
  g_assert_cmpuint (c->marks_lost, ==, 0);
  g_free (c);
}

static void
test_event_marks_bounded (void)
{
  JsContext *c = g_new0 (JsContext, 1);
  g_autofree JsEvent *e = NULL;
  JsEventContext x;
  const JsEventContext *got;

  js_context_init (c, &config, 0);
  /* 20 marks inside the event, in reverse order of start (nested). */
  for (guint i = 0; i < 20; i++)
    feed (c, JS_RECORD_MARK_BEGIN, (100 + i) * MS, 0, 2, i + 1, (guint8) (i + 1));
  for (guint i = 20; i-- > 0;)
    feed (c, JS_RECORD_MARK_END, (100 + i) * MS, (200 - i) * MS, 2, i + 1, (guint8) (i + 1));
  e = event (90 * MS, 300 * MS);
  got = js_context_of (c, e, &x);
  g_assert_cmpuint (got->n_marks, ==, JS_EVENT_MAX_MARKS);
  g_assert_cmpuint (got->marks_omitted, ==, 20 - JS_EVENT_MAX_MARKS);
  for (guint i = 0; i < JS_EVENT_MAX_MARKS; i++)
    g_assert_cmpuint (got->marks[i].seq, ==, i + 1); /* the first ones to start */
  g_free (c);
}

static void
test_marks_lost_end (void)
{
  JsContext *c = g_new0 (JsContext, 1);

  js_context_init (c, &config, 0);
  feed (c, JS_RECORD_MARK_BEGIN, 100 * MS, 0, 2, 1, 1);
  /* Mark 1's end was dropped (full ring): the next begin at depth 1 ends it. */
  feed (c, JS_RECORD_MARK_BEGIN, 300 * MS, 0, 2, 2, 1);
  g_assert_cmpuint (c->marks_lost, ==, 1);
  g_assert_cmpuint (c->n_open, ==, 1);
  g_assert_cmpuint (c->open[0].seq, ==, 2);
  /* A begin dropped: its end still tells the whole mark. */
  feed (c, JS_RECORD_MARK_END, 400 * MS, 450 * MS, 2, 3, 2);
  g_assert_cmpuint (c->marks_ended, ==, 1);
  g_assert_cmpint (js_context_mark_end (c, 3), ==, 450 * MS);
  g_assert_cmpuint (c->n_open, ==, 1);
  g_free (c);
}

static void
test_startup_rules (void)
{
  JsContext *c = g_new0 (JsContext, 1);
  g_autofree JsEvent *early = event (1000 * MS, 1100 * MS), *late = event (6000 * MS, 6100 * MS);
  JsEventContext x;
  gint64 end;

  /* This program has no GTK: the first 5 s. */
  js_context_init (c, &config, 500 * MS);
  g_assert_cmpstr (js_context_startup_rule (c, &end), ==, "first-5s");
  g_assert_cmpint (end, ==, 5500 * MS);
  g_assert_true (js_context_of (c, early, &x)->startup);
  g_assert_false (js_context_of (c, late, &x)->startup);
  /* A frame: until the first one ends. */
  feed (c, JS_RECORD_FRAME, 1500 * MS, 1600 * MS, 0, 0, 0);
  feed (c, JS_RECORD_FRAME, 1700 * MS, 1800 * MS, 0, 0, 0);
  g_assert_cmpstr (js_context_startup_rule (c, &end), ==, "first-frame");
  g_assert_cmpint (end, ==, 1600 * MS);
  g_assert_true (js_context_of (c, early, &x)->startup);
  g_free (late);
  late = event (1700 * MS, 1750 * MS);
  g_assert_false (js_context_of (c, late, &x)->startup);
  g_free (c);
}

/* --- resources ------------------------------------------------------------------ */

static void
test_resources_window (void)
{
  static JsResources r;
  JsResourceWindow w;

  js_resources_init (&r);
  g_assert_false (js_resources_window (&r, 0, 1, &w));
  /* 0-250 ms: 50 ms of CPU; 250-500 ms: 250 ms (one CPU busy). */
  js_resources_add (&r, &(JsResourceSample){ 0, 0, 3000, 0.5 });
  js_resources_add (&r, &(JsResourceSample){ 250 * MS, 50 * MS, 2000, 1.5 });
  js_resources_add (&r, &(JsResourceSample){ 500 * MS, 300 * MS, 1000, -1 });
  g_assert_true (js_resources_window (&r, 300 * MS, 400 * MS, &w));
  g_assert_cmpfloat_with_epsilon (w.cpu_pct, 100.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (w.load1, 1.5, 1e-9); /* the unknown one is left out */
  g_assert_cmpint (w.mem_kb, ==, 1000);
  g_assert_true (js_resources_window (&r, 100 * MS, 400 * MS, &w));
  g_assert_cmpfloat_with_epsilon (w.cpu_pct, 60.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (w.load1, 1.0, 1e-9);
  /* After the last sample: one sample, no CPU rate. */
  g_assert_true (js_resources_window (&r, 600 * MS, 700 * MS, &w));
  g_assert_cmpfloat (w.cpu_pct, <, 0);
  g_assert_cmpint (w.mem_kb, ==, 1000);
  /* A parked collector: nothing from 500 ms to 10 s; then samples at 10.02 s
   * and 10.3 s around an event of 10-10.3 s that kept one CPU busy. The
   * window starts at 10.02 s, not at 500 ms (which would read 3%). */
  js_resources_add (&r, &(JsResourceSample){ 10020 * MS, 320 * MS, 1000, 1 });
  js_resources_add (&r, &(JsResourceSample){ 10300 * MS, 600 * MS, 1000, 1 });
  g_assert_true (js_resources_window (&r, 10000 * MS, 10300 * MS, &w));
  g_assert_cmpint (w.from_ns, ==, 10020 * MS);
  g_assert_cmpfloat_with_epsilon (w.cpu_pct, 100.0, 1e-9);

  g_assert_cmpfloat_with_epsilon (js_resources_parse_loadavg ("0.52 0.58 0.59 1/467 12345\n"), 0.52,
                                  1e-9);
  g_assert_cmpfloat (js_resources_parse_loadavg ("garbage"), <, 0);
  g_assert_cmpint (js_resources_parse_meminfo ("MemTotal: 100 kB\nMemFree: 5 kB\n"
                                               "MemAvailable:    24242424 kB\n"),
                   ==, 24242424);
  g_assert_cmpint (js_resources_parse_meminfo ("MemTotal: 100 kB\n"), ==, -1);

  /* Bounded. */
  for (guint i = 0; i < 2 * JS_RESOURCE_SAMPLES; i++)
    js_resources_add (&r, &(JsResourceSample){ (1000 + i) * MS, i * MS, 1, 1 });
  g_assert_cmpuint (r.len, ==, JS_RESOURCE_SAMPLES);
  js_resources_sample (&r, G_MAXINT64 / 2, FALSE); /* real /proc */
  g_assert_cmpint (r.samples[(r.first + r.len - 1) % JS_RESOURCE_SAMPLES].mem_kb, >, 0);
}

/* The load and memory files are read at most every JS_RESOURCE_FILE_PERIOD_NS
 * (or when forced); the samples in between carry the values last read. */
static void
test_resources_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("js-resources-XXXXXX", NULL);
  g_autofree char *load = g_build_filename (dir, "loadavg", NULL);
  g_autofree char *mem = g_build_filename (dir, "meminfo", NULL);
  JsResources r;
  const JsResourceSample *s;

  g_assert_nonnull (dir);
  js_resources_init (&r);
  r.loadavg_path = load;
  r.meminfo_path = mem;
#define SET_FILES(l, m)                                                                            \
  g_assert_true (g_file_set_contents (load, l " 0.5 0.5 1/100 42\n", -1, NULL));                   \
  g_assert_true (g_file_set_contents (mem, "MemTotal: 9 kB\nMemAvailable: " m " kB\n", -1, NULL))
#define LAST() (&r.samples[(r.first + r.len - 1) % JS_RESOURCE_SAMPLES])

  SET_FILES ("1.50", "3000");
  js_resources_sample (&r, 1000 * MS, FALSE);
  s = LAST ();
  g_assert_cmpfloat_with_epsilon (s->load1, 1.5, 1e-9);
  g_assert_cmpint (s->mem_kb, ==, 3000);
  g_assert_cmpint (s->cpu_ns, >, 0);

  /* A tick later: the files are not read again, their values carried. */
  SET_FILES ("2.50", "2000");
  js_resources_sample (&r, 1250 * MS, FALSE);
  g_assert_cmpuint (r.len, ==, 2);
  s = LAST ();
  g_assert_cmpfloat_with_epsilon (s->load1, 1.5, 1e-9);
  g_assert_cmpint (s->mem_kb, ==, 3000);
  js_resources_sample (&r, 1500 * MS, FALSE);
  g_assert_cmpint (LAST ()->mem_kb, ==, 3000);

  /* A period after the last read: read again. */
  js_resources_sample (&r, 2000 * MS, FALSE);
  s = LAST ();
  g_assert_cmpfloat_with_epsilon (s->load1, 2.5, 1e-9);
  g_assert_cmpint (s->mem_kb, ==, 2000);

  /* Forced (the first sample, the exit): read at once. */
  SET_FILES ("0.25", "1000");
  js_resources_sample (&r, 2250 * MS, TRUE);
  s = LAST ();
  g_assert_cmpfloat_with_epsilon (s->load1, 0.25, 1e-9);
  g_assert_cmpint (s->mem_kb, ==, 1000);

  /* Unreadable files: unknown, not the old values. */
  g_assert_cmpint (g_unlink (load), ==, 0);
  g_assert_cmpint (g_unlink (mem), ==, 0);
  js_resources_sample (&r, 3500 * MS, FALSE);
  s = LAST ();
  g_assert_cmpfloat (s->load1, <, 0);
  g_assert_cmpint (s->mem_kb, ==, -1);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
#undef SET_FILES
#undef LAST
}

/* --- process info ------------------------------------------------------------- */

/* Read for every journal tick: what cannot change is read once, the name
 * follows g_set_prgname. */
static void
test_process_info (void)
{
  JsProcessInfo info = { 0 };

  js_process_info_read (&info);
  g_assert_nonnull (strstr (info.exe, "test-event-context"));
  g_assert_cmpint (info.pid, ==, getpid ());
  g_assert_cmpstr (info.toolkit, ==, "glib");
  g_assert_null (info.gtk_version);
  g_assert_nonnull (info.glib_version);

  /* The executable is not read again. */
  g_free (info.exe);
  info.exe = g_strdup ("kept");
  g_set_prgname ("js-renamed");
  js_process_info_read (&info);
  g_assert_cmpstr (info.exe, ==, "kept");
  g_assert_cmpstr (info.name, ==, "js-renamed");

  js_process_info_clear (&info);
  g_assert_null (info.exe);
  g_assert_null (info.toolkit);
  js_process_info_read (&info);
  g_assert_nonnull (strstr (info.exe, "test-event-context"));
  js_process_info_clear (&info);
}

/* --- install id ------------------------------------------------------------------ */

static void
test_install_id (void)
{
  g_autofree char *a = js_install_id_compute ("0123456789abcdef0123456789abcdef", 1000);
  g_autofree char *b = js_install_id_compute ("0123456789abcdef0123456789abcdef", 1001);
  g_autofree char *c = js_install_id_compute ("0123456789abcdef0123456789abcdef", 1000);
  g_autoptr (GChecksum) sha = g_checksum_new (G_CHECKSUM_SHA256);

  g_assert_cmpuint (strlen (a), ==, 16);
  g_assert_cmpstr (a, ==, c);
  g_assert_cmpstr (a, !=, b);
  g_checksum_update (sha,
                     (const guchar *) "jankscope-install-id-v1\n"
                                      "0123456789abcdef0123456789abcdef\n1000",
                     -1);
  g_assert_true (strncmp (g_checksum_get_string (sha), a, 16) == 0);

  g_assert_true (js_install_id_in_share ("0000000000000000", 1e-9));
  g_assert_true (js_install_id_in_share ("7ffffffffffff000", 0.5));
  g_assert_false (js_install_id_in_share ("8000000000000001", 0.5));
  g_assert_true (js_install_id_in_share ("ffffffffffffffff", 1.0));
  g_assert_false (js_install_id_in_share ("ffffffffffffffff", 0.999));
  g_assert_true (js_install_id_in_share (NULL, 1.0));
  g_assert_false (js_install_id_in_share (NULL, 0.5));
}

/* --- scrub ------------------------------------------------------------------------ */

static void
test_scrub_strings (void)
{
  const char *homes[] = { "/home/alice/", "/var/home/alice", NULL };
  const char *users[] = { "alice", NULL };
  g_autoptr (JsScrub) s = js_scrub_new (homes, users);
  const char *cases[][2] = {
    { "/home/alice/src/app.c", "~/src/app.c" },
    { "/home/alice", "~" },
    { "/var/home/alice/x", "~/x" },
    { "open /home/alice/notes.txt now", "open ~/notes.txt now" },
    { "/home/alice2/x", "/home/alice2/x" },
    { "/mnt/home/alice/x", "/mnt/home/<user>/x" },
    { "/srv/alice/chat", "/srv/<user>/chat" },
    { "/media/alice", "/media/<user>" },
    { "libalice.so", "libalice.so" },
    { "/tmp/alice-build/x", "/tmp/alice-build/x" },
    { "alice", "alice" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = js_scrub_string (s, cases[i][0]);

      g_assert_cmpstr (out, ==, cases[i][1]);
    }
}

/* Scrubbed as written: every string value, a window title null, whatever
 * its value; names and numbers as they are. */
static void
test_scrub_json (void)
{
  const char *homes[] = { "/home/alice", NULL };
  const char *users[] = { "alice", NULL };
  g_autoptr (JsScrub) s = js_scrub_new (homes, users);
  g_autoptr (GString) out = g_string_new (NULL);
  JsJsonWriter w;

  js_json_writer_init (&w, out, JS_JSON_WRITER_COMPACT);
  js_scrub_writer (s, &w);
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "exe", "/home/alice/bin/app");
  js_json_writer_member_int (&w, "n", 3);
  js_json_writer_member (&w, "events");
  js_json_writer_begin_array (&w);
  js_json_writer_begin_object (&w);
  js_json_writer_member (&w, "context");
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "window_title", "Letter to Bob");
  js_json_writer_end_object (&w);
  js_json_writer_member (&w, "frames");
  js_json_writer_begin_array (&w);
  js_json_writer_begin_object (&w);
  js_json_writer_member_string (&w, "file", "/srv/alice/a.c");
  js_json_writer_end_object (&w);
  js_json_writer_end_array (&w);
  js_json_writer_end_object (&w);
  js_json_writer_end_array (&w);
  js_json_writer_member_string (&w, "x", NULL);
  js_json_writer_end_object (&w);
  g_assert_cmpstr (
      out->str, ==,
      "{\"exe\":\"~/bin/app\",\"n\":3,\"events\":[{\"context\":{\"window_title\":null},"
      "\"frames\":[{\"file\":\"/srv/<user>/a.c\"}]}],\"x\":null}");
}

/* A previous run's hang comes from an immutable parser tree: written,
 * scrubbed, in its order, never changed (changing it would be a GLib
 * critical, fatal under G_DEBUG). */
static void
test_scrub_json_immutable (void)
{
  const char *homes[] = { "/home/alice", NULL };
  g_autoptr (JsScrub) s = js_scrub_new (homes, NULL);
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (GString) out = g_string_new (NULL);
  JsJsonWriter w;
  JsonNode *hang;

  g_assert_true (json_parser_load_from_data (
      parser,
      "[{\"exe\": \"/home/alice/app\", \"d\": 1.5, \"ok\": true, \"n\": null, "
      "\"z\": [1, {\"window_title\": {\"deep\": [\"/home/alice\"]}}], \"a\": 0.1}]",
      -1, NULL));
  hang = json_array_get_element (json_node_get_array (json_parser_get_root (parser)), 0);
  g_assert_true (json_node_is_immutable (hang));
  js_json_writer_init (&w, out, JS_JSON_WRITER_COMPACT);
  js_scrub_writer (s, &w);
  js_json_writer_begin_object (&w);
  js_json_writer_member (&w, "previous_run");
  js_json_write_node (&w, hang);
  js_json_writer_end_object (&w);
  g_assert_cmpstr (out->str, ==,
                   "{\"previous_run\":{\"exe\":\"~/app\",\"d\":1.5,\"ok\":true,\"n\":null,"
                   "\"z\":[1,{\"window_title\":null}],\"a\":0.10000000000000001}}");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (hang), "exe"), ==,
                   "/home/alice/app");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Context/labels/intern", test_labels_intern);
  g_test_add_func ("/Context/labels/bounds", test_labels_bounds);
  g_test_add_func ("/Context/timeline", test_timeline);
  g_test_add_func ("/Context/event/scene-and-marks", test_event_scene_and_marks);
  g_test_add_func ("/Context/event/marks-bounded", test_event_marks_bounded);
  g_test_add_func ("/Context/event/marks-lost-end", test_marks_lost_end);
  g_test_add_func ("/Context/event/startup", test_startup_rules);
  g_test_add_func ("/Context/resources", test_resources_window);
  g_test_add_func ("/Context/resources-files", test_resources_files);
  g_test_add_func ("/Context/process-info", test_process_info);
  g_test_add_func ("/Context/install-id", test_install_id);
  g_test_add_func ("/Context/scrub/strings", test_scrub_strings);
  g_test_add_func ("/Context/scrub/json", test_scrub_json);
  g_test_add_func ("/Context/scrub/json-immutable", test_scrub_json_immutable);
  return g_test_run ();
}
