/* js-posting.c: posting sites, noted where a source is attached (any thread)
 * and found again when it is dispatched.
 *
 * Each attach of a main-context source seen by the preload (preload-post.c)
 * is given a slot of a ring of sites (the next one, or the main thread's last
 * one: below): the caller's return address, the callers of the dispatches it
 * ran inside (a chain), and sometimes a full stack. The slot's index goes into a table
 * direct-mapped by source id, so the dispatch finds it with one load (js_posting_at_dispatch) and
 * carries it in its record; a recurring source keeps its site as long as its entry is not
 * overwritten (JS_POSTING_IDS later attaches). A GTask's completion is attached by GIO itself,
 * unseen: g_task_new's site is kept by the task's address, and the collector and the watchdog
 * look it up by the dispatch's data (js_posting_task_post).
 *
 * Each slot is a seqlock: the writer marks it odd, fills it and marks it
 * even; a reader (the collector, or the main thread following a chain) keeps
 * what it copied only if the mark was the expected one before and after. Two
 * writers on one slot would need JS_POSTING_RING attaches in between: the
 * reader then rejects it.
 *
 * The main thread's attaches mostly repeat: the same place posts the same
 * callback again from the dispatch of the same site (an idle that re-adds
 * itself, a handler that queues a redraw). Such an attach would write a site
 * equal to the last one, so the source is given that one (fast path in
 * js_posting_posted): a compare against the main thread's last attach, kept
 * in plain variables only it touches, and one store into the id table; no
 * atomic read-modify-write, no ring slot, no table probe. A site is given
 * again only while it has no full stack (a stack is one attach's) and the
 * full-stack rules below would want none: slow callbacks are marked with a
 * generation the fast path compares; stall and the one-in-64 sample are
 * checked on it. Giving a site again also keeps older sites in the ring.
 *
 * Full stacks (unw_backtrace on the attaching thread) are wanted for a
 * callback that has been slow in this run, while the watchdog investigates a
 * stall, for a caller seen for the first time, for one attach in 64, and for
 * a caller in a library (GTK, GIO, pango: not the app's own code) at most
 * once per LIBRARY_EVERY_MS per caller and callback; a ceiling per second
 * (JANKSCOPE_POST_STACKS, default 200) bounds their cost, and what it
 * refused is counted. A library caller's attach without a stack of its own
 * inherits one, marked so (no unwinding, one more word in its site): posted
 * from the dispatch of a site with the same caller (a source re-adding
 * itself), that site's, so that each generation leads to the code that
 * started the first; else the last one of the same caller and callback.
 *
 * Why the library rule: GTK's own idles (a text view's validation) are
 * attached by a GTK function, seen long before the app's code made one slow,
 * and their caller alone names no code of the app; a callback's first slow
 * dispatch is named only if a stack was taken at its attach, before anyone
 * knew. The app's own callers need none: the caller is the app's code. The
 * app's code is told by address ranges noted once at start (the executable
 * and the libraries outside the system's folders, js_stack_path's rule);
 * a library loaded later counts as a library (more stacks, never fewer).
 *
 * On the main thread the sampling signal is held back while unwinding (the
 * handler unwinds too: the same thread's libunwind cache must not be
 * entered twice).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-posting.h"
#include "js-hot.h"
#include "js-call-guard.h"
#include "js-clock.h"
#include "js-mainloop.h"
#include "js-sampler.h"
#include "js-stack-path.h"

#include <link.h>
#include <string.h>

typedef struct
{
  guint64 seq; /* 2 * index + 2 once written, odd while written */
  const void *caller;
  const void *chain[JS_POSTING_CHAIN];
  guint32 meta;        /* kind | main thread << 8 | links in chain << 16 */
  guint32 stack;       /* stack slot + 1, 0: none */
  guint32 stack_owner; /* the site that took that stack: this one, or an earlier one */
} Site;

#define META(kind, main, n) ((guint32) (kind) | (guint32) (main) << 8 | (guint32) (n) << 16)
#define META_KIND(m) ((guint8) ((m) &0xff))
#define META_MAIN(m) (((m) >> 8) & 1)
#define META_CHAIN(m) MIN (((m) >> 16) & 0xff, JS_POSTING_CHAIN)

typedef struct
{
  guint64 seq; /* that of the site it belongs to, odd while written */
  guint32 n;
  guint32 truncated;
  void *frames[JS_POSTING_MAX_FRAMES];
} Stack;

typedef struct
{
  const void *task;
  guint64 post;
} TaskEntry;

#define TASKS 4096
#define SEEN 4096
#define SLOW 256
#define SAMPLE_ONE_IN 64
/* A library's caller: at most one full stack per caller and callback in
 * this many ms (1024 of them, by hash: two that share a slot share the
 * limit); its attaches in between inherit that stack. */
#define LIBRARY_CALLERS 1024
#define LIBRARY_EVERY_MS 100
/* Address ranges of the app's own code and of jankscope's (no library rule). */
#define APP_RANGES 32
/* Frames of our own above the caller: this file's and the preload's. */
#define OWN_FRAMES 3

guint64 js_posting_ids[JS_POSTING_IDS];

static Site sites[JS_POSTING_RING];
static Stack stacks[JS_POSTING_STACKS];
static TaskEntry tasks[TASKS];
static const void *seen_callers[SEEN];
static const void *slow_funcs[SLOW];
/* Per library caller and callback: `when`, bits 32-63 their hash tag, 0-31
 * the ms of their last full stack (wrapping: compared by difference);
 * `stack`, that stack: bits 32-63 the site that took it, 9-31 the tag's low
 * 23 bits, 0-8 its slot + 1 (0: none). Each word is stored whole; a reader
 * that pairs words of two stacks is caught by the stack's own check (its
 * mark is its site's). */
typedef struct
{
  guint64 when;
  guint64 stack;
} LibraryEntry;

static LibraryEntry library_last[LIBRARY_CALLERS];
static struct
{
  guintptr start, end;
} app_ranges[APP_RANGES];
static guint n_app_ranges;

static GMainContext *main_context JS_HOT_DATA;
static guint budget_per_s;
static int (*backtrace_func) (void **buffer, int size);
static int stall JS_HOT_DATA;

static guint32 next_site JS_HOT_DATA; /* the last index given out (0: none yet) */
/* Attaches noted: the main thread's (written by it only, plain increments
 * published with relaxed stores) and the other threads'. */
static guint64 main_attaches JS_HOT_DATA;
static guint64 other_attaches;
/* Bumped by js_posting_mark_slow when it marks a callback not marked yet. */
static guint slow_gen JS_HOT_DATA;

static guint32 next_stack;  /* stack slots given out */
static guint64 budget_word; /* second << 32 | stacks taken in it */
static guint64 n_stacks, n_over_budget, n_library;

/* The main thread's last attach and the site it was given, so that the next
 * one from the same place is given the same site without writing one.
 * Main thread only: plain variables. */
static struct
{
  guint32 index;  /* 0: none */
  guint32 parent; /* the site of the dispatch it was posted from, 0: none */
  const void *caller;
  const void *func;
  int kind;
  guint n_chain;
  const void *chain[JS_POSTING_CHAIN];
  gboolean stack;           /* the site was written wanting a full stack: not given again */
  guint32 inherited, owner; /* the stack it inherited (write_site), 0: none */
  gboolean reusable;        /* the fast path may give it again */
  guint slow_gen;           /* slow_gen when its callback was found not slow */
} last JS_HOT_DATA;

static inline guint
hash_pointer (const void *p, guint size)
{
  guint64 x = (guint64) (guintptr) p;

  x ^= x >> 17;
  x *= G_GUINT64_CONSTANT (0xed5ad4bb);
  return (guint) (x >> 20) % size;
}

/* Notes the executable segments of the executable, of the app's own
 * libraries and of jankscope's. */
static int
note_app_range (struct dl_phdr_info *info, size_t size, void *data)
{
  gboolean *first = data;
  gboolean is_main = *first && (info->dlpi_name == NULL || info->dlpi_name[0] == '\0');
  const char *name;

  (void) size;
  *first = FALSE;
  name = info->dlpi_name != NULL ? strrchr (info->dlpi_name, '/') : NULL;
  name = name != NULL ? name + 1 : info->dlpi_name;
  if (!is_main && !js_stack_path_library_is_app (info->dlpi_name)
      && !(name != NULL && g_str_has_prefix (name, "libjankscope")))
    return 0;
  for (guint i = 0; i < info->dlpi_phnum && n_app_ranges < APP_RANGES; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X))
      {
        app_ranges[n_app_ranges].start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        app_ranges[n_app_ranges].end = app_ranges[n_app_ranges].start + info->dlpi_phdr[i].p_memsz;
        n_app_ranges++;
      }
  return 0;
}

void
js_posting_init (GMainContext *context, guint stacks_per_s)
{
  gboolean first = TRUE;

  main_context = context;
  budget_per_s = stacks_per_s;
  /* Before the bridge's hook is published (js-core.c): read without locks. */
  n_app_ranges = 0;
  dl_iterate_phdr (note_app_range, &first);
}

/* Is the caller in the app's own code (or jankscope's), not a library's? */
static gboolean
caller_in_app (const void *caller)
{
  guintptr a = (guintptr) caller;

  for (guint r = 0; r < n_app_ranges; r++)
    if (a >= app_ranges[r].start && a < app_ranges[r].end)
      return TRUE;
  return FALSE;
}

/* A library's caller and callback: their entry and tag. */
static inline LibraryEntry *
library_entry (const void *caller, const void *func, guint32 *tag)
{
  guint64 a = (guint64) (guintptr) caller * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)
              ^ (guint64) (guintptr) func;

  *tag = (guint32) (a ^ (a >> 32));
  return &library_last[hash_pointer ((const void *) (guintptr) a, LIBRARY_CALLERS)];
}

/* Is a library's caller due a full stack by the limit per caller and
 * callback? Then its time is taken. */
static gboolean
library_caller_due (const void *caller, const void *func)
{
  guint32 tag;
  LibraryEntry *e = library_entry (caller, func, &tag);
  guint32 now_ms = (guint32) (js_now_ns () / 1000000);
  guint64 old = __atomic_load_n (&e->when, __ATOMIC_RELAXED);

  if ((guint32) (old >> 32) == tag && now_ms - (guint32) old < LIBRARY_EVERY_MS)
    return FALSE;
  /* Two threads racing here may both take one: the budget still bounds. */
  __atomic_store_n (&e->when, (guint64) tag << 32 | now_ms, __ATOMIC_RELAXED);
  return TRUE;
}

#define LIBRARY_TAG_BITS(tag) (((guint64) (tag) &0x7fffff) << 9)

/* A library's caller took a full stack (for any reason): the attaches of
 * the same callback from there that get none inherit it. */
static void
library_note_stack (const void *caller, const void *func, guint32 index, guint32 stack)
{
  guint32 tag;
  LibraryEntry *e = library_entry (caller, func, &tag);

  __atomic_store_n (&e->stack, (guint64) index << 32 | LIBRARY_TAG_BITS (tag) | stack,
                    __ATOMIC_RELAXED);
}

/* The last full stack of a library's caller and callback (*owner: the site
 * that took it), 0: none known. */
static guint32
library_last_stack (const void *caller, const void *func, guint32 *owner)
{
  guint32 tag;
  LibraryEntry *e = library_entry (caller, func, &tag);
  guint64 w = __atomic_load_n (&e->stack, __ATOMIC_RELAXED);

  if ((w & 0xffffffffu & ~0x1ffu) != LIBRARY_TAG_BITS (tag))
    return 0;
  *owner = (guint32) (w >> 32);
  return (guint32) (w & 0x1ff);
}

void
js_posting_set_unwinder (int (*backtrace) (void **buffer, int size))
{
  __atomic_store_n (&backtrace_func, backtrace, __ATOMIC_RELEASE);
}

void
js_posting_set_stall (gboolean stalled)
{
  __atomic_store_n (&stall, stalled ? 1 : 0, __ATOMIC_RELAXED);
}

void
js_posting_mark_slow (const void *func)
{
  const void **slot;

  if (func == NULL)
    return;
  slot = &slow_funcs[hash_pointer (func, SLOW)];
  if (__atomic_load_n (slot, __ATOMIC_RELAXED) == func)
    return; /* called for every slow dispatch: the main thread's fast path stays */
  __atomic_store_n (slot, func, __ATOMIC_RELAXED);
  /* Release, after the table's store: a main thread that sees the new
   * generation (acquire) leaves its fast path and finds the callback in the
   * table. One that does not yet gives one more attach without a stack, as
   * a relaxed load of the table could before. */
  __atomic_add_fetch (&slow_gen, 1, __ATOMIC_RELEASE);
}

/* Takes one stack of this second's budget, or says it is spent. */
static gboolean
take_budget (void)
{
  guint64 now_s = (guint64) (js_now_ns () / G_GINT64_CONSTANT (1000000000));
  guint64 old = __atomic_load_n (&budget_word, __ATOMIC_RELAXED);

  for (;;)
    {
      guint64 count = (old >> 32) == (now_s & 0xffffffff) ? (old & 0xffffffff) : 0;
      guint64 want;

      if (count >= budget_per_s)
        {
          __atomic_add_fetch (&n_over_budget, 1, __ATOMIC_RELAXED);
          return FALSE;
        }
      want = ((now_s & 0xffffffff) << 32) | (count + 1);
      if (__atomic_compare_exchange_n (&budget_word, &old, want, TRUE, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED))
        return TRUE;
    }
}

/* Why an attach would want a full stack: 0 none, else the reasons below.
 * The caller goes into the first-seen table here (one store, first time). */
enum
{
  WANT_FIRST_SEEN = 1 << 0,
  WANT_SLOW = 1 << 1,    /* its callback was slow in this run */
  WANT_SAMPLED = 1 << 2, /* a stall under way, or the one attach in SAMPLE_ONE_IN */
  WANT_LIBRARY = 1 << 3, /* a library's caller, its LIBRARY_EVERY_MS since its last stack */
  /* Not a reason: the caller is a library's. Its stacks are due by time, so
   * its site is never given again by the fast path (which reads no clock). */
  LIBRARY_CALLER = 1 << 4,
  WANTS = WANT_FIRST_SEEN | WANT_SLOW | WANT_SAMPLED | WANT_LIBRARY,
};

static guint
want_stack (const void *caller, const void *func, gboolean sampled)
{
  const void **seen = &seen_callers[hash_pointer (caller, SEEN)];
  guint want = 0;

  if (__atomic_load_n (seen, __ATOMIC_RELAXED) != caller)
    {
      __atomic_store_n (seen, caller, __ATOMIC_RELAXED);
      want |= WANT_FIRST_SEEN;
    }
  if (func != NULL
      && __atomic_load_n (&slow_funcs[hash_pointer (func, SLOW)], __ATOMIC_RELAXED) == func)
    want |= WANT_SLOW;
  if (sampled || __atomic_load_n (&stall, __ATOMIC_RELAXED))
    want |= WANT_SAMPLED;
  if (!caller_in_app (caller))
    {
      want |= LIBRARY_CALLER;
      /* Its time is taken only when no other rule wants a stack already. */
      if (want == LIBRARY_CALLER && library_caller_due (caller, func))
        want |= WANT_LIBRARY;
    }
  return want;
}

/* The stack of the calling thread into a new slot; returns it + 1, or 0. */
static guint32
take_stack (int (*bt) (void **, int), guint64 seq)
{
  guint32 slot = __atomic_fetch_add (&next_stack, 1, __ATOMIC_RELAXED) % JS_POSTING_STACKS;
  Stack *s = &stacks[slot];
  void *frames[JS_POSTING_MAX_FRAMES + OWN_FRAMES + 1];
  JsCallGuard *guard = js_call_guard_mine (&js_sampler_guard);
  JsCallHold hold = { 0 };
  gboolean held = FALSE;
  int n;

  if (guard != NULL && js_call_guard_enter (guard))
    {
      js_call_guard_hold (guard, &hold);
      held = TRUE;
    }
  n = bt (frames, G_N_ELEMENTS (frames));
  if (held)
    js_call_guard_release (guard, &hold);
  if (guard != NULL)
    js_call_guard_leave (guard, FALSE);
  if (n <= 0)
    return 0;

  __atomic_store_n (&s->seq, seq - 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  /* jankscope's frames stay: the reader's path leaves them out by module. */
  s->n = (guint32) MIN (n, JS_POSTING_MAX_FRAMES);
  s->truncated = n > JS_POSTING_MAX_FRAMES;
  memcpy (s->frames, frames, s->n * sizeof (void *));
  __atomic_store_n (&s->seq, seq, __ATOMIC_RELEASE);
  __atomic_add_fetch (&n_stacks, 1, __ATOMIC_RELAXED);
  return slot + 1;
}

/* Copies site `index` if it is still that one. */
static gboolean
read_site (guint32 index, Site *out)
{
  const Site *s = &sites[index % JS_POSTING_RING];
  guint64 want = 2 * (guint64) index + 2;

  if (index == 0 || __atomic_load_n (&s->seq, __ATOMIC_ACQUIRE) != want)
    return FALSE;
  out->caller = __atomic_load_n (&s->caller, __ATOMIC_RELAXED);
  for (guint i = 0; i < JS_POSTING_CHAIN; i++)
    out->chain[i] = __atomic_load_n (&s->chain[i], __ATOMIC_RELAXED);
  out->meta = __atomic_load_n (&s->meta, __ATOMIC_RELAXED);
  out->stack = __atomic_load_n (&s->stack, __ATOMIC_RELAXED);
  out->stack_owner = __atomic_load_n (&s->stack_owner, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  out->seq = want;
  return __atomic_load_n (&s->seq, __ATOMIC_RELAXED) == want;
}

/* The chain of a new site posted from inside the dispatch of site
 * `parent`: that site's caller, then its own chain; and that site's stack
 * (*stack: its slot + 1, 0: none; *owner: the site that took it). Main
 * thread only, so only the words are read (no frames): the least work per
 * attach. */
static guint
parent_chain (guint32 parent, const void *chain[JS_POSTING_CHAIN], guint32 *stack, guint32 *owner)
{
  const Site *s = &sites[parent % JS_POSTING_RING];
  guint64 want = 2 * (guint64) parent + 2;
  guint n;

  if (__atomic_load_n (&s->seq, __ATOMIC_ACQUIRE) != want)
    return 0;
  chain[0] = __atomic_load_n (&s->caller, __ATOMIC_RELAXED);
  n = MIN (META_CHAIN (__atomic_load_n (&s->meta, __ATOMIC_RELAXED)) + 1u, JS_POSTING_CHAIN);
  for (guint i = 1; i < n; i++)
    chain[i] = __atomic_load_n (&s->chain[i - 1], __ATOMIC_RELAXED);
  *stack = __atomic_load_n (&s->stack, __ATOMIC_RELAXED);
  *owner = __atomic_load_n (&s->stack_owner, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  if (__atomic_load_n (&s->seq, __ATOMIC_RELAXED) == want)
    return n;
  *stack = 0;
  return 0;
}

/* Is stack slot `stack` + 1 still the one site `owner` took? (A hint: the
 * reader checks again, js_posting_read.) */
static gboolean
stack_is_owners (guint32 stack, guint32 owner)
{
  return stack != 0 && stack <= JS_POSTING_STACKS
         && __atomic_load_n (&stacks[stack - 1].seq, __ATOMIC_RELAXED) == 2 * (guint64) owner + 2;
}

/* Writes a new site (a slot of the ring) and returns its index; with
 * `stack`, a full stack is taken (*stack_slot: its slot + 1, 0 if none was),
 * else `inherited` (a slot + 1, 0: none) is the stack of the earlier site
 * `owner`. */
static guint32
write_site (int kind, gboolean on_main, const void *caller, const void *chain[JS_POSTING_CHAIN],
            guint n_chain, gboolean stack, guint32 inherited, guint32 owner, guint32 *stack_slot)
{
  int (*bt) (void **, int) = __atomic_load_n (&backtrace_func, __ATOMIC_ACQUIRE);
  guint32 index = __atomic_add_fetch (&next_site, 1, __ATOMIC_RELAXED);
  guint64 seq;
  Site *s;

  if (G_UNLIKELY (index == 0))
    index = __atomic_add_fetch (&next_site, 1, __ATOMIC_RELAXED);
  seq = 2 * (guint64) index + 2;
  s = &sites[index % JS_POSTING_RING];

  __atomic_store_n (&s->seq, seq - 1, __ATOMIC_RELAXED);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&s->caller, caller, __ATOMIC_RELAXED);
  for (guint i = 0; i < n_chain; i++)
    __atomic_store_n (&s->chain[i], chain[i], __ATOMIC_RELAXED);
  __atomic_store_n (&s->meta, META (kind, on_main, n_chain), __ATOMIC_RELAXED);
  *stack_slot = stack && bt != NULL ? take_stack (bt, seq) : 0;
  if (*stack_slot == 0 && inherited != 0)
    {
      /* Read only while that slot still holds the stack of site `owner`
       * (its mark, checked by js_posting_read). */
      __atomic_store_n (&s->stack, inherited, __ATOMIC_RELAXED);
      __atomic_store_n (&s->stack_owner, owner, __ATOMIC_RELAXED);
    }
  else
    {
      __atomic_store_n (&s->stack, *stack_slot, __ATOMIC_RELAXED);
      __atomic_store_n (&s->stack_owner, index, __ATOMIC_RELAXED);
    }
  __atomic_store_n (&s->seq, seq, __ATOMIC_RELEASE);
  return index;
}

/* The source `id` (or the GTask `task`) was posted from site `index`. */
static inline __attribute__ ((always_inline)) void
note_source (int kind, unsigned id, void *task, guint32 index)
{
  if (kind == JS_POST_TASK)
    {
      TaskEntry *t = &tasks[hash_pointer (task, TASKS)];

      /* The task's address first: a reader that sees the new index with
       * the old address rejects it, one with the new address and the old
       * index reads a site whose own check then fails or is the old task's. */
      __atomic_store_n (&t->post, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&t->task, task, __ATOMIC_RELEASE);
      __atomic_store_n (&t->post, (guint64) index, __ATOMIC_RELEASE);
    }
  else
    /* Relaxed: the dispatch that reads it runs on the main thread after the
     * attach returned (GLib's context lock orders an attach from another
     * thread before it); the site it names was published before (its
     * release store), and the collector reads the site only through the
     * dispatch's record, pushed to the ring with a release store. */
    __atomic_store_n (&js_posting_ids[id % JS_POSTING_IDS], ((guint64) index << 32) | id,
                      __ATOMIC_RELAXED);
}

/* Whether the main thread's last site, written or given again, is still in
 * the ring with room to spare (other threads' attaches move it on too). */
static inline gboolean
last_site_live (void)
{
  return __atomic_load_n (&next_site, __ATOMIC_RELAXED) - last.index < JS_POSTING_RING / 2;
}

static gboolean
same_as_last (int kind, const void *caller, const void *chain[JS_POSTING_CHAIN], guint n_chain)
{
  if (last.index == 0 || last.caller != caller || last.kind != kind || last.n_chain != n_chain)
    return FALSE;
  for (guint i = 0; i < n_chain; i++)
    if (last.chain[i] != chain[i])
      return FALSE;
  return last_site_live ();
}

/* Every attach but the main thread's fast path: the chain, the full stack
 * decision, and a new site unless it equals the main thread's last one. */
static G_GNUC_NO_INLINE void
posted_slow (int kind, const void *caller, const void *func, unsigned id, void *task,
             gboolean on_main, guint32 parent, guint64 n, guint gen)
{
  const void *chain[JS_POSTING_CHAIN];
  guint32 index, stack_slot = 0, inherited = 0, owner = 0, parent_stack = 0, parent_owner = 0;
  guint n_chain, want;
  gboolean with_stack;

  /* Posted from a dispatch: the chain of that dispatch's own poster. */
  n_chain = parent != 0 ? parent_chain (parent, chain, &parent_stack, &parent_owner) : 0;
  want = budget_per_s > 0 && __atomic_load_n (&backtrace_func, __ATOMIC_RELAXED) != NULL
             ? want_stack (caller, func, n % SAMPLE_ONE_IN == 0)
             : 0;
  /* A library's caller re-posting from the dispatch of a site of its own
   * (GTK's timeout that re-adds itself while it validates a text view):
   * its own stack would show only that dispatch; the first post's, which
   * that site has (taken or inherited), shows the code that started it. */
  if ((want & LIBRARY_CALLER) && n_chain > 0 && chain[0] == caller
      && stack_is_owners (parent_stack, parent_owner))
    {
      want &= ~WANTS;
      inherited = parent_stack;
      owner = parent_owner;
    }
  with_stack = (want & WANTS) != 0 && take_budget ();
  if (with_stack && (want & WANTS) == WANT_LIBRARY)
    __atomic_add_fetch (&n_library, 1, __ATOMIC_RELAXED);
  /* A library's caller without a stack of its own: the last one taken at
   * an attach of the same callback from there (within LIBRARY_EVERY_MS
   * unless the budget refused), said to be inherited. GTK re-adding its
   * idle (a text view's validation) is the case: its first attach's stack
   * leads to the app's code that caused it, the next ones' caller alone
   * does not. */
  if (!with_stack && inherited == 0 && (want & LIBRARY_CALLER))
    inherited = library_last_stack (caller, func, &owner);
  if (!with_stack && on_main && !last.stack && last.inherited == inherited
      && (inherited == 0 || last.owner == owner) && same_as_last (kind, caller, chain, n_chain))
    /* A site equal to the last one, without a full stack of its own (or
     * inheriting the same one): given again (a site with a stack is not:
     * that stack may not be this attach's). */
    index = last.index;
  else
    index = write_site (kind, on_main, caller, chain, n_chain, with_stack, inherited, owner,
                        &stack_slot);
  if (stack_slot != 0 && (want & LIBRARY_CALLER))
    library_note_stack (caller, func, index, stack_slot);

  if (on_main)
    {
      last.index = index;
      last.parent = parent;
      last.caller = caller;
      last.func = func;
      last.kind = kind;
      last.n_chain = n_chain;
      memcpy (last.chain, chain, n_chain * sizeof chain[0]);
      last.stack = with_stack;
      last.inherited = inherited;
      last.owner = owner;
      last.slow_gen = gen;
      /* Not a site with a stack (that stack may not be the next attach's),
       * nor for a slow callback, whose attaches keep asking for one. */
      last.reusable = !with_stack && (want & (WANT_SLOW | LIBRARY_CALLER)) == 0;
    }
  note_source (kind, id, task, index);
}

JS_HOT void
js_posting_posted (int kind, const void *caller, const void *func, unsigned id, void *context,
                   void *task)
{
  guint32 parent;
  guint64 n;
  guint gen;

  if (kind != JS_POST_TASK && context != NULL && context != main_context)
    return;
  if (!js_mainloop_on_thread ())
    {
      posted_slow (kind, caller, func, id, task, FALSE, 0,
                   __atomic_add_fetch (&other_attaches, 1, __ATOMIC_RELAXED), 0);
      return;
    }

  /* The main thread's fast path: the same caller, callback and kind, posted
   * from the dispatch of the same site as its last attach, with no full
   * stack to consider (no callback marked slow since, no stall, not the one
   * attach in SAMPLE_ONE_IN), would write a site equal to the last one: the
   * source is given that one. No atomic read-modify-write, no write to the
   * ring, no table probe: one store into the id table. */
  n = main_attaches + 1;
  __atomic_store_n (&main_attaches, n, __ATOMIC_RELAXED);
  parent = js_mainloop_current_post ();
  gen = __atomic_load_n (&slow_gen, __ATOMIC_ACQUIRE);
  if (G_LIKELY (parent == last.parent && caller == last.caller && func == last.func
                && kind == last.kind && last.reusable && gen == last.slow_gen
                && n % SAMPLE_ONE_IN != 0 && !__atomic_load_n (&stall, __ATOMIC_RELAXED)
                && last_site_live ()))
    note_source (kind, id, task, last.index);
  else
    posted_slow (kind, caller, func, id, task, TRUE, parent, n, gen);
}

guint32
js_posting_task_post (const void *task)
{
  const TaskEntry *t;
  guint32 index;
  Site s;

  if (task == NULL)
    return 0;
  t = &tasks[hash_pointer (task, TASKS)];
  index = (guint32) __atomic_load_n (&t->post, __ATOMIC_ACQUIRE);
  return __atomic_load_n (&t->task, __ATOMIC_ACQUIRE) == task && read_site (index, &s)
                 && META_KIND (s.meta) == JS_POST_TASK
             ? index
             : 0;
}

gboolean
js_posting_read (guint32 post, JsPostSite *out)
{
  Site s;

  memset (out, 0, sizeof *out);
  if (!read_site (post, &s))
    return FALSE;
  out->kind = META_KIND (s.meta);
  out->main_thread = META_MAIN (s.meta);
  out->caller = s.caller;
  out->n_chain = META_CHAIN (s.meta);
  memcpy (out->chain, s.chain, sizeof out->chain);
  if (s.stack != 0 && s.stack <= JS_POSTING_STACKS && s.stack_owner != 0)
    {
      const Stack *st = &stacks[s.stack - 1];
      guint64 want = 2 * (guint64) s.stack_owner + 2;
      guint n;

      out->stack_inherited = want != s.seq;
      s.seq = want;
      if (__atomic_load_n (&st->seq, __ATOMIC_ACQUIRE) == s.seq)
        {
          n = MIN (__atomic_load_n (&st->n, __ATOMIC_RELAXED), JS_POSTING_MAX_FRAMES);
          for (guint i = 0; i < n; i++)
            out->frames[i]
                = (guint64) (guintptr) __atomic_load_n (&st->frames[i], __ATOMIC_RELAXED);
          out->truncated = __atomic_load_n (&st->truncated, __ATOMIC_RELAXED) != 0;
          __atomic_thread_fence (__ATOMIC_ACQUIRE);
          if (__atomic_load_n (&st->seq, __ATOMIC_RELAXED) == s.seq)
            out->n_frames = n;
        }
      if (out->n_frames == 0)
        out->stack_inherited = FALSE;
    }
  return TRUE;
}

void
js_posting_get_stats (JsPostingStats *stats)
{
  stats->attaches = __atomic_load_n (&main_attaches, __ATOMIC_RELAXED)
                    + __atomic_load_n (&other_attaches, __ATOMIC_RELAXED);
  stats->stacks = __atomic_load_n (&n_stacks, __ATOMIC_RELAXED);
  stats->stacks_over_budget = __atomic_load_n (&n_over_budget, __ATOMIC_RELAXED);
  stats->stacks_per_s = budget_per_s;
  stats->stacks_library = __atomic_load_n (&n_library, __ATOMIC_RELAXED);
}
