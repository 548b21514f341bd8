/* js-symbolizer.h: code addresses → functions, inline frames, file:line (libdw).
 *
 * Runs on the collector thread, never on the main thread. Modules come from
 * JsModules (their files, at their load bias, and build-ids), so dlopened
 * and dlclosed modules work the same; a lookup reads no memory of the
 * process (a module is its file, or its build-id), except the vDSO's image,
 * which has no file. Each module's symbol table is read once into a sorted
 * array (libdw's own lookup is a linear scan); results are cached per
 * address, so a warm lookup is a hash lookup.
 *
 * Debug information, best first (js-symbolizer.c says more): the module's
 * own file; a separate debug file on this machine (js-debug-files.h:
 * JANKSCOPE_DEBUG_DIRS, /usr/lib/debug, .build-id then .gnu_debuglink);
 * debuginfod, only with `allow_debuginfod` (JANKSCOPE_DEBUGINFOD=1), fetched
 * on a thread of its own (js-debuginfod.h); MiniDebugInfo (.gnu_debugdata,
 * names of static functions); .dynsym.
 *
 * Not thread-safe: one thread owns a JsSymbolizer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include "js-debuginfod.h"
#include "js-modules.h"
#include "js-stack-copy.h"

G_BEGIN_DECLS

typedef struct
{
  const char *function; /* NULL when the module has no symbol for it; C++ and Rust
                         * names demangled (js-demangle.h) */
  const char *symbol;   /* the raw (mangled) name when it differs from `function`, else NULL */
  const char *file;     /* NULL without debug info */
  guint line;           /* 0 when unknown */
  guint module;         /* JsModules id, 0 when the address is in no module */
  guint64 offset;       /* address - module base (or the address, without a module) */
  guint64 entry;        /* nameless frames: the offset of its function's entry, from the
                         * module's call frame information (.eh_frame survives strip);
                         * 0 when unknown or named */
  gboolean inlined;     /* inlined into the next frame (the same address) */
  gboolean provisional; /* its module's debug file is being fetched: a lookup made once
                         * js_symbolizer_generation () has changed may give more */
} JsFrame;

typedef struct _JsSymbolizer JsSymbolizer;

JsSymbolizer *js_symbolizer_new (JsModules *modules, gboolean allow_debuginfod);
void js_symbolizer_free (JsSymbolizer *symbolizer);

/* Debug roots searched before /usr/lib/debug (JANKSCOPE_DEBUG_DIRS; NULL:
 * none), absolute paths. Before the first lookup. */
void js_symbolizer_set_debug_dirs (JsSymbolizer *symbolizer, const char *const *dirs);

/* Appends the frames of one code address to `out` (JsFrame), innermost
 * inline frame first, and returns how many (at least 1). `is_return`: the
 * address is a return address (the call is at address - 1). Strings are
 * owned by the symbolizer. */
guint js_symbolizer_lookup (JsSymbolizer *symbolizer, guint64 address, gboolean is_return,
                            GArray *out);

/* The same, for an address known to be in module `module` (JsModules id,
 * resolved when the sample was taken; 0: resolve now). Use it whenever the
 * module is known: a module loaded where a dlclosed one was has the same
 * addresses. */
guint js_symbolizer_lookup_in (JsSymbolizer *symbolizer, guint module, guint64 address,
                               gboolean is_return, GArray *out);

/* Unwinds a blocked thread's stack copy (CFI from the modules' files) into
 * code addresses, leaf first (out[0] = copy->pc). Returns how many (>= 1 if
 * copy->pc is set). */
guint js_symbolizer_unwind_copy (JsSymbolizer *symbolizer, const JsStackCopy *copy, guint64 *out,
                                 guint max);

/* Counters for the report and benchmarks. */
typedef struct
{
  guint64 lookups;
  guint64 cache_hits;
  guint modules_loaded;
  guint unwinds;
  guint unwind_frames;
  guint64 deadline_skips;    /* lookups cut short by the deadline */
  guint64 provisional;       /* lookups whose module's debug file was being fetched */
  guint debuginfod_reloaded; /* modules reported again with a fetched debug file */
  gboolean debuginfod_on;
  JsDebuginfodStats debuginfod;
} JsSymbolizerStats;

/* Changes when debug information came (or was given up) for a module whose
 * frames were `provisional`: lookups of those frames may then give more. */
guint js_symbolizer_generation (JsSymbolizer *symbolizer);

/* From `deadline_ns` on (js_now_ns clock), loads no more debug information
 * (DWARF, often compressed and large: libc's takes 50-100 ms): frames of
 * modules whose debug information is not loaded yet get their symbol's
 * name without file, line or inline frames; and no download from debuginfod
 * is started or waited for (one under way gives up). For the exit, whose
 * wait is bounded. Any thread (the lookup under way sees it before its next
 * load). */
void js_symbolizer_set_deadline (JsSymbolizer *symbolizer, gint64 deadline_ns);

void js_symbolizer_get_stats (JsSymbolizer *symbolizer, JsSymbolizerStats *stats);

G_END_DECLS
