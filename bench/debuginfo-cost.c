/* debuginfo-cost.c: what the symbolizer pays the first time an address
 * falls in a module, by where the module's names come from.
 *
 *   debuginfo-cost --rounds N --offset HEX LABEL=PATH [LABEL=PATH ...]
 *
 * Each PATH is a copy of one library (run-debuginfo-cost.py makes them:
 * stripped, stripped with MiniDebugInfo, the original with its debug file
 * under /usr/lib/debug). Per round and per copy, in an order that rotates
 * every round: a fresh symbolizer over an offline module registry holding
 * the copy, and one lookup at OFFSET (a static function): the module is
 * reported to libdwfl, its symbol table read (MiniDebugInfo decompressed
 * with it), its DWARF looked for. That first lookup is timed; a second one
 * at the same module shows the warm cost. Offline: no debuginfod, no
 * JANKSCOPE_DEBUG_DIRS.
 *
 * Prints numbers, never judges them; the last lines are "RESULT ...".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-modules.h"
#include "js-symbolizer.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BASE G_GUINT64_CONSTANT (0x7f0000000000)
#define MAX_VARIANTS 8

typedef struct
{
  const char *label;
  const char *path;
  char *build_id;
  GArray *cold_ns, *warm_ns; /* gint64 */
  const char *function;
  gboolean has_line;
} Variant;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static char *
file_build_id (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  const void *id = NULL;
  ssize_t n;
  GString *hex = g_string_new (NULL);

  if (fd < 0)
    return NULL;
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  n = elf != NULL ? dwelf_elf_gnu_build_id (elf, &id) : -1;
  for (ssize_t i = 0; i < n; i++)
    g_string_append_printf (hex, "%02x", ((const guint8 *) id)[i]);
  if (elf != NULL)
    elf_end (elf);
  close (fd);
  return g_string_free (hex, n <= 0);
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
median (GArray *values)
{
  g_array_sort (values, compare_gint64);
  return g_array_index (values, gint64, values->len / 2);
}

/* One round of one variant. */
static void
measure (Variant *v, guint64 offset)
{
  JsModules *modules = js_modules_new_offline ();
  guint id = js_modules_add (modules, v->path, v->build_id, BASE, 64 << 20);
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  JsSymbolizer *s;
  const JsFrame *f;
  gint64 t0, t1, t2;

  t0 = now_ns ();
  s = js_symbolizer_new (modules, FALSE);
  js_symbolizer_lookup_in (s, id, BASE + offset, FALSE, frames);
  t1 = now_ns ();
  /* Another address of the same module: its tables are read by now. */
  js_symbolizer_lookup_in (s, id, BASE + offset + 1, FALSE, frames);
  t2 = now_ns ();
  g_array_append_vals (v->cold_ns, &(gint64){ t1 - t0 }, 1);
  g_array_append_vals (v->warm_ns, &(gint64){ t2 - t1 }, 1);
  f = &g_array_index (frames, JsFrame, frames->len - 1);
  if (v->function == NULL && f->function != NULL)
    v->function = g_strdup (f->function);
  v->has_line = f->line > 0;
  js_symbolizer_free (s);
  js_modules_free (modules);
  g_array_unref (frames);
}

int
main (int argc, char **argv)
{
  Variant variants[MAX_VARIANTS];
  guint n = 0, rounds = 20;
  guint64 offset = 0;

  elf_version (EV_CURRENT);
  for (int i = 1; i < argc; i++)
    {
      char *eq;

      if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
        rounds = (guint) atoi (argv[++i]);
      else if (strcmp (argv[i], "--offset") == 0 && i + 1 < argc)
        offset = g_ascii_strtoull (argv[++i], NULL, 16);
      else if ((eq = strchr (argv[i], '=')) != NULL && n < MAX_VARIANTS)
        {
          *eq = '\0';
          variants[n] = (Variant){ argv[i],
                                   eq + 1,
                                   file_build_id (eq + 1),
                                   g_array_new (FALSE, FALSE, sizeof (gint64)),
                                   g_array_new (FALSE, FALSE, sizeof (gint64)),
                                   NULL,
                                   FALSE };
          n++;
        }
      else
        {
          fprintf (stderr, "usage: debuginfo-cost --rounds N --offset HEX LABEL=PATH...\n");
          return 2;
        }
    }
  if (n == 0 || offset == 0 || rounds == 0)
    {
      fprintf (stderr, "debuginfo-cost: no variants, no --offset or no rounds\n");
      return 2;
    }
  for (guint r = 0; r < rounds; r++)
    for (guint k = 0; k < n; k++)
      measure (&variants[(r + k) % n], offset);

  printf ("%-16s %12s %12s %12s   %s\n", "copy", "first (µs)", "min (µs)", "next (µs)",
          "name at the offset");
  for (guint k = 0; k < n; k++)
    {
      Variant *v = &variants[k];
      gint64 cold = median (v->cold_ns), warm = median (v->warm_ns);

      printf ("%-16s %12.1f %12.1f %12.1f   %s%s\n", v->label, cold / 1e3,
              g_array_index (v->cold_ns, gint64, 0) / 1e3, warm / 1e3,
              v->function ? v->function : "(none)", v->has_line ? " (file:line)" : "");
    }
  for (guint k = 0; k < n; k++)
    printf ("RESULT copy=%s first_ns=%" G_GINT64_FORMAT " next_ns=%" G_GINT64_FORMAT
            " named=%d lines=%d\n",
            variants[k].label, median (variants[k].cold_ns), median (variants[k].warm_ns),
            variants[k].function != NULL, variants[k].has_line);
  return 0;
}
