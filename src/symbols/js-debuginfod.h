/* js-debuginfod.h: debug files from debuginfod servers, fetched on a
 * thread of their own (JANKSCOPE_DEBUGINFOD=1 only).
 *
 * libdebuginfod (elfutils), loaded with dlopen () the first time a file is
 * asked for, on the `jankscope-fetch` thread: its servers (DEBUGINFOD_URLS,
 * which the caller checked is set), its cache (DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client) and its other settings are the client's own,
 * read from the environment by the client on that thread. A lookup never waits: it says the
 * file is there, missing, or pending (asked for, or queued); callers use
 * what they have meanwhile and look again later (js_debuginfod_completed
 * says when something new is known). One download at a time, each given up
 * past JS_DEBUGINFOD_ANSWER_S without an answer or JS_DEBUGINFOD_MAX_S in
 * all; after JS_DEBUGINFOD_MAX_GIVE_UPS in a row without an answer, the
 * servers are not asked again in this process. Bounded: at most
 * JS_DEBUGINFOD_MAX_FILES distinct build-ids.
 *
 * Nothing ever waits for the thread: js_debuginfod_stop () (the app's exit)
 * only tells it to give up at libdebuginfod's next progress call (about
 * once a second while a server is silent).
 *
 * Any thread.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_DEBUGINFOD_ANSWER_S 10
#define JS_DEBUGINFOD_MAX_S 120
#define JS_DEBUGINFOD_MAX_GIVE_UPS 2
#define JS_DEBUGINFOD_MAX_FILES 1024

typedef enum
{
  JS_DEBUGINFOD_PENDING,
  JS_DEBUGINFOD_FOUND,
  JS_DEBUGINFOD_MISSING,
} JsDebuginfodState;

typedef struct
{
  guint requested; /* distinct build-ids asked for */
  guint found;
  guint missing;  /* the servers had none, or the request failed */
  guint given_up; /* no answer in time, or too long (and those never asked after that) */
  guint pending;  /* queued or under way */
} JsDebuginfodStats;

typedef struct _JsDebuginfod JsDebuginfod;

JsDebuginfod *js_debuginfod_new (void);
/* Stops it (js_debuginfod_stop) and lets go; the thread lets go of its own
 * reference when it returns. */
void js_debuginfod_free (JsDebuginfod *debuginfod);

/* The debug file with this build-id: FOUND sets *path (g_free ()), else
 * MISSING, or PENDING (it is asked for now if it was not yet, and `queue`). */
JsDebuginfodState js_debuginfod_lookup (JsDebuginfod *debuginfod, const guint8 *build_id,
                                        gsize build_id_len, gboolean queue, char **path);

/* How many requests have ended (found, missing or given up): when it
 * changes, pending lookups may have an answer. */
guint js_debuginfod_completed (JsDebuginfod *debuginfod);

/* No new download; the one under way gives up at its next progress call.
 * Async-signal-unsafe but lock-free: one atomic store. */
void js_debuginfod_stop (JsDebuginfod *debuginfod);

void js_debuginfod_get_stats (JsDebuginfod *debuginfod, JsDebuginfodStats *stats);

G_END_DECLS
