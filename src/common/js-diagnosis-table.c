/* js-diagnosis-table.c: the table of named anti-patterns (js-diagnosis-table.h).
 *
 * To add a rule: a stable id, a title and a fix marked N_(), the functions
 * (globs over function names; the outermost matching frame of each stack
 * counts, so listing both an API and what it calls never counts twice) and
 * the wait kind that shows it, if any; then a case in
 * tests/unit/test-diagnosis.c. Functions of libraries without symbols in
 * .dynsym (static functions) only match where debug information names them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-diagnosis-table.h"

#include <glib/gi18n.h>
#include <string.h>

static const char *const file_io[] = {
  "g_file_get_contents",
  "g_file_set_contents*",
  "g_file_load_contents",
  "g_file_load_partial_contents",
  "g_file_replace_contents",
  "g_file_read",
  "g_file_replace",
  "g_file_create",
  "g_file_append_to",
  "g_file_copy",
  "g_file_move",
  "g_file_delete",
  "g_file_query_info",
  "g_file_query_exists",
  "g_file_enumerate_children",
  "g_file_enumerator_next_file",
  "g_file_make_directory*",
  "g_mapped_file_new*",
  "g_key_file_load_from_*",
  "g_key_file_save_to_file",
  "g_local_file_input_stream_read",
  "g_local_file_output_stream_write",
  "g_unix_input_stream_read",
  NULL,
};

static const char *const dbus_sync[] = {
  "g_dbus_connection_call_sync",
  "g_dbus_connection_call_with_unix_fd_list_sync",
  "g_dbus_connection_send_message_with_reply_sync",
  "g_dbus_proxy_call_sync",
  "g_dbus_proxy_call_with_unix_fd_list_sync",
  "g_dbus_proxy_new_sync",
  "g_dbus_proxy_new_for_bus_sync",
  "g_dbus_connection_new_sync",
  "g_dbus_connection_new_for_address_sync",
  "g_dbus_object_manager_client_new*_sync",
  "g_bus_get_sync",
  "*_proxy_new_sync",         /* gdbus-codegen's proxies */
  "*_proxy_new_for_bus_sync", /* gdbus-codegen's proxies */
  NULL,
};

static const char *const subprocess[] = {
  "g_spawn_sync",
  "g_spawn_command_line_sync",
  "g_subprocess_wait",
  "g_subprocess_wait_check",
  "g_subprocess_communicate",
  "g_subprocess_communicate_utf8",
  "waitpid",
  "wait4",
  "waitid",
  NULL,
};

static const char *const image[] = {
  "gdk_pixbuf_new_from_*",    "gdk_pixbuf_animation_new_from_*",
  "gdk_pixbuf_loader_write*", "gdk_pixbuf_loader_close",
  "gdk_texture_new_from_*",   "gtk_image_new_from_file",
  "gtk_image_set_from_file",  "gtk_picture_new_for_filename",
  "gtk_picture_set_filename", "png_read_*",
  "jpeg_read_scanlines",      NULL,
};

static const char *const json[] = {
  "json_parser_load_from_*",
  "json_from_string",
  "json_gobject_from_data",
  "json_gvariant_deserialize_data",
  NULL,
};

static const char *const regex[] = {
  "g_regex_*", "g_match_info_next", "pcre2_match*", "pcre2_compile*", "pcre2_jit_*", NULL,
};

static const char *const fonts[] = {
  "FcConfigAppFontAdd*",
  "FcFontList",
  "FcFontSort",
  "FcFontSetList",
  "FcConfigBuildFonts",
  "FcInitLoadConfigAndFonts",
  "FcInitReinitialize",
  "FcInitBringUptoDate",
  "FcDirCacheScan",
  "FcDirCacheRead*",
  "FcDirScan",
  "FcFileScan",
  NULL,
};

static const char *const builder[] = {
  "gtk_widget_init_template",
  "gtk_builder_extend_with_template",
  "gtk_builder_add_from_*",
  "gtk_builder_new_from_*",
  NULL,
};

static const char *const sleeping[] = {
  "g_usleep", "usleep", "sleep", "nanosleep", "clock_nanosleep*", NULL,
};

static const char *const locks[] = {
  "g_mutex_lock",       "g_rec_mutex_lock",     "g_rw_lock_*_lock",
  "g_cond_wait*",       "g_thread_join",        "g_task_run_in_thread_sync",
  "pthread_mutex_lock", "pthread_rwlock_*lock", "pthread_cond_*wait",
  "pthread_join",       "__lll_lock_wait*",     NULL,
};

static const JsDiagnosisRule rules[] = {
  { "file-io", N_ ("File I/O on the main thread"),
    N_ ("Read and write files asynchronously: g_file_load_contents_async, "
        "g_file_replace_contents_async, g_input_stream_read_async, "
        "g_file_enumerate_children_async, or the work in a GTask thread "
        "(g_task_run_in_thread)"),
    JS_DIAGNOSIS_SPECIFIC, file_io, "io" },
  { "dbus-sync", N_ ("Synchronous D-Bus call on the main thread"),
    N_ ("Call D-Bus asynchronously: g_dbus_connection_call, g_dbus_proxy_call, "
        "g_dbus_proxy_new (or the generated *_proxy_new) and g_bus_get, with a callback"),
    JS_DIAGNOSIS_SPECIFIC, dbus_sync, NULL },
  { "subprocess-wait", N_ ("Waiting for a child process on the main thread"),
    N_ ("Start the process with GSubprocess and wait with g_subprocess_wait_async or "
        "g_subprocess_communicate_async, or watch it with g_child_watch_add"),
    JS_DIAGNOSIS_SPECIFIC, subprocess, "child" },
  { "image-decoding", N_ ("Image decoding on the main thread"),
    N_ ("Decode images off the main thread: gdk_pixbuf_new_from_stream_async, "
        "a GdkPixbufLoader fed by g_input_stream_read_bytes_async, or "
        "gdk_texture_new_from_file in a GTask thread (g_task_run_in_thread)"),
    JS_DIAGNOSIS_SPECIFIC, image, NULL },
  { "json-decoding", N_ ("JSON decoding on the main thread"),
    N_ ("Parse JSON asynchronously with json_parser_load_from_stream_async, or "
        "in a GTask thread (g_task_run_in_thread)"),
    JS_DIAGNOSIS_SPECIFIC, json, NULL },
  { "regex", N_ ("Regular expression on the main thread"),
    N_ ("Compile a GRegex once and keep it, avoid patterns that backtrack (nested "
        "quantifiers), and match large texts in a GTask thread (g_task_run_in_thread)"),
    JS_DIAGNOSIS_SPECIFIC, regex, NULL },
  { "font-loading", N_ ("Font loading on the main thread"),
    N_ ("Add application fonts and list fonts once, before the window is shown or "
        "in a GTask thread (g_task_run_in_thread), and keep the result"),
    JS_DIAGNOSIS_SPECIFIC, fonts, NULL },
  { "builder-template", N_ ("UI built from a template on the main thread"),
    N_ ("Build widgets once and reuse them: create pages and dialogs lazily "
        "(GtkStack pages on first show), recycle rows with GtkListView, and keep "
        "templates small"),
    JS_DIAGNOSIS_SPECIFIC, builder, NULL },
  { "sleep", N_ ("Sleeping on the main thread"),
    N_ ("Never sleep in a callback: schedule the rest of the work with "
        "g_timeout_add or g_timeout_add_seconds"),
    JS_DIAGNOSIS_SPECIFIC, sleeping, "sleep" },
  { "lock-wait", N_ ("Waiting for a lock on the main thread"),
    N_ ("Do not wait for worker threads on the main thread: hand results back with "
        "g_task_run_in_thread and a callback, or g_main_context_invoke; hold locks "
        "shared with workers only briefly"),
    JS_DIAGNOSIS_SPECIFIC, locks, "lock" },
  { "slow-callback", N_ ("Slow callback"),
    N_ ("Split the work into short steps (g_idle_add returning G_SOURCE_CONTINUE), "
        "or run it in a GTask thread (g_task_run_in_thread) and apply the result on "
        "the main thread"),
    JS_DIAGNOSIS_CALLBACK, NULL, NULL },
  { "slow-frame", N_ ("Slow frame"),
    N_ ("Do less per frame: move work out of snapshot, measure and size_allocate "
        "into idles or GTask threads, and cache what does not change"),
    JS_DIAGNOSIS_FRAME, NULL, NULL },
};

const JsDiagnosisRule *
js_diagnosis_rules (guint *n_rules)
{
  *n_rules = G_N_ELEMENTS (rules);
  return rules;
}

const JsDiagnosisRule *
js_diagnosis_rule_by_id (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (rules); i++)
    if (strcmp (rules[i].id, id) == 0)
      return &rules[i];
  return NULL;
}
