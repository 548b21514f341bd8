/* jsui-format.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "jsui-format.h"

#define NS_PER_MS G_GINT64_CONSTANT (1000000)

char *
jsui_format_duration (gint64 ns)
{
  if (ns < 0)
    return g_strdup ("–");
  if (ns >= 1000 * NS_PER_MS)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_ ("%.2f s"), ns / 1e9);
  if (ns >= 100 * NS_PER_MS)
    /* Translators: a duration in milliseconds */
    return g_strdup_printf (_ ("%.0f ms"), ns / 1e6);
  return g_strdup_printf (_ ("%.1f ms"), ns / 1e6);
}

char *
jsui_format_percent (double fraction)
{
  if (fraction < 0)
    return g_strdup ("–");
  if (fraction < 0.1)
    return g_strdup_printf ("%.1f %%", fraction * 100);
  return g_strdup_printf ("%.0f %%", fraction * 100);
}

JsuiTier
jsui_frame_tier (gint64 duration_ns, gint64 budget_ns)
{
  if (budget_ns <= 0)
    budget_ns = 16667000;
  /* in doubles: the numbers may come from a hostile snapshot */
  if ((double)duration_ns * 2 <= (double)budget_ns * 3)
    return JSUI_TIER_OK;
  if (duration_ns < 50 * NS_PER_MS)
    return JSUI_TIER_LIGHT;
  if (duration_ns < 200 * NS_PER_MS)
    return JSUI_TIER_NOTICEABLE;
  if (duration_ns < 700 * NS_PER_MS)
    return JSUI_TIER_SEVERE;
  if (duration_ns < 3000 * NS_PER_MS)
    return JSUI_TIER_FROZEN;
  return JSUI_TIER_HANG;
}

static const char *const css_names[JSUI_N_TIERS] = {
  "ok", "light", "noticeable", "severe", "frozen", "hang",
};

JsuiTier
jsui_tier_from_name (const char *name)
{
  for (guint i = 0; name != NULL && i < JSUI_N_TIERS; i++)
    if (strcmp (name, css_names[i]) == 0)
      return i;
  return JSUI_TIER_OK;
}

const char *
jsui_tier_css_name (JsuiTier tier)
{
  g_return_val_if_fail (tier < JSUI_N_TIERS, "ok");
  return css_names[tier];
}

const char *
jsui_tier_label (JsuiTier tier)
{
  switch (tier)
    {
    case JSUI_TIER_OK:
      return C_ ("tier", "ok");
    case JSUI_TIER_LIGHT:
      return C_ ("tier", "light");
    case JSUI_TIER_NOTICEABLE:
      return C_ ("tier", "noticeable");
    case JSUI_TIER_SEVERE:
      return C_ ("tier", "severe");
    case JSUI_TIER_FROZEN:
      return C_ ("tier", "frozen");
    case JSUI_TIER_HANG:
      return C_ ("tier", "hang");
    case JSUI_N_TIERS:
    default:
      g_assert_not_reached ();
    }
}

/* A name of the report format (docs/report-format.md) shown as a label: its
 * translation when it is one of the known names, else the name itself. */
static const char *
label_of (const char *name, const char *context, const char *const (*table)[2], guint n)
{
  if (name == NULL)
    return NULL;
  for (guint i = 0; i < n; i++)
    if (strcmp (name, table[i][0]) == 0)
      return g_dpgettext2 (GETTEXT_PACKAGE, context, table[i][1]);
  return name;
}

const char *
jsui_event_type_label (const char *type)
{
  static const char *const names[][2] = {
    { "dispatch", NC_ ("event type", "dispatch") },
    { "iteration", NC_ ("event type", "iteration") },
    { "frame", NC_ ("event type", "frame") },
  };

  return label_of (type, "event type", names, G_N_ELEMENTS (names));
}

const char *
jsui_event_class_label (const char *klass)
{
  static const char *const names[][2] = {
    { "compute", NC_ ("event class", "compute") },
    { "wait", NC_ ("event class", "wait") },
    { "mixed", NC_ ("event class", "mixed") },
  };

  return label_of (klass, "event class", names, G_N_ELEMENTS (names));
}

char *
jsui_format_class (const char *klass, const char *wait)
{
  if (klass == NULL)
    return NULL;
  if (wait != NULL)
    return g_strdup_printf ("%s / %s", jsui_event_class_label (klass), jsui_wait_kind_label (wait));
  return g_strdup (jsui_event_class_label (klass));
}

char *
jsui_format_culprit (const JsrReportCulprit *c)
{
  g_autofree char *callback = jsr_culprit_callback_name (c);
  g_autofree char *name = NULL;

  if (c == NULL)
    return NULL;
  if (c->function != NULL && c->file != NULL && c->line >= 0)
    name = g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ")", c->function, c->file, c->line);
  else
    name = g_strdup (c->function != NULL ? c->function : c->module);
  if (name == NULL)
    return NULL;
  if (callback != NULL)
    /* Translators: the callback the main loop dispatched, then the library
     * function that took the time in it, e.g. "on_load → gtk_text_layout_validate" */
    return g_strdup_printf (_ ("%s → %s"), callback, name);
  return g_steal_pointer (&name);
}

const char *
jsui_wait_kind_label (const char *wait)
{
  static const char *const names[][2] = {
    { "lock", NC_ ("wait kind", "lock") },   { "sleep", NC_ ("wait kind", "sleep") },
    { "io", NC_ ("wait kind", "I/O") },      { "poll", NC_ ("wait kind", "poll") },
    { "ipc", NC_ ("wait kind", "IPC") },     { "child", NC_ ("wait kind", "child") },
    { "other", NC_ ("wait kind", "other") },
  };

  return label_of (wait, "wait kind", names, G_N_ELEMENTS (names));
}
