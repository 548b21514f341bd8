/* jsr-aggregate.c: jank of many events, runs and machines, by stack signature
 *
 * See jsr-aggregate.h for the rules (attribution, runs, bounds).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "jankscope-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "js-signature.h"
#include "jsr-aggregate.h"
#include "jsr-display.h"
#include "jsr-profile.h"
#include "jsr-saturate.h"

GQuark
jsr_aggregate_error_quark (void)
{
  return g_quark_from_static_string ("jankscope-reader-aggregate-error");
}

/* ---- sums ------------------------------------------------------------------- */

static guint64
add_sat (JsrAggregate *agg, guint64 a, guint64 b)
{
  guint64 sum;

  if (!jsr_add_u64_checked (&sum, a, b))
    agg->saturated = TRUE;
  return sum;
}

static void
stats_add (JsrAggregate *agg, JsrAggStats *to, const JsrAggStats *from)
{
  to->events = add_sat (agg, to->events, from->events);
  to->samples = add_sat (agg, to->samples, from->samples);
  to->runs = add_sat (agg, to->runs, from->runs);
  to->total_ns = add_sat (agg, to->total_ns, from->total_ns);
  to->max_ns = MAX (to->max_ns, from->max_ns);
  to->attributed_ns = add_sat (agg, to->attributed_ns, from->attributed_ns);
  to->unattributed_ns = add_sat (agg, to->unattributed_ns, from->unattributed_ns);
  /* Attributed and unattributed time add up to the total (groups), and
   * still do once the total saturated: attributed <= total holds for the
   * saturated sums too, and the unattributed time is what is left. */
  if (to->attributed_ns + to->unattributed_ns > to->total_ns)
    to->unattributed_ns = to->total_ns - MIN (to->attributed_ns, to->total_ns);
}

/* Counts the run once per entry it touches. */
static void
touch (JsrAggregate *agg, JsrAggStats *stats)
{
  if (stats->last_run != agg->run_serial)
    {
      stats->last_run = agg->run_serial;
      stats->runs = add_sat (agg, stats->runs, 1);
    }
}

/* ---- keys ------------------------------------------------------------------- */

static guint
str_hash0 (const char *text)
{
  return text != NULL ? g_str_hash (text) : 0x5bd1e995;
}

static guint
key_hash (gconstpointer data)
{
  const JsrAggKey *k = data;
  guint h = str_hash0 (k->tier);

  h = h * 31 + str_hash0 (k->klass);
  h = h * 31 + str_hash0 (k->wait);
  h = h * 31 + str_hash0 (k->source);
  h = h * 31 + str_hash0 (k->callback);
  h = h * 31 + str_hash0 (k->callback_build_id);
  h = h * 31 + str_hash0 (k->scene);
  return h;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const JsrAggKey *x = a, *y = b;

  return g_strcmp0 (x->tier, y->tier) == 0 && g_strcmp0 (x->klass, y->klass) == 0
         && g_strcmp0 (x->wait, y->wait) == 0 && g_strcmp0 (x->source, y->source) == 0
         && g_strcmp0 (x->callback, y->callback) == 0
         && g_strcmp0 (x->callback_build_id, y->callback_build_id) == 0
         && g_strcmp0 (x->scene, y->scene) == 0;
}

int
jsr_agg_key_compare (const JsrAggKey *a, const JsrAggKey *b)
{
  int c;

  if ((c = g_strcmp0 (a->tier, b->tier)) != 0 || (c = g_strcmp0 (a->klass, b->klass)) != 0
      || (c = g_strcmp0 (a->wait, b->wait)) != 0 || (c = g_strcmp0 (a->source, b->source)) != 0)
    return c;
  if ((c = g_strcmp0 (a->callback, b->callback)) != 0
      || (c = g_strcmp0 (a->callback_build_id, b->callback_build_id)) != 0)
    return c;
  return g_strcmp0 (a->scene, b->scene);
}

static void
key_copy (JsrAggKey *to, const JsrAggKey *from)
{
  to->tier = g_strdup (from->tier);
  to->klass = g_strdup (from->klass);
  to->wait = g_strdup (from->wait);
  to->source = g_strdup (from->source);
  to->callback = g_strdup (from->callback);
  to->callback_build_id = g_strdup (from->callback_build_id);
  to->scene = g_strdup (from->scene);
}

static void
key_clear (JsrAggKey *key)
{
  g_free (key->tier);
  g_free (key->klass);
  g_free (key->wait);
  g_free (key->source);
  g_free (key->callback);
  g_free (key->callback_build_id);
  g_free (key->scene);
}

const char *
jsr_agg_class_label (const JsrAggKey *key)
{
  return key->klass != NULL ? key->klass : "unknown";
}

static void
group_free (JsrAggGroup *group)
{
  key_clear (&group->key);
  g_free (group);
}

static JsrAggGroup *
group_new (const JsrAggKey *key)
{
  JsrAggGroup *group = g_new0 (JsrAggGroup, 1);

  key_copy (&group->key, key);
  return group;
}

GHashTable *
jsr_aggregate_new_group_table (void)
{
  /* The key lives in the group: freed with it. */
  return g_hash_table_new_full (key_hash, key_equal, NULL, (GDestroyNotify) group_free);
}

/* The group of `key` in `table`, created if the table has room; NULL when
 * it is full. */
static JsrAggGroup *
lookup_group (GHashTable *table, const JsrAggKey *key, guint limit)
{
  JsrAggGroup *group = g_hash_table_lookup (table, key);

  if (group == NULL && g_hash_table_size (table) < limit)
    {
      group = group_new (key);
      g_hash_table_insert (table, &group->key, group);
    }
  return group;
}

static void
signature_free (JsrAggSignature *sig)
{
  g_free (sig->text);
  g_hash_table_unref (sig->cells);
  g_clear_pointer (&sig->cells_other, group_free);
  g_free (sig);
}

static JsrAggSignature *
lookup_signature (JsrAggregate *agg, const char *text, const char *id)
{
  JsrAggSignature *sig = g_hash_table_lookup (agg->signatures, text);

  if (sig == NULL && g_hash_table_size (agg->signatures) < (guint64) agg->max_signatures * 4)
    {
      sig = g_new0 (JsrAggSignature, 1);
      sig->text = g_strdup (text);
      /* Always the hash of the text (a report's own id could disagree). */
      jsr_agg_signature_id (text, sig->id);
      sig->cells = jsr_aggregate_new_group_table ();
      g_hash_table_insert (agg->signatures, sig->text, sig);
    }
  return sig;
}

void
jsr_agg_part_free (JsrAggPart *part)
{
  g_free (part->type);
  g_free (part->source);
  g_free (part->callback);
  g_free (part->tier);
  g_free (part->klass);
  g_free (part->wait);
  g_free (part->culprit);
  g_free (part->culprit_callback);
  g_free (part->posted_from);
  g_free (part->callback_build_id);
  g_free (part->culprit_build_id);
  g_free (part->culprit_callback_build_id);
  g_free (part);
}

static JsrAggPart *
part_copy (const JsrAggPart *from)
{
  JsrAggPart *to = g_memdup2 (from, sizeof *from);

  to->type = g_strdup (from->type);
  to->source = g_strdup (from->source);
  to->callback = g_strdup (from->callback);
  to->tier = g_strdup (from->tier);
  to->klass = g_strdup (from->klass);
  to->wait = g_strdup (from->wait);
  to->culprit = g_strdup (from->culprit);
  to->culprit_callback = g_strdup (from->culprit_callback);
  to->posted_from = g_strdup (from->posted_from);
  to->callback_build_id = g_strdup (from->callback_build_id);
  to->culprit_build_id = g_strdup (from->culprit_build_id);
  to->culprit_callback_build_id = g_strdup (from->culprit_callback_build_id);
  return to;
}

static void
event_free (JsrAggEvent *event)
{
  key_clear (&event->key);
  g_free (event->app);
  g_free (event->culprit);
  g_free (event->culprit_callback);
  g_free (event->posted_from);
  g_free (event->culprit_build_id);
  g_free (event->culprit_callback_build_id);
  g_free (event->signature);
  g_clear_pointer (&event->parts, g_ptr_array_unref);
  g_free (event);
}

static JsrAggEvent *
event_copy (const JsrAggEvent *from)
{
  JsrAggEvent *to = g_memdup2 (from, sizeof *from);

  key_copy (&to->key, &from->key);
  to->app = g_strdup (from->app);
  to->culprit = g_strdup (from->culprit);
  to->culprit_callback = g_strdup (from->culprit_callback);
  to->posted_from = g_strdup (from->posted_from);
  to->culprit_build_id = g_strdup (from->culprit_build_id);
  to->culprit_callback_build_id = g_strdup (from->culprit_callback_build_id);
  to->signature = g_strdup (from->signature);
  if (from->parts != NULL)
    {
      to->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_agg_part_free);
      for (guint i = 0; i < from->parts->len; i++)
        g_ptr_array_add (to->parts, part_copy (g_ptr_array_index (from->parts, i)));
    }
  return to;
}

/* Longest first; ties in a fixed order, so that any grouping of a merge
 * keeps the same events. */
static int
event_compare (const JsrAggEvent *a, const JsrAggEvent *b)
{
  if (a->duration_ns != b->duration_ns)
    return a->duration_ns > b->duration_ns ? -1 : 1;
  if (a->run != b->run)
    return a->run < b->run ? -1 : 1;
  if (a->event_id != b->event_id)
    return a->event_id < b->event_id ? -1 : 1;
  if (a->start_ns != b->start_ns)
    return a->start_ns < b->start_ns ? -1 : 1;
  return 0;
}

static int
event_compare_indirect (gconstpointer a, gconstpointer b)
{
  return event_compare (*(JsrAggEvent *const *) a, *(JsrAggEvent *const *) b);
}

/* Offers an event to the worst list; takes `event`. */
static void
offer_worst (JsrAggregate *agg, JsrAggEvent *event)
{
  GPtrArray *worst = agg->worst;

  if (worst->len >= JSR_AGGREGATE_WORST_EVENTS
      && event_compare (event, g_ptr_array_index (worst, worst->len - 1)) >= 0)
    {
      event_free (event);
      return;
    }
  g_ptr_array_add (worst, event);
  g_ptr_array_sort (worst, event_compare_indirect);
  if (worst->len > JSR_AGGREGATE_WORST_EVENTS)
    g_ptr_array_set_size (worst, JSR_AGGREGATE_WORST_EVENTS);
}

/* ---- life ------------------------------------------------------------------- */

static void
filter_free (JsrAggFilter *filter)
{
  g_strfreev (filter->tiers);
  g_strfreev (filter->classes);
  g_strfreev (filter->sources);
  g_strfreev (filter->scenes);
  g_free (filter);
}

JsrAggregate *
jsr_aggregate_new (guint signature_frames, guint max_signatures)
{
  JsrAggregate *agg = g_new0 (JsrAggregate, 1);

  agg->signature_frames = CLAMP (signature_frames, 1, JS_SIGNATURE_MAX_FRAMES);
  agg->max_signatures = CLAMP (max_signatures, 1, 10000000);
  agg->runs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  agg->installs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  agg->apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  agg->groups = jsr_aggregate_new_group_table ();
  agg->signatures
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) signature_free);
  agg->worst = g_ptr_array_new_with_free_func ((GDestroyNotify) event_free);
  jsr_agg_diagnoses_init (&agg->diagnoses);
  jsr_agg_postings_init (&agg->postings);
  agg->signatures_overflowed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  return agg;
}

void
jsr_aggregate_free (JsrAggregate *agg)
{
  if (agg == NULL)
    return;
  g_clear_pointer (&agg->filter, filter_free);
  g_hash_table_unref (agg->runs);
  g_hash_table_unref (agg->installs);
  g_hash_table_unref (agg->apps);
  g_hash_table_unref (agg->groups);
  g_hash_table_unref (agg->signatures);
  g_hash_table_unref (agg->signatures_overflowed);
  g_ptr_array_unref (agg->worst);
  jsr_agg_diagnoses_clear (&agg->diagnoses);
  jsr_agg_postings_clear (&agg->postings);
  g_free (agg);
}

void
jsr_aggregate_set_filter (JsrAggregate *agg, const JsrAggFilter *filter)
{
  g_clear_pointer (&agg->filter, filter_free);
  if (filter == NULL
      || (filter->tiers == NULL && filter->classes == NULL && filter->sources == NULL
          && filter->scenes == NULL))
    return;
  agg->filter = g_new0 (JsrAggFilter, 1);
  agg->filter->tiers = g_strdupv (filter->tiers);
  agg->filter->classes = g_strdupv (filter->classes);
  agg->filter->sources = g_strdupv (filter->sources);
  agg->filter->scenes = g_strdupv (filter->scenes);
}

gboolean
jsr_aggregate_filter_matches (const JsrAggFilter *filter, const JsrAggKey *key)
{
  gboolean ok;

  if (filter == NULL)
    return TRUE;
  if (filter->tiers != NULL
      && (key->tier == NULL || !g_strv_contains ((const char *const *) filter->tiers, key->tier)))
    return FALSE;
  if (filter->classes != NULL)
    {
      ok = FALSE;
      for (guint i = 0; filter->classes[i] != NULL && !ok; i++)
        ok = strcmp (filter->classes[i], jsr_agg_class_label (key)) == 0
             || g_strcmp0 (filter->classes[i], key->wait) == 0;
      if (!ok)
        return FALSE;
    }
  if (filter->sources != NULL)
    {
      ok = FALSE;
      for (guint i = 0; filter->sources[i] != NULL && !ok; i++)
        ok = (key->source != NULL && g_pattern_match_simple (filter->sources[i], key->source))
             || (key->callback != NULL
                 && g_pattern_match_simple (filter->sources[i], key->callback));
      if (!ok)
        return FALSE;
    }
  if (filter->scenes != NULL)
    {
      ok = FALSE;
      for (guint i = 0; filter->scenes[i] != NULL && !ok; i++)
        ok = key->scene != NULL && g_pattern_match_simple (filter->scenes[i], key->scene);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* ---- signatures ----------------------------------------------------------- */

void
jsr_agg_signature_id (const char *text, char id[17])
{
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);

  for (const char *p = text; *p != '\0'; p++)
    {
      hash ^= (guchar) *p;
      hash *= G_GUINT64_CONSTANT (1099511628211);
    }
  g_snprintf (id, 17, "%016" G_GINT64_MODIFIER "x", hash);
}

/* The stack's signature at the aggregate's depth: the report's own when it
 * has one of the default depth, else computed from its frames. */
static char *
stack_signature (const JsrAggregate *agg, const JsrReportStack *stack, char id[17])
{
  g_autofree JsSignatureFrame *frames = NULL;
  guint n = stack->frames->len;

  if (stack->signature != NULL && agg->signature_frames == JS_SIGNATURE_DEFAULT_FRAMES)
    {
      jsr_agg_signature_id (stack->signature, id);
      return g_strdup (stack->signature);
    }
  if (stack->signature != NULL && n == 0)
    {
      /* No frames to compute it from: the report's, cut to the depth asked
       * (a signature of fewer frames is a prefix of one of more). */
      const char *cut = stack->signature;
      char *text;

      for (guint kept = 0; cut != NULL && kept < agg->signature_frames; kept++)
        {
          cut = strstr (cut, " < ");
          if (cut != NULL && kept + 1 < agg->signature_frames)
            cut += 3;
        }
      text = cut != NULL ? g_strndup (stack->signature, cut - stack->signature)
                         : g_strdup (stack->signature);
      jsr_agg_signature_id (text, id);
      return text;
    }

  frames = g_new0 (JsSignatureFrame, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const JsrReportFrame *f = g_ptr_array_index (stack->frames, i);

      /* A frame `jankscope symbolize` named is the unnamed one it was. */
      frames[i].function = f->symbolized ? NULL : f->function;
      frames[i].module = f->module;
    }
  return js_signature_compute (frames, n, agg->signature_frames, id);
}

/* ---- folding a report ---------------------------------------------------------- */

static guint64
fnv_update (guint64 hash, const char *text)
{
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      hash ^= (guchar) *p;
      hash *= G_GUINT64_CONSTANT (1099511628211);
    }
  /* A separator, so that ("ab", "c") and ("a", "bc") differ. */
  hash ^= 0xff;
  hash *= G_GUINT64_CONSTANT (1099511628211);
  return hash;
}

static guint64
run_id (const char *install_id, const char *kind, gint64 pid, gint64 start_ns, const char *name)
{
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);
  char number[32];

  hash = fnv_update (hash, install_id);
  hash = fnv_update (hash, kind);
  g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, pid);
  hash = fnv_update (hash, number);
  g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, start_ns);
  hash = fnv_update (hash, number);
  return fnv_update (hash, name);
}

static const char *
app_name (const JsrReport *report)
{
  if (report->name != NULL)
    return report->name;
  if (report->exe != NULL)
    {
      const char *slash = strrchr (report->exe, '/');

      return slash != NULL ? slash + 1 : report->exe;
    }
  return "(unknown)";
}

static void
count_app (JsrAggregate *agg, const char *name, guint64 runs)
{
  guint64 *count = g_hash_table_lookup (agg->apps, name);

  if (count == NULL)
    {
      if (g_hash_table_size (agg->apps) >= JSR_AGGREGATE_MAX_APPS)
        {
          agg->apps_other = add_sat (agg, agg->apps_other, runs);
          agg->overflowed = TRUE;
          return;
        }
      count = g_new0 (guint64, 1);
      g_hash_table_insert (agg->apps, g_strdup (name), count);
    }
  *count = add_sat (agg, *count, runs);
}

static void
add_run_id (JsrAggregate *agg, guint64 id)
{
  guint64 *key = g_new (guint64, 1);

  *key = id;
  g_hash_table_add (agg->runs, key);
}

/* a * b / c without overflow (c > 0, b <= c). */
static guint64
mul_div (guint64 a, guint64 b, guint64 c)
{
  return (guint64) (((unsigned __int128) a * b) / c);
}

typedef struct
{
  char *text;
  char id[17];
  guint64 samples;
  guint64 time_ns;
} EventSignature;

/* A signature that did not fit in the table: counted in "other", once. */
static void
note_overflowed (JsrAggregate *agg, const char *id)
{
  guint64 value = g_ascii_strtoull (id, NULL, 16);

  agg->overflowed = TRUE;
  if (!g_hash_table_contains (agg->signatures_overflowed, &value))
    {
      guint64 *key = g_new (guint64, 1);

      *key = value;
      g_hash_table_add (agg->signatures_overflowed, key);
    }
}

static void
event_signature_clear (gpointer data)
{
  g_free (((EventSignature *) data)->text);
}

/* Frame events describe the same time as the dispatches and iterations
 * they overlap: counted apart, never in groups or signatures. */
static void
count_frame_event (JsrAggregate *agg, const JsrReportEvent *event, guint64 duration)
{
  guint64 *count = &agg->frame_events_by_tier[event->tier];

  *count = add_sat (agg, *count, 1);
  agg->frame_events_ns = add_sat (agg, agg->frame_events_ns, duration);
}

/* The event's samples: samples_total, else the timeline's, never fewer than
 * the stacks' own counts. */
static guint64
event_samples (JsrAggregate *agg, const JsrReportEvent *event)
{
  const JsrReportEventDetail *detail = event->detail;
  guint64 samples = 0, stack_samples = 0;

  if (detail == NULL)
    return 0;
  for (guint i = 0; i < detail->stacks->len; i++)
    {
      const JsrReportStack *stack = g_ptr_array_index (detail->stacks, i);

      stack_samples = add_sat (agg, stack_samples, (guint64) MAX (stack->count, 0));
    }
  if (event->samples_total != JSR_UNKNOWN)
    samples = (guint64) event->samples_total;
  else
    for (guint i = 0; i < detail->samples->len; i++)
      {
        const JsrReportSample *sample = &g_array_index (detail->samples, JsrReportSample, i);

        samples = add_sat (agg, samples, (guint64) MAX (sample->count, 0));
      }

  return MAX (samples, stack_samples);
}

/* The entry of `text` in the event's signatures, made when new (it takes
 * `text`). */
static EventSignature *
event_signature (GArray *sigs, char *text, const char *id)
{
  EventSignature fresh = { .text = text };

  for (guint k = 0; k < sigs->len; k++)
    {
      EventSignature *sig = &g_array_index (sigs, EventSignature, k);

      if (strcmp (sig->text, text) == 0)
        {
          g_free (text);
          return sig;
        }
    }
  memcpy (fresh.id, id, 17);
  g_array_append_val (sigs, fresh);
  return &g_array_index (sigs, EventSignature, sigs->len - 1);
}

/* Each listed stack's attributed time (its time_ns, else its share of the
 * watched time), grouped by signature into `sigs` (of EventSignature).
 * Returns the time the stacks speak for in all, at most `duration`. */
static guint64
attribute_stacks (JsrAggregate *agg, const JsrReportEvent *event, guint64 duration, guint64 samples,
                  GArray *sigs)
{
  const JsrReportEventDetail *detail = event->detail;
  guint64 watched = event->watched_ns > 0 ? MIN ((guint64) event->watched_ns, duration) : 0;
  guint64 named = 0;

  if (detail == NULL || samples == 0)
    return 0;
  for (guint i = 0; i < detail->stacks->len; i++)
    {
      const JsrReportStack *stack = g_ptr_array_index (detail->stacks, i);
      guint64 count = (guint64) MAX (stack->count, 0);
      guint64 time;
      EventSignature *sig;
      char id[17];
      char *text;

      if (stack->time_ns != JSR_UNKNOWN)
        time = (guint64) stack->time_ns;
      else
        time = mul_div (watched, count, samples);
      /* Never more than the event's blocked time in all. */
      time = MIN (time, duration - named);
      named += time;

      text = stack_signature (agg, stack, id);
      sig = event_signature (sigs, text, id);
      sig->samples = add_sat (agg, sig->samples, count);
      sig->time_ns = add_sat (agg, sig->time_ns, time);
    }

  return named;
}

/* The event's profile as the report has it (jsr-profile.h), when it has
 * one: NULL for older reports, whose stacks are read themselves. */
static const JsrProfile *
file_profile (const JsrReportEvent *event)
{
  const JsrProfile *profile = event->detail != NULL ? event->detail->profile : NULL;

  return profile != NULL && !profile->from_stacks ? profile : NULL;
}

/* Every stack of the event's profile (each node with self time or
 * samples), by signature: the profile's whole time, capped at `duration`
 * (the reader's cut). An [other] node has no signature: its time is left to
 * the caller (returned minus the named part, the "other" bucket). Returns
 * the time of the named stacks. */
static guint64
attribute_profile (JsrAggregate *agg, const JsrReportEvent *event, const JsrProfile *profile,
                   guint64 duration, GArray *sigs)
{
  guint64 named = 0, given = 0;

  for (guint n = 0; n < profile->nodes->len; n++)
    {
      const JsrProfileNode *node = &g_array_index (profile->nodes, JsrProfileNode, n);
      guint64 time = MIN ((guint64) node->self_ns, duration - given);
      EventSignature *sig;
      char id[17];
      char *text;

      if (node->self_ns == 0 && node->self_samples == 0)
        continue;
      given += time;
      text = jsr_profile_signature (profile, event->detail->stacks, n, agg->signature_frames, id);
      if (text == NULL)
        continue; /* [other] */
      named += time;
      sig = event_signature (sigs, text, id);
      sig->samples = add_sat (agg, sig->samples, (guint64) node->self_samples);
      sig->time_ns = add_sat (agg, sig->time_ns, time);
    }
  return named;
}

/* The event's attributed time: the report's attributed_ns when it has it
 * (which may include stacks the report left out), never less than what the
 * listed stacks speak for, at most the blocked time. */
static guint64
event_attributed (const JsrReportEvent *event, guint64 duration, guint64 named)
{
  const JsrReportEventDetail *detail = event->detail;
  guint64 attributed = named;

  if (detail != NULL && detail->attributed_ns != JSR_UNKNOWN)
    attributed = MAX (MIN ((guint64) detail->attributed_ns, duration), named);

  return MIN (attributed, duration);
}

/* The event in its group (or the groups' "other") and in the stall totals. */
static void
add_to_groups (JsrAggregate *agg, const JsrAggKey *key, const JsrAggStats *delta)
{
  JsrAggGroup *group = lookup_group (agg->groups, key, JSR_AGGREGATE_MAX_GROUPS);

  if (group != NULL)
    {
      stats_add (agg, &group->stats, delta);
      touch (agg, &group->stats);
    }
  else
    {
      stats_add (agg, &agg->groups_other, delta);
      agg->overflowed = TRUE;
    }
  stats_add (agg, &agg->stalls, delta);
  touch (agg, &agg->stalls);
}

/* A signature's part of the event in the signature's cell of the event's
 * key (or its "other" cell). */
static void
add_to_cell (JsrAggregate *agg, JsrAggSignature *sig, const JsrAggKey *key, const JsrAggStats *part)
{
  JsrAggGroup *cell = lookup_group (sig->cells, key, JSR_AGGREGATE_MAX_CELLS);

  if (cell == NULL)
    {
      if (sig->cells_other == NULL)
        {
          JsrAggKey other = { 0 };

          sig->cells_other = group_new (&other);
        }
      cell = sig->cells_other;
      agg->overflowed = TRUE;
    }
  stats_add (agg, &cell->stats, part);
  touch (agg, &cell->stats);
}

/* The event's signatures in the table (or its "other") and their cells.
 * Returns the index of the one with most time, G_MAXUINT without any. */
static guint
add_to_signatures (JsrAggregate *agg, const JsrAggKey *key, GArray *sigs)
{
  guint best = G_MAXUINT;

  for (guint k = 0; k < sigs->len; k++)
    {
      EventSignature *es = &g_array_index (sigs, EventSignature, k);
      JsrAggStats part = {
        .events = 1,
        .samples = es->samples,
        .total_ns = es->time_ns,
        .max_ns = es->time_ns,
      };
      JsrAggSignature *sig = lookup_signature (agg, es->text, es->id);

      if (best == G_MAXUINT || es->time_ns > g_array_index (sigs, EventSignature, best).time_ns)
        best = k;
      if (sig == NULL)
        {
          note_overflowed (agg, es->id);
          stats_add (agg, &agg->signatures_other, &part);
          continue;
        }
      stats_add (agg, &sig->stats, &part);
      touch (agg, &sig->stats);
      add_to_cell (agg, sig, key, &part);
    }

  return best;
}

/* The culprit as the aggregate names it: its function, else module+0x…
 * with its module's build-id (*build_id, g_malloc ()ed), else module!?. */
static char *
culprit_name (const JsrReport *report, const JsrReportCulprit *culprit, char **build_id)
{
  const char *id = NULL;
  char *name = jsr_agg_culprit_name (report, culprit, &id);

  *build_id = g_strdup (id);
  if (name == NULL && culprit != NULL && culprit->module != NULL)
    return g_strdup_printf ("%s!?", culprit->module);
  return name;
}

/* The dispatched callback shown next to a culprit, with its module's
 * build-id when it is nameless (*build_id, g_malloc ()ed). */
static char *
culprit_callback_name (const JsrReport *report, const JsrReportCulprit *culprit, char **build_id)
{
  char *name = jsr_culprit_callback_name (culprit);

  *build_id = g_strdup (jsr_report_callback_build_id (report, name));
  return name;
}

static gint
part_by_duration (gconstpointer a, gconstpointer b)
{
  const JsrReportPart *x = *(JsrReportPart *const *) a, *y = *(JsrReportPart *const *) b;

  if (x->duration_ns != y->duration_ns)
    return x->duration_ns > y->duration_ns ? -1 : 1;
  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static gint
agg_part_by_start (gconstpointer a, gconstpointer b)
{
  const JsrAggPart *x = *(JsrAggPart *const *) a, *y = *(JsrAggPart *const *) b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The event's longest parts with their causes, in time order. */
static GPtrArray *
worst_parts (const JsrReport *report, const JsrReportEvent *event)
{
  g_autoptr (GPtrArray) sorted = NULL;
  GPtrArray *parts;

  if (event->parts == NULL || event->parts->len == 0)
    return NULL;
  /* Borrowed (g_ptr_array_copy would keep the parts' free function). */
  sorted = g_ptr_array_sized_new (event->parts->len);
  for (guint i = 0; i < event->parts->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (event->parts, i));
  g_ptr_array_sort (sorted, part_by_duration);
  parts = g_ptr_array_new_with_free_func ((GDestroyNotify) jsr_agg_part_free);
  for (guint i = 0; i < MIN (sorted->len, JSR_AGGREGATE_WORST_PARTS); i++)
    {
      const JsrReportPart *from = g_ptr_array_index (sorted, i);
      JsrAggPart *part = g_new0 (JsrAggPart, 1);

      part->type = g_strdup (from->type);
      part->source = g_strdup (from->source);
      part->callback = g_strdup (from->callback);
      part->callback_build_id = g_strdup (jsr_report_callback_build_id (report, from->callback));
      part->tier = g_strdup (from->tier);
      part->klass = g_strdup (from->klass);
      part->wait = g_strdup (from->wait);
      part->culprit = culprit_name (report, from->culprit, &part->culprit_build_id);
      part->culprit_callback
          = culprit_callback_name (report, from->culprit, &part->culprit_callback_build_id);
      part->posted_from = g_strdup (jsr_posting_name (from->posted_from));
      part->posted_from_inherited = jsr_posting_name_inherited (from->posted_from);
      part->start_ns = from->start_ns;
      part->duration_ns = (guint64) MAX (from->duration_ns, 0);
      part->attributed_ns = from->attributed_ns;
      g_ptr_array_add (parts, part);
    }
  g_ptr_array_sort (parts, agg_part_by_start);
  return parts;
}

/* The event among the worst ones, if it is one: most events are not, so
 * only those are copied. */
static void
offer_worst_event (JsrAggregate *agg, const JsrReport *report, const JsrReportEvent *event,
                   const JsrAggKey *key, guint64 run, const char *app, gint64 pid, guint64 duration,
                   guint64 attributed, const char *signature)
{
  JsrAggEvent probe = {
    .run = run,
    .event_id = event->id,
    .start_ns = event->start_ns,
    .duration_ns = duration,
  };
  JsrAggEvent *candidate;

  if (agg->worst->len >= JSR_AGGREGATE_WORST_EVENTS
      && event_compare (&probe, g_ptr_array_index (agg->worst, agg->worst->len - 1)) >= 0)
    return;

  candidate = g_new0 (JsrAggEvent, 1);
  candidate->run = run;
  candidate->app = g_strdup (app);
  candidate->pid = pid;
  candidate->event_id = event->id;
  candidate->start_ns = event->start_ns;
  candidate->duration_ns = duration;
  candidate->attributed_ns = attributed;
  candidate->unattributed_ns = duration - attributed;
  key_copy (&candidate->key, key);
  candidate->culprit = culprit_name (report, event->culprit, &candidate->culprit_build_id);
  candidate->culprit_callback
      = culprit_callback_name (report, event->culprit, &candidate->culprit_callback_build_id);
  candidate->posted_from = g_strdup (jsr_posting_name (event->posted_from));
  candidate->posted_from_inherited = jsr_posting_name_inherited (event->posted_from);
  candidate->signature = g_strdup (signature);
  candidate->parts_count
      = (guint64) MAX (event->parts_count, event->parts != NULL ? (gint64) event->parts->len : 0);
  candidate->parts = worst_parts (report, event);
  offer_worst (agg, candidate);
}

/* A frame event no stall event covers: the only record of its stalls
 * (docs/aggregate-format.md, "Frame events"). Its profile goes into the
 * signatures, its times into frame_uncovered, as the exports count it. */
static void
fold_uncovered_frame_event (JsrAggregate *agg, const JsrReportEvent *event, const JsrAggKey *key,
                            guint64 duration)
{
  g_autoptr (GArray) sigs = NULL;
  guint64 named, attributed;
  JsrAggStats delta = { 0 };

  if (file_profile (event) == NULL || !jsr_aggregate_filter_matches (agg->filter, key))
    return;
  sigs = g_array_new (FALSE, TRUE, sizeof (EventSignature));
  g_array_set_clear_func (sigs, event_signature_clear);
  named = attribute_profile (agg, event, file_profile (event), duration, sigs);
  attributed = MIN ((guint64) MAX (event->detail->attributed_ns, 0), duration);
  delta.events = 1;
  delta.samples = event_samples (agg, event);
  delta.total_ns = duration;
  delta.max_ns = duration;
  delta.attributed_ns = attributed;
  delta.unattributed_ns = duration - attributed;
  stats_add (agg, &agg->frame_uncovered, &delta);
  touch (agg, &agg->frame_uncovered);
  add_to_signatures (agg, key, sigs);
  if (attributed > named)
    {
      JsrAggStats part = { .total_ns = attributed - named };

      stats_add (agg, &agg->signatures_other, &part);
    }
}

static gint64
event_end (const JsrReportEvent *event)
{
  if (event->detail != NULL && event->detail->end_ns > event->start_ns)
    return event->detail->end_ns;
  return jsr_sat_add (event->start_ns, MAX (event->duration_ns, 0));
}

/* Does a stall event (dispatch, iteration, hang) of the report overlap it? */
static gboolean
covered_by_stall_event (const JsrReport *report, const JsrReportEvent *frame)
{
  gint64 end = event_end (frame);

  for (guint i = 0; i < report->events->len; i++)
    {
      const JsrReportEvent *e = g_ptr_array_index (report->events, i);

      if (g_strcmp0 (e->type, "frame") != 0 && e->start_ns < end && event_end (e) > frame->start_ns)
        return TRUE;
    }
  return FALSE;
}

static void
fold_event (JsrAggregate *agg, const JsrReport *report, const JsrReportEvent *event, guint64 run,
            const char *app, gint64 pid, gboolean uncovered)
{
  JsrAggKey key = {
    .tier = (char *) js_tier_name (event->tier),
    .klass = event->klass,
    .wait = event->wait,
    .source = event->source,
    .callback = event->callback,
    .callback_build_id = (char *) jsr_report_callback_build_id (report, event->callback),
    .scene = event->detail != NULL ? event->detail->scene : NULL,
  };
  guint64 duration = (guint64) MAX (event->duration_ns, 0);
  g_autoptr (GArray) sigs = NULL;
  guint64 samples, named, attributed;
  JsrAggStats delta = { 0 };
  guint best;

  if (g_strcmp0 (event->type, "frame") == 0)
    {
      count_frame_event (agg, event, duration);
      if (uncovered)
        {
          fold_uncovered_frame_event (agg, event, &key, duration);
          /* Its diagnoses too: the only record of its stalls. A frame event a
           * stall event overlaps describes that event's stalls from the frame
           * clock's side, whose diagnoses are counted: not twice. */
          if (jsr_aggregate_filter_matches (agg->filter, &key))
            {
              jsr_agg_diagnoses_add_event (&agg->diagnoses, report, event, agg->run_serial);
              agg->saturated |= agg->diagnoses.saturated;
              agg->overflowed |= agg->diagnoses.overflowed;
            }
        }
      return;
    }
  if (!jsr_aggregate_filter_matches (agg->filter, &key))
    {
      agg->events_filtered_out = add_sat (agg, agg->events_filtered_out, 1);
      return;
    }

  sigs = g_array_new (FALSE, TRUE, sizeof (EventSignature));
  g_array_set_clear_func (sigs, event_signature_clear);
  samples = event_samples (agg, event);
  if (file_profile (event) != NULL)
    {
      /* Every stack (the profile), and its time is the attributed time. */
      named = attribute_profile (agg, event, file_profile (event), duration, sigs);
      attributed = MIN ((guint64) MAX (event->detail->attributed_ns, 0), duration);
    }
  else
    {
      named = attribute_stacks (agg, event, duration, samples, sigs);
      attributed = event_attributed (event, duration, named);
    }

  delta.events = 1;
  delta.samples = samples;
  delta.total_ns = duration;
  delta.max_ns = duration;
  delta.attributed_ns = attributed;
  delta.unattributed_ns = duration - attributed;
  add_to_groups (agg, &key, &delta);

  best = add_to_signatures (agg, &key, sigs);
  /* Time the report attributes to stacks it left out (stacks_omitted), or
   * that its profile keeps in [other] nodes. */
  if (attributed > named)
    {
      JsrAggStats part = { .total_ns = attributed - named };

      stats_add (agg, &agg->signatures_other, &part);
    }

  jsr_agg_diagnoses_add_event (&agg->diagnoses, report, event, agg->run_serial);
  agg->saturated |= agg->diagnoses.saturated;
  agg->overflowed |= agg->diagnoses.overflowed;
  jsr_agg_postings_add_event (&agg->postings, report, event, agg->run_serial);
  agg->saturated |= agg->postings.saturated;
  agg->overflowed |= agg->postings.overflowed;
  offer_worst_event (agg, report, event, &key, run, app, pid, duration, attributed,
                     best != G_MAXUINT ? g_array_index (sigs, EventSignature, best).text : NULL);
}

/* Percentiles turned into a histogram, for reports that have none. */
static void
add_iteration_busy (JsrAggregate *agg, const JsrReport *report)
{
  static const double qs[] = { 0.50, 0.95, 0.99 };
  gint64 values[]
      = { report->iteration_p50_ns, report->iteration_p95_ns, report->iteration_p99_ns };

  if (report->iteration_histogram != NULL)
    jsr_histogram_add_report (&agg->iteration_busy, report->iteration_histogram);
  else if (report->iteration_p95_ns != JSR_UNKNOWN && report->iterations > 0)
    jsr_histogram_add_percentiles (&agg->iteration_busy, (guint64) report->iterations, qs, values,
                                   G_N_ELEMENTS (qs), report->iteration_max_ns);
}

static void
add_frame_time (JsrAggregate *agg, const JsrReport *report)
{
  static const double qs[] = { 0.50, 0.90, 0.95, 0.99 };
  gint64 values[]
      = { report->frame_p50_ns, report->frame_p90_ns, report->frame_p95_ns, report->frame_p99_ns };

  if (report->frames <= 0)
    return;
  if (report->frame_histogram != NULL)
    jsr_histogram_add_report (&agg->frame_time, report->frame_histogram);
  else
    jsr_histogram_add_percentiles (&agg->frame_time, (guint64) report->frames, qs, values,
                                   G_N_ELEMENTS (qs), report->frame_max_ns);
}

gboolean
jsr_aggregate_add_report (JsrAggregate *agg, const JsrReport *report, GError **error)
{
  const char *app = app_name (report);
  guint64 id = run_id (report->install_id, "run", report->pid, report->start_ns, report->name);
  guint64 previous_id = 0;

  if (g_hash_table_contains (agg->runs, &id))
    {
      g_autofree char *shown = jsr_display (app);

      g_set_error (error, JSR_AGGREGATE_ERROR, JSR_AGGREGATE_ERROR_DUPLICATE,
                   _ ("the run of %s (pid %lld) is already merged: skipped"), shown,
                   (long long) report->pid);
      return FALSE;
    }
  if (report->previous_run != NULL)
    {
      previous_id = run_id (report->install_id, "previous-run", report->previous_run->pid,
                            report->previous_run->hang->start_ns, report->previous_run->exe);
      if (g_hash_table_contains (agg->runs, &previous_id))
        previous_id = 0; /* carried by another report of the same run */
    }

  agg->run_serial++;
  add_run_id (agg, id);
  agg->reports = add_sat (agg, agg->reports, 1);
  if (report->install_id != NULL)
    g_hash_table_add (agg->installs, g_strdup (report->install_id));
  count_app (agg, app, 1);

  agg->monitored_ns = add_sat (agg, agg->monitored_ns, (guint64) report->monitored_ns);
  agg->busy_ns = add_sat (agg, agg->busy_ns, (guint64) report->busy_ns);
  agg->iterations = add_sat (agg, agg->iterations, (guint64) report->iterations);
  agg->dispatches = add_sat (agg, agg->dispatches, (guint64) report->dispatches);
  agg->events_total = add_sat (agg, agg->events_total, (guint64) report->events_total);
  agg->events_dropped = add_sat (agg, agg->events_dropped, (guint64) report->events_dropped);
  agg->records_dropped = add_sat (agg, agg->records_dropped, (guint64) report->records_dropped);
  for (guint t = 0; t < JS_N_TIERS; t++)
    agg->events_by_tier[t]
        = add_sat (agg, agg->events_by_tier[t], (guint64) report->events_by_tier[t]);
  agg->frames = add_sat (agg, agg->frames, (guint64) report->frames);
  agg->frames_slow = add_sat (agg, agg->frames_slow, (guint64) report->frames_slow);
  agg->frames_frozen = add_sat (agg, agg->frames_frozen, (guint64) report->frames_frozen);
  add_iteration_busy (agg, report);
  add_frame_time (agg, report);

  for (guint i = 0; i < report->events->len; i++)
    {
      const JsrReportEvent *event = g_ptr_array_index (report->events, i);

      fold_event (agg, report, event, id, app, report->pid,
                  g_strcmp0 (event->type, "frame") == 0 && !covered_by_stall_event (report, event));
    }

  /* A run killed during a hang, carried by this report: a run of its own. */
  if (previous_id != 0)
    {
      agg->run_serial++;
      add_run_id (agg, previous_id);
      count_app (agg, app, 1);
      /* The module table is this run's: none for the previous one. */
      fold_event (agg, NULL, report->previous_run->hang, previous_id, app,
                  report->previous_run->pid, FALSE);
    }

  return TRUE;
}

/* ---- folding an aggregate -------------------------------------------------------- */

static void
add_cell (JsrAggregate *agg, JsrAggSignature *sig, const JsrAggGroup *cell)
{
  JsrAggGroup *mine = cell->key.tier != NULL || cell->key.klass != NULL || cell->key.source != NULL
                              || cell->key.callback != NULL || cell->key.wait != NULL
                              || cell->key.callback_build_id != NULL || cell->key.scene != NULL
                          ? lookup_group (sig->cells, &cell->key, JSR_AGGREGATE_MAX_CELLS)
                          : NULL;

  if (mine == NULL)
    {
      if (sig->cells_other == NULL)
        {
          JsrAggKey other = { 0 };

          sig->cells_other = group_new (&other);
        }
      mine = sig->cells_other;
    }
  stats_add (agg, &mine->stats, &cell->stats);
}

/* Only an aggregate of the same signature depth and of other runs can be
 * folded in (runs are disjoint across inputs: "runs affected" is a sum). */
static gboolean
check_mergeable (const JsrAggregate *agg, const JsrAggregate *other, GError **error)
{
  GHashTableIter iter;
  gpointer key;
  guint64 overlap = 0;

  if (other->signature_frames != agg->signature_frames)
    {
      g_set_error (error, JSR_AGGREGATE_ERROR, JSR_AGGREGATE_ERROR_MISMATCH,
                   _ ("its signatures have %u frames, not %u: merge its reports again with "
                      "--signature-frames=%u"),
                   other->signature_frames, agg->signature_frames, agg->signature_frames);
      return FALSE;
    }
  g_hash_table_iter_init (&iter, other->runs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_hash_table_contains (agg->runs, key))
      overlap++;
  if (overlap > 0)
    {
      g_set_error (error, JSR_AGGREGATE_ERROR, JSR_AGGREGATE_ERROR_DUPLICATE,
                   g_dngettext (GETTEXT_PACKAGE, "%llu of its runs is already merged",
                                "%llu of its runs are already merged",
                                (gulong) MIN (overlap, 1000)),
                   (unsigned long long) overlap);
      return FALSE;
    }

  return TRUE;
}

/* Its runs, installations and apps. */
static void
add_inputs (JsrAggregate *agg, const JsrAggregate *other)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, other->runs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    add_run_id (agg, *(guint64 *) key);
  g_hash_table_iter_init (&iter, other->installs);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (agg->installs, g_strdup (key));
  g_hash_table_iter_init (&iter, other->apps);
  while (g_hash_table_iter_next (&iter, &key, &value))
    count_app (agg, key, *(guint64 *) value);
  agg->apps_other = add_sat (agg, agg->apps_other, other->apps_other);
}

/* The reports' summaries (never filtered), frame events and the flags. */
static void
add_summaries (JsrAggregate *agg, const JsrAggregate *other)
{
  agg->reports = add_sat (agg, agg->reports, other->reports);
  agg->monitored_ns = add_sat (agg, agg->monitored_ns, other->monitored_ns);
  agg->busy_ns = add_sat (agg, agg->busy_ns, other->busy_ns);
  agg->iterations = add_sat (agg, agg->iterations, other->iterations);
  agg->dispatches = add_sat (agg, agg->dispatches, other->dispatches);
  agg->events_total = add_sat (agg, agg->events_total, other->events_total);
  agg->events_dropped = add_sat (agg, agg->events_dropped, other->events_dropped);
  agg->records_dropped = add_sat (agg, agg->records_dropped, other->records_dropped);
  for (guint t = 0; t < JS_N_TIERS; t++)
    agg->events_by_tier[t] = add_sat (agg, agg->events_by_tier[t], other->events_by_tier[t]);
  agg->frames = add_sat (agg, agg->frames, other->frames);
  agg->frames_slow = add_sat (agg, agg->frames_slow, other->frames_slow);
  agg->frames_frozen = add_sat (agg, agg->frames_frozen, other->frames_frozen);
  jsr_histogram_merge (&agg->iteration_busy, &other->iteration_busy);
  jsr_histogram_merge (&agg->frame_time, &other->frame_time);
  for (guint t = 0; t < JS_N_EVENT_TIERS; t++)
    agg->frame_events_by_tier[t]
        = add_sat (agg, agg->frame_events_by_tier[t], other->frame_events_by_tier[t]);
  agg->frame_events_ns = add_sat (agg, agg->frame_events_ns, other->frame_events_ns);
  /* Not by groups: a filter cannot pick them out of an aggregate (its
   * signatures' cells still have them). */
  if (agg->filter == NULL)
    stats_add (agg, &agg->frame_uncovered, &other->frame_uncovered);
  agg->events_filtered_out = add_sat (agg, agg->events_filtered_out, other->events_filtered_out);
  agg->overflowed = agg->overflowed || other->overflowed;
  agg->saturated = agg->saturated || other->saturated;
  agg->runs_upper_bound = agg->runs_upper_bound || other->runs_upper_bound;
}

/* Groups: all of them, or those that match the filter (the stall totals
 * are then theirs). */
static void
add_groups (JsrAggregate *agg, const JsrAggregate *other)
{
  const JsrAggFilter *filter = agg->filter;
  GHashTableIter iter;
  gpointer value;

  if (filter == NULL)
    {
      JsrAggStats stalls = other->stalls;

      stats_add (agg, &agg->stalls, &stalls);
      stats_add (agg, &agg->groups_other, &other->groups_other);
    }
  g_hash_table_iter_init (&iter, other->groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const JsrAggGroup *group = value;
      JsrAggGroup *mine;

      if (!jsr_aggregate_filter_matches (filter, &group->key))
        {
          agg->events_filtered_out = add_sat (agg, agg->events_filtered_out, group->stats.events);
          continue;
        }
      if (filter != NULL)
        stats_add (agg, &agg->stalls, &group->stats);
      mine = lookup_group (agg->groups, &group->key, JSR_AGGREGATE_MAX_GROUPS);
      if (mine != NULL)
        stats_add (agg, &mine->stats, &group->stats);
      else
        {
          stats_add (agg, &agg->groups_other, &group->stats);
          agg->overflowed = TRUE;
        }
    }
  if (filter != NULL)
    {
      /* Runs of the filtered totals: each group counted its own. */
      agg->runs_upper_bound = TRUE;
      agg->events_filtered_out
          = add_sat (agg, agg->events_filtered_out, other->groups_other.events);
    }
}

/* What of a signature of the other aggregate passes the filter: all of it,
 * or the sum of its matching cells. FALSE when nothing does. */
static gboolean
matched_stats (JsrAggregate *agg, const JsrAggSignature *theirs, JsrAggStats *matched)
{
  GHashTableIter cells;
  gpointer cell;

  if (agg->filter == NULL)
    {
      *matched = theirs->stats;
      return TRUE;
    }
  memset (matched, 0, sizeof *matched);
  g_hash_table_iter_init (&cells, theirs->cells);
  while (g_hash_table_iter_next (&cells, NULL, &cell))
    if (jsr_aggregate_filter_matches (agg->filter, &((JsrAggGroup *) cell)->key))
      stats_add (agg, matched, &((JsrAggGroup *) cell)->stats);

  return matched->events != 0 || matched->total_ns != 0;
}

/* Signatures: whole, or rebuilt from their matching cells. */
static void
add_signatures (JsrAggregate *agg, const JsrAggregate *other)
{
  const JsrAggFilter *filter = agg->filter;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, other->signatures);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const JsrAggSignature *theirs = value;
      JsrAggStats matched;
      JsrAggSignature *mine;
      GHashTableIter cells;
      gpointer cell;

      if (!matched_stats (agg, theirs, &matched))
        continue;
      mine = lookup_signature (agg, theirs->text, theirs->id);
      if (mine == NULL)
        {
          note_overflowed (agg, theirs->id);
          stats_add (agg, &agg->signatures_other, &matched);
          continue;
        }
      stats_add (agg, &mine->stats, &matched);
      g_hash_table_iter_init (&cells, theirs->cells);
      while (g_hash_table_iter_next (&cells, NULL, &cell))
        if (jsr_aggregate_filter_matches (filter, &((JsrAggGroup *) cell)->key))
          add_cell (agg, mine, cell);
      if (filter == NULL && theirs->cells_other != NULL)
        add_cell (agg, mine, theirs->cells_other);
    }
  if (filter == NULL)
    {
      stats_add (agg, &agg->signatures_other, &other->signatures_other);
      agg->signatures_other_count
          = add_sat (agg, agg->signatures_other_count,
                     add_sat (agg, other->signatures_other_count,
                              g_hash_table_size (other->signatures_overflowed)));
    }
}

gboolean
jsr_aggregate_add_aggregate (JsrAggregate *agg, const JsrAggregate *other, GError **error)
{
  if (!check_mergeable (agg, other, error))
    return FALSE;

  add_inputs (agg, other);
  add_summaries (agg, other);
  add_groups (agg, other);
  add_signatures (agg, other);
  jsr_agg_diagnoses_merge (&agg->diagnoses, &other->diagnoses);
  jsr_agg_postings_merge (&agg->postings, &other->postings);
  agg->saturated |= agg->diagnoses.saturated;
  agg->overflowed |= agg->diagnoses.overflowed;
  for (guint i = 0; i < other->worst->len; i++)
    {
      const JsrAggEvent *event = g_ptr_array_index (other->worst, i);

      if (jsr_aggregate_filter_matches (agg->filter, &event->key))
        offer_worst (agg, event_copy (event));
    }

  return TRUE;
}

/* ---- views ------------------------------------------------------------------ */

/* g_hash_table_get_values_as_ptr_array () is GLib 2.76. */
static GPtrArray *
values_of (GHashTable *table)
{
  GPtrArray *out = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (out, value);
  return out;
}

static guint64
sort_value (const JsrAggStats *s, JsrAggSort sort)
{
  switch (sort)
    {
    case JSR_AGG_SORT_EVENTS:
      return s->events;
    case JSR_AGG_SORT_RUNS:
      return s->runs;
    case JSR_AGG_SORT_SAMPLES:
      return s->samples;
    case JSR_AGG_SORT_TIME:
    default:
      return s->total_ns;
    }
}

static int
signature_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  const JsrAggSignature *x = *(JsrAggSignature *const *) a;
  const JsrAggSignature *y = *(JsrAggSignature *const *) b;
  JsrAggSort sort = GPOINTER_TO_INT (data);
  guint64 vx = sort_value (&x->stats, sort), vy = sort_value (&y->stats, sort);

  if (vx != vy)
    return vx > vy ? -1 : 1;
  if (x->stats.total_ns != y->stats.total_ns)
    return x->stats.total_ns > y->stats.total_ns ? -1 : 1;
  return strcmp (x->text, y->text);
}

GPtrArray *
jsr_aggregate_sorted_signatures (const JsrAggregate *agg, JsrAggSort sort)
{
  GPtrArray *out = values_of (agg->signatures);

  g_ptr_array_sort_with_data (out, signature_compare, GINT_TO_POINTER (sort));
  return out;
}

static int
group_compare (gconstpointer a, gconstpointer b)
{
  return jsr_agg_key_compare (&(*(JsrAggGroup *const *) a)->key, &(*(JsrAggGroup *const *) b)->key);
}

GPtrArray *
jsr_aggregate_sorted_groups (const JsrAggregate *agg)
{
  GPtrArray *out = values_of (agg->groups);

  g_ptr_array_sort (out, group_compare);
  return out;
}

/* ---- naming callbacks afterwards (jankscope symbolize) ------------------------------ */

static gboolean
name_key (JsrAggKey *key, JsrAggNameFunc name, gpointer data)
{
  return jsr_agg_name_pair (&key->callback, &key->callback_build_id, name, data);
}

/* A worst event's kind, culprit, culprit callback and parts. */
static guint
name_event (JsrAggEvent *event, JsrAggNameFunc name, gpointer data)
{
  guint named = name_key (&event->key, name, data);

  named += jsr_agg_name_pair (&event->culprit, &event->culprit_build_id, name, data);
  named += jsr_agg_name_pair (&event->culprit_callback, &event->culprit_callback_build_id, name,
                              data);
  for (guint i = 0; event->parts != NULL && i < event->parts->len; i++)
    {
      JsrAggPart *part = g_ptr_array_index (event->parts, i);

      named += jsr_agg_name_pair (&part->callback, &part->callback_build_id, name, data);
      named += jsr_agg_name_pair (&part->culprit, &part->culprit_build_id, name, data);
      named += jsr_agg_name_pair (&part->culprit_callback, &part->culprit_callback_build_id, name,
                                  data);
    }
  return named;
}

/* The table's groups with their keys named; those that became one summed. */
static guint
name_table (JsrAggregate *agg, GHashTable *table, JsrAggNameFunc name, gpointer data)
{
  g_autoptr (GPtrArray) groups = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  guint named = 0;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (groups, value);
      g_hash_table_iter_steal (&iter);
    }
  /* In key order, so that which group's key is kept does not depend on the
   * hash table's. */
  g_ptr_array_sort (groups, group_compare);
  for (guint i = 0; i < groups->len; i++)
    {
      JsrAggGroup *group = g_ptr_array_index (groups, i);
      JsrAggGroup *same;

      if (name_key (&group->key, name, data))
        named++;
      same = g_hash_table_lookup (table, &group->key);
      if (same != NULL)
        {
          stats_add (agg, &same->stats, &group->stats);
          group_free (group);
        }
      else
        g_hash_table_insert (table, &group->key, group);
    }
  return named;
}

guint
jsr_aggregate_name_callbacks (JsrAggregate *agg, JsrAggNameFunc name, gpointer data)
{
  GHashTableIter iter;
  gpointer value;
  guint named = name_table (agg, agg->groups, name, data);

  g_hash_table_iter_init (&iter, agg->signatures);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    named += name_table (agg, ((JsrAggSignature *) value)->cells, name, data);
  for (guint i = 0; i < agg->worst->len; i++)
    named += name_event (g_ptr_array_index (agg->worst, i), name, data);
  named += jsr_agg_diagnoses_name_places (&agg->diagnoses, name, data);
  named += jsr_agg_postings_name_callbacks (&agg->postings, name, data);
  agg->saturated |= agg->diagnoses.saturated;
  return named;
}
