/* js-config.h: settings, read once from JANKSCOPE_* environment variables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JS_TIER_NOTICEABLE,
  JS_TIER_SEVERE,
  JS_TIER_FROZEN,
  JS_TIER_HANG,
  JS_N_TIERS
} JsTier;

typedef struct
{
  gboolean debug;
  char *report_path;          /* as given (not expanded); NULL: no report */
  gint64 threshold_ns;        /* a part at least this long is jank */
  gint64 tier_ns[JS_N_TIERS]; /* lower bounds; [NOTICEABLE] == threshold_ns */
  gint64 merge_gap_ns;
  guint max_events;
  guint max_parts;
  guint slow_frame_pct; /* a frame is slow over this % of its budget */
} JsConfig;

/* Reads the environment through `get_env` (g_getenv in the product, a table in
 * tests). Every invalid value gives one warning and its default. */
void js_config_load (JsConfig *config, const char *(*get_env) (const char *name));
void js_config_clear (JsConfig *config);

JsTier js_config_tier (const JsConfig *config, gint64 duration_ns);
const char *js_tier_name (JsTier tier);

G_END_DECLS
