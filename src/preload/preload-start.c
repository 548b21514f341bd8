/* preload-start.c: knowing that the program's main () has started.
 *
 * jankscope starts at the first main-loop use after main () has started,
 * never before (preload.c): another library's constructor may use GLib's
 * main loop before main (install a poll function, attach a source), and an
 * app may close every fd above 2 at the top of main (daemons do), which
 * would hand GLib's wake-up eventfd, had we created it, to the app's next
 * open ().
 *
 * How main () is seen: the executable's start code (_start, from crt1.o)
 * calls glibc's __libc_start_main (main, argc, argv, ...) through its GOT.
 * The preload defines __libc_start_main too, without a version: the dynamic
 * loader binds the executable's versioned reference (@GLIBC_2.34, or
 * @GLIBC_2.2.5 in binaries built before glibc 2.34) to the first definition
 * in the global scope, and an unversioned definition satisfies any version
 * (checked on glibc 2.36 with PIE and non-PIE executables, python3 and dash).
 * Ours forwards to glibc's (dlsym (RTLD_NEXT); both versions are one
 * function there) with main replaced by a wrapper that sets
 * js_preload_main_started and tail-calls the real main. glibc runs the
 * executable's own constructors inside __libc_start_main, so the flag is set
 * after them and before the first line of main.
 *
 * A program whose start code does not import __libc_start_main (a custom
 * _start) would never set the flag: for it the constructor sets it at once,
 * and jankscope starts at the first main-loop use, wherever that is.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "preload-private.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LIBC_START_MAIN "__libc_start_main"
/* A bound on the executable's symbols we look at (a large app has a few
 * thousand). */
#define MAX_SYMBOLS (1 << 20)

int js_preload_main_started;

typedef int (*JsMainFunc) (int argc, char **argv, char **envp);

/* glibc's prototype (no header declares it). init and fini changed meaning
 * across versions: they are passed on untouched. */
JS_EXPORT int __libc_start_main (JsMainFunc main_fn, int argc, char **argv, void *init, void *fini,
                                 void *rtld_fini, void *stack_end);

typedef int (*JsLibcStartMain) (JsMainFunc main_fn, int argc, char **argv, void *init, void *fini,
                                void *rtld_fini, void *stack_end);

static JsMainFunc real_main;

static int
main_wrapper (int argc, char **argv, char **envp)
{
  __atomic_store_n (&js_preload_main_started, 1, __ATOMIC_RELAXED);
  return real_main (argc, argv, envp); /* a tail call: no frame of ours under main */
}

int
__libc_start_main (JsMainFunc main_fn, int argc, char **argv, void *init, void *fini,
                   void *rtld_fini, void *stack_end)
{
  JsLibcStartMain real = (JsLibcStartMain) dlsym (RTLD_NEXT, LIBC_START_MAIN);

  if (real == NULL)
    {
      /* glibc defines it: only a broken installation gets here. */
      fprintf (stderr, "jankscope: %s not found below the preload\n", LIBC_START_MAIN);
      _exit (127);
    }
  real_main = main_fn;
  return real (main_wrapper, argc, argv, init, fini, rtld_fini, stack_end);
}

static int
first_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  *(struct dl_phdr_info *) data = *info;
  return 1; /* the main program comes first */
}

/* An address from the executable's .dynamic. glibc relocates them in place
 * on most architectures; where .dynamic is read-only they are still offsets
 * from the load bias. */
static const void *
dynamic_address (const ElfW (Dyn) * dyn, ElfW (Sxword) tag, ElfW (Addr) bias)
{
  for (; dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == tag)
      return (const void *) (dyn->d_un.d_ptr < bias ? dyn->d_un.d_ptr + bias : dyn->d_un.d_ptr);
  return NULL;
}

/* 1 when the executable imports `name` (an undefined symbol of its dynamic
 * symbol table), 0 when it does not; 1 when it cannot tell. */
static int
executable_imports (const char *name)
{
  struct dl_phdr_info exe = { 0 };
  const ElfW (Dyn) *dyn = NULL;
  const ElfW (Sym) * symtab;
  const uint32_t *gnu_hash, *hash;
  const char *strtab;
  size_t n_symbols;

  if (dl_iterate_phdr (first_object, &exe) == 0 || exe.dlpi_phdr == NULL)
    return 1;
  for (ElfW (Half) i = 0; i < exe.dlpi_phnum; i++)
    if (exe.dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW (Dyn) *) (exe.dlpi_addr + exe.dlpi_phdr[i].p_vaddr);
  if (dyn == NULL)
    return 1;
  symtab = dynamic_address (dyn, DT_SYMTAB, exe.dlpi_addr);
  strtab = dynamic_address (dyn, DT_STRTAB, exe.dlpi_addr);
  gnu_hash = dynamic_address (dyn, DT_GNU_HASH, exe.dlpi_addr);
  hash = dynamic_address (dyn, DT_HASH, exe.dlpi_addr);
  if (symtab == NULL || strtab == NULL)
    return 1;
  /* With a GNU hash table, the symbols it does not hash (the undefined ones
   * among them) come first, below its symoffset; a SysV table counts them
   * all (nchain). */
  if (gnu_hash != NULL)
    n_symbols = gnu_hash[1];
  else if (hash != NULL)
    n_symbols = hash[1];
  else
    return 1;
  if (n_symbols > MAX_SYMBOLS)
    return 1;
  for (size_t i = 1; i < n_symbols; i++)
    if (symtab[i].st_shndx == SHN_UNDEF && strcmp (strtab + symtab[i].st_name, name) == 0)
      return 1;
  return 0;
}

void
js_preload_start_init (void)
{
  if (!executable_imports (LIBC_START_MAIN))
    __atomic_store_n (&js_preload_main_started, 1, __ATOMIC_RELAXED);
}
