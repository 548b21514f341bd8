/* symbolize-throughput.c: how fast js-symbolizer.c turns code addresses
 * into frames, against libdw's own lookup.
 *
 * Addresses: points inside the functions of libglib, libgtk-4 (dlopened; if
 * it is missing, libgio), libc and this program, from their symbol tables
 * (each function's start, then every 4 bytes of it, round-robin over the
 * functions until there are enough). Timings, in one run:
 *
 *   cold      a new symbolizer, every address once (modules reported and
 *             symbol tables read on the way);
 *   warm      the same addresses again (cached up to 65,536 addresses; the
 *             rest are looked up again, with the tables already read);
 *   cached    only addresses the cache holds: a hash lookup each;
 *   baseline  dwfl_addrmodule + dwfl_module_addrinfo on a fresh Dwfl from
 *             dwfl_linux_proc_report, for a spread-out subset.
 *
 * Offline: no debuginfod. BENCH_QUICK=1: 20,000 addresses, baseline 500.
 * Prints numbers, never judges them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-modules.h"
#include "js-symbolizer.h"

#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  guint64 start;
  guint64 size;
} Function;

/* The last one only without GTK. libc has DWARF when its debug package is
 * installed (file:line, inline frames: the slower path). */
static const char *const wanted[] = { "libglib-2.0.so", "libgtk-4.so", "libc.so", "libgio-2.0.so" };

static gboolean
wanted_module (const char *name, const char *main_name, gboolean have_gtk)
{
  g_autofree char *base = g_path_get_basename (name);

  if (g_strcmp0 (base, main_name) == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    if (g_str_has_prefix (base, wanted[i]) && (i < 3 || !have_gtk))
      return TRUE;
  return FALSE;
}

static const Dwfl_Callbacks proc_callbacks = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = dwfl_build_id_find_debuginfo, /* local files only */
};

static Dwfl *
proc_dwfl (void)
{
  Dwfl *dwfl = dwfl_begin (&proc_callbacks);

  if (dwfl == NULL)
    return NULL;
  dwfl_report_begin (dwfl);
  if (dwfl_linux_proc_report (dwfl, getpid ()) != 0 || dwfl_report_end (dwfl, NULL, NULL) != 0)
    {
      dwfl_end (dwfl);
      return NULL;
    }
  return dwfl;
}

typedef struct
{
  GArray *functions;
  const char *main_name;
  gboolean have_gtk;
  GString *names;
} Collect;

static int
collect_module (Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start, void *arg)
{
  Collect *c = arg;
  int n;

  if (!wanted_module (name, c->main_name, c->have_gtk) || (n = dwfl_module_getsymtab (mod)) <= 0)
    return DWARF_CB_OK;
  g_string_append_printf (c->names, "%s%s", c->names->len ? ", " : "", name);
  for (int i = 0; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr addr;
      GElf_Word shndx;
      const char *sym_name = dwfl_module_getsym_info (mod, i, &sym, &addr, &shndx, NULL, NULL);
      Function f = { addr, sym.st_size };

      if (sym_name != NULL && GELF_ST_TYPE (sym.st_info) == STT_FUNC && shndx != SHN_UNDEF
          && sym.st_size > 0 && addr != 0)
        g_array_append_val (c->functions, f);
    }
  return DWARF_CB_OK;
}

static int
compare_functions (gconstpointer a, gconstpointer b)
{
  const Function *fa = a, *fb = b;

  return fa->start < fb->start ? -1 : fa->start > fb->start;
}

static GArray *
collect_addresses (guint wanted_count, gboolean have_gtk, GString *names)
{
  Dwfl *dwfl = proc_dwfl ();
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *main_name = g_path_get_basename (exe ? exe : "symbolize-throughput");
  Collect c = { g_array_new (FALSE, FALSE, sizeof (Function)), main_name, have_gtk, names };
  GArray *addresses = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint kept = 0;

  if (dwfl == NULL)
    return addresses;
  dwfl_getmodules (dwfl, collect_module, &c, 0);
  dwfl_end (dwfl);

  /* One per start address (aliases share one). */
  g_array_sort (c.functions, compare_functions);
  for (guint i = 0; i < c.functions->len; i++)
    if (kept == 0
        || g_array_index (c.functions, Function, kept - 1).start
               != g_array_index (c.functions, Function, i).start)
      g_array_index (c.functions, Function, kept++) = g_array_index (c.functions, Function, i);
  g_array_set_size (c.functions, kept);

  /* Round-robin: every function's start, then +4, +8... */
  for (guint64 offset = 0; addresses->len < wanted_count; offset += 4)
    {
      gboolean any = FALSE;

      for (guint i = 0; i < c.functions->len && addresses->len < wanted_count; i++)
        {
          const Function *f = &g_array_index (c.functions, Function, i);
          guint64 address = f->start + offset;

          if (offset < f->size)
            {
              g_array_append_val (addresses, address);
              any = TRUE;
            }
        }
      if (!any)
        break;
    }
  g_array_unref (c.functions);
  return addresses;
}

static long
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      || (line = strstr (status, "VmRSS:")) == NULL)
    return -1;
  return strtol (line + 6, NULL, 10);
}

static double
rate (guint count, gint64 ns)
{
  return ns > 0 ? count * 1e9 / ns : 0.0;
}

int
main (int argc, char **argv)
{
  gboolean quick = g_strcmp0 (g_getenv ("BENCH_QUICK"), "1") == 0;
  guint count = quick ? 20000 : 200000;
  guint baseline_count = quick ? 500 : 2000;
  void *gtk = dlopen ("libgtk-4.so.1", RTLD_NOW | RTLD_LOCAL);
  void *gio = gtk != NULL ? NULL : dlopen ("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
  GString *names = g_string_new (NULL);
  GArray *addresses = collect_addresses (count, gtk != NULL, names);
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  JsModules *modules = js_modules_new ();
  JsSymbolizer *symbolizer;
  JsSymbolizerStats stats;
  guint named = 0, with_line = 0, baseline_named = 0, cached_subset;
  gint64 t0, cold_ns, warm_ns, cached_ns, baseline_ns;
  long rss_before, rss_after;
  Dwfl *dwfl;

  if (addresses->len == 0)
    {
      fprintf (stderr, "symbolize-throughput: no addresses collected\n");
      return 1;
    }
  printf ("symbolize-throughput: %u addresses in %s%s\n", addresses->len, names->str,
          quick ? " (BENCH_QUICK)" : "");

  rss_before = rss_kib ();
  symbolizer = js_symbolizer_new (modules, FALSE);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < addresses->len; i++)
    {
      guint n;

      g_array_set_size (frames, 0);
      n = js_symbolizer_lookup (symbolizer, g_array_index (addresses, guint64, i), FALSE, frames);
      named += n > 0 && g_array_index (frames, JsFrame, n - 1).function != NULL;
      with_line += n > 0 && g_array_index (frames, JsFrame, 0).line != 0;
    }
  cold_ns = (g_get_monotonic_time () - t0) * 1000;
  rss_after = rss_kib ();

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < addresses->len; i++)
    {
      g_array_set_size (frames, 0);
      js_symbolizer_lookup (symbolizer, g_array_index (addresses, guint64, i), FALSE, frames);
    }
  warm_ns = (g_get_monotonic_time () - t0) * 1000;
  js_symbolizer_get_stats (symbolizer, &stats);

  /* Only addresses the cache holds (the first ones: it fills in order). */
  cached_subset = MIN (addresses->len, 60000);
  t0 = g_get_monotonic_time ();
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < cached_subset; i++)
      {
        g_array_set_size (frames, 0);
        js_symbolizer_lookup (symbolizer, g_array_index (addresses, guint64, i), FALSE, frames);
      }
  cached_ns = (g_get_monotonic_time () - t0) * 1000;

  printf ("  cold:     %10.0f addresses/s  (%.2f s; %u named = %.0f%%, %u with a line; "
          "%u modules read; RSS +%ld MiB)\n",
          rate (addresses->len, cold_ns), cold_ns / 1e9, named, 100.0 * named / addresses->len,
          with_line, stats.modules_loaded, (rss_after - rss_before) / 1024);
  printf ("  warm:     %10.0f addresses/s  (%.2f s; cache hits %.0f%% of this pass)\n",
          rate (addresses->len, warm_ns), warm_ns / 1e9,
          100.0 * (stats.cache_hits) / addresses->len);
  printf ("  cached:   %10.0f addresses/s  (%u addresses x 3, all cache hits)\n",
          rate (cached_subset * 3, cached_ns), cached_subset);
  js_symbolizer_free (symbolizer);

  /* Baseline: libdw's lookup (a linear scan of the symbol table per
   * address), every (count / baseline_count)-th address. */
  dwfl = proc_dwfl ();
  if (dwfl != NULL)
    {
      guint step = MAX (1, addresses->len / baseline_count), done = 0;

      t0 = g_get_monotonic_time ();
      for (guint i = 0; i < addresses->len && done < baseline_count; i += step, done++)
        {
          guint64 address = g_array_index (addresses, guint64, i);
          Dwfl_Module *mod = dwfl_addrmodule (dwfl, address);
          GElf_Off offset;
          GElf_Sym sym;

          if (mod != NULL
              && dwfl_module_addrinfo (mod, address, &offset, &sym, NULL, NULL, NULL) != NULL)
            baseline_named++;
        }
      baseline_ns = (g_get_monotonic_time () - t0) * 1000;
      printf ("  baseline: %10.0f addresses/s  (dwfl_module_addrinfo, %u addresses, %.2f s, "
              "%u named)\n",
              rate (done, baseline_ns), done, baseline_ns / 1e9, baseline_named);
      dwfl_end (dwfl);
    }

  js_modules_free (modules);
  g_array_unref (frames);
  g_array_unref (addresses);
  g_string_free (names, TRUE);
  if (gtk != NULL)
    dlclose (gtk);
  if (gio != NULL)
    dlclose (gio);
  return 0;
}
