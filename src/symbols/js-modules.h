/* js-modules.h: the loaded ELF modules, remembered after they are unloaded.
 *
 * A code address is resolved to (module, offset) when its sample is taken,
 * so a module dlclose()d before the symbolizer gets to it can still be
 * symbolized from its file (and offline, from its build-id). Entries are never
 * freed (bounded: JS_MODULES_MAX); ids start at 1, 0 means "no module".
 *
 * Thread-safe (a mutex): the watchdog resolves, the collector reads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JS_MODULES_MAX 4096

typedef struct
{
  guint id;
  char *path;         /* as the dynamic loader knows it ("" for the main program: see `path`) */
  char *name;         /* base name, e.g. "libgtk-4.so.1" */
  guint64 base;       /* load bias (dlpi_addr) */
  guint64 start, end; /* [start, end) covered by its PT_LOAD segments */
  char *build_id;     /* lower-case hex, or NULL */
  /* Its first executable PT_LOAD segment's p_vaddr and p_offset (0, 0:
   * none, or an offline entry): where its code is in memory and in the file,
   * as profile formats' mappings want them (jse-pprof.c). */
  guint64 text_vaddr, text_offset;
  gboolean is_main;  /* the executable */
  gboolean unloaded; /* seen gone at a later refresh */
  gint resolved;     /* an address in it was resolved (atomic): the report lists it */
} JsModule;

typedef struct _JsModules JsModules;

JsModules *js_modules_new (void);
void js_modules_free (JsModules *modules);

/* The module that holds `address` now, or 0. Re-reads the loaded modules
 * (dl_iterate_phdr) when the address is unknown and the set changed. */
guint js_modules_resolve (JsModules *modules, guint64 address);

/* A registry of modules described by hand, never read from this process:
 * an offline symbolizer's (the modules a report names, by file and
 * build-id). js_modules_resolve () searches only those added; they count as
 * unloaded, so nothing of them is read from memory. */
JsModules *js_modules_new_offline (void);

/* Offline registries only: a module whose offsets are taken to be at
 * [base, base + size). `path` may be gone (its build-id then finds it
 * under the debug roots' .build-id); `build_id` is hex or NULL. Returns its
 * id, or 0 (full, bad arguments, or not an offline registry). */
guint js_modules_add (JsModules *modules, const char *path, const char *build_id, guint64 base,
                      guint64 size);

/* The loader's count of unloads so far (dl_iterate_phdr's dlpi_subs; 0 if
 * the C library does not tell). A sample's frames resolved while it did
 * not move belong to the modules loaded when the sample was taken: with it
 * moved, a module loaded since may sit where the sampled one was. */
guint64 js_modules_unloads (void);

/* Borrowed; valid as long as `modules` (entries are never freed). */
const JsModule *js_modules_get (JsModules *modules, guint id);

G_END_DECLS
