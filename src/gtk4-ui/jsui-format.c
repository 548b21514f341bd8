/* jsui-format.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "js-slow-frame.h"
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

/* The rules of a report, or the defaults. */
static void
rules_of (const JsrReport *config, gint64 bound_ns[JS_N_TIERS], guint *slow_pct)
{
  if (config != NULL)
    {
      memcpy (bound_ns, config->tier_ns, sizeof config->tier_ns);
      *slow_pct = config->slow_frame_pct;
    }
  else
    {
      js_tier_default_bounds (bound_ns);
      *slow_pct = JS_SLOW_FRAME_DEFAULT_PCT;
    }
}

gboolean
jsui_frame_is_slow (const JsrReport *config, gint64 duration_ns, gint64 budget_ns, JsTier *tier)
{
  gint64 bound_ns[JS_N_TIERS];
  guint slow_pct;

  rules_of (config, bound_ns, &slow_pct);
  if (!js_frame_is_slow (duration_ns, budget_ns, slow_pct))
    return FALSE;
  if (tier != NULL)
    /* Frames have no hang tier, but one that long is drawn as one. */
    *tier = js_tier_of_stall (bound_ns, duration_ns) == JS_TIER_HANG
                ? JS_TIER_HANG
                : js_tier_of_frame (bound_ns, duration_ns);
  return TRUE;
}

gboolean
jsui_frame_is_frozen (const JsrReport *config, gint64 duration_ns)
{
  gint64 bound_ns[JS_N_TIERS];
  guint slow_pct;

  rules_of (config, bound_ns, &slow_pct);
  return js_frame_is_frozen (bound_ns, duration_ns);
}

const char *
jsui_tier_css_name (JsTier tier)
{
  const char *name = js_tier_name (tier);

  return name != NULL ? name : JSUI_ON_TIME;
}

const char *
jsui_tier_label (JsTier tier)
{
  switch (tier)
    {
    case JS_TIER_LIGHT:
      return C_ ("tier", "light");
    case JS_TIER_NOTICEABLE:
      return C_ ("tier", "noticeable");
    case JS_TIER_SEVERE:
      return C_ ("tier", "severe");
    case JS_TIER_FROZEN:
      return C_ ("tier", "frozen");
    case JS_TIER_HANG:
      return C_ ("tier", "hang");
    case JS_N_EVENT_TIERS:
    default:
      return C_ ("tier", "ok");
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
jsui_format_posted_from (char *text, const JsrPosting *posted_from)
{
  const char *name = jsr_posting_name (posted_from);
  char *out;

  if (name == NULL)
    return text;
  if (jsr_posting_name_inherited (posted_from))
    /* Translators: a culprit, then the function that posted the callback it
     * ran in, found on a stack inherited from an earlier post from the same
     * place, e.g. "gtk_text_layout_validate (posted from load_big_text,
     * inherited stack)" */
    out = g_strdup_printf (_ ("%s (posted from %s, inherited stack)"), text != NULL ? text : "–",
                           name);
  else
    /* Translators: a culprit, then the function that posted the callback it
     * ran in, e.g. "gtk_text_layout_validate (posted from load_big_text)" */
    out = g_strdup_printf (_ ("%s (posted from %s)"), text != NULL ? text : "–", name);
  g_free (text);
  return out;
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

char *
jsui_format_diagnosis (const JsrReportDiagnosis *d)
{
  return d != NULL ? g_strdup (jsr_diagnosis_title (d->id, d->title)) : NULL;
}

char *
jsui_format_diagnosis_fix (const JsrReportDiagnosis *d)
{
  const char *fix = d != NULL ? jsr_diagnosis_fix (d->id, d->fix) : NULL;

  if (d == NULL)
    return NULL;
  if (fix == NULL)
    return jsui_format_diagnosis (d);
  /* Translators: a diagnosis's title, then how to avoid the mistake. */
  return g_strdup_printf (_ ("%s. Fix: %s"), jsr_diagnosis_title (d->id, d->title), fix);
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
