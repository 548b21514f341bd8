/* js-config.h: settings, read once from JANKSCOPE_* environment variables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "js-tiers.h" /* src/common: the tiers, shared with the reading side */

G_BEGIN_DECLS

#define JS_N_SAMPLE_STAGES 3
#define JS_MAX_WATCHDOG_TIERS 4
#define JS_MAX_DEBUG_DIRS 15 /* JANKSCOPE_DEBUG_DIRS entries kept (with /usr/lib/debug: 16) */

typedef struct
{
  gboolean debug;
  char *report_path;          /* as given (not expanded); NULL: no report */
  gint64 threshold_ns;        /* a part at least this long is jank */
  gint64 tier_ns[JS_N_TIERS]; /* lower bounds; [NOTICEABLE] == threshold_ns */
  gint64 merge_gap_ns;
  guint max_events;
  guint post_stacks; /* JANKSCOPE_POST_STACKS: full posting stacks per second (js-posting.h) */
  guint max_parts;
  guint slow_frame_pct; /* a frame is slow over this % of its budget (js-slow-frame.h) */

  /* Watchdog and stack sampling (js-watchdog.h). */
  gboolean sampling;     /* take stacks (else the watchdog only times stalls) */
  gboolean sample_timer; /* a running main thread samples itself on a CPU-time timer
                          * (preload mode; js-sample-timer.h), else the watchdog's signal */
  gint64 pretrigger_ns;  /* a busy span this old is a stall: sampling starts */
  gint64 sample_interval_ns[JS_N_SAMPLE_STAGES]; /* stall younger than 500 ms, 2 s, older */
  gint64 watchdog_tier_ns[JS_MAX_WATCHDOG_TIERS];
  guint n_watchdog_tiers;
  gint64 ping_period_ns; /* 0: one ping per stall; else a classic periodic ping */
  int sample_signal;     /* SIGRTMIN + this; -1: the first free one from SIGRTMIN+3 */
  gboolean debuginfod;   /* ask debuginfod servers for debug files (network) */
  char **debug_dirs;     /* JANKSCOPE_DEBUG_DIRS: debug roots before /usr/lib/debug, or NULL */
  gboolean inspector;    /* open jankscope's window (GTK 4 apps) */
  gboolean ui;           /* load the GTK 4 UI module (Inspector page, shortcut); JANKSCOPE_UI */
  gboolean live;         /* serve the live stream to `jankscope view` (js-live-server.h) */
  gboolean children;     /* monitor the run's GLib children too; JANKSCOPE_CHILDREN */

  /* Fleet sampling and privacy (js-install-id.h, js-scrub.h). */
  double install_share; /* monitor installs in this share of the id space, (0, 1] */
  gboolean scrub;       /* no home directory, user name or window title in reports */

  /* The app's exit waits this long at most for jankscope (the final report). */
  gint64 exit_wait_ns;
} JsConfig;

/* Sampling interval stages: the age of the stall at which each one starts. */
#define JS_SAMPLE_STAGE_LONG_NS (500 * G_GINT64_CONSTANT (1000000))
#define JS_SAMPLE_STAGE_HANG_NS (2000 * G_GINT64_CONSTANT (1000000))

/* Reads the environment through `get_env` (g_getenv in the product, a table in
 * tests). Every invalid value gives one warning and its default. */
void js_config_load (JsConfig *config, const char *(*get_env) (const char *name));
void js_config_clear (JsConfig *config);

/* A stall's tier with the configured bounds (js_tier_of_stall). */
JsTier js_config_tier (const JsConfig *config, gint64 duration_ns);

G_END_DECLS
