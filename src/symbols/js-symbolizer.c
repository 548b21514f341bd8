/* js-symbolizer.c
 *
 * Two libdwfl sessions:
 *
 * - `names`, for functions, inline frames and lines. Each JsModule is
 *   reported once, when an address first falls in it, under a name of its
 *   own ("libfoo.so#12"), and its Dwfl_Module is kept: we never ask libdwfl
 *   which module holds an address (JsModules knows), so a dlclosed module
 *   and the one loaded later at the same address can both be in it.
 * - `unwind`, for libdw's unwinder, which does ask libdwfl for the module of
 *   each pc (its CFI). It holds only modules loaded now, reported while the
 *   unwinder walks up (the frame callback runs before the unwinder looks at
 *   the frame's caller), and is rebuilt when one of them is unloaded.
 *   dwfl_attach_state () works once per Dwfl: its callbacks unwind the
 *   stack copy that `current` points to.
 *
 * Where a module's names come from, best first (libdwfl asks our
 * find_debuginfo callback only when the module's own file has no .symtab,
 * or no DWARF):
 *
 *   1. the module's own file, when it was not stripped;
 *   2. a separate debug file on this machine (js-debug-files.h: .build-id
 *      and .gnu_debuglink under JANKSCOPE_DEBUG_DIRS and /usr/lib/debug,
 *      beside the module); dwz's shared alt files through libdwfl's own
 *      .build-id search over the same roots;
 *   3. with JANKSCOPE_DEBUGINFOD=1, a debug file from a debuginfod server
 *      (js-debuginfod.h), fetched on another thread: until it has come, the
 *      module's frames are marked `provisional`, and once it is there the
 *      module is reported again (libdwfl keeps a module's failures), so
 *      lookups made after that get its DWARF;
 *   4. MiniDebugInfo (.gnu_debugdata, the xz-compressed symbol table of the
 *      static functions that Fedora puts in every binary): libdwfl reads it
 *      itself (with liblzma) when it finds no debug file, and merges it with
 *      .dynsym; function names, no lines;
 *   5. .dynsym: exported functions only.
 *
 * libdwfl's standard callbacks (dwfl_standard_find_debuginfo,
 * dwfl_build_id_find_elf) end in a debuginfod download on the calling
 * thread, with the client's 90 s timeout: they are never used. The
 * environment is not touched.
 *
 * Not thread-safe: one thread (the collector) owns a JsSymbolizer.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "js-symbolizer.h"
#include "js-clock.h"
#include "js-debug-files.h"
#include "js-debuginfod.h"
#include "js-demangle.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAX 65536                  /* addresses; past that, not cached */
#define CACHE_FRAMES_MAX (CACHE_MAX * 4) /* their frames, inline ones included */
#define MAX_INLINE_DEPTH 32
#define MAX_SCOPE_DEPTH 64 /* DIE nesting looked at: functions, inlines, blocks */
#define VDSO_MAX_SIZE (1 << 20)
/* Reports of one module in `names`: the first, and one when its debug file
 * came from debuginfod. */
#define MAX_REPORTS 2
#define DEMANGLED_MAX 65536 /* names; past that, demangled again each time */

typedef struct
{
  guint64 address;  /* absolute, at the module's load bias */
  const char *name; /* libdw's: lives as long as the `names` session */
  guint32 size;
  guint8 rank; /* lower is better: global, weak, local */
} Symbol;

typedef struct
{
  gboolean reported; /* in `names` (tried) */
  Dwfl_Module *mod;  /* NULL if it could not be reported */
  guint reports;     /* times it was reported in `names` */
  gboolean symbols_read;
  Symbol *symbols; /* functions, sorted by address, one per address */
  guint n_symbols;
  gboolean dwarf_checked, has_dwarf;
  gboolean pending; /* its debug file is asked of debuginfod */
  guint unwind_gen; /* the `unwind` session it was reported in, 0 = none */
} ModInfo;

typedef struct _JsSymbolizer JsSymbolizer;
typedef struct _Session Session;

/* A reported module's libdwfl user data: who asks for its files. */
typedef struct
{
  JsSymbolizer *s;
  Session *session;
  guint id; /* JsModules id */
} ModRef;

struct _Session
{
  Dwfl *dwfl;
  guint8 *vdso_image; /* the vDSO has no file: a copy of its ELF image */
  gsize vdso_size;
  GPtrArray *refs; /* ModRef, freed with the session */
};

struct _JsSymbolizer
{
  JsModules *modules;
  Dwfl_Callbacks callbacks;
  char *debuginfo_path; /* the callbacks' debuginfo_path: the debug roots */
  JsDebugFiles *files;
  JsDebuginfod *debuginfod; /* NULL unless JANKSCOPE_DEBUGINFOD=1 */
  Session names;
  Session unwind;
  guint unwind_gen;
  gboolean unwind_attached;
  GArray *unwind_ids;                 /* modules reported in `unwind` */
  ModInfo *infos[JS_MODULES_MAX + 1]; /* by module id */

  /* address -> (first << 8 | count) in cache_frames; one table per is_return */
  GHashTable *cache[2];
  GArray *cache_frames; /* JsFrame */
  GStringChunk *strings;
  GHashTable *demangled; /* raw name -> demangled name, or "" (none); both interned */

  /* Past this (js_now_ns clock; 0: never), only what costs no loading is
   * done: the app is exiting and waits for the final report. */
  gint64 deadline_ns;
  gboolean degraded;    /* the lookup under way gave up something for the deadline */
  gboolean provisional; /* the lookup under way may give more later (debuginfod) */

  /* The unwind in progress. */
  const JsStackCopy *current;
  guint64 *unwind_out;
  guint unwind_max, unwind_n;

  JsSymbolizerStats stats;
};

static ModInfo *mod_info (JsSymbolizer *s, guint id);
static gboolean past_deadline (JsSymbolizer *s);

/* ---- finding files --------------------------------------------------------- */

static gboolean
build_id_to_bytes (const char *hex, guint8 *bytes, gsize *len)
{
  gsize n = hex == NULL ? 0 : strlen (hex);

  if (n == 0 || n % 2 != 0 || n / 2 > 64)
    return FALSE;
  for (gsize i = 0; i < n / 2; i++)
    {
      int hi = g_ascii_xdigit_value (hex[2 * i]), lo = g_ascii_xdigit_value (hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      bytes[i] = (guint8) (hi << 4 | lo);
    }
  *len = n / 2;
  return TRUE;
}

/* libdwfl's find_debuginfo: asked once per module for its separate debug
 * file (when its own file has no .symtab or no DWARF), and once more for
 * the dwz alt file its debug file points to (.gnu_debugaltlink: then
 * `debuglink_file` is the alt file's name and the CRC 0). */
static int
find_debuginfo (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
                char **debuginfo_file_name)
{
  ModRef *ref = *userdata;
  JsSymbolizer *s = ref != NULL ? ref->s : NULL;
  const unsigned char *bits;
  GElf_Addr vaddr;
  int len, fd;
  g_autofree char *fetched = NULL;

  if (s == NULL)
    return -1;
  if (debuglink_file != NULL && debuglink_crc == 0)
    /* The alt file (libdwfl checks its build-id), under the same roots. */
    return dwfl_build_id_find_debuginfo (mod, userdata, modname, base, file_name, debuglink_file,
                                         debuglink_crc, debuginfo_file_name);
  len = dwfl_module_build_id (mod, &bits, &vaddr);
  if (len <= 0)
    return -1;
  fd = js_debug_files_open_debuginfo (s->files, file_name, bits, (gsize) len, debuglink_file,
                                      debuginfo_file_name);
  if (fd >= 0 || s->debuginfod == NULL)
    return fd;
  /* Only the `names` session asks; `unwind` takes what has come. */
  switch (
      js_debuginfod_lookup (s->debuginfod, bits, (gsize) len, ref->session == &s->names, &fetched))
    {
    case JS_DEBUGINFOD_FOUND:
      fd = js_debug_files_open_checked (fetched, bits, (gsize) len);
      if (fd >= 0)
        *debuginfo_file_name = strdup (fetched);
      break;
    case JS_DEBUGINFOD_PENDING:
      if (ref->session == &s->names)
        mod_info (s, ref->id)->pending = TRUE;
      break;
    case JS_DEBUGINFOD_MISSING:
      break;
    }
  return fd;
}

/* Only for modules reported without their file: the vDSO (its image is in
 * memory) and modules whose file is gone or was replaced (the original,
 * by build-id, from ROOT/.build-id/xx/yyyy). */
static int
find_elf (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base, char **file_name,
          Elf **elfp)
{
  ModRef *ref = *userdata;
  Session *session = ref != NULL ? ref->session : NULL;
  const unsigned char *bits;
  GElf_Addr vaddr;
  int len;

  *elfp = NULL;
  if (session != NULL && session->vdso_image != NULL)
    {
      const char *name = dwfl_module_info (mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

      if (name != NULL && g_str_has_prefix (name, "linux-vdso"))
        {
          *elfp = elf_memory ((char *) session->vdso_image, session->vdso_size);
          return -1;
        }
    }
  len = dwfl_module_build_id (mod, &bits, &vaddr);
  if (ref == NULL || len < 2)
    return -1;
  return js_debug_files_open_original (ref->s->files, bits, (gsize) len, file_name);
}

/* ---- reporting modules ----------------------------------------------------- */

static gboolean
session_begin (JsSymbolizer *s, Session *session)
{
  session->dwfl = dwfl_begin (&s->callbacks);
  if (session->refs == NULL)
    session->refs = g_ptr_array_new_with_free_func (g_free);
  return session->dwfl != NULL;
}

static void
session_end (Session *session)
{
  if (session->dwfl != NULL)
    dwfl_end (session->dwfl);
  session->dwfl = NULL;
  g_clear_pointer (&session->vdso_image, g_free);
  session->vdso_size = 0;
  if (session->refs != NULL)
    g_ptr_array_set_size (session->refs, 0);
}

static gboolean
is_vdso (const JsModule *m)
{
  return !m->is_main && m->path[0] != '/' && g_str_has_prefix (m->name, "linux-vdso");
}

/* The size of the vDSO's ELF image (its section headers are past the end
 * of its PT_LOAD segment, in the same mapped pages), or 0. */
static gsize
vdso_image_size (const JsModule *m)
{
  const guint8 *image = (const guint8 *) (guintptr) m->start;
  guint64 mapped = ((m->end - m->start) + 4095) & ~(guint64) 4095;
  GElf_Ehdr ehdr;
  guint64 size;

  if (m->start != m->base || mapped > VDSO_MAX_SIZE || mapped < sizeof (Elf64_Ehdr)
      || memcmp (image, ELFMAG, SELFMAG) != 0 || image[EI_CLASS] != ELFCLASS64)
    return 0;
  memcpy (&ehdr, image, sizeof (Elf64_Ehdr)); /* GElf_Ehdr is Elf64_Ehdr */
  size = MAX (ehdr.e_shoff + (guint64) ehdr.e_shnum * ehdr.e_shentsize,
              ehdr.e_phoff + (guint64) ehdr.e_phnum * ehdr.e_phentsize);
  size = MAX (size, m->end - m->start);
  return size <= mapped ? (gsize) size : 0;
}

/* Adds `m` to the session; NULL if its file can't be had. The caller keeps
 * the result: libdwfl frees modules only at dwfl_end (nothing is removed).
 * `nth`: how many times it was reported in this session before. */
static Dwfl_Module *
report (JsSymbolizer *s, Session *session, const JsModule *m, guint nth)
{
  g_autofree char *name = NULL;
  guint8 bits[64];
  gsize len = 0;
  gboolean has_id = build_id_to_bytes (m->build_id, bits, &len);
  Dwfl_Module *mod = NULL;
  void **userdata = NULL;

  if (session->dwfl == NULL || m->path == NULL)
    return NULL;
  /* Unique per JsModule (and report): libdwfl merges reports of equal name
   * and range. */
  name = nth == 0 ? g_strdup_printf ("%s#%u", m->name, m->id)
                  : g_strdup_printf ("%s#%u.%u", m->name, m->id, nth);
  dwfl_report_begin_add (session->dwfl);
  if (!is_vdso (m))
    {
      /* A file replaced since it was loaded (an upgrade) would give wrong
       * names and CFI: it must carry the build-id seen in memory. */
      int fd = js_debug_files_open_checked (m->path, has_id ? bits : NULL, len);

      if (fd >= 0)
        {
          /* ET_DYN: base is the load bias (dlpi_addr), p_vaddr added. */
          mod = dwfl_report_elf (session->dwfl, name, m->path, fd, m->base, true);
          if (mod == NULL)
            close (fd);
        }
    }
  else if (!m->unloaded && session->vdso_image == NULL
           && (session->vdso_size = vdso_image_size (m)) > 0)
    {
      session->vdso_image = g_memdup2 ((const void *) (guintptr) m->start, session->vdso_size);
      g_free (name);
      name = g_strdup_printf ("linux-vdso#%u", m->id);
      mod = dwfl_report_module (session->dwfl, name, m->start, m->end);
    }
  if (mod == NULL && has_id && !is_vdso (m))
    {
      /* No usable file: its original by build-id, if installed. */
      mod = dwfl_report_module (session->dwfl, name, m->start, m->end);
      if (mod != NULL && dwfl_module_report_build_id (mod, bits, len, 0) != 0)
        mod = NULL; /* stays in the session, unused (no file) */
    }
  dwfl_report_end (session->dwfl, NULL, NULL);
  if (mod != NULL && dwfl_module_info (mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) != NULL)
    {
      ModRef *ref = g_new (ModRef, 1);

      *ref = (ModRef){ s, session, m->id };
      g_ptr_array_add (session->refs, ref);
      *userdata = ref;
    }
  return mod;
}

static ModInfo *
mod_info (JsSymbolizer *s, guint id)
{
  if (id == 0 || id > JS_MODULES_MAX)
    return NULL;
  if (s->infos[id] == NULL)
    s->infos[id] = g_new0 (ModInfo, 1);
  return s->infos[id];
}

/* ---- symbol tables --------------------------------------------------------- */

/* Strings handed out live as long as the symbolizer, one copy each. */
static const char *
intern (JsSymbolizer *s, const char *string)
{
  return string == NULL ? NULL : g_string_chunk_insert_const (s->strings, string);
}

static int
compare_symbols (gconstpointer a, gconstpointer b)
{
  const Symbol *sa = a, *sb = b;

  if (sa->address != sb->address)
    return sa->address < sb->address ? -1 : 1;
  if (sa->rank != sb->rank)
    return sa->rank < sb->rank ? -1 : 1;
  return strcmp (sa->name, sb->name);
}

/* The module's function symbols, once: .symtab when there is one (in the
 * file or its debug file), else .dynsym (exported functions only). */
static void
read_symbols (JsSymbolizer *s, ModInfo *info)
{
  GArray *symbols;
  int n;
  guint kept = 0;

  info->symbols_read = TRUE;
  if (info->mod == NULL || (n = dwfl_module_getsymtab (info->mod)) <= 0)
    return;
  symbols = g_array_sized_new (FALSE, FALSE, sizeof (Symbol), (guint) n);
  for (int i = 0; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr address;
      GElf_Word shndx;
      const char *name = dwfl_module_getsym_info (info->mod, i, &sym, &address, &shndx, NULL, NULL);
      int type = GELF_ST_TYPE (sym.st_info);
      Symbol symbol;

      if (name == NULL || name[0] == '\0' || name[0] == '@'
          || (type != STT_FUNC && type != STT_GNU_IFUNC) || shndx == SHN_UNDEF
          || shndx == (GElf_Word) -1 || address == 0)
        continue;
      symbol.address = address;
      symbol.name = name;
      if (strchr (name, '@') != NULL)
        {
          /* "clock_nanosleep@@GLIBC_2.17" (.symver in a .symtab): the
           * version is no part of the name. */
          g_autofree char *bare = g_strndup (name, strcspn (name, "@"));

          symbol.name = intern (s, bare);
        }
      symbol.size = (guint32) MIN (sym.st_size, G_MAXUINT32);
      switch (GELF_ST_BIND (sym.st_info))
        {
        case STB_GLOBAL:
        case STB_GNU_UNIQUE:
          symbol.rank = 0;
          break;
        case STB_WEAK:
          symbol.rank = 1;
          break;
        default:
          symbol.rank = 2;
          break;
        }
      g_array_append_val (symbols, symbol);
    }
  g_array_sort (symbols, compare_symbols);

  /* One per address: the best-ranked name, the largest size. */
  for (guint i = 0; i < symbols->len; i++)
    {
      Symbol *sym = &g_array_index (symbols, Symbol, i);

      if (kept > 0 && g_array_index (symbols, Symbol, kept - 1).address == sym->address)
        {
          Symbol *prev = &g_array_index (symbols, Symbol, kept - 1);

          prev->size = MAX (prev->size, sym->size);
          continue;
        }
      g_array_index (symbols, Symbol, kept++) = *sym;
    }
  g_array_set_size (symbols, kept);
  info->n_symbols = kept;
  info->symbols = (Symbol *) g_array_free (symbols, FALSE);
}

/* The function symbol covering `pc`, or NULL: past the end of the symbol
 * before it, an address belongs to something the table does not name (a
 * static function of a stripped library), and guessing would be wrong. */
/* Whether the module's file carries MiniDebugInfo (.gnu_debugdata), which
 * libdwfl decompresses when it reads the symbol table without a debug file:
 * 10-20 ms per module with liblzma (bench/debuginfo-cost). */
static gboolean
has_minidebuginfo (Dwfl_Module *mod)
{
  Dwarf_Addr bias;
  Elf *elf = dwfl_module_getelf (mod, &bias);
  Elf_Scn *scn = NULL;
  size_t shstrndx;

  if (elf == NULL || elf_getshdrstrndx (elf, &shstrndx) != 0)
    return FALSE;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;

      if (gelf_getshdr (scn, &shdr) != NULL
          && (name = elf_strptr (elf, shstrndx, shdr.sh_name)) != NULL
          && strcmp (name, ".gnu_debugdata") == 0)
        return TRUE;
    }
  return FALSE;
}

static const char *
find_symbol (JsSymbolizer *s, ModInfo *info, guint64 pc)
{
  guint lo = 0, hi;

  /* The exit's wait is bounded: no MiniDebugInfo is decompressed then. */
  if (!info->symbols_read && __atomic_load_n (&s->deadline_ns, __ATOMIC_RELAXED) != 0
      && has_minidebuginfo (info->mod) && past_deadline (s))
    return NULL;
  if (!info->symbols_read)
    read_symbols (s, info);
  hi = info->n_symbols;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (info->symbols[mid].address <= pc)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* lo - 1 is the last symbol at or below pc; a sizeless label may sit
   * inside a larger function, so look a few symbols further back. */
  for (guint i = lo, steps = 0; i > 0 && steps < 8; i--, steps++)
    {
      const Symbol *sym = &info->symbols[i - 1];

      if (pc < sym->address + sym->size || (sym->size == 0 && pc == sym->address))
        return sym->name;
    }
  return NULL;
}

/* ---- DWARF: lines and inline frames ---------------------------------------- */

static const char *
die_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;

  /* Follows DW_AT_abstract_origin and DW_AT_specification. */
  return dwarf_formstring (dwarf_attr_integrate (die, DW_AT_name, &attr));
}

/* The name an inlined or symbol-less function goes by: its linkage name
 * where it has one (C++ and Rust: DW_AT_name is the bare "method", the
 * mangled name says "ns::Klass::method" once demangled), else its name. */
static const char *
die_function_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *linkage = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr));

  if (linkage == NULL)
    linkage = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr));
  return linkage != NULL ? linkage : die_name (die);
}

/* The demangled form of an interned name, interned, or NULL. Off the main
 * thread: the collector's lookups. */
static const char *
demangled (JsSymbolizer *s, const char *raw)
{
  const char *known;
  g_autofree char *text = NULL;

  if (raw == NULL || raw[0] != '_')
    return NULL; /* C names: nothing to ask */
  known = g_hash_table_lookup (s->demangled, raw);
  if (known == NULL)
    {
      text = js_demangle (raw);
      known = intern (s, text != NULL ? text : "");
      if (g_hash_table_size (s->demangled) < DEMANGLED_MAX)
        g_hash_table_insert (s->demangled, (gpointer) raw, (gpointer) known);
    }
  return known[0] != '\0' ? known : NULL;
}

static void
push (JsSymbolizer *s, GArray *out, const JsFrame *proto, const char *function, const char *file,
      int line, gboolean inlined)
{
  JsFrame frame = *proto;
  const char *readable;

  frame.function = intern (s, function);
  readable = demangled (s, frame.function);
  if (readable != NULL && strcmp (readable, frame.function) != 0)
    {
      frame.symbol = frame.function;
      frame.function = readable;
    }
  frame.file = intern (s, file);
  frame.line = line > 0 ? (guint) line : 0;
  frame.inlined = inlined;
  g_array_append_val (out, frame);
}

/* Whether DIEs with this tag can hold code (and so contain `pc`). */
static gboolean
is_code_scope (int tag)
{
  switch (tag)
    {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_entry_point:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
    case DW_TAG_with_stmt:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The DIEs containing `pc` below the CU, outermost first, as they nest in
 * the code: a function, the subroutines inlined into it, their blocks.
 * One walk down, skipping every subtree that does not hold pc.
 * (dwarf_getscopes () would give an inlined instance's abstract scopes,
 * and dwarf_getscopes_die () walks the CU from its start: too slow.) */
static int
code_scopes (Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *chain, int max)
{
  Dwarf_Die parent = *cu, child;
  int n = 0;

  while (n < max && dwarf_child (&parent, &child) == 0)
    {
      gboolean found = FALSE;

      do
        found = is_code_scope (dwarf_tag (&child)) && dwarf_haspc (&child, pc) > 0;
      while (!found && dwarf_siblingof (&child, &child) == 0);
      if (!found)
        break;
      chain[n++] = child;
      parent = child;
    }
  return n;
}

/* Appends the frames of `pc` in a module with DWARF: the inlined
 * subroutines around it, innermost first (each at the line inside it),
 * then the function they were inlined into, at the line of the outermost
 * call (as eu-addr2line -i). */
static void
push_dwarf_frames (JsSymbolizer *s, ModInfo *info, guint64 pc, const JsFrame *proto,
                   const char *symbol, GArray *out)
{
  Dwfl_Line *line = dwfl_module_getsrc (info->mod, pc);
  const char *file = NULL;
  int lineno = 0;
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = dwfl_module_addrdie (info->mod, pc, &bias);
  Dwarf_Die chain[MAX_SCOPE_DEPTH];
  int n_chain = 0, depth = 0;
  Dwarf_Files *files = NULL;
  const char *outer = symbol;

  if (line != NULL)
    file = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
  if (cu != NULL)
    n_chain = code_scopes (cu, pc - bias, chain, MAX_SCOPE_DEPTH);
  if (n_chain > 0 && dwarf_getsrcfiles (cu, &files, NULL) != 0)
    files = NULL;
  for (int i = n_chain - 1; i >= 0; i--)
    {
      int tag = dwarf_tag (&chain[i]);

      if (tag == DW_TAG_inlined_subroutine && depth < MAX_INLINE_DEPTH)
        {
          Dwarf_Attribute attr;
          Dwarf_Word value;

          push (s, out, proto, die_function_name (&chain[i]), file, lineno, TRUE);
          depth++;
          /* Where it was inlined: a position in the next frame out. */
          file = NULL;
          lineno = 0;
          if (files != NULL
              && dwarf_formudata (dwarf_attr (&chain[i], DW_AT_call_file, &attr), &value) == 0)
            file = dwarf_filesrc (files, value, NULL, NULL);
          if (dwarf_formudata (dwarf_attr (&chain[i], DW_AT_call_line, &attr), &value) == 0)
            lineno = (int) MIN (value, G_MAXINT);
        }
      else if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point)
        {
          if (outer == NULL)
            outer = die_function_name (&chain[i]);
          break;
        }
    }
  if (outer == NULL && n_chain == 0)
    {
      /* In no function: alignment padding, which the line table runs over. */
      file = NULL;
      lineno = 0;
    }
  push (s, out, proto, outer, file, lineno, FALSE);
}

/* ---- lookups --------------------------------------------------------------- */

/* A module dlclosed since: the newest unloaded one that covered `pc`
 * (the address was resolved when its sample was taken; nothing is mapped
 * there now). */
static guint
find_unloaded (JsSymbolizer *s, guint64 pc)
{
  const JsModule *m;
  guint best = 0;

  for (guint id = 1; (m = js_modules_get (s->modules, id)) != NULL; id++)
    if (m->unloaded && pc >= m->start && pc < m->end)
      best = id;
  return best;
}

static gboolean
past_deadline (JsSymbolizer *s)
{
  gint64 deadline = __atomic_load_n (&s->deadline_ns, __ATOMIC_RELAXED);

  if (deadline == 0 || js_now_ns () < deadline)
    return FALSE;
  s->degraded = TRUE;
  s->stats.deadline_skips++;
  return TRUE;
}

/* The module's debug file was asked of debuginfod: once it is there, the
 * module is reported again (libdwfl keeps the failure of the first report's
 * search), so that this and later lookups get its symbols and DWARF. */
static void
check_pending (JsSymbolizer *s, const JsModule *m, ModInfo *info)
{
  guint8 bits[64];
  gsize len = 0;
  JsDebuginfodState state;
  Dwfl_Module *mod;

  if (!build_id_to_bytes (m->build_id, bits, &len))
    {
      info->pending = FALSE;
      return;
    }
  state = js_debuginfod_lookup (s->debuginfod, bits, len, FALSE, NULL);
  if (state == JS_DEBUGINFOD_PENDING || past_deadline (s))
    return;
  info->pending = FALSE;
  if (state != JS_DEBUGINFOD_FOUND || info->reports >= MAX_REPORTS)
    return;
  mod = report (s, &s->names, m, info->reports++);
  if (mod == NULL)
    return;
  /* The old module stays in the session (libdwfl frees none before
   * dwfl_end), and with it the names already handed out. */
  info->mod = mod;
  g_clear_pointer (&info->symbols, g_free);
  info->n_symbols = 0;
  info->symbols_read = FALSE;
  info->dwarf_checked = FALSE;
  info->has_dwarf = FALSE;
  s->stats.debuginfod_reloaded++;
}

/* The entry of the function holding `pc`, as an offset in the module, from
 * the call frame information (the FDE covering `pc` starts where the
 * function does); 0 when there is none. Nameless frames of one function
 * then count as one, wherever in it the samples landed. */
static guint64
function_entry (ModInfo *info, const JsModule *m, guint64 pc)
{
  Dwarf_Addr bias = 0, start = 0, end = 0;
  Dwarf_CFI *cfi = dwfl_module_eh_cfi (info->mod, &bias);
  Dwarf_Frame *frame = NULL;

  if (cfi == NULL)
    cfi = dwfl_module_dwarf_cfi (info->mod, &bias);
  if (cfi == NULL || pc < bias || dwarf_cfi_addrframe (cfi, pc - bias, &frame) != 0)
    return 0;
  dwarf_frame_info (frame, &start, &end, NULL);
  free (frame);
  if (start + bias < m->base || start > pc - bias || pc - bias >= end)
    return 0;
  return start + bias - m->base;
}

static void
symbolize (JsSymbolizer *s, guint module, guint64 address, gboolean is_return, GArray *out)
{
  guint64 pc = is_return && address > 0 ? address - 1 : address;
  JsFrame proto = { .offset = address };
  const JsModule *m;
  ModInfo *info;
  const char *symbol;
  guint id = module;

  if (id == 0)
    id = js_modules_resolve (s->modules, pc);
  if (id == 0 && pc != 0)
    id = find_unloaded (s, pc);
  m = js_modules_get (s->modules, id);
  info = mod_info (s, id);
  if (m == NULL || info == NULL)
    {
      g_array_append_val (out, proto);
      return;
    }
  proto.module = id;
  proto.offset = address - m->base;
  if (!info->reported)
    {
      info->reported = TRUE;
      info->mod = report (s, &s->names, m, info->reports++);
      if (info->mod != NULL)
        s->stats.modules_loaded++;
    }
  if (info->mod == NULL)
    {
      g_array_append_val (out, proto);
      return;
    }
  if (info->pending)
    check_pending (s, m, info);
  symbol = find_symbol (s, info, pc);
  if (symbol == NULL)
    proto.entry = function_entry (info, m, pc);
  if (!info->dwarf_checked && past_deadline (s))
    {
      /* Debug information can be compressed and large: the name only. */
      push (s, out, &proto, symbol, NULL, 0, FALSE);
      return;
    }
  if (!info->dwarf_checked)
    {
      Dwarf_Addr bias;

      info->dwarf_checked = TRUE;
      info->has_dwarf = dwfl_module_getdwarf (info->mod, &bias) != NULL;
    }
  if (info->has_dwarf)
    push_dwarf_frames (s, info, pc, &proto, symbol, out);
  else
    push (s, out, &proto, symbol, NULL, 0, FALSE);
}

guint
js_symbolizer_lookup (JsSymbolizer *s, guint64 address, gboolean is_return, GArray *out)
{
  return js_symbolizer_lookup_in (s, 0, address, is_return, out);
}

guint
js_symbolizer_lookup_in (JsSymbolizer *s, guint module, guint64 address, gboolean is_return,
                         GArray *out)
{
  GHashTable *cache;
  gpointer value;
  guint first, n;
  /* Cached per (module, address): a module loaded where a dlclosed one was
   * has the same addresses. User-space addresses fit in 48 bits. */
  guint64 key
      = (address & G_GUINT64_CONSTANT (0xffffffffffff)) | ((guint64) (module & 0xffff) << 48);

  if (s == NULL || out == NULL)
    return 0;
  s->stats.lookups++;
  cache = s->cache[is_return ? 1 : 0];
  if (g_hash_table_lookup_extended (cache, GSIZE_TO_POINTER (key), NULL, &value))
    {
      guintptr packed = GPOINTER_TO_SIZE (value);

      first = (guint) (packed >> 8);
      n = (guint) (packed & 0xff);
      g_array_append_vals (out, &g_array_index (s->cache_frames, JsFrame, first), n);
      s->stats.cache_hits++;
      return n;
    }
  first = out->len;
  s->degraded = FALSE;
  symbolize (s, module, address, is_return, out);
  n = out->len - first;
  if (n > 0)
    {
      ModInfo *info = mod_info (s, g_array_index (out, JsFrame, first).module);

      /* Its debug file may still come: the caller may look again. */
      if (info != NULL && info->pending)
        {
          for (guint i = first; i < out->len; i++)
            g_array_index (out, JsFrame, i).provisional = TRUE;
          s->stats.provisional++;
          return n;
        }
    }
  /* A frame cut short for the deadline is not what the next lookup should
   * get. */
  if (n > 0 && n < 256 && !s->degraded
      && g_hash_table_size (s->cache[0]) + g_hash_table_size (s->cache[1]) < CACHE_MAX
      && s->cache_frames->len + n <= CACHE_FRAMES_MAX)
    {
      guintptr packed = ((guintptr) s->cache_frames->len << 8) | n;

      g_array_append_vals (s->cache_frames, &g_array_index (out, JsFrame, first), n);
      g_hash_table_insert (cache, GSIZE_TO_POINTER (key), GSIZE_TO_POINTER (packed));
    }
  return n;
}

/* ---- unwinding a stack copy ------------------------------------------------ */

#if defined(__x86_64__)

#define DWARF_REG_RSP 7

static pid_t
unwind_next_thread (Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
  /* One thread: the copy. Any positive id will do. */
  if (*thread_argp != NULL)
    return 0;
  *thread_argp = dwfl_arg;
  return 1;
}

static bool
unwind_get_thread (Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
  *thread_argp = dwfl_arg;
  return tid == 1;
}

static bool
unwind_memory_read (Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
  JsSymbolizer *s = dwfl_arg;
  const JsStackCopy *copy = s->current;

  /* Only the copy: the thread runs on, its live stack is not ours to read. */
  if (copy == NULL || copy->size < sizeof *result || addr < copy->sp
      || addr - copy->sp > copy->size - sizeof *result)
    return false;
  memcpy (result, copy->data + (addr - copy->sp), sizeof *result);
  return true;
}

static bool
unwind_set_initial_registers (Dwfl_Thread *thread, void *thread_arg)
{
  JsSymbolizer *s = thread_arg;
  Dwarf_Word sp = s->current->sp;

  /* All that /proc/.../syscall gives: the others are unknown, and CFI
   * rules that need them fail, which ends the unwind there. */
  if (!dwfl_thread_state_registers (thread, DWARF_REG_RSP, 1, &sp))
    return false;
  dwfl_thread_state_register_pc (thread, s->current->pc);
  return true;
}

static const Dwfl_Thread_Callbacks unwind_callbacks = {
  .next_thread = unwind_next_thread,
  .get_thread = unwind_get_thread,
  .memory_read = unwind_memory_read,
  .set_initial_registers = unwind_set_initial_registers,
};

/* Makes sure the module holding `pc` is in the `unwind` session. */
static gboolean
unwind_report (JsSymbolizer *s, guint64 pc)
{
  guint id = js_modules_resolve (s->modules, pc);
  const JsModule *m = js_modules_get (s->modules, id);
  ModInfo *info = mod_info (s, id);

  if (m == NULL || info == NULL)
    return FALSE;
  if (info->unwind_gen != s->unwind_gen)
    {
      info->unwind_gen = s->unwind_gen;
      g_array_append_val (s->unwind_ids, id);
      return report (s, &s->unwind, m, 0) != NULL;
    }
  return TRUE;
}

/* The `unwind` session, started again if a module in it was unloaded (a
 * module loaded later at its address would be hidden by it). */
static gboolean
unwind_session (JsSymbolizer *s)
{
  gboolean stale = FALSE;

  for (guint i = 0; i < s->unwind_ids->len && !stale; i++)
    {
      const JsModule *m = js_modules_get (s->modules, g_array_index (s->unwind_ids, guint, i));

      stale = m == NULL || m->unloaded;
    }
  if (stale || s->unwind.dwfl == NULL)
    {
      session_end (&s->unwind);
      g_array_set_size (s->unwind_ids, 0);
      s->unwind_gen++;
      s->unwind_attached = FALSE;
      session_begin (s, &s->unwind);
    }
  return s->unwind.dwfl != NULL;
}

static int
unwind_frame (Dwfl_Frame *state, void *arg)
{
  JsSymbolizer *s = arg;
  Dwarf_Addr pc;

  /* Not asking whether the frame is an activation: libdwfl answers that
   * by unwinding the frame, i.e. before its module is reported below, and
   * without the module's CFI it falls back on the frame pointer, which
   * code built without one leaves holding anything (callers made up from
   * stale stack slots). */
  if (!dwfl_frame_pc (state, &pc, NULL) || pc == 0)
    return DWARF_CB_ABORT;
  s->unwind_out[s->unwind_n++] = pc;
  if (s->unwind_n >= s->unwind_max)
    return DWARF_CB_ABORT;
  /* The unwinder looks for this frame's CFI next: at pc - 1 for a return
   * address (the call), at pc for the first frame and for one a signal
   * interrupted (no call there). Which applies is the question not asked
   * above, so both are reported (each once per session: a second report is
   * a lookup). */
  unwind_report (s, pc);
  if (s->unwind_n > 1)
    unwind_report (s, pc - 1);
  return DWARF_CB_OK;
}

static guint
unwind (JsSymbolizer *s, const JsStackCopy *copy, guint64 *out, guint max)
{
  if (!unwind_session (s))
    return 0;
  /* The architecture comes from a module: the pc's, or our own. */
  if (!unwind_report (s, copy->pc) && !s->unwind_attached)
    unwind_report (s, (guint64) (guintptr) js_symbolizer_unwind_copy);
  if (!s->unwind_attached)
    {
      if (!dwfl_attach_state (s->unwind.dwfl, NULL, getpid (), &unwind_callbacks, s))
        return 0;
      s->unwind_attached = TRUE;
    }
  s->current = copy;
  s->unwind_out = out;
  s->unwind_max = max;
  s->unwind_n = 0;
  dwfl_getthread_frames (s->unwind.dwfl, 1, unwind_frame, s);
  s->current = NULL;
  s->unwind_out = NULL;
  return s->unwind_n;
}

#endif /* __x86_64__ */

guint
js_symbolizer_unwind_copy (JsSymbolizer *s, const JsStackCopy *copy, guint64 *out, guint max)
{
  guint n = 0;

  if (s == NULL || copy == NULL || copy->pc == 0 || out == NULL || max == 0)
    return 0;
#if defined(__x86_64__)
  if (copy->size >= sizeof (guint64) && max > 1)
    n = unwind (s, copy, out, max);
#endif
  if (n == 0)
    {
      out[0] = copy->pc;
      n = 1;
    }
  s->stats.unwinds++;
  s->stats.unwind_frames += n;
  return n;
}

/* ---- life cycle ------------------------------------------------------------ */

JsSymbolizer *
js_symbolizer_new (JsModules *modules, gboolean allow_debuginfod)
{
  JsSymbolizer *s = g_new0 (JsSymbolizer, 1);

  elf_version (EV_CURRENT);
  s->modules = modules;
  s->files = js_debug_files_new (NULL);
  s->debuginfo_path = g_strdup (js_debug_files_search_path (s->files));
  s->callbacks = (Dwfl_Callbacks){
    .find_elf = find_elf,
    .find_debuginfo = find_debuginfo,
    .section_address = dwfl_offline_section_address,
    /* Where libdwfl looks for dwz alt files (ROOT/.build-id/...). */
    .debuginfo_path = &s->debuginfo_path,
  };
  if (allow_debuginfod)
    s->debuginfod = js_debuginfod_new ();
  /* NULL on failure: every lookup then gives unnamed frames. */
  session_begin (s, &s->names);
  s->unwind_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  s->cache[0] = g_hash_table_new (g_direct_hash, g_direct_equal);
  s->cache[1] = g_hash_table_new (g_direct_hash, g_direct_equal);
  s->cache_frames = g_array_new (FALSE, FALSE, sizeof (JsFrame));
  s->strings = g_string_chunk_new (16384);
  s->demangled = g_hash_table_new (g_str_hash, g_str_equal);
  return s;
}

void
js_symbolizer_set_debug_dirs (JsSymbolizer *s, const char *const *dirs)
{
  if (s == NULL)
    return;
  js_debug_files_free (s->files);
  s->files = js_debug_files_new (dirs);
  /* libdwfl reads the path through the pointer it was given. */
  g_free (s->debuginfo_path);
  s->debuginfo_path = g_strdup (js_debug_files_search_path (s->files));
}

void
js_symbolizer_free (JsSymbolizer *s)
{
  if (s == NULL)
    return;
  session_end (&s->unwind);
  session_end (&s->names);
  g_clear_pointer (&s->unwind.refs, g_ptr_array_unref);
  g_clear_pointer (&s->names.refs, g_ptr_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (s->infos); i++)
    if (s->infos[i] != NULL)
      {
        g_free (s->infos[i]->symbols);
        g_free (s->infos[i]);
      }
  js_debuginfod_free (s->debuginfod);
  js_debug_files_free (s->files);
  g_free (s->debuginfo_path);
  g_array_unref (s->unwind_ids);
  g_hash_table_unref (s->cache[0]);
  g_hash_table_unref (s->cache[1]);
  g_array_unref (s->cache_frames);
  g_hash_table_unref (s->demangled);
  g_string_chunk_free (s->strings);
  g_free (s);
}

void
js_symbolizer_set_deadline (JsSymbolizer *s, gint64 deadline_ns)
{
  if (s == NULL)
    return;
  __atomic_store_n (&s->deadline_ns, deadline_ns, __ATOMIC_RELAXED);
  /* Nothing new will be waited for: a download under way gives up. */
  if (deadline_ns != 0)
    js_debuginfod_stop (s->debuginfod);
}

guint
js_symbolizer_generation (JsSymbolizer *s)
{
  return s != NULL ? js_debuginfod_completed (s->debuginfod) : 0;
}

void
js_symbolizer_get_stats (JsSymbolizer *s, JsSymbolizerStats *stats)
{
  if (stats == NULL)
    return;
  if (s == NULL)
    {
      memset (stats, 0, sizeof *stats);
      return;
    }
  *stats = s->stats;
  stats->debuginfod_on = s->debuginfod != NULL;
  js_debuginfod_get_stats (s->debuginfod, &stats->debuginfod);
}
