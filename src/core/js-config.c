/* js-config.c: JANKSCOPE_* environment variables.
 *
 * Defaults (docs/background.md, "Tiers"): 50 ms is a long task (W3C Long
 * Tasks API), 200 ms ends a "good" Interaction to Next Paint, 700 ms is
 * Android's frozen frame; 3 s (hang) and the 500 ms within which jank windows
 * are one episode for the user are this project's choices, explained there.
 * The tiers' and the slow-frame rule's defaults are the reading side's too
 * (src/common/js-tiers.h, js-slow-frame.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "js-config.h"
#include "js-posting.h"
#include "js-log.h"
#include "js-slow-frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_THRESHOLD_MS JS_TIER_DEFAULT_NOTICEABLE_MS
#define DEFAULT_SEVERE_MS JS_TIER_DEFAULT_SEVERE_MS
#define DEFAULT_FROZEN_MS JS_TIER_DEFAULT_FROZEN_MS
#define DEFAULT_HANG_MS JS_TIER_DEFAULT_HANG_MS
#define DEFAULT_MERGE_MS 500
#define DEFAULT_MAX_EVENTS 1000
#define DEFAULT_MAX_PARTS 64
#define DEFAULT_EXIT_MS 100
#define DEFAULT_PRETRIGGER_MS 16 /* one frame at 60 Hz */
/* Short intervals while the stall is young, longer ones for long stalls and
 * hangs (5/50/100 ms; why: docs/background.md, "The schedule"). */
static const gint64 default_sample_ms[JS_N_SAMPLE_STAGES] = { 5, 50, 100 };
/* Watchdog tiers: hang start (250 ms), 1 s, 3 s, 5 s (ANR): background.md. */
static const gint64 default_watchdog_ms[JS_MAX_WATCHDOG_TIERS] = { 250, 1000, 3000, 5000 };

static gboolean
parse_int (const char *text, gint64 min, gint64 max, gint64 *out)
{
  char *end = NULL;
  gint64 v;

  /* Only ERANGE counts: GLib's first ASCII conversion in a process may leave
   * another errno behind when two threads race to make it (input-queue.c). */
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno == ERANGE || end == text || *end != '\0' || v < min || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

static gint64
env_int (const char *(*get_env) (const char *), const char *name, gint64 min, gint64 max,
         gint64 def, const char *unit)
{
  const char *text = get_env (name);
  gint64 v;

  if (text == NULL || *text == '\0')
    return def;
  if (parse_int (text, min, max, &v))
    return v;
  js_log_warning ("%s='%s' is not a whole number of %s between %" G_GINT64_FORMAT
                  " and %" G_GINT64_FORMAT "; using %" G_GINT64_FORMAT,
                  name, text, unit, min, max, def);
  return def;
}

static gboolean
env_bool (const char *(*get_env) (const char *), const char *name, gboolean def)
{
  const char *text = get_env (name);

  if (text == NULL || *text == '\0')
    return def;
  if (!g_ascii_strcasecmp (text, "1") || !g_ascii_strcasecmp (text, "true")
      || !g_ascii_strcasecmp (text, "yes") || !g_ascii_strcasecmp (text, "on"))
    return TRUE;
  if (!g_ascii_strcasecmp (text, "0") || !g_ascii_strcasecmp (text, "false")
      || !g_ascii_strcasecmp (text, "no") || !g_ascii_strcasecmp (text, "off"))
    return FALSE;
  js_log_warning ("%s='%s' is not one of 0/1/true/false/yes/no/on/off; using %d", name, text, def);
  return def;
}

/* "SEVERE,FROZEN,HANG" in milliseconds, strictly increasing. */
static void
env_tiers (const char *(*get_env) (const char *), JsConfig *config)
{
  const char *text = get_env ("JANKSCOPE_TIERS_MS");
  g_auto (GStrv) fields = NULL;
  gint64 ms[3];
  gint64 threshold_ns = config->tier_ns[JS_TIER_NOTICEABLE];

  js_tier_default_bounds (config->tier_ns);
  config->tier_ns[JS_TIER_NOTICEABLE] = threshold_ns;
  if (text == NULL || *text == '\0')
    return;

  fields = g_strsplit (text, ",", -1);
  if (g_strv_length (fields) != 3)
    goto invalid;
  for (guint i = 0; i < 3; i++)
    {
      g_strstrip (fields[i]);
      if (!parse_int (fields[i], 1, 3600 * 1000, &ms[i]) || (i > 0 && ms[i] <= ms[i - 1]))
        goto invalid;
    }
  for (guint i = 0; i < 3; i++)
    config->tier_ns[JS_TIER_SEVERE + i] = ms[i] * G_GINT64_CONSTANT (1000000);
  return;

invalid:
  js_log_warning ("JANKSCOPE_TIERS_MS='%s' is not three increasing millisecond bounds "
                  "\"SEVERE,FROZEN,HANG\"; using %d,%d,%d",
                  text, DEFAULT_SEVERE_MS, DEFAULT_FROZEN_MS, DEFAULT_HANG_MS);
}

/* A comma-separated list of `min_n` to `max_n` millisecond values (exactly 1
 * or `max_n` if `exact_or_one`), each in
 * [lo, hi], increasing (or non-decreasing). Returns how many were parsed, 0
 * (after a warning) when invalid or unset. */
static guint
env_ms_list (const char *(*get_env) (const char *), const char *name, guint min_n, guint max_n,
             gboolean exact_or_one, gint64 lo, gint64 hi, gboolean strictly, gint64 *out,
             const char *what)
{
  const char *text = get_env (name);
  g_auto (GStrv) fields = NULL;
  guint n;

  if (text == NULL || *text == '\0')
    return 0;
  fields = g_strsplit (text, ",", -1);
  n = g_strv_length (fields);
  if (n < min_n || n > max_n || (exact_or_one && n != 1 && n != max_n))
    goto invalid;
  for (guint i = 0; i < n; i++)
    {
      g_strstrip (fields[i]);
      if (!parse_int (fields[i], lo, hi, &out[i])
          || (i > 0 && (strictly ? out[i] <= out[i - 1] : out[i] < out[i - 1])))
        goto invalid;
    }
  return n;

invalid:
  js_log_warning ("%s='%s' is not %s; using the default", name, text, what);
  return 0;
}

/* JANKSCOPE_DEBUG_DIRS: absolute directories, ':'-separated, searched for
 * debug files (ROOT/.build-id/..., ROOT/<module's directory>/<debuglink>)
 * before /usr/lib/debug, like GDB's debug-file-directory. The variable is
 * the only way to point a guest at debug files the system does not know
 * (a build tree's, an SDK's, a test's): jankscope has no other input
 * inside the app. Relative or empty entries, and entries past the 15th,
 * are left out with one warning. */
static char **
env_dirs (const char *(*get_env) (const char *), const char *name, guint max)
{
  const char *text = get_env (name);
  g_auto (GStrv) parts = NULL;
  GPtrArray *dirs;
  guint rejected = 0;

  if (text == NULL || *text == '\0')
    return NULL;
  parts = g_strsplit (text, ":", -1);
  dirs = g_ptr_array_new ();
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '/' && dirs->len < max && strlen (parts[i]) < 4096)
        g_ptr_array_add (dirs, g_strdup (parts[i]));
      else
        rejected++;
    }
  if (rejected > 0)
    js_log_warning ("%s='%s': %u entr%s left out (absolute directories only, ':'-separated, "
                    "at most %u)",
                    name, text, rejected, rejected == 1 ? "y" : "ies", max);
  if (dirs->len == 0)
    {
      g_ptr_array_free (dirs, TRUE);
      return NULL;
    }
  g_ptr_array_add (dirs, NULL);
  return (char **) g_ptr_array_free (dirs, FALSE);
}

static void
load_watchdog (JsConfig *config, const char *(*get_env) (const char *name))
{
  gint64 ms[JS_MAX_WATCHDOG_TIERS];
  guint n;

  config->sampling = env_bool (get_env, "JANKSCOPE_SAMPLING", TRUE);
  config->sample_timer = env_bool (get_env, "JANKSCOPE_SAMPLE_TIMER", TRUE);
  config->pretrigger_ns = env_int (get_env, "JANKSCOPE_PRETRIGGER_MS", 1, 60000,
                                   DEFAULT_PRETRIGGER_MS, "milliseconds")
                          * G_GINT64_CONSTANT (1000000);

  n = env_ms_list (get_env, "JANKSCOPE_SAMPLE_MS", 1, JS_N_SAMPLE_STAGES, TRUE, 1, 10000, FALSE, ms,
                   "one interval or three non-decreasing ones (stall under 500 ms, under 2 s, "
                   "longer), 1 to 10000 ms, e.g. \"5,50,100\"");
  for (guint i = 0; i < JS_N_SAMPLE_STAGES; i++)
    config->sample_interval_ns[i] = (n == 0   ? default_sample_ms[i]
                                     : n == 1 ? ms[0]
                                              : ms[i])
                                    * G_GINT64_CONSTANT (1000000);

  n = env_ms_list (get_env, "JANKSCOPE_WATCHDOG_MS", 1, JS_MAX_WATCHDOG_TIERS, FALSE, 1,
                   3600 * 1000, TRUE, ms,
                   "1 to 4 increasing millisecond tiers, e.g. \"250,1000,3000,5000\"");
  if (n == 0)
    {
      n = JS_MAX_WATCHDOG_TIERS;
      memcpy (ms, default_watchdog_ms, sizeof ms);
    }
  config->n_watchdog_tiers = n;
  for (guint i = 0; i < n; i++)
    config->watchdog_tier_ns[i] = ms[i] * G_GINT64_CONSTANT (1000000);

  config->ping_period_ns = env_int (get_env, "JANKSCOPE_PING_MS", 0, 3600 * 1000, 0, "milliseconds")
                           * G_GINT64_CONSTANT (1000000);
  config->sample_signal = (int) env_int (get_env, "JANKSCOPE_SAMPLE_SIGNAL", -1, 28, -1,
                                         "(offset from SIGRTMIN, -1 = automatic)");
  config->debuginfod = env_bool (get_env, "JANKSCOPE_DEBUGINFOD", FALSE);
  if (config->debuginfod)
    {
      /* Read here, on the main thread at start-up, and never by a thread of
       * ours later (libdebuginfod reads the rest of its settings itself). */
      const char *urls = get_env ("DEBUGINFOD_URLS");

      if (urls == NULL || urls[0] == '\0')
        {
          js_log_warning ("JANKSCOPE_DEBUGINFOD=1 but DEBUGINFOD_URLS is empty: no server to ask; "
                          "using 0");
          config->debuginfod = FALSE;
        }
    }
  config->debug_dirs = env_dirs (get_env, "JANKSCOPE_DEBUG_DIRS", JS_MAX_DEBUG_DIRS);
  config->inspector = env_bool (get_env, "JANKSCOPE_INSPECTOR", FALSE);
  config->ui = env_bool (get_env, "JANKSCOPE_UI", TRUE);
  config->live = env_bool (get_env, "JANKSCOPE_LIVE", FALSE);
  config->children = env_bool (get_env, "JANKSCOPE_CHILDREN", TRUE);
}

/* A share: a decimal number in (0, 1]. */
static double
env_share (const char *(*get_env) (const char *), const char *name, double def)
{
  const char *text = get_env (name);
  char *end = NULL;
  double v;

  if (text == NULL || *text == '\0')
    return def;
  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (errno != ERANGE && end != text && *end == '\0' && v > 0 && v <= 1)
    return v;
  js_log_warning ("%s='%s' is not a number greater than 0 and at most 1; using %g", name, text,
                  def);
  return def;
}

void
js_config_load (JsConfig *config, const char *(*get_env) (const char *name))
{
  const char *report;

  memset (config, 0, sizeof *config);
  config->debug = env_bool (get_env, "JANKSCOPE_DEBUG", FALSE);
  report = get_env ("JANKSCOPE_REPORT");
  config->report_path = (report != NULL && *report != '\0') ? g_strdup (report) : NULL;
  config->threshold_ns
      = env_int (get_env, "JANKSCOPE_THRESHOLD_MS", 1, 60000, DEFAULT_THRESHOLD_MS, "milliseconds")
        * G_GINT64_CONSTANT (1000000);
  config->tier_ns[JS_TIER_NOTICEABLE] = config->threshold_ns;
  env_tiers (get_env, config);
  config->merge_gap_ns
      = env_int (get_env, "JANKSCOPE_MERGE_MS", 0, 60000, DEFAULT_MERGE_MS, "milliseconds")
        * G_GINT64_CONSTANT (1000000);
  config->max_events
      = (guint) env_int (get_env, "JANKSCOPE_MAX_EVENTS", 1, 100000, DEFAULT_MAX_EVENTS, "events");
  config->post_stacks = (guint) env_int (get_env, "JANKSCOPE_POST_STACKS", 0, 100000,
                                         JS_POSTING_DEFAULT_STACKS_PER_S, "stacks per second");
  config->max_parts = DEFAULT_MAX_PARTS;
  config->slow_frame_pct = (guint) env_int (
      get_env, "JANKSCOPE_SLOW_FRAME_PCT", JS_SLOW_FRAME_MIN_PCT, JS_SLOW_FRAME_MAX_PCT,
      JS_SLOW_FRAME_DEFAULT_PCT, "percent of the frame budget");
  load_watchdog (config, get_env);
  config->install_share = env_share (get_env, "JANKSCOPE_INSTALL_SHARE", 1.0);
  config->scrub = env_bool (get_env, "JANKSCOPE_SCRUB", FALSE);
  config->exit_wait_ns
      = env_int (get_env, "JANKSCOPE_EXIT_MS", 1, 10000, DEFAULT_EXIT_MS, "milliseconds")
        * G_GINT64_CONSTANT (1000000);
}

void
js_config_clear (JsConfig *config)
{
  g_clear_pointer (&config->report_path, g_free);
  g_clear_pointer (&config->debug_dirs, g_strfreev);
}

JsTier
js_config_tier (const JsConfig *config, gint64 duration_ns)
{
  return js_tier_of_stall (config->tier_ns, duration_ns);
}
