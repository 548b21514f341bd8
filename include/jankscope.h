/* jankscope.h: public definitions for programs that read or produce
 * jankscope reports, and for apps that annotate their own work.
 *
 * Header-only: including it adds no link dependency (pkg-config: `jankscope`,
 * Cflags only), and nothing here changes how an app behaves when jankscope
 * is not loaded.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef JANKSCOPE_H
#define JANKSCOPE_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#define JANKSCOPE_MAJOR_VERSION 0
#define JANKSCOPE_MINOR_VERSION 1
#define JANKSCOPE_MICRO_VERSION 0

/* The "format" and "version" members of a report (docs/report-format.md). */
#define JANKSCOPE_REPORT_FORMAT "jankscope-report"
#define JANKSCOPE_REPORT_VERSION 1

/* Severity tiers, as spelled in reports. */
#define JANKSCOPE_TIER_NOTICEABLE "noticeable"
#define JANKSCOPE_TIER_SEVERE "severe"
#define JANKSCOPE_TIER_FROZEN "frozen"
#define JANKSCOPE_TIER_HANG "hang"

/* ---- Annotating your app --------------------------------------------------
 *
 *   jankscope_scene_push ("chat-list");     // what the user is looking at
 *   ...
 *   jankscope_mark_begin ("load-history");  // an interval of the app's own
 *   load_history ();
 *   jankscope_mark_end ();
 *   ...
 *   jankscope_scene_pop ();
 *
 * Each jank event in the report gets `scene`, the innermost scene active when
 * its longest part started, and `marks`, the marks that overlap it; the
 * report lists the marks at the top level too (docs/report-format.md).
 *
 * Cost. Every function is a static inline that looks jankscope up once per
 * translation unit, with dlsym (RTLD_DEFAULT, "jankscope_api_v1"), and caches
 * the answer ("not there" included) in an atomic. Without jankscope, a call
 * is one load and one well-predicted branch (about 1 ns), and the app
 * behaves exactly as it would without the call. With jankscope, a call on
 * the main thread is an indirect call that reads the clock and writes one
 * record into jankscope's ring: tens of nanoseconds (bench/scene-cost.c); no
 * lock, no allocation once the label is known.
 *
 * Threads. Scenes and marks belong to the main thread: the thread that runs
 * the default GMainContext, which jankscope watches. Calls from other
 * threads are ignored (and counted in the report's `annotations`). Any
 * thread may call jankscope_is_active (). None of these functions is
 * async-signal-safe: don't call them from a signal handler.
 *
 * Nesting. Scenes are a stack: jankscope_scene_pop () removes the innermost;
 * marks nest the same way: jankscope_mark_end () ends the innermost open
 * mark. Unbalanced pops and ends are ignored and counted; at most 32 levels
 * of each are tracked (deeper ones are ignored, with their pops and ends).
 *
 * Labels are copied: the string need not outlive the call. Keep them short
 * and constant (a page, a feature, an operation): at most 63 bytes of each
 * are kept, and 256 distinct scene labels and 256 mark names; later new
 * ones are reported as "(other)". Never put user data (names, message text,
 * file names) in a label: labels end up in reports.
 *
 * When jankscope is found. With LD_PRELOAD (`jankscope run`) the table is
 * there from the start (the preload defines it), and jankscope itself starts
 * at the first use of the main loop after main (): a call on the main thread
 * before that, once GLib is loaded, starts it too; a call made before main ()
 * or before GLib is loaded is a no-op. With GTK_MODULES (GTK3) jankscope
 * starts inside gtk_init (): a call made before that is looked up too early,
 * and the calls of that translation unit stay no-ops. jankscope is also
 * absent when disabled (JANKSCOPE=0) or outside JANKSCOPE_INSTALL_SHARE. On
 * glibc older than 2.34, dlsym () needs -ldl.
 */

/* The table jankscope exports under JANKSCOPE_API_SYMBOL. Members are only
 * ever added at the end; `size` says how many there are. */
typedef struct
{
  uint32_t size;    /* sizeof the table as jankscope built it */
  uint32_t version; /* JANKSCOPE_API_VERSION */
  void (*scene_push) (const char *label);
  void (*scene_pop) (void);
  void (*mark_begin) (const char *name);
  void (*mark_end) (void);
  int (*is_active) (void);
} JankscopeApiV1;

#define JANKSCOPE_API_SYMBOL "jankscope_api_v1"
#define JANKSCOPE_API_VERSION 1

/* Internal: the cached lookup. 1 = not looked up yet, 0 = jankscope is not
 * there, anything else = the table. One cache per translation unit. */
#define JANKSCOPE_API_UNRESOLVED_ ((uintptr_t) 1)

static inline uintptr_t *
jankscope_api_cache_ (void)
{
  static uintptr_t cache = JANKSCOPE_API_UNRESOLVED_;

  return &cache;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__ ((cold))
#endif
static inline uintptr_t
jankscope_api_resolve_ (void)
{
  /* RTLD_DEFAULT is ((void *) 0) in glibc, and is only defined with
   * _GNU_SOURCE: don't depend on the app's feature macros. */
  const JankscopeApiV1 *api = (const JankscopeApiV1 *) dlsym ((void *) 0, JANKSCOPE_API_SYMBOL);
  uintptr_t found = 0;

  if (api != NULL && api->version == JANKSCOPE_API_VERSION && api->size >= sizeof (JankscopeApiV1))
    found = (uintptr_t) api;
  /* Threads racing here store the same value. The release store pairs with
   * the acquire loads below (the table is complete before it is visible). */
  __atomic_store_n (jankscope_api_cache_ (), found, __ATOMIC_RELEASE);
  return found;
}

/* The table, or 0 when jankscope is not there. */
static inline uintptr_t
jankscope_api_ (void)
{
  uintptr_t api = __atomic_load_n (jankscope_api_cache_ (), __ATOMIC_ACQUIRE);

  if (api == JANKSCOPE_API_UNRESOLVED_)
    api = jankscope_api_resolve_ ();
  return api;
}

/* The call sites test "not there" (0) first: that is the one branch paid
 * when jankscope is not loaded. */
#define JANKSCOPE_API_CALL_(member, ...)                                                           \
  do                                                                                               \
    {                                                                                              \
      uintptr_t api_ = __atomic_load_n (jankscope_api_cache_ (), __ATOMIC_ACQUIRE);                \
      if (api_ == 0)                                                                               \
        break;                                                                                     \
      if (api_ == JANKSCOPE_API_UNRESOLVED_ && (api_ = jankscope_api_resolve_ ()) == 0)            \
        break;                                                                                     \
      ((const JankscopeApiV1 *) api_)->member (__VA_ARGS__);                                       \
    }                                                                                              \
  while (0)

/* Enters a scene (a screen, a page, a mode of the app), until the matching
 * jankscope_scene_pop (). Main thread. */
static inline void
jankscope_scene_push (const char *label)
{
  JANKSCOPE_API_CALL_ (scene_push, label);
}

/* Leaves the innermost scene. Main thread. */
static inline void
jankscope_scene_pop (void)
{
  JANKSCOPE_API_CALL_ (scene_pop, );
}

/* Starts an app-defined interval named `name`, until jankscope_mark_end ().
 * Main thread. */
static inline void
jankscope_mark_begin (const char *name)
{
  JANKSCOPE_API_CALL_ (mark_begin, name);
}

/* Ends the innermost open mark. Main thread. */
static inline void
jankscope_mark_end (void)
{
  JANKSCOPE_API_CALL_ (mark_end, );
}

/* 1 when jankscope monitors this process (and records scenes and marks),
 * else 0. Any thread. */
static inline int
jankscope_is_active (void)
{
  uintptr_t api = jankscope_api_ ();

  return api != 0 ? ((const JankscopeApiV1 *) api)->is_active () : 0;
}

#endif /* JANKSCOPE_H */
